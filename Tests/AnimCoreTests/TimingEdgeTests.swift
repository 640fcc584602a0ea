import Testing

@testable import AnimCore

/// The timing model at its edges: retargets that end in either order, negative delays, zero
/// durations. Expected values are worked out from the rules by hand in each test's comment.
@Suite("Engine: timing edges")
struct TimingEdgeTests {
  // MARK: - Additive retargeting, whichever animation ends first

  /// A₁: 0 → 200 over 4 s; A₂ at 1 s: → 100 over 1 s (Δ₂ = −100). value = 200·p₁ − 100·p₂:
  /// 50 at 1 s, 200·0.375 − 50 = 25 at 1.5 s, 100 − 100 = 0 at 2 s (A₂ ends and keeps its
  /// progress 1), 150 − 100 = 50 at 3 s, 100 at 4 s, where one property complete fires.
  @Test func aShorterNewerRetargetEndsFirstWithoutAJump() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(200), duration: 4 * s), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: s, log: &log)
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: s))
    for (t, expected) in [(1_000 * ms, 50.0), (1_500 * ms, 25), (2_000 * ms, 0), (3_000 * ms, 50), (4_000 * ms, 100)] {
      try advance(&engine, to: t, log: &log)
      #expect(abs(number(engine, x) - expected) < 1e-9, "at \(t) ns")
    }
    try advance(&engine, to: 5 * s, log: &log)
    #expect(number(engine, x) == 100)
    #expect(engine.baseValue(of: x) == .number(100))
    #expect(log.times(of: .complete, .property(x)) == [4 * s])
    #expect(log.times(of: .start, .property(x)) == [0])
  }

  /// The same, with A₂'s fill none: its term drops out when it ends, so from 2 s the value is
  /// A₁'s alone (100 at 2 s, 150 at 3 s) and it rests at 200.
  @Test func aRetargetWithoutFillDropsItsChangeWhenItEnds() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(200), duration: 4 * s), placement: .engine(at: 0))
    try engine.advance(to: s)
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s, fill: .none), placement: .engine(at: s))
    try engine.advance(to: 1_500 * ms)
    #expect(abs(number(engine, x) - 25) < 1e-9)
    try engine.advance(to: 3 * s)
    #expect(abs(number(engine, x) - 150) < 1e-9)
    try engine.advance(to: 5 * s)
    #expect(number(engine, x) == 200)
  }

  /// Hover in (→ 1.2 over 600 ms, easeInOut), then a shorter hover out at 200 ms (→ 1 over
  /// 150 ms, easeOut): sampled every millisecond the value never jumps (a step of at most
  /// the largest slope, about 1.2 × 0.2 / 0.15 × 1.7 per second, times 1 ms) and it rests at 1.
  @Test func hoverInThenAShorterHoverOutNeverJumps() throws {
    var engine = AnimationEngine()
    let scale = engine.addProperty(.number(1))
    _ = try engine.animate(
      scale, with: .tween(to: .number(1.2), duration: 600 * ms, curve: .easeInOut), placement: .engine(at: 0))
    var previous = 1.0
    var largestStep = 0.0
    for k in 1...800 {
      let t = Nanoseconds(k) * ms
      if t == 200 * ms {
        try engine.advance(to: t)
        _ = try engine.animate(
          scale, with: .tween(to: .number(1), duration: 150 * ms, curve: .easeOut), placement: .engine(at: t))
      }
      try engine.advance(to: t)
      largestStep = max(largestStep, abs(number(engine, scale) - previous))
      previous = number(engine, scale)
    }
    #expect(largestStep < 0.004)
    #expect(previous == 1)
    #expect(!engine.isAnimating(scale))
  }

  /// `cancel` on a property with a stack keeps the value it shows: A₁ 0 → 200 over 4 s, A₂
  /// at 1 s → 100 over 1 s, which ends at 2 s; cancelled at 3 s the value stays 50.
  @Test func cancellingAStackKeepsTheCurrentValue() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let a1 = try engine.animate(x, with: .tween(to: .number(200), duration: 4 * s), placement: .engine(at: 0))
    try engine.advance(to: s)
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: s))
    try engine.advance(to: 3 * s)
    try engine.cancel(a1)
    try engine.advance(to: 5 * s)
    #expect(abs(number(engine, x) - 50) < 1e-9)
  }

  // MARK: - Negative delays

  /// `to 100 over 2s delay -500ms`: a quarter of the way at once (25), complete at 1.5 s.
  @Test func aNegativeDelayStartsPartWay() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(
      x, with: .tween(to: .number(100), duration: 2 * s, delay: -500 * ms), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 0, log: &log)
    #expect(number(engine, x) == 25)
    try advance(&engine, to: s, log: &log)
    #expect(number(engine, x) == 75)
    try advance(&engine, to: 2 * s, log: &log)
    #expect(log.times(of: .start, .node(node)) == [0])
    #expect(log.times(of: .complete, .node(node)) == [1_500 * ms])
    #expect(number(engine, x) == 100)
  }

  /// Three passes of 1 s with a delay of −1.5 s: placed in the middle of the second pass,
  /// so one repeat (at 0.5 s, into the third) and the complete at 1.5 s; the skipped
  /// boundary at −0.5 s fires nothing.
  @Test func aNegativeDelayFiresNoRepeatForSkippedPasses() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(
      x, with: .tween(to: .number(100), duration: s, delay: -1_500 * ms, iterations: 3), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 0, log: &log)
    #expect(number(engine, x) == 50)
    try advance(&engine, to: 2 * s, log: &log)
    #expect(log.times(of: .repeat, .node(node)) == [500 * ms])
    #expect(log.times(of: .complete, .node(node)) == [1_500 * ms])
  }

  /// A delay of −5 s on two passes of 2 s (4 s in all): finished where it is placed, start
  /// then complete there, no repeat, the end value left.
  @Test func aDelayPastTheWholeAnimationFinishesItAtPlacement() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(
      x, with: .tween(to: .number(100), duration: 2 * s, delay: -5 * s, iterations: 2), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 0, log: &log)
    #expect(log.entries.filter { $0.kind == .repeat }.isEmpty)
    #expect(log.times(of: .start, .property(x)) == [0])
    #expect(log.times(of: .complete, .property(x)) == [0])
    #expect(number(engine, x) == 100)
  }

  // MARK: - Zero durations

  /// `to 100 over 0s` at top level: its start, then its complete, at its instant; the value
  /// is 100 from then on.
  @Test func aZeroDurationAnimationStartsThenCompletesAtItsInstant() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(x, with: .tween(to: .number(100), duration: 0), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: s, log: &log)
    let own = log.entries.filter { $0.subject == .node(node) }.map(\.kind)
    #expect(own == [.start, .complete])
    let property = log.entries.filter { $0.subject == .property(x) }.map(\.kind)
    #expect(property == [.start, .complete])
    #expect(number(engine, x) == 100)
    #expect(!engine.isAnimating(x))
  }

  /// In a timeline, between a tween that ends at 1 s and one that starts there: the zero-length
  /// item starts and completes together, and the property does not stay animating after the
  /// timeline ends.
  @Test func aZeroDurationItemInATimelineCompletesAndLeavesThePropertyAtRest() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards))
    _ = try engine.animate(x, with: .tween(to: .number(10), duration: s), placement: .timeline(timeline, at: 0))
    let zero = try engine.animate(x, with: .tween(to: .number(50), duration: 0), placement: .timeline(timeline, at: s))
    _ = try engine.animate(x, with: .tween(to: .number(60), duration: s), placement: .timeline(timeline, at: s))
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 3 * s, log: &log)
    let own = log.entries.filter { $0.subject == .node(zero) }.map(\.kind)
    #expect(own == [.start, .complete])
    #expect(log.times(of: .complete, .property(x)) == [2 * s])
    #expect(!engine.isAnimating(x))
    #expect(number(engine, x) == 60)
  }

  /// Two autoreversed passes of no length end where they began (`from`); three end at `to`.
  @Test func aZeroDurationEndsOnItsLastPass() throws {
    for (passes, expected) in [(2.0, 20.0), (3.0, 100.0)] {
      var engine = AnimationEngine()
      let x = engine.addProperty(.number(0))
      _ = try engine.animate(
        x, with: .tween(from: .number(20), to: .number(100), duration: 0, iterations: passes, direction: .alternate),
        placement: .engine(at: 0))
      var log = Log()
      try advance(&engine, to: s, log: &log)
      #expect(number(engine, x) == expected, "\(passes) passes")
      #expect(log.entries.filter { $0.kind == .repeat }.isEmpty)
    }
  }
}
