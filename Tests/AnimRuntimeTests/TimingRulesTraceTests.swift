import AnimCore
import Testing

@testable import AnimRuntime

/// Issue 12's timing rules through `anim trace`, each on the issue's own worked example
/// (expected values from the rule, by hand).
@Suite struct TimingRulesTraceTests {
  func traced(_ script: String, at times: [Nanoseconds]) throws -> Traced {
    try trace(script, TraceOptions(times: times))
  }

  /// Rule 1: 0 → 200 over 4 s, then at 1 s → 100 over 1 s: value = 200·p₁ − 100·p₂.
  @Test func aShorterNewerRetargetNeverJumps() throws {
    let t = try traced(
      "target box { x: 0 }\nanimate box.x to 200 over 4s\nat 1s animate box.x to 100 over 1s\n",
      at: [s, 1_500 * ms, 2 * s, 3 * s, 4 * s, 5 * s])
    for (time, expected) in [(s, 50.0), (1_500 * ms, 25), (2 * s, 0), (3 * s, 50), (4 * s, 100), (5 * s, 100)] {
      #expect(close(t.number("box.x", at: time), expected), "at \(time)")
    }
    #expect(t.times("complete", "box.x") == [4 * s])
  }

  /// Rule 2: `at 2s animate a.v from 30 to 90 over 1s fill backwards` in a timeline played at
  /// 0: 30 at 1 s, 60 at 2.5 s, 0 (the base value) at 3.5 s.
  @Test func aBackwardsFillShowsFromWhenTheTimelinePlays() throws {
    let t = try traced(
      "target a { v: 0 }\ntimeline t { at 2s animate a.v from 30 to 90 over 1s fill backwards }\nplay t\n",
      at: [s, 2_500 * ms, 3_500 * ms])
    #expect(t.number("a.v", at: s) == 30)
    #expect(t.number("a.v", at: 2_500 * ms) == 60)
    #expect(t.number("a.v", at: 3_500 * ms) == 0)
  }

  /// grammar.md, Timing: a pass boundary belongs to the pass it starts, also reached going
  /// backwards. 3 → 0 over 1 s repeated, reversed at 1.5 s: back on the boundary at 2 s it
  /// shows pass 2's start (3) and repeats there; 1 ms later it is at the end of pass 1,
  /// 3 · (1 − 0.999); at 2.25 s, 3 · (1 − 0.75).
  @Test func aPassBoundaryReachedBackwardsShowsTheNextPasssStart() throws {
    let t = try traced(
      "target c { v: 9 }\nanimate c.v from 3 to 0 over 1s repeat 3\nat 1.5s reverse c.v\n",
      at: [2 * s, 2_001 * ms, 2_250 * ms])
    #expect(t.number("c.v", at: 2 * s) == 3)
    #expect(close(t.number("c.v", at: 2_001 * ms), 0.003))
    #expect(close(t.number("c.v", at: 2_250 * ms), 0.75))
    #expect(t.times("repeat", "c.v") == [s, 2 * s])
  }

  /// Rule 3: `delay -500ms` on 2 s reads 25 at once and completes at 1.5 s.
  @Test func aNegativeDelayStartsPartWay() throws {
    let t = try traced("target b { x: 0 }\nanimate b.x to 100 over 2s delay -500ms\n", at: [0, s, 2 * s])
    #expect(t.number("b.x", at: 0) == 25)
    #expect(t.number("b.x", at: s) == 75)
    #expect(t.times("start", "b.x") == [0])
    #expect(t.times("complete", "b.x") == [1_500 * ms])
  }

  /// Rule 4: `over 0s` at top level and in a timeline: start then complete at its instant,
  /// the end value from then on, and nothing left animating.
  @Test func aZeroLengthAnimationStartsAndCompletesAtItsInstant() throws {
    let t = try traced(
      "target a { x: 0, y: 0 }\nanimate a.x to 100 over 0s\ntimeline t { animate a.y to 50 over 0s }\nat 1s play t\n",
      at: [0, 2 * s])
    #expect(t.number("a.x", at: 0) == 100)
    #expect(t.number("a.y", at: 2 * s) == 50)
    let xEvents = t.records.compactMap { record -> String? in
      if case .event(_, let name, "a.x") = record { return name }
      return nil
    }
    #expect(xEvents == ["start", "complete"])
    #expect(t.times("start", "a.y") == [s])
    #expect(t.times("complete", "a.y") == [s])
  }

  /// Rule 5: a timeline `set` crossed backwards restores what it recorded.
  @Test func aTimelineSetIsUndoneWhenCrossedBackwards() throws {
    let t = try traced(
      "target a { x: 0 }\ntimeline t { animate a.x to 100 over 1s; at 500ms set a.x to 10 }\nplay t\nat 1s reverse t\n",
      at: [750 * ms, 1_500 * ms, 1_750 * ms, 2 * s])
    for (time, expected) in [(750 * ms, 10.0), (1_500 * ms, 50), (1_750 * ms, 25), (2 * s, 0)] {
      #expect(close(t.number("a.x", at: time), expected), "at \(time)")
    }
    #expect(t.times("complete", "t") == [s, 2 * s])
  }

  /// Rule 6: 1 s at `speed 0.25` completes at exactly 4 s; at `speed 7` at
  /// round(10⁹ / 7) = 142,857,143 ns.
  @Test func atOtherSpeedsTheEndIsTheRoundedParentTime() throws {
    let t = try traced(
      "target a { x: 0, y: 0 }\nanimate a.x to 1 over 1s speed 0.25\nanimate a.y to 1 over 1s speed 7\n", at: [5 * s])
    #expect(t.times("complete", "a.x") == [4 * s])
    #expect(t.times("complete", "a.y") == [142_857_143])
  }

  /// Rule 9: `#0088ff` → `#0088ff00` reads `#0088ff80` half-way and `#0088ff00` at the end; a
  /// declared `#0088ff00` stays itself.
  @Test func colorsKeepTheirChannels() throws {
    let t = try traced(
      "target a { c: #0088ff, d: #0088ff00 }\nanimate a.c to #0088ff00 over 1s\n", at: [500 * ms, 2 * s])
    #expect(t.value("a.c", at: 500 * ms).map { "\($0)" } == "#0088ff80")
    #expect(t.value("a.c", at: 2 * s).map { "\($0)" } == "#0088ff00")
    #expect(t.value("a.d", at: 500 * ms).map { "\($0)" } == "#0088ff00")
  }

  /// Rule 10: the segment from 1 % to 2 % of 1 s in `steps(8)` is exactly 1/8 through at
  /// 11.25 ms, so its first step (10 of 80) has been taken, as the same tween's has.
  @Test func aSegmentsStepsLandAsTheSameTweensDo() throws {
    let t = try traced(
      """
      target a { k: 0, w: 0 }
      keyframes a.k over 1s {
        0%: 0
        1%: 0
        2%: 80 with steps(8)
        100%: 80
      }
      animate a.w from 0 to 80 over 10ms with steps(8) delay 10ms
      """, at: [11_250_000])
    #expect(t.number("a.w", at: 11_250_000) == 10)
    #expect(t.number("a.k", at: 11_250_000) == 10)
  }

  /// Rule 12: a pass a nanosecond long, repeated 10⁹ times, traced at 10 fps: at most 1,001
  /// repeats per frame, and the complete at exactly 1 s.
  @Test func aVeryFastRepeatCostsAFrameWhatAnyAnimationDoes() throws {
    let t = try trace(
      "target a { x: 0 }\nanimate a.x to 1 over 0.000000001s repeat 1e9\n", TraceOptions(fps: 10))
    let repeats = t.times("repeat", "a.x")
    #expect(repeats.count <= 10 * (AnimationEngine.repeatLimitPerAdvance + 1))
    #expect(t.times("complete", "a.x") == [s])
  }

  /// grammar.md § Control: `seek` jumps and the animation plays on from there; a standalone
  /// one sought back to its start (or into its delay) is not over. 0 → 100 over 2 s, sought
  /// to 0s at 1 s: 25 at 1.5 s, 100 at 3 s, where the property completes, once. With
  /// `delay 500ms`, sought to 250ms at 1 s: 0 (its base value: no backwards fill) until
  /// 1.25 s, 12.5 at 1.5 s, complete at 3.25 s.
  @Test func aStandaloneAnimationSoughtBackPlaysOnFromThere() throws {
    let t = try traced(
      "target o { p: 0 }\nanimate o.p to 100 over 2s\nat 1s seek o.p to 0s\n", at: [1_500 * ms, 3 * s])
    #expect(t.number("o.p", at: 1_500 * ms) == 25)
    #expect(t.number("o.p", at: 3 * s) == 100)
    #expect(t.times("start", "o.p") == [0])
    #expect(t.times("complete", "o.p") == [3 * s])
    let delayed = try traced(
      "target o { p: 0 }\nanimate o.p to 100 over 2s delay 500ms\nat 1s seek o.p to 250ms\n",
      at: [1_200 * ms, 1_500 * ms, 4 * s])
    #expect(delayed.number("o.p", at: 1_200 * ms) == 0)
    #expect(delayed.number("o.p", at: 1_500 * ms) == 12.5)
    #expect(delayed.times("complete", "o.p") == [3_250 * ms])
  }

  /// grammar.md § Control: reversed in its delay, before it started, an animation plays back
  /// to where it was placed and completes there: `complete box.x` at 1 s (500 ms played in
  /// its delay, 500 ms back), its handler with it; `fill both` leaves its `from`, 40.
  @Test func anAnimationReversedInItsDelayCompletesWhereItWasPlaced() throws {
    let t = try traced(
      "target box { x: 0 }\nanimate box.x from 40 to 100 over 1s delay 1s fill both\nat 500ms reverse box.x\n",
      at: [900 * ms, 1_100 * ms])
    #expect(t.times("start", "box.x") == [0])
    #expect(t.times("complete", "box.x") == [s])
    #expect(t.number("box.x", at: 900 * ms) == 40)
    #expect(t.number("box.x", at: 1_100 * ms) == 40)
  }
}
