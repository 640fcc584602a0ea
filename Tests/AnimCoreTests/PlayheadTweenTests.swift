import Foundation
import Testing

@testable import AnimCore

/// `tween(_:to:over:curve:)`: a paused timeline's playhead carried over engine time along a
/// curve, everything it crosses firing as it is crossed (grammar.md § Label navigation,
/// `tween X to A over D`; GSAP's tweenTo). The playhead's place at engine time t is
/// p(t) = from + trunc((to − from) · curve((t − start) / D)) (the distance moved rounded toward
/// zero); a point at local time L fires at the first integer engine time where p has reached L.
@Suite("Engine: tweening a playhead")
struct PlayheadTweenTests {
  /// T (4 s) holds A at 1 s (p: 0 → 100 over 2 s, linear) and a callback at 3 s.
  static func scene() throws -> (AnimationEngine, PropertyID, NodeID, NodeID, NodeID) {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards))
    let a = try engine.animate(
      p, with: .tween(from: .number(0), to: .number(100), duration: 2 * s), placement: .timeline(t, at: 1 * s))
    let c = try engine.addCallback(key: 7, to: t, at: 3 * s, firesBackwards: true)
    return (engine, p, t, a, c)
  }

  /// Linear, 0 → 4 s over 2 s of engine time: p(t) = 2t, so A starts at 0.5 s, A completes
  /// and the callback fires at 1.5 s, T completes at 2 s; at 1 s T reads 2 s (A halfway, 50).
  /// T then stays paused at 4 s.
  @Test func aLinearTweenFiresEachPointAtTheInstantThePlayheadReachesIt() throws {
    var (engine, p, t, a, c) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 0)
    try engine.tween(t, to: 4 * s, over: 2 * s)
    var events: [EngineEvent] = []
    try engine.advance(to: 1 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 50)
    #expect(try engine.status(of: t).localTime == 2 * s)
    try engine.advance(to: 3 * s) { _, e in events.append(e) }
    let times = { (subject: EngineEvent.Subject, kind: EngineEvent.Kind) in
      events.filter { $0.subject == subject && $0.kind == kind }.map(\.time)
    }
    #expect(times(.node(a), .start) == [500 * ms])
    #expect(times(.node(a), .complete) == [1500 * ms])
    #expect(times(.node(c), .callback(7)) == [1500 * ms])
    #expect(times(.node(t), .complete) == [2 * s])
    #expect(events.allSatisfy { !$0.isReversed })
    let status = try engine.status(of: t)
    #expect(status.state == .paused)
    #expect(status.localTime == 4 * s)
    #expect(number(engine, p) == 100)
    #expect(!engine.isTweening(t))
  }

  /// Backwards, from 4 s to 0 over 1 s: p(t) = 4 s − 4(t − t₀), so the callback (which fires
  /// backwards) and A's end are crossed at t₀ + 250 ms and A's start at t₀ + 750 ms, all
  /// reversed; A's value goes back to its start, 0.
  @Test func aTweenBackwardsFiresWhatItCrossesReversed() throws {
    var (engine, p, t, a, c) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 5 * s)
    #expect(number(engine, p) == 100)
    try engine.tween(t, to: 0, over: 1 * s)
    var events: [EngineEvent] = []
    try engine.advance(to: 7 * s) { _, e in events.append(e) }
    let crossed = events.filter { $0.subject == .node(a) || $0.subject == .node(c) }
    #expect(crossed.map(\.time) == [5250 * ms, 5250 * ms, 5750 * ms])
    #expect(crossed.allSatisfy { $0.isReversed })
    #expect(Set(crossed.prefix(2).map(\.subject)) == [.node(a), .node(c)])
    #expect(number(engine, p) == 0)
    #expect(try engine.status(of: t).localTime == 0)
  }

  /// With easeInOut, a point at L fires at the first engine time t where
  /// trunc(4 s · easeInOut((t − t₀) / 2 s)) ≥ L: the nanosecond before it, the playhead was short.
  @Test func aCurvedTweenFiresAtTheFirstNanosecondThePlayheadReachesAPoint() throws {
    var (engine, _, t, a, c) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 0)
    try engine.tween(t, to: 4 * s, over: 2 * s, curve: .easeInOut)
    var events: [EngineEvent] = []
    try engine.advance(to: 3 * s) { _, e in events.append(e) }
    func playhead(_ time: Nanoseconds) -> Nanoseconds {
      Nanoseconds(
        (Double(4 * s) * TimingCurve.easeInOut.progress(at: Double(time) / Double(2 * s))).rounded(.towardZero))
    }
    let start = try #require(events.first { $0.subject == .node(a) && $0.kind == .start }?.time)
    #expect(playhead(start) >= 1 * s && playhead(start - 1) < 1 * s)
    let callback = try #require(events.first { $0.subject == .node(c) }?.time)
    #expect(playhead(callback) >= 3 * s && playhead(callback - 1) < 3 * s)
    // easeInOut is symmetric: the two points, 1 s either side of the middle, mirror.
    #expect((start + callback - 2 * s).magnitude <= 2)
  }

  /// A curve that overshoots (cubic-bezier(0.3, 1.8, 0.6, 1), peaking near 1.166) carries
  /// the playhead past its place and back: a point between crosses forwards, then back.
  @Test func anOvershootingCurveCrossesAPointPastThePlaceAndBack() throws {
    var (engine, _, t, _, c) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 0)
    let overshoot = TimingCurve.cubicBezier(try CubicBezier(0.3, 1.8, 0.6, 1))
    // From 0 to 2.7 s: the peak, about 1.166 · 2.7 s ≈ 3.15 s, passes the callback at 3 s.
    try engine.tween(t, to: 2700 * ms, over: 1 * s, curve: overshoot)
    var events: [EngineEvent] = []
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    let callbacks = events.filter { $0.subject == .node(c) }
    #expect(callbacks.map(\.isReversed) == [false, true])
    #expect(try engine.status(of: t).localTime == 2700 * ms)
  }

  /// A control of the node ends the tween where it is: paused at 0.5 s (T at 1 s), it stays
  /// there; a new tween replaces the old.
  @Test func aControlOfTheNodeEndsTheTweenWhereItIs() throws {
    var (engine, _, t, _, _) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 0)
    try engine.tween(t, to: 4 * s, over: 2 * s)
    try engine.advance(to: 500 * ms)
    try engine.pause(t)
    #expect(!engine.isTweening(t))
    try engine.advance(to: 2 * s)
    #expect(try engine.status(of: t).localTime == 1 * s)
    try engine.tween(t, to: 0, over: 1 * s)
    try engine.tween(t, to: 3 * s, over: 1 * s)
    try engine.advance(to: 3 * s)
    #expect(try engine.status(of: t).localTime == 3 * s)
  }

  /// Of no length, the tween moves the playhead at the instant it is made, with its events.
  @Test func aTweenOfNoLengthMovesAtOnceWithItsEvents() throws {
    var (engine, p, t, a, _) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 1 * s)
    try engine.tween(t, to: 4 * s, over: 0)
    var events: [EngineEvent] = []
    try engine.advance(to: 1 * s) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(a) }.map(\.kind) == [.complete])
    #expect(events.contains { $0.subject == .node(t) && $0.kind == .complete && $0.time == 1 * s })
    #expect(number(engine, p) == 100)
  }

  /// A snapshot taken mid-tween continues exactly as the engine it was taken from.
  @Test func aSnapshotMidTweenContinuesTheTween() throws {
    var (engine, p, t, _, _) = try Self.scene()
    try engine.play(t)
    try engine.advance(to: 0)
    try engine.tween(t, to: 4 * s, over: 2 * s, curve: .easeIn)
    try engine.advance(to: 700 * ms)
    var restored = try JSONDecoder().decode(AnimationEngine.self, from: JSONEncoder().encode(engine))
    var original: [EngineEvent] = []
    var copy: [EngineEvent] = []
    try engine.advance(to: 3 * s) { _, e in original.append(e) }
    try restored.advance(to: 3 * s) { _, e in copy.append(e) }
    #expect(original == copy)
    #expect(number(engine, p) == number(restored, p))
    #expect(try restored.status(of: t).localTime == 4 * s)
  }

  /// A tweened child removed with its parent takes its tween with it: the engine advances on.
  @Test func aTweenedChildRemovedWithItsParentIsForgotten() throws {
    var engine = AnimationEngine()
    let parent = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards))
    let child = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, fill: .forwards), placement: .timeline(parent, at: 0))
    try engine.play(parent)
    try engine.advance(to: 100 * ms)
    try engine.tween(child, to: 1 * s, over: 1 * s)
    try engine.advance(to: 500 * ms)
    #expect(engine.isTweening(child))
    try engine.remove(parent)
    try engine.advance(to: 2 * s)
    #expect(!engine.isTweening(child))
    #expect(!engine.hasPendingWork)
  }

  /// A spring has a length of its own: it cannot carry a playhead over another.
  @Test func aSpringIsRefused() throws {
    var (engine, _, t, _, _) = try Self.scene()
    let spring = TimingCurve.spring(try SpringCurve(spring: try Spring(mass: 1, stiffness: 100, damping: 10)))
    #expect(throws: EngineError.springMovesNoPlayhead) { try engine.tween(t, to: 1 * s, over: 1 * s, curve: spring) }
  }
}
