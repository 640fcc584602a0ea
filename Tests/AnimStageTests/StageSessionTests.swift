import AnimCore
import AnimLanguage
import AnimRuntime
import Testing

@testable import AnimStage

/// The session a page steers, without a server: on the virtual clock one tick is one frame.
@Suite struct StageSessionTests {
  static let script = """
    target card { x: 0 }
    timeline intro {
      animate card.x to 100 over 1s
    }
    play intro

    """

  func load(_ text: String = script) throws -> StageSession {
    let source = SourceText(name: "card.anim", contents: text)
    switch StageSession.load(path: "card.anim", text: source, size: StageSize(), clock: .virtual, realNow: 0) {
    case .success(let session): return session
    case .failure(let failure):
      Issue.record("did not load: \(failure.diagnostics)")
      throw failure
    }
  }

  @Test func framesComeWhileSomethingMovesAndStopWhenNothingDoes() throws {
    let session = try load()
    #expect(session.frame() != nil)  // the first
    var ticks = 0
    while !session.runtime.isIdle && ticks < 1000 {
      session.tick(realNow: 0)
      #expect(session.frame() != nil, "tick \(ticks): something moved")
      ticks += 1
    }
    // 1 s at 1/60 s a tick.
    #expect(ticks == 60)
    #expect(session.time == 1_000_000_000)
    _ = session.frame()
    for _ in 0..<10 {
      session.tick(realNow: 0)
      #expect(session.frame() == nil)
    }
    #expect(session.time == 1_000_000_000)
  }

  @Test func aScrubEqualsTheTraceAtThatTime() throws {
    let session = try load()
    for at: Nanoseconds in [250_000_000, 700_000_000, 400_000_000, 0] {
      session.scrub(to: at, realNow: 0)
      let expected = try #require(StageSession.sampleJSON(of: session.source, at: at))
      #expect(session.state.contains("\"sample\":" + expected + ","), "at \(at)")
    }
    // card.x at 0.25 s of a linear 0 → 100 over 1 s.
    #expect(StageSession.sampleJSON(of: session.source, at: 250_000_000) == "{\"t\":0.25,\"values\":{\"card.x\":25}}")
  }

  @Test func theTransportMovesTheSessionClockOnly() throws {
    let session = try load()
    session.setPaused(true, realNow: 0)
    session.tick(realNow: 0)
    #expect(session.time == 0)
    // Steps land on the 60 Hz grid, k / 60 s (the trace's frame times).
    session.step(frames: 3, realNow: 0)
    #expect(session.time == frameTime(3, fps: 60))
    session.step(frames: -1, realNow: 0)
    #expect(session.time == frameTime(2, fps: 60))
    session.scrub(to: 40_000_000, realNow: 0)
    session.step(frames: 1, realNow: 0)
    #expect(session.time == 50_000_000)  // frame 3
    session.scrub(to: 40_000_000, realNow: 0)
    session.step(frames: -1, realNow: 0)
    #expect(session.time == frameTime(2, fps: 60))
    // At speed 2 a tick of the virtual clock is two frames' time.
    session.setSpeed(2, realNow: 0)
    session.setPaused(false, realNow: 0)
    session.tick(realNow: 0)
    #expect(session.time == frameTime(2, fps: 60) + 2 * frameTime(1, fps: 60))
    session.setSpeed(100, realNow: 0)
    #expect(session.speed == 4)
  }

  @Test func statementsRunAsAScriptsWould() throws {
    let session = try load()
    for _ in 0..<30 { session.tick(realNow: 0) }
    session.run(statement: "pause intro", realNow: 0)
    let x = session.runtime.value(of: "card.x")
    for _ in 0..<30 { session.tick(realNow: 0) }
    #expect(session.runtime.value(of: "card.x") == x)
    #expect(session.runtime.playbackMarks(of: "card.x").paused)
    session.run(statement: "animate nothing.x to 1", realNow: 0)
    #expect(session.frame()?.contains("\"error\":") == true)
  }

  @Test func aReloadWithErrorsKeepsTheSessionAndAFixReplacesIt() throws {
    let session = try load()
    let broken = SourceText(name: "card.anim", contents: "target card { x: 0 }\nanimate card.y to 1 over 1s\n")
    #expect(!session.reload(broken, realNow: 0))
    #expect(session.diagnostics?.contains("card.anim:2:") == true)
    #expect(session.runtime.value(of: "card.x") != nil)
    let fixed = SourceText(name: "card.anim", contents: "target card { x: 5 }\ntarget extra { y: 1 }\n")
    #expect(session.reload(fixed, realNow: 0))
    #expect(session.diagnostics == nil)
    #expect(session.runtime.value(of: "extra.y") == .number(1))
    #expect(session.time == 0)
  }
}
