import Testing

@testable import AnimCore

/// `seek` and the silent part of `finish` move a node as playing there would, through every
/// pass between and in time order, settling what they cross without an event (found by the
/// differential test: the engine used to settle each item by where it ended up). Each
/// expected value is worked out by hand from the rules, in a comment.
@Suite("Engine: seek and finish travel silently")
struct SilentTravelTests {
  /// A tween of the timeline's item: from 177 to −36 over `duration`, linear, fill forwards.
  static func item(_ duration: Nanoseconds) -> Animation {
    .tween(from: .number(177), to: .number(-36), duration: duration)
  }

  /// p = −40; T (3 s) holds A at 1 s (177 → −36 over 2 s). Played at 0, at 2 s A is halfway
  /// (70.5). Sought to 0.5 s, T goes back across A's start: A ends there reversed, and its
  /// forwards fill leaves its start value, 177 (as `reverse` would), with no event. Played on,
  /// A starts again at 2.5 s (T at 1 s) and at 3.5 s is halfway again: 70.5.
  @Test func seekingBackBeforeAnItemLeavesItsStartValue() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(-40))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    let a = try engine.animate(p, with: Self.item(2 * s), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 2 * s)
    #expect(number(engine, p) == 70.5)
    try engine.seek(t, to: 500 * ms) { _, e in events.append(e) }
    #expect(events.isEmpty)
    #expect(number(engine, p) == 177)
    try engine.advance(to: 3500 * ms) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(a) }.map(\.time) == [2500 * ms])
    #expect(number(engine, p) == 70.5)
  }

  /// p = −40; T (3 s, 2 passes, alternate) holds A at 1 s (177 → −36 over 1 s). Sought at
  /// 0.5 s to 5.5 s: pass 0 crosses A's start and end (A leaves −36), then pass 1 runs back
  /// from 3 s to 0.5 s of its iteration time, across A's end and start: A ends reversed and
  /// leaves 177. Played straight to 5.5 s, a second engine shows the same.
  @Test func seekingThroughAnAlternatingPassSettlesEachPassInTurn() throws {
    func build() throws -> (AnimationEngine, PropertyID, NodeID) {
      var engine = AnimationEngine()
      let p = engine.addProperty(.number(-40))
      let t = try engine.addTimeline(
        timing: EffectTiming(duration: 3 * s, iterations: 2, direction: .alternate, fill: .forwards))
      _ = try engine.animate(p, with: Self.item(1 * s), placement: .timeline(t, at: 1 * s))
      try engine.play(t)
      return (engine, p, t)
    }
    var (sought, p, t) = try build()
    try sought.advance(to: 500 * ms)
    try sought.seek(t, to: 5500 * ms)
    #expect(number(sought, p) == 177)
    var (played, q, _) = try build()
    try played.advance(to: 6 * s)
    #expect(number(played, q) == 177)
  }

  /// The same through many passes: T (3 s, 1,000,001 passes, alternate) sought from 0.5 s to
  /// pass 1,000,000 (even, forwards) at 0.5 s of it: the last pass crossed whole before it is
  /// backwards (A ends reversed, 177) and the last, forwards, stops before A: 177, at once.
  @Test func seekingOverAMillionPassesTakesNoTimeAndSettlesAsTheLastOnesDo() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(-40))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 3 * s, iterations: 1_000_001, direction: .alternate, fill: .forwards))
    _ = try engine.animate(p, with: Self.item(1 * s), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 500 * ms)
    let clock = ContinuousClock()
    let started = clock.now
    try engine.seek(t, to: 1_000_000 * 3 * s + 500 * ms)
    #expect(clock.now - started < .seconds(2))
    #expect(number(engine, p) == 177)
  }

  /// Time order within a pass: p = −40; T (2 s, 2 passes, alternate) holds a group G at 0
  /// (0.5 s) with B in it (to −78 over 0.5 s, fill none) and A at 0.5 s (177 → −36 over
  /// 1.5 s, to the pass's end). Played, at 1 s `finish T` travels: pass 0 ends A (−36);
  /// pass 1 runs back across A (it ends reversed: 177, and nothing else shows) and then G,
  /// where B runs back from −78 to its start and drops out (fill none): 177 is left. The
  /// travel stops a nanosecond short of T's end; what lies at the end fires (finish fires the
  /// completes at its edge): B's end reversed, with p's, then G's, reversed, then T's.
  /// (Settled item by item instead of in time order, B would run before A's return to its
  /// start and end under it.)
  @Test func finishSettlesWhatItCrossesInTimeOrder() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(-40))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, iterations: 2, direction: .alternate, fill: .forwards))
    let gg = try engine.addTimeline(
      timing: EffectTiming(duration: 500 * ms, fill: .forwards), placement: .timeline(t, at: 0))
    let b = try engine.animate(
      p, with: .tween(to: .number(-78), duration: 500 * ms, fill: .none), placement: .timeline(gg, at: 0))
    _ = try engine.animate(p, with: Self.item(1500 * ms), placement: .timeline(t, at: 500 * ms))
    try engine.play(t)
    try engine.advance(to: 1 * s)
    try engine.finish(t) { _, e in events.append(e) }
    #expect(number(engine, p) == 177)
    #expect(events.map(\.subject) == [.node(b), .property(p), .node(gg), .node(t)])
    #expect(events.map(\.kind) == [.complete, .complete, .complete, .complete])
    #expect(events.map(\.isReversed) == [true, true, true, false])
  }

  /// A timeline `set` crossed back during a seek unmasks its item where the travel is, not
  /// where it ends: p = −12; T (6 s) holds A at 1 s (to −96 over 2 s) and `set p to −62` at
  /// 1.5 s. Played to 5 s and sought to 0.5 s: the set, crossed back, puts back what it
  /// recorded (−33: A a quarter of the way, −12 − 84/4) and A shows again (T is at 1.5 s, in
  /// A's interval); then A's start, crossed back, ends A reversed, and its forwards fill
  /// leaves its start value, the −12 it started from.
  @Test func aSetCrossedBackDuringASeekUnmasksItsItemOnTheWay() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(-12))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 6 * s, fill: .forwards))
    _ = try engine.animate(p, with: .tween(to: .number(-96), duration: 2 * s), placement: .timeline(t, at: 1 * s))
    _ = try engine.addSet(p, to: .number(-62), in: t, at: 1500 * ms)
    try engine.play(t)
    try engine.advance(to: 5 * s)
    #expect(number(engine, p) == -62)
    try engine.seek(t, to: 500 * ms)
    #expect(number(engine, p) == -12)
  }
}
