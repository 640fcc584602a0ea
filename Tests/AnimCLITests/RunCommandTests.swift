import AnimTestSupport
import Foundation
import Testing

/// `anim run FILE [--until D]` end to end, on the real clock: not on a terminal (a
/// time-stamped log), and on one (tmux: the live view, Ctrl-C, Ctrl-Z and `fg`). Times in
/// the log are exact engine times, so they are compared exactly; only wall-clock durations
/// get tolerances.
@Suite("anim run", .serialized)
struct RunCommandTests {
  /// A 300 ms tween in a timeline, a completion handler, an event of the script's own.
  static let intro = """
    target box { x: 0 }
    timeline intro {
      animate box.x to 100 over 300ms
    }
    on complete intro { emit "intro-done" }
    on "intro-done" { print "done at {now}, x {box.x}" }
    play intro
    """

  // MARK: - Not on a terminal

  @Test func aShortScriptLogsEachEventAndPrintStampedWithItsTime() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("intro.anim", Self.intro)
    let result = try CLI.run(["run", path], timeout: 10)
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(
      result.standardOutput.split(separator: "\n") == [
        "[0s] start intro",
        "[0s] start box.x",
        "[0.3s] complete intro",
        "[0.3s] complete box.x",
        "[0.3s] intro-done",
        "[0.3s] done at 0.3s, x 100",
      ])
    // On the real clock: it takes the script's 300 ms, and not much more.
    #expect(result.seconds >= 0.3)
    #expect(result.seconds < 5)
  }

  @Test func untilStopsEarlyAndIncludesWhatHappensAtThatTime() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "long.anim",
      """
      target box { x: 0 }
      animate box.x to 100 over 1s
      at 200ms print "at the edge"
      at 201ms print "too late"
      """)
    let result = try CLI.run(["run", path, "--until", "200ms"], timeout: 10)
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput.split(separator: "\n") == ["[0s] start box.x", "[0.2s] at the edge"])
    #expect(result.seconds >= 0.2)
    #expect(result.seconds < 5)
  }

  @Test func untilTakesTheLanguagesDurationsAndNothingElse() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("empty.anim", "target box { x: 0 }\n")
    for good in ["0.05s", "50ms", "1_0ms"] {
      let result = try CLI.run(["run", path, "--until", good], timeout: 10)
      #expect(result.status == 0, "\(good): \(result.standardError)")
    }
    for bad in ["2", "-1s", "1 s", "1.5sec", "s", "1s2"] {
      let result = try CLI.run(["run", path, "--until=\(bad)"], timeout: 10)
      #expect(result.status == 64, "\(bad)")
      #expect(result.standardError.contains("'--until' takes a duration such as 2s, 1.5s or 250ms"), "\(bad)")
    }
  }

  @Test func aRuntimeErrorIsReportedAndTheRunGoesOnThenExits65() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "zero.anim",
      """
      target b { x: 0 }
      let zero = 0
      animate b.x to 10 over 200ms
      on complete b.x {
        print "before"
        print "{1 / zero}"
        print "never"
      }
      at 400ms print "later"
      """)
    let result = try CLI.run(["run", path], timeout: 10)
    #expect(result.status == 65)
    #expect(
      result.standardOutput.split(separator: "\n") == [
        "[0s] start b.x", "[0.2s] complete b.x", "[0.2s] before", "[0.4s] later",
      ])
    #expect(
      result.standardError
        == "\(path):6:11: error: division by zero (at 0.2s)\n  print \"{1 / zero}\"\n          ^~~~~~~~\n")
    #expect(result.seconds >= 0.4)
  }

  @Test func aCheckErrorExits65WithoutRunning() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("typo.anim", "target b { x: 0 }\nprint \"ran\"\nanimate b.y to 1 over 1s\n")
    let result = try CLI.run(["run", path], timeout: 10)
    #expect(result.status == 65)
    #expect(result.standardOutput == "")
    #expect(result.standardError.hasPrefix("\(path):3:11: error: "))
  }

  @Test func aMissingFileExits66() throws {
    let result = try CLI.run(["run", "/nonexistent/script.anim"], timeout: 10)
    #expect(result.status == 66)
    #expect(result.standardOutput == "")
    #expect(result.standardError == "anim: error: cannot read '/nonexistent/script.anim': No such file or directory\n")
  }

  @Test func aPausedAnimationThatNothingResumesDoesNotKeepTheRunAlive() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "paused.anim",
      """
      target b { x: 0 }
      timeline t { animate b.x to 10 over 10s }
      play t
      at 100ms pause t
      at 200ms print "last"
      """)
    let result = try CLI.run(["run", path], timeout: 10)
    #expect(result.status == 0)
    #expect(result.standardOutput.split(separator: "\n").last == "[0.2s] last")
    #expect(result.seconds < 5)
  }

  @Test func everyExampleRunsCleanly() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)
      .filter { $0.hasSuffix(".anim") }.sorted()
    for name in names {
      let result = try CLI.run(
        ["run", examplesDirectory.appendingPathComponent(name).path, "--until", "100ms"], timeout: 10)
      #expect(result.status == 0, "\(name): \(result.standardError)")
      #expect(result.standardError == "", "\(name)")
    }
  }

  // MARK: - On a terminal

  /// A meter that rises to 100 and falls back to 25 (its bar ends a quarter full), and a
  /// card's number, vector and color, all done at 600 ms.
  static let liveScript = """
    target card { angle: 0, pos: (0, 0), tint: #000000 }
    target meter { level: 0 }
    timeline pulse {
      animate meter.level to 100 over 300ms
      animate meter.level to 25 over 300ms
    }
    play pulse
    animate card.angle to 180 over 600ms
    animate card.pos to (100, 40) over 600ms
    animate card.tint to #ff8800 over 600ms
    at 300ms print "peak {meter.level}"
    """

  @Test func onATerminalTheLiveViewIsRedrawnInPlaceAndTheTerminalRestored() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("live.anim", Self.liveScript)
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }

    // While it runs: the view, with the cursor hidden.
    let running = try tmux.waitForScreen { $0.contains { $0.hasPrefix("meter.level") } }
    #expect(running.contains { $0.hasPrefix("now") })
    let status = tmux.waitForExit()
    #expect(status == 0)

    let screen = try tmux.waitForScreen { $0.last == "$" }
    // The log above, in order; the last frame below it, once: it was redrawn in place.
    let log = screen.filter { $0.hasPrefix("[") }
    #expect(log.contains("[0.3s] peak 100"))
    #expect(log.contains("[0.6s] complete card.angle"))
    for name in ["now", "card.angle", "card.pos", "card.tint", "meter.level"] {
      #expect(screen.filter { $0.hasPrefix(name + " ") }.count == 1, "\(name): \(screen)")
    }
    let view = screen.drop { !$0.hasPrefix("now ") }.prefix(5)
    #expect(
      view.map { $0.split(separator: " ").first.map(String.init) ?? "" } == [
        "now", "card.angle", "card.pos", "card.tint", "meter.level",
      ])
    let lastLogLine = screen.lastIndex { $0.hasPrefix("[") } ?? 0
    let viewStart = screen.firstIndex { $0.hasPrefix("now ") } ?? 0
    #expect(lastLogLine < viewStart)

    let values = Dictionary(
      uniqueKeysWithValues: view.map { line in
        let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
        return (fields[0], fields.count > 1 ? fields[1].trimmingCharacters(in: .whitespaces) : "")
      })
    #expect(values["card.angle"]?.hasPrefix("180 ") == true)
    #expect(values["card.pos"] == "(100, 40)")
    #expect(values["card.tint"] == "#ff8800ff")
    // The meter's bar: 25 between the smallest (0) and largest (100) value it has had.
    let meter = try #require(values["meter.level"])
    #expect(meter.hasPrefix("25 "))
    let bar = try #require(meter.firstIndex(of: "[").map { meter[$0...] })
    #expect(bar.hasSuffix("]"))
    let cells = bar.dropFirst().dropLast()
    let filled = Double(cells.filter { $0 == "#" }.count)
    #expect(cells.allSatisfy { $0 == "#" || $0 == "-" })
    #expect(abs(filled / Double(cells.count) - 0.25) <= 1 / Double(cells.count))

    // The color's swatch, in the color itself (NO_COLOR is unset in the pane).
    let colored = try tmux.capture(escapes: true)
    #expect(colored.contains { $0.hasPrefix("card.tint") && $0.contains("48;2;255;136;0m") })

    // The cursor is back, and so is the echo of typed keys.
    #expect(try tmux.query("#{cursor_flag}") == "1")
    try expectEchoIsOn(tmux)
  }

  @Test func ctrlCOnATerminalRestoresItAndExits130() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "long.anim", "target b { x: 0 }\nanimate b.x to 100 over 30s\n")
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("b.x") } }
    #expect(try tmux.query("#{cursor_flag}") == "0")
    try tmux.press("C-c")
    #expect(tmux.waitForExit() == 130)
    let screen = try tmux.waitForScreen { $0.last == "$" }
    #expect(screen.filter { $0.hasPrefix("b.x ") }.count == 1)  // the last frame stays
    #expect(try tmux.query("#{cursor_flag}") == "1")
    try expectEchoIsOn(tmux)
  }

  /// SIGTERM (or SIGHUP, the terminal going away) ends the run by that signal once the
  /// terminal is restored: the shell sees 128 + 15.
  @Test func sigtermRestoresTheTerminalAndEndsByTheSignal() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("long.anim", "target b { x: 0 }\nanimate b.x to 100 over 30s\n")
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("b.x") } }
    #expect(try tmux.query("#{cursor_flag}") == "0")
    try signalProcesses(runningWith: path, SIGTERM)
    #expect(tmux.waitForExit() == 128 + SIGTERM)
    try tmux.waitForScreen { $0.last == "$" }
    #expect(try tmux.query("#{cursor_flag}") == "1")
    try expectEchoIsOn(tmux)
  }

  @Test func ctrlZThenFgGoesOnWhereItWasAndTheTimeAwayIsAPause() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "sweep.anim",
      """
      target card { angle: 0 }
      animate card.angle to 180 over 1.5s
      on complete card.angle { print "landed at {now}" }
      """)
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("now ") && !$0.hasSuffix(" 0.00s") } }
    try tmux.press("C-z")
    var screen = try tmux.waitForScreen { $0.contains { $0.contains("Stopped") } && $0.last == "$" }
    #expect(screen.contains { $0.contains("Stopped") })
    #expect(try tmux.query("#{cursor_flag}") == "1")  // the terminal given back while stopped

    // Shorter than the clock's 1 s gap threshold: only the handling of SIGCONT can make
    // this stop a pause.
    let away = 0.8
    Thread.sleep(forTimeInterval: away)
    try tmux.type("fg")
    try tmux.press("Enter")
    let resumed = Date()
    screen = try tmux.waitForScreen(timeout: 10) { $0.contains { $0.hasSuffix("landed at 1.5s") } }
    let afterFg = Date().timeIntervalSince(resumed)
    screen = try tmux.waitForScreen { $0.last == "$" }

    // The log says the clock skipped the time away, at the engine time it stopped.
    let gapLine = try #require(screen.first { $0.contains("(the clock skipped ") })
    let numbers = gapLine.split(whereSeparator: { !"0123456789.e-".contains($0) }).compactMap { Double($0) }
    #expect(numbers.count == 2, "\(gapLine)")
    let (stoppedAt, skipped) = (numbers.first ?? 0, numbers.last ?? 0)
    #expect(skipped >= away)
    #expect(stoppedAt > 0 && stoppedAt < 1.5)
    // The sweep completes at 1.5 s of engine time, after the rest of it played on the wall
    // clock: the time away was not counted as played.
    #expect(screen.contains("[1.5s] complete card.angle"))
    #expect(screen.contains("[1.5s] landed at 1.5s"))
    #expect(afterFg >= (1.5 - stoppedAt) - 0.1, "completed \(afterFg) s after fg, stopped at \(stoppedAt) s")
    let gapIndex = screen.firstIndex(of: gapLine) ?? 0
    let completeIndex = screen.firstIndex(of: "[1.5s] complete card.angle") ?? 0
    #expect(gapIndex < completeIndex)
    #expect(screen.contains { $0.hasPrefix("card.angle") && $0.contains(" 180 ") })
    #expect(try tmux.query("#{cursor_flag}") == "1")
  }
}

/// The terminal echoes typed keys again: `stty` says `echo`, not `-echo`.
func expectEchoIsOn(_ tmux: TmuxSession) throws {
  try tmux.type("stty -a | tr ' ' '\\n' | grep -x -e echo -e -echo | sed 's/^/mode: /'")
  try tmux.press("Enter")
  let screen = try tmux.waitForScreen { $0.contains { $0.hasPrefix("mode: ") } }
  #expect(screen.contains("mode: echo"))
}

extension TmuxSession {
  /// A tmux format expanded for the pane: `#{cursor_flag}` is 1 while the cursor shows.
  func query(_ format: String) throws -> String {
    try tmuxOutput(["display-message", "-p", "-t", "repl", format])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The visible screen; with `escapes`, with its colours as escape sequences.
  func capture(escapes: Bool) throws -> [String] {
    try tmuxOutput(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "repl"])
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  private func tmuxOutput(_ arguments: [String]) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    let output = stateHome.appendingPathComponent("query-output")
    let status = try spawnAndWait(
      ["tmux", "-L", socket, "-f", "/dev/null"] + arguments, environment: environment,
      standardOutput: output.path)
    guard status == 0 else { throw SpawnError(message: "tmux \(arguments[0]) exited with \(status)") }
    return try String(contentsOf: output, encoding: .utf8)
  }
}

/// Sends `signal` to the processes whose command line contains `marker` (a scratch file's
/// unique path), as `kill` from another terminal would.
func signalProcesses(runningWith marker: String, _ signal: Int32) throws {
  let pkill = Process()
  pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
  pkill.arguments = ["-\(signal)", "-f", "--", marker]
  try pkill.run()
  pkill.waitUntilExit()
  #expect(pkill.terminationStatus == 0, "no process runs with \(marker)")
}
