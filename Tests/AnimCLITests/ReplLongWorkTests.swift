import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 13, item 3: work that would never end (a `:tick` of a year over a timeline that
/// replays itself every millisecond) streams its output in bounded memory, and stops: on
/// Ctrl-C back to the prompt, on SIGTERM, SIGHUP or a closed terminal by ending the process
/// within a second.

/// A session that is busy for ever once ticked: `t` replays itself every millisecond (two
/// events each time), and `a.z` reads the clock's seconds (1,000,000 over 1,000,000 s, linear).
let endlessWork = """
  target a { z: 0 }
  timeline t { wait 1ms }
  on complete t { play t }
  animate a.z to 1000000 over 1000000s
  play t
  """

/// A script large enough that checking it takes a while (about 6 MB: 150,000 statements),
/// declaring target `big`.
func largeScript() -> String {
  var text = "target big { x: 0 }\n"
  text.reserveCapacity(6_500_000)
  for i in 0..<150_000 { text += "at \(i)ms animate big.x to \(i) over 1s\n" }
  return text
}

/// Whether process `pid` has ended (gone, or a zombie its parent has not collected yet).
func hasEnded(_ pid: pid_t) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return true }
  // The state is the field after the command name's closing parenthesis.
  let state = stat[close...].dropFirst(2).first
  return state == "Z" || state == "X"
}

/// Polls until `pid` has ended or `timeout` seconds pass; whether it ended.
func waitUntilEnded(_ pid: pid_t, timeout: Double) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !hasEnded(pid) && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
  return hasEnded(pid)
}

/// The resident memory of `pid` in bytes (VmRSS), nil once it has gone.
func residentBytes(of pid: pid_t) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  else { return nil }
  return kilobytes * 1024
}

/// A piped `anim repl --clock virtual` started on `input`, its output going to files.
final class PipedSession {
  let scratch: ScratchDirectory
  let pid: pid_t
  let output: String
  let errors: String
  /// How it ended, once collected.
  private(set) var status: Int32?

  /// - Parameter ignoringInterrupt: start it with SIGINT ignored, as a shell starts a
  ///   background job (`anim repl < script &`).
  init(input: String, ignoringInterrupt: Bool = false) throws {
    scratch = try ScratchDirectory(prefix: "anim-cli")
    let inputPath = try scratch.file("in", input)
    output = scratch.directory.appendingPathComponent("out").path
    errors = scratch.directory.appendingPathComponent("err").path
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["XDG_STATE_HOME"] = scratch.directory.path
    let command = [try animExecutable(), "repl", "--clock", "virtual"]
    pid = try spawn(
      ignoringInterrupt ? ["/bin/sh", "-c", "trap '' INT; exec \"$@\"", "sh"] + command : command,
      environment: environment,
      standardInput: inputPath, standardOutput: output, standardError: errors)
  }

  /// The size of standard output so far.
  var outputSize: Int {
    ((try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int) ?? 0
  }

  /// Waits up to `timeout` seconds for it to end; how it ended, or nil while it runs.
  func waitForExit(timeout: Double) -> Int32? {
    if status == nil { status = AnimCLITests.waitForExit(of: pid, timeout: timeout) }
    return status
  }

  /// Ends the process if it still runs (by its id: it is ours until collected), collects
  /// it, and removes its files.
  func end() {
    if waitForExit(timeout: 0) == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(timeout: 5)
    }
    scratch.remove()
  }
}

extension ReplPipedTests {
  /// SIGTERM, SIGINT or SIGHUP during a `:tick` that would never end stops it and ends the
  /// process by that signal within a second; nothing after the tick is read.
  /// (SIGINT also when the session was started with it ignored, as a background job is: it
  /// used to tick on for ever.)
  @Test(arguments: [(SIGTERM, false), (SIGINT, false), (SIGHUP, false), (SIGINT, true)])
  func aSignalEndsALongPipedTickWithinASecond(signal: Int32, ignoredAtStart: Bool) throws {
    let session = try PipedSession(
      input: endlessWork + "\n:tick 31536000s\n:clock\n", ignoringInterrupt: ignoredAtStart)
    defer { session.end() }
    // Ticking: the events stream out.
    let deadline = Date().addingTimeInterval(20)
    while session.outputSize < 10_000 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    #expect(session.outputSize >= 10_000)
    kill(session.pid, signal)
    let status = session.waitForExit(timeout: 1)
    #expect(status == 128 + signal)
    let output = try String(contentsOfFile: session.output, encoding: .utf8)
    #expect(!output.contains("virtual clock at"))
  }

  /// A reader that goes away (`| head -c 100`) ends a piped session in the middle of a
  /// `:tick` that would never end, by SIGPIPE as `run` and `trace` end; it used to compute on
  /// for nobody. (`timeout` ends it after 10 s if it does not end: the test never leaves a
  /// process behind.)
  @Test func aClosedOutputEndsALongPipedTick() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let input = try scratch.file("in", endlessWork + "\n:tick 31536000s\n")
    let result = try scratch.file("status", "")
    let pid = try spawn(
      [
        "/bin/bash", "-c",
        "set -o pipefail; timeout -s KILL 10 \"$0\" repl --clock virtual < \"$1\" | head -c 100 > /dev/null; echo $? > \"$2\"",
        try animExecutable(), input, result,
      ],
      environment: ["NO_COLOR": "1", "XDG_STATE_HOME": scratch.directory.path, "PATH": "/usr/bin:/bin"],
      standardInput: "/dev/null", standardOutput: "/dev/null", standardError: "/dev/null")
    let status = waitForExit(of: pid, timeout: 10)
    if status == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
    }
    #expect(status == 0)
    #expect(try scratch.contents(result).trimmingCharacters(in: .whitespacesAndNewlines) == "\(128 + SIGPIPE)")
  }

  /// A signal that ends the process ends it within a second even during work that cannot
  /// stop between instants (checking a large file): after a grace for ending cleanly, the
  /// process ends by that signal.
  @Test func aSignalEndsAPipedSessionWithinASecondWhileALargeFileIsChecked() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("large.anim", largeScript())
    let session = try PipedSession(input: ":load \(path)\n" + endlessWork + "\n:tick 31536000s\n")
    defer { session.end() }
    Thread.sleep(forTimeInterval: 0.3)
    kill(session.pid, SIGTERM)
    #expect(session.waitForExit(timeout: 1) == 143)
  }

  /// During a `:tick` that would never end, memory stays bounded (under 300 MB) and the
  /// output is written as it comes, not gathered until the tick ends.
  @Test func aLongTickStreamsItsOutputInBoundedMemory() throws {
    let session = try PipedSession(input: endlessWork + "\n:tick 31536000s\n:clock\n")
    defer { session.end() }
    // (The measurement starts once the session has written something: in a busy test run the
    // process may take longer than the first 0.1 s to start.)
    for _ in 0..<100 where session.outputSize == 0 { Thread.sleep(forTimeInterval: 0.1) }
    var largest = 0
    var sizes: [Int] = []
    for _ in 0..<40 {
      Thread.sleep(forTimeInterval: 0.1)
      guard let bytes = residentBytes(of: session.pid) else { break }
      largest = max(largest, bytes)
      sizes.append(session.outputSize)
    }
    #expect(session.waitForExit(timeout: 0) == nil)  // still ticking: measured during the tick
    #expect(largest > 0 && largest < 300 * 1024 * 1024, "\(largest) bytes resident")
    // Written as it goes: the output grew all along (in the last second as in the first).
    #expect(sizes.count == 40)
    #expect(sizes.first.map { $0 > 0 } == true)
    #expect(sizes[39] > sizes[29] && sizes[29] > sizes[19] && sizes[19] > sizes[9])
    kill(session.pid, SIGTERM)
    #expect(session.waitForExit(timeout: 1) == 143)
  }
}

extension TmuxSession {
  /// The process id of `anim` in the pane: the one child of the pane's shell.
  func animProcessID() throws -> pid_t {
    let shell = try query("#{pane_pid}")
    let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    guard let child = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
      throw SpawnError(message: "the pane's shell \(shell) has no child")
    }
    return child
  }

  /// Types each line and Enter.
  func enter(_ lines: [String]) throws {
    for line in lines {
      try type(line)
      try press("Enter")
    }
  }

  /// A session ticking for ever: `:tick 1000000s` typed over `endlessWork`, events off so
  /// that nothing shows while it works.
  func startEndlessTick() throws {
    try waitForScreen { $0.last == "anim>" }
    try enter([":precision full", ":events off"] + endlessWork.split(separator: "\n").map(String.init))
    try waitForScreen { $0.last == "anim>" && $0.contains("anim> play t") }
    try enter([":tick 1000000s"])
    try waitForScreen { $0.last == "anim> :tick 1000000s" }
    Thread.sleep(forTimeInterval: 0.5)
  }
}

extension ReplTerminalTests {
  /// Ctrl-C stops a `:tick` that would never end, says where the clock stopped, and the
  /// session goes on from there: `:clock` and `a.z` (the clock's seconds) agree with it,
  /// and a later `:tick` moves on from it.
  @Test func ctrlCStopsALongTickWhereItGot() throws {
    let tmux = try TmuxSession(arguments: "repl --clock virtual")
    defer { tmux.close() }
    try tmux.startEndlessTick()
    #expect(try tmux.screen().last == "anim> :tick 1000000s")  // still working
    try tmux.press("C-c")
    var screen = try tmux.waitForScreen { $0.last == "anim>" }
    let prefix = ":tick interrupted: the clock stopped at "
    let line = try #require(screen.first { $0.hasPrefix(prefix) })
    let stopped = try #require(Double(line.dropFirst(prefix.count).prefix { $0 != "s" }))
    #expect(stopped > 0 && stopped < 1_000_000)
    #expect(line.hasSuffix("short of 1000000s"))
    // The Ctrl-C stopped the tick, and dropped no line (readline's `anim> ^C`): the message
    // follows the terminal's echo of it, on a line of its own.
    #expect(!screen.contains("anim> ^C"))
    #expect(screen.firstIndex(of: line).map { $0 > 0 ? screen[$0 - 1] : "" } == "^C")

    try tmux.enter([":clock", "a.z"])
    screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("a.z = ") } && $0.last == "anim>" }
    #expect(
      screen.contains("virtual clock at \(line.dropFirst(prefix.count).prefix { $0 != "," }) (moves only on :tick)"))
    let z = try #require(screen.last { $0.hasPrefix("a.z = ") }.flatMap { Double($0.dropFirst(6)) })
    #expect(abs(z - stopped) < 1e-6, "a.z = \(z) at \(stopped) s")

    // It goes on from there.
    try tmux.enter([":events on", "cancel t", ":tick 500ms", ":clock"])
    screen = try tmux.waitForScreen { $0.filter { $0.hasPrefix("virtual clock at") }.count == 2 && $0.last == "anim>" }
    let later = try #require(screen.last { $0.hasPrefix("virtual clock at") })
    let seconds = try #require(Double(later.dropFirst("virtual clock at ".count).prefix { $0 != "s" }))
    #expect(abs(seconds - (stopped + 0.5)) < 1e-9)
  }

  /// Ctrl-C while `:load` checks a large file stops it before anything runs: nothing of
  /// it is declared, and the session goes on.
  @Test func ctrlCStopsALoadBeforeItRuns() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("large.anim", largeScript())
    let tmux = try TmuxSession()
    defer { tmux.close() }
    try tmux.waitForScreen { $0.last == "anim>" }
    try tmux.enter([":load \(path)"])
    try tmux.waitForScreen { $0.last?.hasPrefix("anim> :load") == true }
    Thread.sleep(forTimeInterval: 0.2)
    try tmux.press("C-c")
    var screen = try tmux.waitForScreen(timeout: 60) { $0.last == "anim>" }
    // (The message wraps at the pane's 100 columns.)
    #expect(
      screen.joined().contains("':load' interrupted: nothing from '\(path)' was loaded; the session is unchanged"))
    try tmux.enter(["big.x"])
    screen = try tmux.waitForScreen { $0.contains { $0.contains("unknown") } && $0.last == "anim>" }
    #expect(screen.contains { $0.contains("error: unknown target 'big'") })
  }

  /// SIGTERM or SIGHUP during a `:tick` that would never end ends the session by that signal
  /// within a second, the terminal restored and the history saved.
  @Test(arguments: [SIGTERM, SIGHUP])
  func aSignalEndsALongTickOnATerminalWithinASecond(signal: Int32) throws {
    // (From an interactive shell, which stays to show the terminal afterwards.)
    let tmux = try TmuxSession(arguments: "repl --clock virtual", underJobControl: true)
    defer { tmux.close() }
    try tmux.startEndlessTick()
    let pid = try tmux.animProcessID()
    defer { if !hasEnded(pid) { kill(pid, SIGKILL) } }
    kill(pid, signal)
    #expect(waitUntilEnded(pid, timeout: 1))
    #expect(tmux.waitForExit() == 128 + signal)
    try tmux.waitForScreen { $0.last == "$" }
    #expect(try tmux.query("#{cursor_flag}") == "1")
    let history = try String(contentsOf: tmux.stateHome.appendingPathComponent("anim/history"), encoding: .utf8)
    #expect(history.contains(":tick 1000000s"))
  }

  /// Closing the terminal (the pane killed) during a `:tick` that would never end leaves no
  /// process behind: it has ended within a second.
  @Test func closingThePaneDuringALongTickLeavesNoProcess() throws {
    let tmux = try TmuxSession(arguments: "repl --clock virtual")
    defer { tmux.close() }
    try tmux.startEndlessTick()
    let pid = try tmux.animProcessID()
    defer { if !hasEnded(pid) { kill(pid, SIGKILL) } }
    try tmux.killPane()
    #expect(waitUntilEnded(pid, timeout: 1))
  }
}

extension TmuxSession {
  /// Closes the pane, as closing a terminal window does (its processes get SIGHUP).
  func killPane() throws {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    let status = try spawnAndWait(
      ["tmux", "-L", socket, "-f", "/dev/null", "kill-pane", "-t", "repl"], environment: environment)
    guard status == 0 else { throw SpawnError(message: "tmux kill-pane exited with \(status)") }
  }
}
