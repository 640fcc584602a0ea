import AnimCore
import AnimRuntime
import Foundation
import Testing

@testable import AnimREPL

/// A page that sends a session what a test gives it and keeps what it is shown.
final class ScriptedStage: SessionStage {
  var entries: [StageEntry] = []
  var shownClock: SessionStageClock?
  var shownRevisions: [Int] = []

  func takeEntries() -> [StageEntry] {
    defer { entries = [] }
    return entries
  }

  func show(_ runtime: Runtime?, at now: Nanoseconds, clock: SessionStageClock, revision: Int) {
    shownClock = clock
    shownRevisions.append(revision)
  }
  func log(_ text: String, isError: Bool) {}
}

/// `anim repl --preview`'s transport: speed and step act on the session's clock, as
/// `anim preview`'s do on its session's.
@Suite("Session: the stage's speed and step")
struct StageClockTests {
  @Test func aStepHoldsTheSessionOnTheNextFrameUntilResume() {
    let transcript = Transcript()
    let stage = ScriptedStage()
    transcript.session.stage = stage
    transcript.type("target b { x: 0 }", "animate b.x to 60 over 1s", ":tick 10ms")
    stage.entries = [.step(1)]
    transcript.session.tick()
    // From 10 ms, the next frame of the 60 Hz grid: 1/60 s, b.x at 1 (60 × 1/60).
    #expect(transcript.session.now == frameTime(1, fps: 60))
    #expect(stage.shownClock == SessionStageClock(speed: 1, isHeld: true))
    #expect(transcript.standardOutput.contains("stage> step 1"))
    stage.entries = [.step(2)]
    transcript.session.tick()
    #expect(transcript.session.now == frameTime(3, fps: 60))
    transcript.clear()
    transcript.type("b.x")
    #expect(transcript.standardOutput == "b.x = 3\n")
    // Held: the clock does not move; a bare `resume` (the page's play) lets it go.
    transcript.type(":clock")
    #expect(transcript.standardOutput.contains("(held since a step on the stage until 'resume')"))
    transcript.type("resume", ":tick 100ms")
    #expect(!transcript.session.isHeld)
    #expect(transcript.session.now == frameTime(3, fps: 60) + 100_000_000)
  }

  /// A page skips a pass while the revision and the runtime's time stand: every entry and
  /// every act of the stage must move it, and a pass that only reads the clock must not.
  @Test func theRevisionCountsEntriesAndTheStagesActsAndNotThePasses() {
    let transcript = Transcript()
    let stage = ScriptedStage()
    transcript.session.stage = stage
    let start = transcript.session.revision
    transcript.type("target b { x: 0 }", "animate b.x to 60 over 1s", ":tick 10ms")
    transcript.session.tick()
    transcript.session.tick()
    #expect(stage.shownRevisions.suffix(2) == [start + 3, start + 3])
    // A statement from the page (an entry), a speed and a step (acts on the clock).
    stage.entries = [.input("b.x = 5"), .speed(2), .step(1)]
    transcript.session.tick()
    #expect(stage.shownRevisions.last == start + 6)
    transcript.session.tick()
    #expect(stage.shownRevisions.last == start + 6)
  }

  @Test func aStepBackAndTheVirtualClocksSpeedAreRefusedWithANote() {
    let transcript = Transcript()
    let stage = ScriptedStage()
    transcript.session.stage = stage
    transcript.type("target b { x: 0 }", "animate b.x to 60 over 1s", ":tick 100ms")
    stage.entries = [.step(-1), .speed(2)]
    transcript.session.tick()
    #expect(transcript.session.now == 100_000_000)
    #expect(transcript.standardError.contains("a step back needs a script to replay"))
    #expect(transcript.standardError.contains("the stage's speed acts on the real clock"))
    #expect(stage.shownClock == SessionStageClock(speed: 1, isHeld: false))
  }

  @Test func theRealClockPlaysAtTheStagesSpeed() throws {
    // (No gap threshold: a test run this busy may sleep a second or more.)
    var output = ""
    let session = Session(clock: .real, gapThreshold: .max) { _, text in output += text }
    let stage = ScriptedStage()
    session.stage = stage
    stage.entries = [.speed(2)]
    session.tick()
    #expect(stage.shownClock?.speed == 2)
    let before = MonotonicClock.systemMonotonicTime()
    let start = session.now
    Thread.sleep(forTimeInterval: 0.2)
    session.tick()
    let after = MonotonicClock.systemMonotonicTime()
    let played = session.now - start
    // Twice the real time between the two readings, which lie within [before, after].
    #expect(played >= 2 * 200_000_000 - 2_000_000)
    #expect(played <= 2 * (after - before) + 2_000_000)
    session.evaluate(":clock")
    #expect(output.contains("playing at 2×"))
  }
}
