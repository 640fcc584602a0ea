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
    #expect(session.frame().map(StageFrameReading.init)?.json.contains("\"error\":") == true)
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

/// A frame as the page reads it (StageFrameEncoder.swift): its JSON part, and each target's
/// changed numbers by index.
struct StageFrameReading {
  var json: String
  var numbers: [(index: Int, mask: UInt32, values: [Double])] = []

  init(_ bytes: [UInt8]) {
    func word(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
    func double(_ at: Int) -> Double {
      Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) })
    }
    let length = Int(word(0))
    json = String(decoding: bytes[4..<(4 + length)], as: UTF8.self)
    var offset = 4 + length
    while offset + 8 <= bytes.count {
      let index = Int(word(offset))
      let mask = word(offset + 4)
      offset += 8
      var values: [Double] = []
      for _ in 0..<mask.nonzeroBitCount {
        values.append(double(offset))
        offset += 8
      }
      numbers.append((index, mask, values))
    }
  }
}

/// What a frame carries: the first, every target's record; then only the numbers that
/// changed, as doubles (a target's k-th number flagged by bit k); a change of anything else
/// as a record again; the inspector's values only for the inspected targets.
@Suite struct StageFrameEncoderTests {
  func load(_ text: String) throws -> StageSession {
    let source = SourceText(name: "f.anim", contents: text)
    switch StageSession.load(path: "f.anim", text: source, size: StageSize(), clock: .virtual, realNow: 0) {
    case .success(let session): return session
    case .failure(let failure):
      Issue.record("did not load: \(failure.diagnostics)")
      throw failure
    }
  }

  @Test func numbersGoAsDoublesAndTheRestAsRecords() throws {
    let session = try load(
      "target a { x: 0, y: 5 }\ntarget b { y: 0, fill: #ff0000 }\n"
        + "animate a.x to 60 over 1s\nanimate b.fill to #0000ff over 1s\n")
    let first = StageFrameReading(try #require(session.frame()))
    #expect(first.json.contains("\"order\":[\"a\",\"b\"]"))
    let pieces = "[\"translate(\",\" \",\") rotate(\",\") scale(\",\" \",\")\"]"
    #expect(first.json.contains("[\"transform\"," + pieces + ",[0,5,0,1,1]]"))
    #expect(first.numbers.isEmpty)
    session.tick(realNow: 0)
    let second = StageFrameReading(try #require(session.frame()))
    // a: only its x (the transform's first number) changed, to 60 × 1/60.
    #expect(second.numbers.count == 1)
    #expect(second.numbers.first?.index == 0)
    #expect(second.numbers.first?.mask == 1)
    guard case .number(let x)? = session.runtime.value(of: "a.x") else {
      Issue.record("a.x is not a number")
      return
    }
    #expect(second.numbers.first?.values == [x])
    // b: its fill's text changed, so b goes as a record, with its index.
    #expect(second.json.contains("{\"i\":1,\"n\":\"b\""))
    #expect(!second.json.contains("\"order\""))
    // Nobody inspects anything: no values.
    #expect(second.json.contains("\"values\":{}"))
    session.inspect(["a"])
    session.tick(realNow: 0)
    let third = StageFrameReading(try #require(session.frame()))
    #expect(third.json.contains("\"a.x\":"))
    #expect(third.json.contains("\"a.y\":5"))
    #expect(!third.json.contains("\"b.fill\""))
  }
}
