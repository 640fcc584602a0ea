import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation

// anim-fuzz-restore: libFuzzer over restoring saved sessions. Each input is read as a
// session file: a file that is refused must be refused with one sentence; a file that is
// accepted must then run (advanced through a few seconds, its status and every value read),
// save again, and that save must restore. Nothing may trap, hang or grow without bound.
//
// fuzz/run-restore.sh SECONDS builds it with `-sanitize=fuzzer,address -DFUZZING` and runs it
// on fuzz/restore-corpus (saved sessions of every example at several instants). Without
// FUZZING (a plain `swift build`) it replays files named on the command line; `--mutate
// FILE...` runs every systematic corruption of each file (each number, string, boolean and
// list in the JSON replaced by values out of their domain: -1, 99, 1e308, Int64.max, ...);
// `--write-seeds EXAMPLES_DIR OUT_DIR` writes the seed corpus.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if FUZZING
  import CLibFuzzer
#endif

/// How far an accepted session is run: a few steps past its saved instant.
let steps: [Nanoseconds] = [0, 1, 1_000_000, 16_666_667, 250_000_000, 1_000_000_000, 3_000_000_000]

/// One input through restore; traps on any broken promise.
func exercise(_ data: Data) {
  let restored: (Runtime, Environment)
  do {
    restored = try Runtime.restored(from: data)
  } catch {
    let sentence = error.description
    if sentence.contains("\n") || sentence.contains("DecodingError") || sentence.contains("NSCocoaErrorDomain")
      || sentence.contains("codingPath") || sentence.isEmpty || sentence.count > 400
    {
      fatalError("a refusal that is not one plain sentence: \(sentence)")
    }
    return
  }
  let runtime = restored.0
  let start = runtime.engine.now
  for step in steps {
    let time = saturatingSum(start, step)
    guard time < AnimationEngine.endOfTime else { break }
    _ = runtime.advance(to: time)
  }
  _ = runtime.statusLines()
  for name in runtime.propertyNames { _ = runtime.value(of: name) }
  let saved: Data
  do {
    saved = try runtime.sessionData()
  } catch {
    fatalError("an accepted session that ran cannot be saved: \(error)")
  }
  do {
    _ = try Runtime.restored(from: saved)
  } catch {
    fatalError("a session saved after running does not restore: \(error)")
  }
}

/// Writes `text` to standard error (through the descriptor: Swift 6 rejects C's `stderr`).
func printError(_ text: String) {
  var text = text
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
  /// libFuzzer's entry point (see anim-fuzz: the driver is started from main below).
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exercise(size == 0 ? Data() : Data(bytes: data!, count: size))
    return 0
  }

  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
      fuzzerTestOneInput(data, size)
    })
#else
  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "--write-seeds" where arguments.count == 3:
    exit(SeedWriter.write(examples: arguments[1], to: arguments[2]))
  case "--mutate" where arguments.count > 1:
    var status: Int32 = 0
    for path in arguments.dropFirst() {
      guard let data = FileManager.default.contents(atPath: path) else {
        printError("anim-fuzz-restore: cannot read '\(path)'\n")
        status = 66
        continue
      }
      guard let variants = Mutations.variants(of: data) else {
        printError("anim-fuzz-restore: '\(path)' is not JSON\n")
        status = 65
        continue
      }
      var accepted = 0
      for variant in variants {
        // Named first, so that a crash shows which corruption it was.
        let verbose = ProcessInfo.processInfo.environment["ANIM_FUZZ_VERBOSE"] != nil
        if verbose { printError("\(variant.name)\n") }
        exercise(variant.data)
        do {
          _ = try Runtime.restored(from: variant.data)
          accepted += 1
        } catch {
          if verbose { printError("  refused: \(error.description)\n") }
        }
      }
      print("\(path): \(variants.count) variants, \(variants.count - accepted) refused, \(accepted) accepted and ran")
    }
    exit(status)
  case nil, "--help", "-h":
    printError(
      """
      usage: anim-fuzz-restore FILE...                       replay inputs through the fuzz body
             anim-fuzz-restore --mutate FILE...              every systematic corruption of each file
             anim-fuzz-restore --write-seeds EXAMPLES OUT    write the seed corpus
      (fuzz/run-restore.sh SECONDS builds the fuzzing variant and runs it)

      """)
    exit(64)
  default:
    var status: Int32 = 0
    for path in arguments {
      guard let data = FileManager.default.contents(atPath: path) else {
        printError("anim-fuzz-restore: cannot read '\(path)'\n")
        status = 66
        continue
      }
      exercise(data)
      print("\(path): ok")
    }
    exit(status)
  }
#endif
