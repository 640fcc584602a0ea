import Testing

@testable import AnimCore

@Suite("Engine: events")
struct EngineEventTests {
  /// A timeline of three tweens one after another, with a callback at 1.5 s.
  func sequence(_ engine: inout AnimationEngine) throws -> (NodeID, [NodeID], PropertyID) {
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    var items: [NodeID] = []
    for k in 0..<3 {
      items.append(
        try engine.animate(
          x, with: .tween(to: .number(Double(k + 1) * 10), duration: s),
          placement: .timeline(timeline, at: Nanoseconds(k) * s)))
    }
    _ = try engine.addCallback(key: 7, to: timeline, at: 1_500 * ms, firesBackwards: true)
    return (timeline, items, x)
  }

  @Test func atOneInstantCompletesComeBeforeStarts() throws {
    var engine = AnimationEngine()
    let (timeline, items, x) = try sequence(&engine)
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 3 * s, log: &log)
    let atOne = log.entries.filter { $0.time == s }.map { "\($0.kind) \($0.subject)" }
    #expect(atOne == [describe(.complete, .node(items[0])), describe(.start, .node(items[1]))])
    #expect(log.times(of: .start, .node(timeline)) == [0])
    #expect(log.times(of: .complete, .node(timeline)) == [3 * s])
    #expect(
      log.times(of: .callback(7), .node(log.entries.first { $0.kind == .callback(7) }!.subject.node!)) == [1_500 * ms])
    // The property rests only at the end: each tween hands it to the next at one instant.
    #expect(log.times(of: .start, .property(x)) == [0])
    #expect(log.times(of: .complete, .property(x)) == [3 * s])
    #expect(number(engine, x) == 30)
  }

  @Test func goingBackwardsEventsFireInReverseOrder() throws {
    var engine = AnimationEngine()
    let (timeline, items, x) = try sequence(&engine)
    try engine.play(timeline)
    try engine.advance(to: 3 * s)
    try engine.reverse(timeline)
    var log = Log()
    try advance(&engine, to: 7 * s, log: &log)
    // Reversed from its end: it starts backwards at once, each tween completes at its start.
    #expect(log.times(of: .start, .node(timeline)) == [3 * s])
    #expect(log.times(of: .complete, .node(items[2])) == [4 * s])
    #expect(log.times(of: .complete, .node(items[0])) == [6 * s])
    #expect(log.times(of: .complete, .node(timeline)) == [6 * s])
    #expect(log.entries.filter { $0.kind == .callback(7) }.map(\.time) == [4_500 * ms])
    #expect(log.entries.allSatisfy { $0.reversed })
    // Every event in time order.
    #expect(log.entries.map(\.time) == log.entries.map(\.time).sorted())
    // Fill applies in the direction of travel: back at the start, the start value remains.
    #expect(number(engine, x) == 0)
    // Items at one instant going backwards: the later item's complete comes first, and the
    // property is handed over without coming to rest.
    let atFive = log.entries.filter { $0.time == 5 * s }.map { "\($0.kind) \($0.subject)" }
    #expect(atFive == [describe(.complete, .node(items[1])), describe(.start, .node(items[0]))])
    #expect(log.times(of: .complete, .property(x)) == [6 * s])
  }

  /// Issue 13: an advance asked to stop stops between two instants, after every event of
  /// the last one (also what its handlers scheduled for that instant), with values as at
  /// that instant; a later advance goes on from there.
  @Test func anAdvanceStopsBetweenInstantsWhenAsked() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: 10 * s), placement: .engine(at: 0))
    for second in 1...5 { engine.schedule(callback: second, at: Nanoseconds(second) * s) }
    var fired: [Int] = []
    var asked = 0
    // Asked before each instant after the first: 1 s, then 2 s.
    let stop = {
      asked += 1
      return asked == 2
    }
    let reached = try engine.advance(to: 10 * s, stoppingWhen: stop) { engine, event in
      guard case .callback(let key) = event.kind else { return }
      fired.append(key)
      if key == 1 { engine.schedule(callback: 10, at: engine.now) }
    }
    #expect(!reached)
    #expect(engine.now == s)
    #expect(fired == [1, 10])
    #expect(engine.value(of: x) == .number(10))  // linear: 100 · 1 s / 10 s
    let never = { false }
    #expect(
      try engine.advance(to: 10 * s, stoppingWhen: never) { engine, event in
        if case .callback(let key) = event.kind { fired.append(key) }
      })
    #expect(fired == [1, 10, 2, 3, 4, 5])
    #expect(engine.value(of: x) == .number(100))
  }

  @Test func callbacksAtOneInstantFireInSchedulingOrderAfterAnimationEvents() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    engine.schedule(callback: 2, at: s)
    engine.schedule(callback: 1, at: s)
    let node = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .engine(at: 0))
    var order: [String] = []
    try engine.advance(to: 2 * s) { engine, e in
      switch (e.kind, e.subject) {
      case (.callback(let key), _):
        order.append("callback \(key)")
        // Scheduled for now from a handler: it runs in this same advance, behind the rest.
        if key == 1 { engine.schedule(callback: 3, at: engine.now) }
      case (.complete, .node(node)): order.append("complete")
      default: break
      }
    }
    #expect(order == ["complete", "callback 2", "callback 1", "callback 3"])
  }

  @Test func handlersRunAtTheExactTimeOfTheirEvent() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(0))
    let first = try engine.animate(x, with: .tween(to: .number(100), duration: 333_333_333), placement: .engine(at: 0))
    var started: Nanoseconds?
    // One big step: the handler still runs at 333.333333 ms, and what it starts starts then.
    try engine.advance(to: s) { engine, e in
      if e.kind == .complete, e.subject == .node(first) {
        started = engine.now
        _ = try? engine.animate(y, with: .tween(to: .number(100), duration: s), placement: .engine(at: engine.now))
      }
    }
    #expect(started == 333_333_333)
    #expect(abs(number(engine, y) - 100 * Double(s - 333_333_333) / Double(s)) < 1e-9)
  }

  @Test func aChainOfEventsAtOneInstantIsAnErrorNotAHang() throws {
    var engine = AnimationEngine()
    engine.schedule(callback: 0, at: s)
    #expect(throws: EngineError.tooManyEventsAtOneInstant(s)) {
      try engine.advance(to: 2 * s) { engine, _ in engine.schedule(callback: 0, at: engine.now) }
    }
    // The engine is usable afterwards.
    engine.schedule(callback: 1, at: 3 * s)
    var fired: [Int] = []
    try engine.advance(to: 4 * s) { _, e in if case .callback(let k) = e.kind { fired.append(k) } }
    #expect(fired == [1])
  }

  @Test func aTimelineThatRepeatsRestartsItsChildren() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, iterations: 2, fill: .forwards))
    let tween = try engine.animate(
      x, with: .tween(from: .number(0), to: .number(100), duration: s), placement: .timeline(timeline, at: s))
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 4_500 * ms, log: &log)
    #expect(log.times(of: .start, .node(tween)) == [s, 3 * s])
    #expect(log.times(of: .complete, .node(tween)) == [2 * s, 4 * s])
    #expect(log.times(of: .repeat, .node(timeline)) == [2 * s])
    #expect(log.times(of: .complete, .node(timeline)) == [4 * s])
    try engine.advance(to: 3_500 * ms + s)
    #expect(number(engine, x) == 100)
  }

  @Test func anAlternatingTimelineRunsItsChildrenBackwardsOnOddPasses() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, iterations: 2, direction: .alternate, fill: .forwards))
    let tween = try engine.animate(
      x, with: .tween(from: .number(0), to: .number(100), duration: s), placement: .timeline(timeline, at: s))
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 2_500 * ms, log: &log)
    #expect(number(engine, x) == 50)
    try advance(&engine, to: 5 * s, log: &log)
    #expect(log.times(of: .complete, .node(tween)) == [2 * s, 3 * s])
    #expect(log.entries.filter { $0.subject == .node(tween) && $0.kind == .complete }.map(\.reversed) == [false, true])
    #expect(number(engine, x) == 0)
  }

  @Test func aSuspensionOnTheRealClockIsAPauseAndAnEvent() throws {
    var raw: Nanoseconds = 0
    let box = RawTime()
    var clock = MonotonicClock(rawTime: { box.value })
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: 0))
    var gaps: [Nanoseconds] = []
    func tick(_ t: Nanoseconds) throws {
      raw = t
      box.value = raw
      try engine.tick(&clock) { _, e in if case .clockGap(let g) = e.kind { gaps.append(g) } }
    }
    try tick(0)
    try tick(200 * ms)
    try tick(5_200 * ms)  // five seconds away
    try tick(5_300 * ms)
    #expect(gaps == [5 * s])
    #expect(number(engine, x) == 30)
  }
}

func describe(_ kind: EngineEvent.Kind, _ subject: EngineEvent.Subject) -> String { "\(kind) \(subject)" }

/// A raw time source that the test moves.
final class RawTime: @unchecked Sendable {
  var value: Nanoseconds = 0
}

extension EngineEvent.Subject {
  var node: NodeID? {
    if case .node(let id) = self { return id }
    return nil
  }
}

@Suite("Engine: many events at one instant")
struct EngineCrowdTests {
  @Test func fiftyThousandAnimationsMayStartTogether() throws {
    var engine = AnimationEngine()
    var starts = 0
    for _ in 0..<50_000 {
      let p = engine.addProperty(.number(0))
      _ = try engine.animate(p, with: .tween(to: .number(1), duration: s), placement: .engine(at: 0))
    }
    try engine.advance(to: 0) { _, e in if e.kind == .start { starts += 1 } }
    // Each animation starts, and each property leaves rest: independent events, no chain.
    #expect(starts == 100_000)
  }
}
