// The front end's figures: lex + parse + check of a generated 10 MB script that uses every
// form of the language, as `anim check` does it (`diagnose`).
//
// - front.check: MB/s (10^6 bytes per second), the best of a few runs. A run starts from the
//   script's bytes in memory and ends when the tree and the checker's results have been
//   freed again, as `anim check` does for each file.
// - front.memory: (peak memory checking the script - peak memory checking an empty file) /
//   the script's size. Each peak is the maximum resident set size of a child process (this
//   program, started again with a hidden argument) that reads the file and checks it, as
//   the child reports it (see peakResidentBytes), so nothing the parent allocated counts.
import AnimLanguage
import AnimTestSupport
import Foundation

let frontScriptBytes = 10_000_000
let frontMemoryChildArgument = "--front-memory-child"

func runFrontBenchmarks() {
  var generator = ScriptGenerator(seed: 2026)
  let bytes = Array(generator.script(bytes: frontScriptBytes).utf8)

  if wants("front.check") {
    var best = Duration.seconds(1_000_000)
    for _ in 0..<5 {
      let elapsed = ContinuousClock().measure {
        let diagnostics = checkScript(SourceText(name: "bench.anim", bytes: bytes))
        precondition(diagnostics.isEmpty, "the generated script does not check clean")
      }
      best = min(best, elapsed)
    }
    let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
    report("front.check", Double(bytes.count) / 1e6 / seconds, "MB/s")
  }

  if wants("front.memory") {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("anim-bench-\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("script.anim")
    let empty = directory.appendingPathComponent("empty.anim")
    try! Data(bytes).write(to: script)
    try! Data().write(to: empty)
    // The smallest of a few runs of each, against noise from the system.
    let scriptPeak = (0..<3).map { _ in peakMemoryOfChild(checking: script.path) }.min()!
    let emptyPeak = (0..<3).map { _ in peakMemoryOfChild(checking: empty.path) }.min()!
    report("front.memory", Double(scriptPeak - emptyPeak) / Double(bytes.count), "ratio")
  }
}

/// What `anim check` does with a file's text: lex, parse and check it.
func checkScript(_ source: SourceText) -> [Diagnostic] {
  diagnose(source)
}

/// In the child that front.memory starts (`anim-bench --front-memory-child FILE`): reads
/// FILE, checks it, prints its peak memory in bytes and returns the exit status (0 when the
/// file checks clean). Nil in any other process.
func runFrontMemoryChildIfAsked() -> Int32? {
  let arguments = CommandLine.arguments
  guard arguments.count == 3, arguments[1] == frontMemoryChildArgument else { return nil }
  guard let bytes = readWholeFile(arguments[2]) else { return 66 }
  let clean = checkScript(SourceText(name: arguments[2], bytes: bytes)).isEmpty
  guard clean, let peak = peakResidentBytes() else { return 65 }
  print(peak)
  return 0
}

/// A file's bytes, read into an array of exactly its size (no second copy).
func readWholeFile(_ path: String) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var status = stat()
  guard fstat(descriptor, &status) == 0 else { return nil }
  let size = Int(status.st_size)
  var failed = false
  let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    while count < size {
      let got = read(descriptor, buffer.baseAddress! + count, size - count)
      if got < 0 && errno == EINTR { continue }
      if got <= 0 {
        failed = got < 0
        break
      }
      count += got
    }
  }
  return failed ? nil : bytes
}

/// Runs this program as a front.memory child checking `path`, and returns the child's
/// peak resident set size in bytes, which the child reports itself.
func peakMemoryOfChild(checking path: String) -> Int {
  let child = Process()
  child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
  child.arguments = [frontMemoryChildArgument, path]
  let output = Pipe()
  child.standardOutput = output
  try! child.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  child.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  guard child.terminationReason == .exit, child.terminationStatus == 0, let peak = Int(text) else {
    fatalError("the front.memory child failed (status \(child.terminationStatus)) on \(path): \(text)")
  }
  return peak
}

/// This process's peak resident set size in bytes: `VmHWM` in /proc/self/status.
///
/// Not `ru_maxrss` (getrusage, or wait4 in the parent): Linux carries the high-water mark
/// of the memory a process had before `execve` over into it, and a spawned child starts as
/// a copy of its parent (vfork), so every child would report at least the parent's peak,
/// which here holds the generated script. `VmHWM` belongs to the child's own address space.
func peakResidentBytes() -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
    return kilobytes * 1024
  }
  return nil
}
