// front.run: how `anim trace FILE --until 0s` compares with `anim check FILE` on the release
// binary, for 10 MB scripts of the language's forms. That trace takes the path of any trace:
// every declaration built, every top-level statement due at time 0 run, the sample at 0
// written (issue 14).
//
// - front.run.FORM.time: wall time of the trace / wall time of the check, each the best of
//   five runs of the binary, the check's and the trace's alternated (this machine slows a
//   while at times: runs of one side in a row could all fall in such a while). Goal: at
//   most 1.5.
// - front.run.FORM.memory: the trace process's whole peak resident set size (nothing
//   subtracted) / the file's size, the smallest of five runs. Goal: at most 8.
// - front.run.time and front.run.memory: the largest over the forms.
// - front.repl.*: the same for `anim repl FILE` with an empty standard input, which loads the
//   file into a session as `:load` does and ends (issue 14: the REPL loads a file through the
//   trace's path). Printed for comparison, with no goal of its own.
//
// The forms: ScriptGenerator's mix of every statement (seed 2026), and scripts of one form
// each: `let`s, `target`s, `timeline`s, top-level `animate`s (spread over a thousand
// targets), and `at`-placed `animate`s (statements held for later).
//
// The binary is `ANIM` if set, else the main package's `.build/release/anim` (build it with
// `swift build -c release --product anim`); without it the figure is left out. The peak
// comes from `wait4` on the `anim` process, run by a small helper process (this program
// again, with a hidden argument) rather than by this one: Linux starts a spawned process's
// `ru_maxrss` at its spawner's peak, and this process holds the generated scripts.
import AnimLanguage
import AnimTestSupport
import Foundation

let frontRunHelperArgument = "--front-run-helper"

/// The forms front.run measures, each a 10 MB script.
private func frontRunScripts() -> [(form: String, text: String)] {
  let size = frontScriptBytes
  func lines(_ first: String = "", _ line: (Int) -> String) -> String {
    var text = first
    text.reserveCapacity(size + 200)
    var n = 0
    while text.utf8.count < size {
      text += line(n)
      n += 1
    }
    return text
  }
  var generator = ScriptGenerator(seed: 2026)
  let targets = (0..<1_000).map { "target t\($0) { x: 0, y: 0 }\n" }.joined()
  return [
    ("generated", generator.script(bytes: size)),
    ("lets", lines { "let value\($0) = \($0 % 97) * 2 + 0.5\n" }),
    ("targets", lines { "target box\($0) { x: \($0 % 50), y: 0, opacity: 1 }\n" }),
    (
      "timelines",
      lines("target card { x: 0, y: 0 }\n") {
        "timeline slide\($0) {\n  animate card.x to \($0 % 300) over 1s with easeIn\n"
          + "  at 500ms animate card.y to 40 over 250ms\n}\n"
      }
    ),
    (
      "animates",
      lines(targets) { "animate t\($0 % 1_000).x to \($0 % 300) over 1s with easeInOut delay \($0 % 7)00ms\n" }
    ),
    ("placed", lines(targets) { "at \($0 % 5_000)ms animate t\($0 % 1_000).y to 1 over 250ms\n" }),
  ]
}

func runFrontRunBenchmarks() {
  runFrontForms(named: "front.run") { path in ["trace", path, "--until", "0s"] }
}

/// front.repl: the same for `anim repl FILE` with nothing on its standard input, which loads
/// the file into a session (checked, then run as `:load` runs it) and ends: the REPL's load
/// against `anim check FILE`, as front.run's trace. Printed for comparison; no goal of its own.
func runFrontReplBenchmarks() {
  runFrontForms(named: "front.repl") { path in ["repl", path] }
}

/// For each form: `NAME.FORM.time` (best of five wall times of `anim ARGUMENTS(FILE)` over
/// the best of five of `anim check FILE`, the two alternated) and `NAME.FORM.memory` (the
/// smallest of five peaks over the file's size), then the largest of each over the forms.
private func runFrontForms(named name: String, _ arguments: (String) -> [String]) {
  let anim =
    ProcessInfo.processInfo.environment["ANIM"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/release/anim").path
  guard FileManager.default.isExecutableFile(atPath: anim) else {
    FileHandle.standardError.write(
      Data("\(name): no anim binary at \(anim) (swift build -c release --product anim, or set ANIM)\n".utf8))
    return
  }
  // ANIM_FRONT_SCRIPTS=DIR keeps the scripts there, to profile or time one form by hand.
  let kept = ProcessInfo.processInfo.environment["ANIM_FRONT_SCRIPTS"]
  let directory =
    kept.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("anim-bench-run-\(getpid())")
  try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { if kept == nil { try? FileManager.default.removeItem(at: directory) } }
  var worstTime = 0.0
  var worstMemory = 0.0
  for (form, text) in frontRunScripts() {
    let path = directory.appendingPathComponent("\(form).anim").path
    let bytes = Array(text.utf8)
    try! Data(bytes).write(to: URL(fileURLWithPath: path))
    var checks: [(seconds: Double, peakBytes: Int)] = []
    var runs: [(seconds: Double, peakBytes: Int)] = []
    for _ in 0..<5 {
      checks.append(measureAnim(anim, ["check", path]))
      runs.append(measureAnim(anim, arguments(path)))
    }
    let time = runs.map(\.seconds).min()! / checks.map(\.seconds).min()!
    let memory = Double(runs.map(\.peakBytes).min()!) / Double(bytes.count)
    report("\(name).\(form).time", time, "ratio")
    report("\(name).\(form).memory", memory, "ratio")
    worstTime = max(worstTime, time)
    worstMemory = max(worstMemory, memory)
  }
  report("\(name).time", worstTime, "ratio")
  report("\(name).memory", worstMemory, "ratio")
}

/// One run of `anim ARGUMENTS` (its output thrown away), through the helper: its wall time
/// and peak resident set size.
private func measureAnim(_ anim: String, _ arguments: [String]) -> (seconds: Double, peakBytes: Int) {
  let helper = Process()
  helper.executableURL = URL(fileURLWithPath: "/proc/self/exe")
  helper.arguments = [frontRunHelperArgument, anim] + arguments
  let output = Pipe()
  helper.standardOutput = output
  try! helper.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  helper.waitUntilExit()
  let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
  guard helper.terminationStatus == 0, fields.count == 2, let seconds = Double(fields[0]),
    let peak = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
  else { fatalError("front.run: anim \(arguments.joined(separator: " ")) failed: \(fields)") }
  return (seconds, peak)
}

/// In the helper (`anim-bench --front-run-helper ANIM ARGUMENTS...`): runs ANIM with its
/// input from and its output to /dev/null, waits for it, and prints its wall time in seconds and its peak
/// resident set size in bytes (`wait4`'s `ru_maxrss`, in KiB on Linux); exits 1 when it
/// fails. Nil in any other process.
func runFrontRunHelperIfAsked() -> Int32? {
  let arguments = CommandLine.arguments
  guard arguments.count >= 3, arguments[1] == frontRunHelperArgument else { return nil }
  let command = Array(arguments[2...])
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  // (An empty standard input: `anim repl FILE` loads the file and ends.)
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var argv = command.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let start = ContinuousClock.now
  var pid = pid_t()
  guard posix_spawn(&pid, command[0], &actions, nil, &argv, environ) == 0 else { return 1 }
  var status: Int32 = 0
  var usage = rusage()
  guard wait4(pid, &status, 0, &usage) == pid else { return 1 }
  let elapsed = ContinuousClock.now - start
  // Exit statuses: 0 (and 65 never: the scripts check clean).
  guard status == 0 else { return 1 }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  print("\(seconds) \(usage.ru_maxrss * 1024)")
  return 0
}
