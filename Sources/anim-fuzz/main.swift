import AnimLanguage
import AnimTestSupport

// anim-fuzz: libFuzzer over the front end. Each input goes through the lexer, the parser
// and the checker (in script and in session mode, and statement by statement as `anim check`
// does, which must agree with the whole-file check), its diagnostics are rendered, and when
// it parses cleanly the formatter's promise is checked: the formatted text parses to the
// same tree with the same comments, and formatting it again changes nothing.
//
// fuzz/run.sh SECONDS builds it with `-sanitize=fuzzer,address -DFUZZING` and runs it.
// Without FUZZING (a plain `swift build`) it runs each file named on the command line
// through the same body, so a crash file the fuzzer wrote can be replayed:
// `swift run anim-fuzz fuzz-artifacts/crash-...`; `--write-seeds DIR` writes the generated
// part of the seed corpus (fuzz/corpus/generated-*.anim).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if FUZZING
  import CLibFuzzer
#endif

/// One input through the whole front end; traps on any broken promise.
func exercise(_ bytes: [UInt8]) {
  let source = SourceText(name: "fuzz.anim", bytes: bytes)
  var environment = Environment()
  let result = parseAndCheck(source, in: &environment, mode: .script)
  _ = DiagnosticRenderer(source: source).render(Array(result.diagnostics.prefix(50)))
  // `anim check` reads a script statement by statement: it must find exactly the same.
  if diagnose(source) != result.diagnostics {
    fatalError("diagnose and parseAndCheck disagree")
  }
  guard !result.parse.hasErrors else { return }

  var session = Environment()
  _ = check(result.parse.file, in: &session, mode: .session)

  let once = format(result.parse.file, source: source)
  let onceSource = SourceText(name: "fuzz.anim", contents: once)
  let reparsed = parse(onceSource)
  if reparsed.hasErrors {
    fatalError("the formatted text has syntax errors:\n\(once)")
  }
  if SyntaxDump.dump(reparsed.file) != SyntaxDump.dump(result.parse.file) {
    fatalError("formatting changed the tree:\n\(once)")
  }
  if reparsed.file.comments.map(\.comparableText) != result.parse.file.comments.map(\.comparableText) {
    fatalError("formatting changed the comments:\n\(once)")
  }
  let twice = format(reparsed.file, source: onceSource)
  if twice != once {
    fatalError("formatting is not idempotent:\n--- once\n\(once)--- twice\n\(twice)")
  }
}

#if FUZZING
  /// libFuzzer's entry point. The runtime library's own `main` refers to it, so it must be
  /// defined for the link to succeed, even though the main below starts the driver itself.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exercise(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }

  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
      fuzzerTestOneInput(data, size)
    })
#else
  /// Writes `text` to standard error (through the descriptor: Swift 6 rejects C's `stderr`).
  func printError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }

  /// Replays files: reads each named file, runs it through `exercise`, and says so.
  func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return ferror(file) == 0 ? bytes : nil
  }

  /// Writes the generated part of the seed corpus: small scripts of every form, some in
  /// messy layout, some in canonical layout.
  func writeSeeds(to directory: String) -> Int32 {
    for seed in 1...8 as ClosedRange<UInt64> {
      var generator = ScriptGenerator(seed: seed, messyLayout: seed % 2 == 1)
      let text = generator.script(statements: 12)
      let path = "\(directory)/generated-\(seed).anim"
      guard let file = fopen(path, "wb") else {
        printError("anim-fuzz: cannot write '\(path)'\n")
        return 66
      }
      fputs(text, file)
      fclose(file)
    }
    return 0
  }

  let arguments = Array(CommandLine.arguments.dropFirst())
  if arguments.count == 2 && arguments[0] == "--write-seeds" {
    exit(writeSeeds(to: arguments[1]))
  }
  let paths = arguments
  if paths.isEmpty || paths[0].hasPrefix("-") {
    printError(
      """
      usage: anim-fuzz FILE...                replay inputs through the fuzz body
             anim-fuzz --write-seeds DIR      write the generated seed scripts
      (fuzz/run.sh SECONDS builds the fuzzing variant and runs it)

      """)
    exit(64)
  }
  var status: Int32 = 0
  for path in paths {
    guard let bytes = readFile(path) else {
      printError("anim-fuzz: cannot read '\(path)'\n")
      status = 66
      continue
    }
    exercise(bytes)
    print("\(path): ok")
  }
  exit(status)
#endif
