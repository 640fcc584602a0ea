import AnimTestSupport
import Foundation
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

  // MARK: - Backwards fill

  /// `timeline t { at 2s animate a.v from 30 to 90 over 1s fill backwards }`, played at 0:
  /// 30 from the moment it plays (1 s), 60 half-way (2.5 s), and after the end the base
  /// value again (backwards covers nothing after), 0 at 3.5 s.
  @Test func aBackwardsFillShowsItsFromValueFromTheMomentTheTimelinePlays() throws {
    var engine = AnimationEngine()
    let v = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    _ = try engine.animate(
      v, with: .tween(from: .number(30), to: .number(90), duration: s, fill: .backwards),
      placement: .timeline(timeline, at: 2 * s))
    try engine.advance(to: 0)
    #expect(number(engine, v) == 0, "not before it plays")
    try engine.play(timeline)
    #expect(number(engine, v) == 30)
    for (t, expected) in [(1_000 * ms, 30.0), (2_500 * ms, 60), (3_600 * ms, 0)] {
      try engine.advance(to: t)
      #expect(number(engine, v) == expected, "at \(t) ns")
    }
  }

  /// At top level the fill covers the delay: `from 30 to 90 over 1s delay 2s fill both` reads
  /// 30 from its placement, and keeps 90 after its end.
  @Test func aBackwardsFillCoversTheDelayOfAStandaloneAnimation() throws {
    var engine = AnimationEngine()
    let v = engine.addProperty(.number(0))
    _ = try engine.animate(
      v, with: .tween(from: .number(30), to: .number(90), duration: s, delay: 2 * s, fill: .both),
      placement: .engine(at: 0))
    for (t, expected) in [(0, 30.0), (1_000 * ms, 30), (2_500 * ms, 60), (4_000 * ms, 90)] {
      try engine.advance(to: Nanoseconds(t))
      #expect(number(engine, v) == expected, "at \(t) ns")
    }
  }

  /// Two items fill backwards at once: the one that starts first shows (30 before 1 s, the
  /// second's 70 waits), then, once the first has run and left (fill backwards only), the
  /// second's 70 shows until it starts at 3 s.
  @Test func ofSeveralWaitingFillsTheOneThatStartsFirstShows() throws {
    var engine = AnimationEngine()
    let v = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards))
    _ = try engine.animate(
      v, with: .tween(from: .number(70), to: .number(0), duration: s, fill: .backwards),
      placement: .timeline(timeline, at: 3 * s))
    _ = try engine.animate(
      v, with: .tween(from: .number(30), to: .number(40), duration: s, fill: .backwards),
      placement: .timeline(timeline, at: s))
    try engine.play(timeline)
    for (t, expected) in [(500 * ms, 30.0), (1_500 * ms, 35), (2_500 * ms, 70), (3_500 * ms, 35)] {
      try engine.advance(to: t)
      #expect(number(engine, v) == expected, "at \(t) ns")
    }
  }

  /// A retarget that waits in its delay with `fill both` adds to what runs: its change is 0
  /// before it starts, so it shows nothing of its own, and the older animation goes on
  /// (A: 0 → 100 over 2 s; B at 0.5 s: → 50 over 1 s, delay 1 s: at 1 s the value is A's 50).
  @Test func aWaitingRetargetThatFillsBackwardsDoesNotFreezeTheProperty() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: 2 * s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    _ = try engine.animate(
      x, with: .tween(to: .number(50), duration: s, delay: s, fill: .both), placement: .engine(at: 500 * ms))
    try engine.advance(to: s)
    #expect(abs(number(engine, x) - 50) < 1e-9)
  }

  // MARK: - Keyframe segments on whole nanoseconds

  /// Keyframes over 1 s at 0 %, 1 % and 2 %, the segment ending at 2 % in `steps(8)`: at
  /// 11.25 ms the segment (10 ms to 20 ms) is exactly 1/8 through, so the first step has
  /// been taken (10 of 80), as `animate from 0 to 80 over 10ms delay 10ms with steps(8)` gives.
  @Test func aSegmentsProgressIsExactOnWholeNanoseconds() throws {
    var engine = AnimationEngine()
    let track = engine.addProperty(.number(0))
    let tween = engine.addProperty(.number(0))
    let steps = TimingCurve.steps(try Steps(count: 8))
    let frames = [
      Keyframe(offset: 0, value: .number(0)), Keyframe(offset: 0.01, value: .number(0)),
      Keyframe(offset: 0.02, value: .number(80), curve: steps), Keyframe(offset: 1, value: .number(80)),
    ]
    _ = try engine.animate(
      track, with: Animation(shape: .keyframes(frames), timing: EffectTiming(duration: s, fill: .forwards)),
      placement: .engine(at: 0))
    _ = try engine.animate(
      tween, with: .tween(from: .number(0), to: .number(80), duration: 10 * ms, curve: steps, delay: 10 * ms),
      placement: .engine(at: 0))
    try engine.advance(to: 11_250_000)
    #expect(number(engine, tween) == 10)
    #expect(number(engine, track) == 10)
  }

  // MARK: - Rates other than ±1

  /// A boundary at its own time u is reached at start + round(u / rate): 1 s at speed 0.25
  /// completes at exactly 4 s, at speed 7 at round(10⁹ / 7) = 142,857,143 ns; a delay of 1 s
  /// at speed 2 waits 0.5 s.
  @Test func atOtherRatesBoundariesFallOnTheRoundedParentTime() throws {
    for (rate, delay, start, end) in [
      (0.25, Nanoseconds(0), Nanoseconds(0), 4 * s), (7, 0, 0, 142_857_143), (2, s, 500 * ms, 1_000 * ms),
      (0.7, 0, 0, 1_428_571_429), (1.25, 0, 0, 800 * ms),
    ] {
      var engine = AnimationEngine()
      let x = engine.addProperty(.number(0))
      let node = try engine.animate(
        x, with: .tween(to: .number(100), duration: s, delay: delay, rate: rate), placement: .engine(at: 0))
      var log = Log()
      try advance(&engine, to: end - 1, log: &log)
      #expect(number(engine, x) < 100, "rate \(rate): not yet at the end a nanosecond before")
      try advance(&engine, to: 10 * s, log: &log)
      #expect(log.times(of: .start, .node(node)) == [start], "rate \(rate)")
      #expect(log.times(of: .complete, .node(node)) == [end], "rate \(rate)")
    }
  }

  /// 10,000 pauses and resumes at odd instants, at rates 0.5 and 0.7: the animation ends at
  /// exactly start + round(duration / rate) + the total time paused.
  @Test func pausingAndResumingAtAnyRateNeverDrifts() throws {
    for rate in [0.5, 0.7, 3.0] {
      var engine = AnimationEngine()
      let x = engine.addProperty(.number(0))
      let duration = 100 * s
      let node = try engine.animate(
        x, with: .tween(to: .number(100), duration: duration, rate: rate), placement: .engine(at: 0))
      var random = SeededRandom(seed: 7)
      var t: Nanoseconds = 0
      var paused: Nanoseconds = 0
      for _ in 0..<10_000 {
        t += 1 + Nanoseconds(random.next() % 2_000_001)  // odd and even offsets alike
        try engine.advance(to: t)
        try engine.pause(node)
        let length = 1 + Nanoseconds(random.next() % 1_000_001)
        t += length
        paused += length
        try engine.advance(to: t)
        try engine.resume(node)
      }
      var log = Log()
      try advance(&engine, to: 1_000 * s, log: &log)
      #expect(log.times(of: .complete, .node(node)) == [unscaled(duration, by: rate) + paused], "rate \(rate)")
    }
  }

  /// Reversed at the very end of a timeline playing at 1.25, it plays back to its start and
  /// completes there once (0.8 s later), with no events a nanosecond apart.
  @Test func reversingAtTheEndOfAFastTimelineEndsAtItsStart() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s, fill: .forwards), rate: 1.25)
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .timeline(timeline, at: 0))
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 800 * ms, log: &log)
    #expect(log.times(of: .complete, .node(timeline)) == [800 * ms])
    try engine.reverse(timeline)
    try advance(&engine, to: 3 * s, log: &log)
    #expect(log.times(of: .complete, .node(timeline)) == [800 * ms, 1_600 * ms])
    #expect(log.times(of: .start, .node(timeline)) == [0, 800 * ms])
    #expect(log.entries.allSatisfy { [0, 800 * ms, 1_600 * ms].contains($0.time) })
    #expect(number(engine, x) == 0)
  }

  // MARK: - Timeline `set` items

  /// `timeline t { animate a.x to 100 over 1s; at 500ms set a.x to 10 }`, played at 0,
  /// reversed at 1 s: past the set the tween is masked (10 at 0.75 s, and at 1.25 s on the
  /// way back); back before it the recorded value returns and the tween shows again (50 at
  /// 1.5 s, 25 at 1.75 s), and at 2 s the timeline completes at its start with 0.
  @Test func aTimelineSetMasksEarlierItemsUntilItIsCrossedBackwards() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s, fill: .forwards))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .timeline(timeline, at: 0))
    _ = try engine.addSet(x, to: .number(10), in: timeline, at: 500 * ms)
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 750 * ms, log: &log)
    #expect(number(engine, x) == 10)
    try advance(&engine, to: s, log: &log)
    try engine.reverse(timeline)
    for (t, expected) in [(1_250 * ms, 10.0), (1_500 * ms, 50), (1_750 * ms, 25), (2_000 * ms, 0)] {
      try advance(&engine, to: t, log: &log)
      #expect(abs(number(engine, x) - expected) < 1e-9, "at \(t) ns")
    }
    #expect(log.times(of: .complete, .node(timeline)) == [s, 2 * s])
  }

  /// A set with nothing else on its property: crossed backwards it restores the value it
  /// recorded (0), and sought past again it applies (10); the recorded value survives a
  /// snapshot.
  @Test func aTimelineSetRestoresWhatItRecorded() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s, fill: .forwards))
    _ = try engine.addSet(x, to: .number(10), in: timeline, at: 500 * ms)
    try engine.play(timeline)
    try engine.advance(to: 750 * ms)
    #expect(number(engine, x) == 10)
    engine = try JSONDecoder().decode(AnimationEngine.self, from: JSONEncoder().encode(engine))
    try engine.reverse(timeline)
    try engine.advance(to: s)
    #expect(number(engine, x) == 0)
    try engine.seek(timeline, to: 900 * ms)
    try engine.advance(to: 1_100 * ms)
    #expect(number(engine, x) == 10)
    try engine.seek(timeline, to: 100 * ms)
    try engine.advance(to: 1_200 * ms)
    #expect(number(engine, x) == 0)
  }

  /// Crossed forwards, a timeline set ends the property's animations outside its timeline, as
  /// a top-level `set` does: the standalone tween toward 100 stops, and the value stays 10.
  @Test func aTimelineSetEndsAnimationsOutsideItsTimeline() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: 2 * s), placement: .engine(at: 0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s, fill: .forwards))
    _ = try engine.addSet(x, to: .number(10), in: timeline, at: 500 * ms)
    try engine.play(timeline)
    try engine.advance(to: 3 * s)
    #expect(number(engine, x) == 10)
    #expect(engine.animations(on: x).isEmpty)  // (the set item is not an animation)
  }

  // MARK: - Bounded work per advance

  /// `over 1ns repeat 1e9`: 10⁹ passes end at exactly 1 s. Advanced in ten steps, each
  /// advance fires at most 1,000 repeats and then one more for the rest; the complete still
  /// comes at 1 s with the end value.
  @Test func anAdvanceCrossesAtMostAThousandPassesOfOneAnimation() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(
      x, with: .tween(to: .number(1), duration: 1, iterations: 1e9), placement: .engine(at: 0))
    var completes: [Nanoseconds] = []
    for k in 1...10 {
      var repeats = 0
      try engine.advance(to: Nanoseconds(k) * 100 * ms) { _, event in
        if event.kind == .repeat { repeats += 1 }
        if event.kind == .complete && event.subject == .node(node) { completes.append(event.time) }
      }
      #expect(repeats <= AnimationEngine.repeatLimitPerAdvance + 1, "advance \(k)")
    }
    #expect(completes == [s])
    #expect(number(engine, x) == 1)
  }

  /// `repeat forever` at speed 10⁹ on 1 s: a pass per nanosecond. Each advance does bounded
  /// work and the value follows the formula: at k · 0.25 s the local time is k · 2.5·10¹⁷ ns,
  /// a whole number of 1 s passes, so progress 0 and the value 0.
  @Test func aVeryFastEndlessAnimationStaysCheap() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(
      x, with: .tween(to: .number(100), duration: s, iterations: .infinity, rate: 1e9), placement: .engine(at: 0))
    for k in 1...4 {
      var repeats = 0
      try engine.advance(to: Nanoseconds(k) * 250 * ms) { _, event in if event.kind == .repeat { repeats += 1 } }
      #expect(repeats <= AnimationEngine.repeatLimitPerAdvance + 1)
      #expect(number(engine, x) == 0)
    }
  }

  // MARK: - Colours keep their channels

  /// `#0088ff` → `#0088ff00`: half-way the premultiplied blend is (0, 0.267, 0.5) with
  /// alpha 0.5, which is `#0088ff80` straight; at the end exactly the written `#0088ff00`, and
  /// that is the base value it leaves.
  @Test func aFadeToTransparentKeepsItsChannels() throws {
    let blue = try #require(Color(hex: "#0088ff"))
    let clear = try #require(Color(hex: "#0088ff00"))
    #expect(clear.hexString() == "#0088ff00")
    #expect(Color.interpolate(from: blue, to: clear, progress: 0.5, in: .sRGB).hexString() == "#0088ff80")
    #expect(Color.interpolate(from: blue, to: clear, progress: 1, in: .sRGB) == clear)
    #expect(Color.interpolate(from: blue, to: clear, progress: 0, in: .oklab) == blue)
    var engine = AnimationEngine()
    let c = engine.addProperty(.color(blue))
    _ = try engine.animate(c, with: .tween(to: .color(clear), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 2 * s)
    #expect(engine.value(of: c) == .color(clear))
  }

  /// Between two transparent colors the straight channels blend: red → blue, both alpha 0,
  /// is (0.5, 0, 0.5) half-way, `#80008000`.
  @Test func twoTransparentColorsBlendTheirStraightChannels() throws {
    let red = try #require(Color(hex: "#ff000000"))
    let blue = try #require(Color(hex: "#0000ff00"))
    #expect(Color.interpolate(from: red, to: blue, progress: 0.5, in: .sRGB).hexString() == "#80008000")
  }

  // MARK: - The end of time

  /// 1 s at speed 10⁻¹⁰ would end 10¹⁹ ns from now, after the end of time (2⁶² ns): placing
  /// it, slowing a running one to that speed, or playing a timeline that slow is an error,
  /// and nothing is left behind.
  @Test func nothingMayEndAfterTheEndOfTime() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    #expect(throws: EngineError.endsAfterEndOfTime) {
      try engine.animate(x, with: .tween(to: .number(1), duration: s, rate: 1e-10), placement: .engine(at: 0))
    }
    #expect(engine.animations(on: x).isEmpty)
    #expect(engine.topLevelNodes.isEmpty)
    let node = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .engine(at: 0))
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.setRate(1e-10, of: node) }
    #expect(try engine.status(of: node).rate == 1)
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s), rate: 1e-10)
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.play(timeline) }
    try engine.setRate(0.5, of: node)  // well within time
  }
}
