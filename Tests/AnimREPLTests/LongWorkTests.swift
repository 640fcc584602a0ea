import AnimCore
import Foundation
import Testing

@testable import AnimREPL

/// Issue 13, item 3, at the session: long work stops where the front end asks, and the
/// session stands where it stopped; and the `:watch` status area.
@Suite("Session: long work and the status area")
struct LongWorkTests {
  /// Busy for ever once ticked: `t` replays itself every millisecond; `a.z` reads the clock's
  /// seconds (1,000,000 over 1,000,000 s, linear).
  static let endless = [
    "target a { z: 0 }", "timeline t { wait 1ms }", "on complete t { play t }",
    "animate a.z to 1000000 over 1000000s", "play t",
  ]

  @Test func ctrlCStopsATickWhereItGotAndTheClockStandsThere() throws {
    let transcript = Transcript()
    for entry in Self.endless { transcript.type(entry) }
    var asked = 0
    // Ctrl-C "pressed" after 2,500 instants (2.5 s of engine time at 1 ms each).
    transcript.session.stopRequest = {
      asked += 1
      return asked > 2_500 ? .interrupt : nil
    }
    transcript.clear()
    transcript.type(":tick 1000000s")
    #expect(transcript.session.entryWasInterrupted)
    let prefix = ":tick interrupted: the clock stopped at "
    let line = try #require(transcript.standardOutput.split(separator: "\n").last { $0.hasPrefix(prefix) })
    let stopped = try #require(Double(line.dropFirst(prefix.count).prefix { $0 != "s" }))
    #expect(abs(stopped - 2.5) < 0.01)
    #expect(transcript.session.now == Nanoseconds((stopped * 1e9).rounded()))

    transcript.session.stopRequest = { nil }
    transcript.clear()
    transcript.type(":clock", "a.z")
    #expect(
      transcript.standardOutput.hasPrefix("virtual clock at \(line.dropFirst(prefix.count).prefix { $0 != "," }) "))
    let z = try #require(
      transcript.standardOutput.split(separator: "\n").last.flatMap { Double($0.dropFirst("a.z = ".count)) })
    #expect(abs(z - stopped) < 1e-6)  // linear: the clock's seconds
    transcript.type("cancel t", ":tick 500ms", ":clock")
    #expect(
      transcript.standardOutput.hasSuffix(
        "virtual clock at \(TraceSeconds.text(stopped + 0.5))s (moves only on :tick)\n"))
  }

  /// A signal that ends the process stops the tick too, quietly.
  @Test func aTerminatingSignalStopsATickQuietly() {
    let transcript = Transcript()
    for entry in Self.endless { transcript.type(entry) }
    var asked = 0
    transcript.session.stopRequest = {
      asked += 1
      return asked > 100 ? .terminate : nil
    }
    transcript.clear()
    transcript.type(":tick 1000000s")
    #expect(!transcript.standardOutput.contains("interrupted"))
    #expect(transcript.session.now < 1_000_000_000_000_000)
    #expect(!transcript.session.entryWasInterrupted)
  }

  /// Ctrl-C while `:load` checks: nothing of the file is declared or run.
  @Test func ctrlCStopsALoadBeforeAnythingRuns() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anim-repl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.anim").path
    try "target big { x: 0 }\nprint \"ran\"\n".write(toFile: path, atomically: true, encoding: .utf8)
    let transcript = Transcript()
    transcript.session.stopRequest = { .interrupt }
    #expect(transcript.session.load(path: path) == .hadErrors)
    #expect(
      transcript.standardOutput == "':load' interrupted: nothing from '\(path)' was loaded; the session is unchanged\n")
    #expect(transcript.session.properties(ofTarget: "big") == nil)
    transcript.session.stopRequest = { nil }
    #expect(transcript.session.load(path: path) == .loaded)
    #expect(transcript.session.properties(ofTarget: "big") == ["x"])
  }

  /// On the real clock a pass catches up for at most about `catchUpBudget`; the time it
  /// could not play counts as a pause.
  @Test func catchingUpWithTheRealClockHoldsAPassBriefly() {
    let transcript = Transcript(clock: .real)
    // A replay every microsecond: far more than a debug build plays in real time.
    for entry in [
      "target a { z: 0 }", "timeline t { wait 0.000001s }", "on complete t { play t }", ":events off", "play t",
    ] {
      transcript.type(entry)
    }
    Thread.sleep(forTimeInterval: 0.3)
    let start = MonotonicClock.systemMonotonicTime()
    transcript.session.tick()
    let took = MonotonicClock.systemMonotonicTime() - start
    #expect(took < 3 * Session.catchUpBudget, "\(took) ns")
    transcript.clear()
    transcript.type(":clock")
    #expect(transcript.standardOutput.contains("left out as pauses"))
  }

  /// The status area gets the watched values (and not standard output); it empties when
  /// nothing is watched.
  @Test func theStatusAreaShowsTheWatchedValues() {
    let transcript = Transcript()
    var shown: [[String]] = []
    transcript.session.showStatus = { shown.append($0) }
    transcript.type("target b { x: 0 }", "animate b.x to 100 over 1s", ":watch b.x")
    #expect(shown.last == ["b.x = 0"])
    transcript.type(":tick 400ms")
    #expect(shown.last == ["b.x = 40"])  // linear: 100 · 0.4
    transcript.type(":unwatch")
    #expect(shown.last == [])
    #expect(!transcript.standardOutput.contains("b.x = "))
  }
}

/// Seconds as the session writes them (whole numbers without a fraction).
enum TraceSeconds {
  static func text(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int64(seconds)) : "\(seconds)"
  }
}
