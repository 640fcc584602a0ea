// The oracle's own mistakes that the differential runs found (where the engine was right),
// each pinned on the oracle alone with the value the rules give, worked out in a comment.

import AnimOracle
import Testing

@Suite struct OracleFindingsTests {
  /// A seek settles what it passes as playing there would, in time order, through every pass
  /// between (grammar.md § Control). T (1 s, `repeat 2 autoreverse`) holds A (from 0 to 100
  /// over 1 s, linear, fill both). Played at 0, T ends at 2 s with A back at its start. At
  /// 3 s `seek T to 400ms` goes back through pass 2 (A forwards to its end, completing
  /// there) and into pass 1 from its end (A entering backwards): A is active, 400 ms in: 40.
  /// The oracle took T's end and A's edges there together with the pass boundary behind them
  /// and applied A's `complete` last, leaving the base value 100 (seeds 2001787, 1020169).
  @Test func aSeekBackThroughTheTurnOfAnAlternatingTimelineLeavesItsItemActive() {
    let s: OracleTime = 1_000_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(duration: s, iterations: 2, autoreverse: true), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(duration: s, fill: .both), rate: 1, replace: false),
          .inTimeline(node: 0, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 3 * s, .control(.seek(400_000_000), .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 3 * s)
    #expect(abs(world.value(of: 0) - 40) < 1e-9)
  }

  /// A `repeat forever` animation sought within its delay: nothing is crossed and the value
  /// stays the base value (rule: a seek settles what it passes; in its delay it passes
  /// nothing). A (p: 5 → 100 over 300 ms, delay 1 s, repeat forever) placed at 0; at 200 ms
  /// `seek` to 100 ms: p reads 5 at 300 ms, and A starts at 1.1 s. The oracle's list of a
  /// node's boundaries took an empty range of passes for a reversed one and trapped (a long
  /// run's group control, seeds from 9,100,000).
  @Test func aRepeatForeverAnimationSoughtWithinItsDelayCrossesNothing() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(5)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(delay: 1_000 * ms, duration: 300 * ms, iterations: .infinity), rate: 1,
            replace: false),
          .now)),
      OracleStep(time: 200 * ms, .control(.seek(100 * ms), .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 300 * ms)
    #expect(world.value(of: 0) == 5)
    let later = OracleWorld.run(steps, until: 1_100 * ms)
    #expect(later.events.contains { $0.kind == .start && $0.subject == .node(0) && $0.time == 1_100 * ms })
  }

  /// An item past its end has no term with fill backwards (rule 1: it drops out), also when
  /// its timeline gets there going backwards. T (1 s, `repeat 2`) holds A at 500 ms (to 100
  /// over 200 ms, fill backwards) and B at 900 ms (to 50 over 100 ms, fill none); p = 0.
  /// Played at 0: in pass 2 A waits again, showing its `from`, 0. `reverse T` at 1.2 s takes
  /// T back over the pass boundary at 1.4 s into pass 1 from its end, where A is past its end
  /// (no output) and B enters from its end, alone on p: from 0, at 1.45 s half-way back,
  /// 25. The oracle kept A's entry from pass 2 running toward 100, so B ran from 100: -25
  /// (seed 2007869).
  @Test func anItemWaitingWithABackwardsFillDropsOutWhenItsTimelineGoesBackIntoThePassBefore() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(duration: 200 * ms, fill: .backwards), rate: 1, replace: false),
          .inTimeline(node: 0, at: 500 * ms))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 50, curve: .linear),
            timing: OracleTiming(duration: 100 * ms, fill: OracleFill.none), rate: 1, replace: false),
          .inTimeline(node: 0, at: 900 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_200 * ms, .control(.reverse, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 1_100 * ms).value(of: 0) == 0)
    #expect(abs(OracleWorld.run(steps, until: 1_450 * ms).value(of: 0) - 25) < 1e-9)
  }

  /// `cancel` keeps the current value as the base value (grammar.md § Control), however many
  /// animations of the timeline it stops are stacked on the property. T (2 s) holds A (to 100
  /// over 1 s) and B (to 50 over 2 s), both at 0, linear; p = 0. At 500 ms A has brought 100 ·
  /// 0.5 = 50 and B −50 · 0.25 = −12.5 (rule 1: Δ = 50 − 100): 37.5, which `cancel T` there
  /// keeps, also at 600 ms. The oracle took the entries out one at a time, making the base
  /// the value each time: 25 (seeds 2037532, 1024646).
  @Test func cancellingATimelineKeepsTheValueOfItsWholeStack() {
    let ms: OracleTime = 1_000_000
    func tween(to value: Double, over duration: OracleTime) -> OracleOperation {
      .add(
        .animation(
          property: 0, shape: .tween(from: nil, to: value, curve: .linear), timing: OracleTiming(duration: duration),
          rate: 1, replace: false),
        .inTimeline(node: 0, at: 0))
    }
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 2_000 * ms), rate: 1), .idle)),
      OracleStep(time: 0, tween(to: 100, over: 1_000 * ms)),
      OracleStep(time: 0, tween(to: 50, over: 2_000 * ms)),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 500 * ms, .control(.cancel, .node(0))),
    ]
    #expect(abs(OracleWorld.run(steps, until: 500 * ms).value(of: 0) - 37.5) < 1e-9)
    #expect(abs(OracleWorld.run(steps, until: 600 * ms).value(of: 0) - 37.5) < 1e-9)
  }

  /// A cubic whose x(t) is flat at the root: cubic(1, 0.51, 0, 0.4) has x(t) = 3t − 6t² + 4t³,
  /// so x(t) − 0.5 = 4 (t − 0.5)³ and x = 0.5 at exactly t = 0.5, where y = 3 · 0.25 · 0.5 ·
  /// 0.51 + 3 · 0.5 · 0.25 · 0.4 + 0.125 = 0.46625. Solved on Doubles the root moved by about
  /// 10⁻⁷ (seed 1031528: 31.2937598 for −13 + 95 · 0.46625 = 31.29375).
  @Test func aCubicFlatAtItsRootIsSolvedThere() {
    #expect(abs(OracleCurve.cubic(1, 0.51, 0, 0.4).progress(0.5) - 0.46625) < 1e-12)
    // And a curve that is not flat anywhere still gives its exact points: ease at x(0.5).
    let x = 3 * 0.25 * 0.5 * 0.25 + 3 * 0.5 * 0.25 * 0.25 + 0.125
    let y = 3 * 0.25 * 0.5 * 0.1 + 3 * 0.5 * 0.25 * 1 + 0.125
    #expect(abs(OracleCurve.cubic(0.25, 0.1, 0.25, 1).progress(x) - y) < 1e-12)
  }

  /// Rule 6 when a timeline is held (sought, paused): a grandchild's boundary is reached
  /// where it is reached in the held timeline's time, each level rounding once. T (3 s)
  /// holds G at 561 ms (speed 3), G holds H at 703 333 333 ns (speed 0.5), H holds A at 0
  /// (from 0 to 100 over 1 s, fill none); p = 50. H's start is reached at G's time
  /// 703 333 333, which G reaches at T's time 561 000 000 + round(703 333 333 / 3) =
  /// 795 444 444: `seek T to 795444444ns` (T idle: it is held there) puts A at its start,
  /// active: 0. The oracle compared G's time rounded down from T's, round(234 444 444 · 3) =
  /// 703 333 332, one short, with H's start: A not started, 50 (seed 100213).
  @Test func aGrandchildOfAHeldTimelineStartsWhereItsStartIsReachedThroughTwoRates() {
    let steps = [
      OracleStep(time: 0, .addProperty(50)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 3_000_000_000), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(duration: 5_000_000_000), rate: 3), .inTimeline(node: 0, at: 561_000_000))),
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(duration: 2_000_000_000), rate: 0.5), .inTimeline(node: 1, at: 703_333_333))
      ),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 0, to: 100, curve: .linear),
            timing: OracleTiming(duration: 1_000_000_000, fill: OracleFill.none), rate: 1, replace: false),
          .inTimeline(node: 2, at: 0))),
      OracleStep(time: 10, .control(.seek(795_444_444), .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 10).value(of: 0) == 0)
    // A nanosecond earlier, H has not started: 50.
    var before = steps
    before[5] = OracleStep(time: 10, .control(.seek(795_444_443), .node(0)))
    #expect(OracleWorld.run(before, until: 10).value(of: 0) == 50)
  }

  /// An item that ends at its start going backwards leaves its start value with a forwards
  /// fill (grammar.md: the value where it ended, in the direction of travel, becomes the base
  /// value), also when its timeline crosses a pass boundary there at the same instant. T (1
  /// s, `repeat 2`) holds A at 0 (from 66 to 37 over 100 ms); p = 0. Played at 0 and
  /// reversed at 1.5 s, A starts back at 1.9 s and ends at its start at 2 s, where T goes
  /// back into pass 1: p is 66, also at 2.1 s. (Dropping items past their end as the pass
  /// was entered, before this instant's completes, took A at its end: 37; seed 3004475.)
  @Test func anItemEndingAtItsStartAsItsTimelineGoesBackAPassKeepsItsStartValue() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 66, to: 37, curve: .linear), timing: OracleTiming(duration: 100 * ms),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_500 * ms, .control(.reverse, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 2_000 * ms).value(of: 0) == 66)
    #expect(OracleWorld.run(steps, until: 2_100 * ms).value(of: 0) == 66)
  }

  /// A property that leaves rest by an operation fires its `start` behind the node events of
  /// its instant, the starts of animations due at that instant included, even when an
  /// operation at that instant fires events of its own first (grammar.md § Events: completes,
  /// repeats, starts, in item order; a property's start is its own rest). p = 0, T an empty
  /// timeline (1 s), never played. At 500 ms `animate p to 1 over 1s` (A), then `finish T`:
  /// `complete T` at once, then at the instant A's `start` and then p's. The oracle handed
  /// p's start out with the finish's events, before A's (seed 3026879).
  @Test func aPropertyLeavingRestStartsBehindTheAnimationsOfItsInstantAfterAFinish() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms), rate: 1), .idle)),
      OracleStep(
        time: 500 * ms,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 1, curve: .linear), timing: OracleTiming(duration: 1_000 * ms),
            rate: 1, replace: false),
          .now)),
      OracleStep(time: 500 * ms, .control(.finish, .node(0))),
    ]
    // (Both operations at 500 ms before the advance there, as the differential runs them.)
    let world = OracleWorld()
    var at: OracleTime = -1
    for step in steps {
      if step.time != at { world.advance(to: step.time) }
      at = step.time
      world.apply(step.operation)
    }
    world.advance(to: 500 * ms)
    let events = world.events.filter { $0.time == 500 * ms }
    #expect(
      events == [
        OracleEvent(time: 500 * ms, kind: .complete, subject: .node(0), reversed: false),
        OracleEvent(time: 500 * ms, kind: .start, subject: .node(1), reversed: false),
        OracleEvent(time: 500 * ms, kind: .start, subject: .property(0), reversed: false),
      ])
  }

  /// A seek that lands exactly on a point against the way its timeline plays reaches it as
  /// the jump goes, then turns and plays on: what lies there is crossed back and then forwards
  /// again, as `reverse` there does (grammar.md § Control). p = 25; T (3 s) holds `set p to
  /// 46` at 125 ms and A at 249 ms (from −9 to −31 over 906 ms, linear, fill forwards).
  /// Played at 0, T ends at 3 s. At 3.5 s `seek T to 125ms` passes A back over its start
  /// (its fill leaves −9 there), reaches the `set` going back (25 put back) and, playing on
  /// forwards from 125 ms, has it behind the playhead again: it records 25 and sets 46. The
  /// oracle stopped short of the `set` and left −9 (seed 4028225).
  @Test func aSeekLandingOnASetAgainstTheWayItPlaysAppliesItAgain() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(25)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 3_000 * ms), rate: 1), .idle)),
      OracleStep(time: 0, .add(.set(property: 0, value: 46), .inTimeline(node: 0, at: 125 * ms))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: -9, to: -31, curve: .linear), timing: OracleTiming(duration: 906 * ms),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 249 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 3_500 * ms, .control(.seek(125 * ms), .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 3_400 * ms).value(of: 0) == -31)
    #expect(OracleWorld.run(steps, until: 3_500 * ms).value(of: 0) == 46)
    // Sought a nanosecond later, the `set` stays where it was: A's start value is left.
    var later = steps
    later[5] = OracleStep(time: 3_500 * ms, .control(.seek(125 * ms + 1), .node(0)))
    #expect(OracleWorld.run(later, until: 3_500 * ms).value(of: 0) == -9)
  }

  /// A `set` masks its timeline's earlier items on its property for as long as the playhead
  /// is past it (grammar.md § Control), also when the playhead gets there going back over a
  /// pass boundary into the pass before, from its end. p = 0; T (1 s, `repeat 2`) holds A at
  /// 400 ms (to 100 over 200 ms, linear, fill both) and `set p to -11` at 500 ms. Played at
  /// 0: in pass 1 A starts at 400 ms, the `set` masks it at 500 ms (−11). Pass 2 starts at
  /// 1 s: the `set` is ahead again and A waits showing its `from`, 0. `reverse T` at 1.2 s
  /// takes T back over the boundary at 1.4 s into pass 1 from its end: at 1.5 s (900 ms into
  /// pass 1) the playhead is past the `set`, so A is masked, as it was there going forwards:
  /// −11. The oracle let A show its end value, 100 (seed 4018296).
  @Test func aSetMasksAgainWhenItsTimelineGoesBackIntoThePassBefore() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(duration: 200 * ms, fill: .both), rate: 1, replace: false),
          .inTimeline(node: 0, at: 400 * ms))),
      OracleStep(time: 0, .add(.set(property: 0, value: -11), .inTimeline(node: 0, at: 500 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_200 * ms, .control(.reverse, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 900 * ms).value(of: 0) == -11)
    #expect(OracleWorld.run(steps, until: 1_100 * ms).value(of: 0) == 0)
    #expect(OracleWorld.run(steps, until: 1_500 * ms).value(of: 0) == -11)
  }

  /// An item that fills backwards settles its `from` when its timeline is played, also one
  /// placed past its end (the timeline played from its end), to be used when the playhead
  /// reaches it going back (grammar.md § Timing). p = 18; T (2 s) holds A at 500 ms (to 160
  /// over 0s, fill both) and B at 1 s (from −81 to 0 over 100 ms, linear). `speed T -1` while
  /// idle, then `play T` at 0: T runs back from its end. B is entered from its end at 0.9 s
  /// and completes at its start at 1 s, leaving −81; at 1.5 s A (no length) starts and
  /// completes backwards, leaving its start value, its `from` settled at 0: 18. The oracle
  /// settled it when reached, from −81 (seed 3015792).
  @Test func anItemPlacedPastItsEndSettlesItsFromWhenItsTimelineIsPlayed() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(18)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 2_000 * ms), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 160, curve: .linear),
            timing: OracleTiming(duration: 0, fill: .both), rate: 1, replace: false),
          .inTimeline(node: 0, at: 500 * ms))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: -81, to: 0, curve: .linear), timing: OracleTiming(duration: 100 * ms),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 1_000 * ms))),
      OracleStep(time: 0, .control(.speed(-1), .node(0))),
      OracleStep(time: 0, .control(.play, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 1_200 * ms).value(of: 0) == -81)
    #expect(OracleWorld.run(steps, until: 1_600 * ms).value(of: 0) == 18)
  }

  /// A takeover drops only what was placed before it (grammar.md § Retargeting). p = −7. At
  /// 0, A (`merge replace`, to 169 over 287 ms) and then B (to 37 over 1 s, delay 100 ms,
  /// fill both), both linear. A takes p over from −7; B, placed after it, waits showing
  /// nothing of its own and then adds Δ = 37 − 169 = −132 (rule 1). At 143.5 ms: A 81, B
  /// −132 · 0.0435 = −5.742: 75.258; at 1.1 s, 37. The oracle's A dropped B, which had joined
  /// when placed (its backwards fill), and B ran no more: 169.
  @Test func aTakeoverAtOneInstantKeepsTheAnimationPlacedAfterIt() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(-7)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 169, curve: .linear), timing: OracleTiming(duration: 287 * ms),
            rate: 1, replace: true),
          .now)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 37, curve: .linear),
            timing: OracleTiming(delay: 100 * ms, duration: 1_000 * ms, fill: .both), rate: 1, replace: false),
          .now)),
    ]
    #expect(OracleWorld.run(steps, until: 0).value(of: 0) == -7)
    #expect(abs(OracleWorld.run(steps, until: 143_500_000).value(of: 0) - 75.258) < 1e-9)
    #expect(OracleWorld.run(steps, until: 1_100 * ms).value(of: 0) == 37)
  }

  /// Rule 6 for what a timeline holds, at the instant it is held: T (delay 318 ms, 5.142 s,
  /// speed 0.25) holds A at 196 ms (to 82 over 2.416 s). Played at 0; `speed T 3` at 112 ms
  /// (T at 28 ms): T's start 102 666 667. A's start, T's 514 ms, is reached at 102 666 667 +
  /// round(514 ms / 3) = 274 ms, where T is paused: A starts, and stays started while T
  /// stands. `speed T 0.25` at 709 ms, `resume T` at 782 ms: A goes on, firing nothing there,
  /// and completes at 782 ms + (2.93 s − 514 ms) / 0.25 = 10.446 s. The oracle held T at its
  /// rounded time, 513 999 999, one short of A's start: A went back before it at once
  /// (`complete` reversed at 782 ms) and started again 4 ns later (seed 3079174).
  @Test func pausedWhereAnItemStartsThroughARateItStaysStarted() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(-15)),
      OracleStep(
        time: 0, .add(.timeline(timing: OracleTiming(delay: 318 * ms, duration: 5_142 * ms), rate: 0.25), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 82, curve: .linear),
            timing: OracleTiming(duration: 2_416 * ms), rate: 1, replace: false),
          .inTimeline(node: 0, at: 196 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 112 * ms, .control(.speed(3), .node(0))),
      OracleStep(time: 274 * ms, .control(.pause, .node(0))),
      OracleStep(time: 709 * ms, .control(.speed(0.25), .node(0))),
      OracleStep(time: 782 * ms, .control(.resume, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 11_000 * ms)
    let events = world.events.filter { $0.subject == .node(1) }
    #expect(
      events == [
        OracleEvent(time: 274 * ms, kind: .start, subject: .node(1), reversed: false),
        OracleEvent(time: 10_446 * ms, kind: .complete, subject: .node(1), reversed: false),
      ])
    #expect(abs(world.value(of: 0) - 82) < 1e-9)
  }

  /// Rule 6 at every level: where a descendant's boundary is reached, the timeline's time is
  /// that boundary mapped up, not its own rounded time. T (5.297349484 s) holds a track K at
  /// 4.569349484 s (over 367 ms, delay 361 ms, fill none: 0%: 35, 56%: −13, 100%: −165,
  /// linear) and S, `set p to 96`, at 5.137349484 s. Played at 0, `speed T 7` at 1.458 s: S
  /// is reached where T's time is exactly 5.137349484 s, K's 568 ms, 207 ms into its pass,
  /// past its 56% point at round(0.56 · 367 ms) = 205.52 ms: S records −13 − 152 · 1.48 /
  /// 161.48. `reverse T` at 3.232 s (T had finished): back over S, which puts that value
  /// back, and over K, whose fill none leaves it: at 3.309 s, that value. The oracle recorded
  /// K at T's rounded time there, a few ns off (seed 6064393).
  @Test func aSetReachedThroughARateRecordsItsSiblingAtItsOwnPoint() {
    let ms: OracleTime = 1_000_000
    let length: OracleTime = 367 * ms
    let steps = [
      OracleStep(time: 0, .addProperty(18)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 5_297_349_484), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0,
            shape: .keyframes([
              OracleKeyframe(percent: 0, duration: length, value: 35),
              OracleKeyframe(percent: 56, duration: length, value: -13),
              OracleKeyframe(percent: 100, duration: length, value: -165),
            ]),
            timing: OracleTiming(delay: 361 * ms, duration: length, fill: .none), rate: 1, replace: false),
          .inTimeline(node: 0, at: 4_569_349_484))),
      OracleStep(time: 0, .add(.set(property: 0, value: 96), .inTimeline(node: 0, at: 5_137_349_484))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_458 * ms, .control(.speed(7), .node(0))),
      OracleStep(time: 3_232 * ms, .control(.reverse, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 3_309 * ms)
    #expect(abs(world.value(of: 0) - (-13 - 152 * 1_480_000 / 161_480_000.0)) < 1e-12)
  }

  /// A timeline paused at the instant it was played stands at its start, where its item
  /// starts too (rule 6: its time at S + round(u / r) is u); resumed at 297 ms, both start
  /// there: S = 297 ms − round(0 / r) = 297 ms. T (9 s, `repeat 2 autoreverse`, speed
  /// 0.25) holds a group G at 0; `play T` and `pause T` at 0, `speed T 2` at 284 ms, `resume
  /// T` at 297 ms. The oracle moved T's hold a nanosecond back, short of G's start, which it
  /// had not crossed, so both started at 297 000 001 (seed 10020182; at any rate, 1 too).
  @Test func aTimelinePausedAsItIsPlayedStartsWithItsItemWhereItIsResumed() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(duration: 9_000 * ms, iterations: 2, autoreverse: true), rate: 0.25), .idle)
      ),
      OracleStep(
        time: 0, .add(.timeline(timing: OracleTiming(duration: 4_000 * ms), rate: 1), .inTimeline(node: 0, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 0, .control(.pause, .node(0))),
      OracleStep(time: 284 * ms, .control(.speed(2), .node(0))),
      OracleStep(time: 297 * ms, .control(.resume, .node(0))),
    ]
    // (As the differential runs it: every step at an instant, then the advance.)
    let observation = runOracle(DifferentialCase(steps: steps, samples: [300 * ms]))
    let starts = observation.events.filter { $0.kind == .start }
    #expect(starts.map(\.time) == [297 * ms, 297 * ms])
    #expect(starts.map(\.subject) == [.node(0), .node(1)])
  }

  /// Web Animations' before flag is the before phase in the direction of the pass the active
  /// time falls in. T (2 s) holds at 1 s A (p: from 160 to 171 over 40 ms, steps(2,
  /// jumpBoth), delay −60 ms, repeat 3, autoreverse, fill backwards). Played at 0, A waits:
  /// its active time is max(−1 s + 60 ms, 0) = 0, the start of its first pass (forwards), so
  /// the before flag is set and steps(2, jumpBoth) at 0 gives step 0: 160. The oracle took
  /// the flag from the pass where A's active phase begins at its local time 0 (60 ms in: the
  /// second pass, backwards), unset, and read step 1 of 3: 163.67 (seed 10112263).
  @Test func aBackwardsFillWithANegativeDelaySetsTheBeforeFlagByThePassItReads() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 2_000 * ms), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 160, to: 171, curve: .steps(2, .jumpBoth)),
            timing: OracleTiming(
              delay: -60 * ms, duration: 40 * ms, iterations: 3, autoreverse: true, fill: .backwards),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 1_000 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 500 * ms)
    #expect(world.value(of: 0) == 160)
  }

  /// A property's `complete` goes the way of the crossing that brought it to rest, also when
  /// a hand-over at that instant falls through and it rests after all (grammar.md § Events).
  /// Seed 4024062's case (a timeline at speed −1 crossing back a masked zero-length item where
  /// another starts): the oracle fired that `complete` forwards at the end of the instant,
  /// the engine reversed. The events of the whole case now agree (its values part later, at a
  /// zero-length item masked in a later pass: an open class, Tests/AnimDifferentialTests/README.md).
  @Test func aPropertysCompleteGoesTheWayOfTheCrossingThatBroughtItToRest() {
    var generator = CaseGenerator(seed: 4_024_062)
    let c = generator.generate()
    let engine = runEngine(c)
    let oracle = runOracle(c)
    #expect(engine.events.map(\.description) == oracle.events.map(\.description))
  }

  /// A standalone animation is done only when it completes the way it plays (grammar.md §
  /// Control): sought into its delay it waits there and starts again. A (p from 20 to 100
  /// over 2 s, delay 500 ms, fill both) placed at 0 on p = 0, sought to 250 ms at 1 s: 20
  /// until 1.25 s, where it starts again; 0.25 s in at 1.5 s: 20 + 80/8 = 30. Both sides
  /// took it away at the seek (seed 10041979).
  @Test func anAnimationSoughtIntoItsDelayWaitsAndStartsAgain() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 20, to: 100, curve: .linear),
            timing: OracleTiming(delay: 500 * ms, duration: 2_000 * ms, fill: .both), rate: 1, replace: false),
          .now)),
      OracleStep(time: 1_000 * ms, .control(.seek(250 * ms), .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 1_200 * ms).value(of: 0) == 20)
    let world = OracleWorld.run(steps, until: 1_500 * ms)
    #expect(abs(world.value(of: 0) - 30) < 1e-9)
    #expect(world.events.filter { $0.subject == .node(0) }.map(\.time) == [500 * ms, 1_250 * ms])
  }

  /// Waiting again, it keeps its place in the stack: what is placed after it adds to it. A
  /// (p to 100 over 1 s, delay 1 s, fill backwards) placed at 0 on p = 0, sought to 500 ms at
  /// 1.5 s, waits until 2 s showing 0; B (p to 200 over 1 s) placed at 1.6 s changes p from
  /// A's target 100 to 200. At 2.1 s: A 10, B +50: 60. The oracle dropped A's term at the
  /// seek and joined it again above B when it started (seed 11020483).
  @Test func anAnimationSoughtIntoItsDelayKeepsItsPlaceInTheStack() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(delay: 1_000 * ms, duration: 1_000 * ms, fill: .backwards), rate: 1, replace: false),
          .now)),
      OracleStep(time: 1_500 * ms, .control(.seek(500 * ms), .node(0))),
      OracleStep(
        time: 1_600 * ms,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 200, curve: .linear),
            timing: OracleTiming(duration: 1_000 * ms), rate: 1, replace: false),
          .now)),
    ]
    #expect(abs(OracleWorld.run(steps, until: 1_800 * ms).value(of: 0) - 20) < 1e-9)
    #expect(abs(OracleWorld.run(steps, until: 2_100 * ms).value(of: 0) - 60) < 1e-9)
  }

  /// Going back over a pass boundary into the pass before, from its end, the property shows
  /// what that pass left at its end (grammar.md § Timing). T (1 s, `repeat 2`) holds K (p from
  /// 10 to 20 over 0s at 400 ms, fill both) and N (p to 100 over 300 ms at 400 ms), p = 0.
  /// Pass 1 leaves K's end, 20, and N's change from there to 100: 100. In pass 2 K waits
  /// again showing 10. Reversed at 1.2 s, T is back in pass 1 at 1.4 s: at 1.5 s (0.9 s into
  /// pass 1) both are past their ends: 100. The oracle froze K at its end over everything,
  /// N's change already in the base value: 20 (seeds 11047046, 13030580's class).
  @Test func backInThePassBeforeAPropertyShowsWhatThatPassLeftAtItsEnd() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 10, to: 20, curve: .linear),
            timing: OracleTiming(duration: 0, fill: .both), rate: 1, replace: false),
          .inTimeline(node: 0, at: 400 * ms))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(duration: 300 * ms), rate: 1, replace: false),
          .inTimeline(node: 0, at: 400 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_200 * ms, .control(.reverse, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 1_100 * ms).value(of: 0) == 10)
    #expect(abs(OracleWorld.run(steps, until: 1_500 * ms).value(of: 0) - 100) < 1e-9)
  }

  /// Rule 6 at a timeline held exactly where a group in it ends: its time is u there, and
  /// what else it holds reads it. T (8 s, speed 0.5) holds G (`autoreverse`, one pass of
  /// 672 ms, holding K: p0 to 172 over 672 ms) at 0 and P (p1 from −27 to 54 over 427 ms,
  /// speed 2) at 535 ms. Paused at 1.344 s, where G ends, T's time is 672 ms, P's
  /// round((672 − 535) ms · 2) = 274 ms: p1 = −27 + 81 · 274/427. The oracle took K's end,
  /// reached exactly then, for one to keep on its far side (K's end mapped through the
  /// backwards pass G's `autoreverse` would begin next), held T a nanosecond short of it,
  /// and read P 2 ns short (seeds 15041318, 12056383; and 17123560, a timeline paused as it
  /// is played from its end, held a nanosecond past it).
  @Test func aTimelineHeldWhereAnAutoreverseGroupInItEndsReadsThatTime() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(17)),
      OracleStep(time: 0, .addProperty(39)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 8_000 * ms), rate: 0.5), .idle)),
      OracleStep(
        time: 0,
        .add(
          .timeline(timing: OracleTiming(duration: 672 * ms, autoreverse: true), rate: 1), .inTimeline(node: 0, at: 0))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 172, curve: .linear),
            timing: OracleTiming(duration: 672 * ms), rate: 1, replace: false),
          .inTimeline(node: 1, at: 0))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 1, shape: .tween(from: -27, to: 54, curve: .linear),
            timing: OracleTiming(duration: 427 * ms), rate: 2, replace: false),
          .inTimeline(node: 0, at: 535 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_344 * ms, .control(.pause, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 1_400 * ms)
    #expect(abs(world.value(of: 1) - (-27 + 81 * 274.0 / 427.0)) < 1e-12)
    #expect(world.value(of: 0) == 172)
  }

  /// Going back over a pass boundary, what lies at the later pass's start is crossed before
  /// what lies at the end of the pass before (grammar.md § Events: in time order). T (1 s,
  /// `repeat 2`) holds A (p from 0 to 10 over 0s, fill none) and B (p from 100 to 200 over
  /// 1 s, fill none), both at 0; p = 36. Played at 0 and reversed at 1.5 s, T is back on its
  /// boundary at 2 s: B completes (reversed), A starts and completes, T repeats, and B
  /// starts (reversed) from its end in pass 1, which it plays back through: 150 at 2.5 s.
  /// The oracle delivered A after B's start, in reversed item order whichever pass each lay
  /// in: A took the property over from B and ended, and p stayed 36 (seeds 7027170, 17183274).
  @Test func goingBackOverAPassBoundaryTheLaterPassIsCrossedFirst() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(36)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 0, to: 10, curve: .linear), timing: OracleTiming(duration: 0, fill: .none),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 0))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 100, to: 200, curve: .linear),
            timing: OracleTiming(duration: 1_000 * ms, fill: .none),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_500 * ms, .control(.reverse, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 2_500 * ms)
    #expect(world.value(of: 0) == 150)
    let order = world.events.filter { $0.time == 2_000 * ms }.compactMap { event -> String? in
      guard case .node(let id) = event.subject else { return nil }
      return "\(["T", "A", "B"][id]) \(event.kind)"
    }
    #expect(order == ["B complete", "T repeat", "A start", "A complete", "B start"])
  }

  /// A standalone animation reversed before it started plays back to where it was placed,
  /// its local time 0, and completes there, reversed, its property coming to rest (grammar.md
  /// § Control). A (p from 40 to 100 over 1 s, delay 1 s, fill both) placed at 0 on p = 0,
  /// reversed at 500 ms: `complete` of A and of p, reversed, at exactly 1 s, and p keeps its
  /// `from`, 40 (a forwards fill leaves the start value).
  @Test func aStandaloneAnimationReversedInItsDelayCompletesWhereItWasPlaced() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 40, to: 100, curve: .linear),
            timing: OracleTiming(delay: 1_000 * ms, duration: 1_000 * ms, fill: .both), rate: 1, replace: false),
          .now)),
      OracleStep(time: 500 * ms, .control(.reverse, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 2_000 * ms)
    let completes = world.events.filter { $0.kind == .complete }
    #expect(completes.map(\.time) == [1_000 * ms, 1_000 * ms])
    #expect(completes.map(\.subject) == [.node(0), .property(0)])
    #expect(completes.map(\.reversed) == [true, true])
    #expect(world.value(of: 0) == 40)
  }

  /// Rule 6 through a group that has ended: its items stand at its last pass's end and none
  /// of their boundaries lies beyond it. T (3,792,666,667 ns) holds G (587 ms) at 0, and G
  /// holds A (p0 to −55 over 587 ms). Played at 0; paused at 355 ms (T's time 355 ms); speed
  /// 7 at 801 ms; resumed at 826 ms: S = 826 ms − round(355 ms / 7) = 826,000,000 −
  /// 50,714,286 = 775,285,714 (G and A end at S + round(587 ms / 7) = 859,142,857). Paused at
  /// 943 ms: T's time is round((943,000,000 − 775,285,714) · 7) = 167,714,286 · 7 =
  /// 1,174,000,002, nothing in it near (G ended at 587 ms). Speed 2 at 1.088 s, resumed at
  /// 1.474 s: S = 1,474,000,000 − round(1,174,000,002 / 2) = 886,999,999; T completes at S +
  /// round(3,792,666,667 / 2) = 886,999,999 + 1,896,333,334 = 2,783,333,333. The oracle
  /// mapped A's end through a second pass of G, which never runs, to T's 1,174,000,000, took
  /// it as reached, held T there and completed it 1 ns late (seed 15037736; 16103993,
  /// 19147299 and 19204345 too).
  @Test func aGroupPastItsEndMapsWhatItHoldsThroughItsLastPass() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(-15)),
      OracleStep(
        time: 0, .add(.timeline(timing: OracleTiming(duration: 3_792_666_667, fill: .forwards), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(duration: 587 * ms, fill: .forwards), rate: 1), .inTimeline(node: 0, at: 0))
      ),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: -55, curve: .linear),
            timing: OracleTiming(duration: 587 * ms), rate: 1, replace: false),
          .inTimeline(node: 1, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 355 * ms, .control(.pause, .node(0))),
      OracleStep(time: 801 * ms, .control(.speed(7), .node(0))),
      OracleStep(time: 826 * ms, .control(.resume, .node(0))),
      OracleStep(time: 943 * ms, .control(.pause, .node(0))),
      OracleStep(time: 1_088 * ms, .control(.speed(2), .node(0))),
      OracleStep(time: 1_474 * ms, .control(.resume, .node(0))),
    ]
    let events = OracleWorld.run(steps, until: 3_000 * ms).events
    #expect(events.contains { $0.kind == .complete && $0.subject == .node(2) && $0.time == 859_142_857 })
    #expect(events.filter { $0.kind == .complete && $0.subject == .node(0) }.map(\.time) == [2_783_333_333])
  }

  /// Back over a pass boundary into the pass before, what joined the stack by its backwards
  /// fill as the pass left behind began goes as it came, also an item lying at the end of the
  /// pass, which the playhead crosses back at once. T (1 s, `repeat 2`) holds, at 1 s, A (p
  /// from −131 to 66 over 0s, fill backwards) and then B (p to −121 over 0s, fill forwards);
  /// p = −4. Played at 0: A shows −131 while it waits; at 1 s A starts and ends (it drops out)
  /// and B starts from −4 and ends at −121; pass 2 begins and A waits again, showing −131.
  /// Reversed at 1.5 s, T is back on its boundary at 2 s and enters pass 1 from its end,
  /// crossing B and A back: B, ended at its start, leaves its start value, −4 (a forwards
  /// fill), and A shows nothing: −4 at 2.5 s. The oracle kept A's fill of pass 2 in the stack
  /// (it no longer stood at its end when the pass boundary was applied), and B joined it
  /// additively, its start the −131 + 197 it was heading to: −121 (seed 20037532; 17062981).
  @Test func backOverAPassBoundaryAFillOfTheNewPassGoesAlsoAtThePassEnd() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(-4)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: -131, to: 66, curve: .linear),
            timing: OracleTiming(duration: 0, fill: .backwards), rate: 1, replace: false),
          .inTimeline(node: 0, at: 1_000 * ms))),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: -121, curve: .linear), timing: OracleTiming(duration: 0),
            rate: 1, replace: false),
          .inTimeline(node: 0, at: 1_000 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 1_500 * ms, .control(.reverse, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 500 * ms).value(of: 0) == -131)
    #expect(OracleWorld.run(steps, until: 1_250 * ms).value(of: 0) == -131)
    #expect(OracleWorld.run(steps, until: 2_500 * ms).value(of: 0) == -4)
  }

  /// At the turn of an alternating pass, what the playhead crosses forwards at the end of one
  /// pass goes before what it crosses backwards at the start of the next (grammar.md §
  /// Events: in time order). T (1 s, `repeat 2 autoreverse`) holds A at 1 s (p from 10 to 20
  /// over 0s, fill forwards); p = 0. Played at 0, T turns at 1 s: A starts and completes
  /// forwards, then backwards, ended at its start: its forwards fill leaves 10 through pass
  /// 2. The oracle delivered the backwards crossing first, as the engine did, and read 20.
  @Test func atTheTurnOfAnAlternatingPassTheForwardCrossingGoesFirst() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .timeline(timing: OracleTiming(duration: 1_000 * ms, iterations: 2, autoreverse: true), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 10, to: 20, curve: .linear), timing: OracleTiming(duration: 0), rate: 1,
            replace: false),
          .inTimeline(node: 0, at: 1_000 * ms))),
      OracleStep(time: 0, .control(.play, .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 1_500 * ms)
    #expect(world.value(of: 0) == 10)
    let order = world.events.filter { $0.time == 1_000 * ms && $0.subject == .node(1) }.map(\.reversed)
    #expect(order == [false, false, true, true])
  }

  /// A keyframe's percent is the nanosecond round(p / 100 · duration) of a pass, halves up,
  /// exactly (grammar.md § Declarations and animations): 17.5 % of 672 635 900 ns is
  /// 117 711 282.5, so 117 711 283; 0.1 % of 5 ns is 0.005, so 0; 12.5 % of 4 ns is 0.5, so 1.
  /// The oracle multiplied in floating point, where 0.175 · 672 635 900 is 117 711 282.49999999,
  /// and rounded it down (seeds 22292985, 22003120: a value 5 · 10⁻⁷ apart).
  @Test func aKeyframesPercentIsItsNanosecondExactly() {
    #expect(OracleKeyframe(percent: 17.5, duration: 672_635_900, value: 0).position == 117_711_283)
    #expect(OracleKeyframe(percent: 0.1, duration: 5, value: 0).position == 0)
    #expect(OracleKeyframe(percent: 12.5, duration: 4, value: 0).position == 1)
    #expect(OracleKeyframe(percent: 54, duration: 367_834_540, value: 0).position == 198_630_652)
  }

  /// Rule 6: between boundaries an animation's local time is kept inside the phase its
  /// parent's time puts it in. T (delay 388 ms, 10.28775 s, repeat 2) holds A at 6.75 ms (p
  /// from 102 to −87 over 443 ms, fill none). Played at 0, paused at 228 ms, sped to 0.25 at
  /// 525 ms, resumed at 559 ms: S = 559 ms − round(228 ms / 0.25) = −353 ms; sped to 0.25 again
  /// at 728 000 797 ns: T's time there is round(1 081 000 797 · 0.25) = 270 250 199, so S =
  /// 728 000 797 − round(270 250 199 / 0.25) = −352 999 999. A's end, T's own 388 + 6.75 + 443
  /// = 837.75 ms, is reached at S + round(837.75 ms / 0.25) = 2 998 000 001. At 2 998 000 000,
  /// T's time round(3 350 999 999 · 0.25) = 837 750 000 lands on it a nanosecond early: A is
  /// still active, 442 999 999 ns in: 102 − 189 · 442 999 999 / 443 000 000. The oracle read
  /// A at its end, −87 (seed 5165948).
  @Test func anActiveAnimationsLocalTimeStaysShortOfABoundaryNotYetReached() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(17)),
      OracleStep(
        time: 0,
        .add(.timeline(timing: OracleTiming(delay: 388 * ms, duration: 10_287_750_000, iterations: 2), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 102, to: -87, curve: .linear),
            timing: OracleTiming(duration: 443 * ms, fill: .none), rate: 1, replace: false),
          .inTimeline(node: 0, at: 6_750_000))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 228 * ms, .control(.pause, .node(0))),
      OracleStep(time: 525 * ms, .control(.speed(0.25), .node(0))),
      OracleStep(time: 559 * ms, .control(.resume, .node(0))),
      OracleStep(time: 728_000_797, .control(.speed(0.25), .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 2_998_000_000)
    #expect(abs(world.value(of: 0) - (102 - 189 * 442_999_999 / 443_000_000)) < 1e-12)
    let later = OracleWorld.run(steps, until: 3_000_000_000)
    #expect(later.events.filter { $0.subject == .node(1) && $0.kind == .complete }.map(\.time) == [2_998_000_001])
  }

  /// Of two `merge replace` animations placed at one instant, the second shows, whatever
  /// their fills (grammar.md § Retargeting). p = 0; A (to 100 over 1 s) runs from 0. At
  /// 500 ms (p = 50), B (to 200 over 1 s, `merge replace`) and then C (to −100 over 1 s,
  /// `merge replace`, fill both). C took p over where it was placed, from 50; B, placed
  /// before it, is dropped as it starts (its `start` fires, nothing more), and C starts: p
  /// animates on until C completes at 1.5 s. At 1 s: 50 − 150 · 0.5 = −25. (The rule the
  /// engine now follows, seeds 7057648 and 16054118; the oracle's B dropped C as it joined,
  /// which C's own start undid here but not in those seeds.)
  @Test func ofTwoTakeoversPlacedAtOneInstantTheSecondShows() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear), timing: OracleTiming(duration: 1_000 * ms),
            rate: 1, replace: false), .now)),
      OracleStep(
        time: 500 * ms,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 200, curve: .linear), timing: OracleTiming(duration: 1_000 * ms),
            rate: 1, replace: true), .now)),
      OracleStep(
        time: 500 * ms,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: -100, curve: .linear),
            timing: OracleTiming(duration: 1_000 * ms, fill: .both), rate: 1, replace: true),
          .now)),
    ]
    let world = OracleWorld.run(steps, until: 1_000 * ms)
    #expect(world.value(of: 0) == -25)
    let later = OracleWorld.run(steps, until: 2_000 * ms)
    #expect(later.value(of: 0) == -100)
    #expect(later.events.filter { $0.subject == .node(1) }.map(\.kind) == [.start])
    #expect(later.events.filter { $0.subject == .node(2) }.map(\.kind) == [.start, .complete])
    let propertyEvents = later.events.filter { $0.subject == .property(0) }
    #expect(propertyEvents.map(\.kind) == [.start, .complete])
    #expect(propertyEvents.map(\.time) == [0, 1_500 * ms])
  }

  /// An animation dropped as it starts fires its `start` and nothing more, even one of no
  /// length, whose `complete` lies at the same instant (grammar.md § Retargeting). p = 0. X
  /// (to 100 over 0s, delay 1 s, `merge replace`) placed at 0; T (to 50 over 1 s, delay 1 s,
  /// fill both, `merge replace`) at 500 ms takes p over there. X starts at 1 s and is
  /// dropped: p stays T's `from`, 0. (The oracle fired X's `complete` after its `start`:
  /// seed 12081364.)
  @Test func anAnimationOfNoLengthDroppedAsItStartsFiresOnlyItsStart() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(delay: 1_000 * ms, duration: 0), rate: 1, replace: true), .now)),
      OracleStep(
        time: 500 * ms,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 50, curve: .linear),
            timing: OracleTiming(delay: 1_000 * ms, duration: 1_000 * ms, fill: .both), rate: 1, replace: true),
          .now)),
    ]
    let world = OracleWorld.run(steps, until: 1_200 * ms)
    #expect(world.value(of: 0) == 0)
    #expect(world.events.filter { $0.subject == .node(0) }.map(\.kind) == [.start])
  }

  /// Rule 6: passes are decided by comparing the parent time with the time each boundary is
  /// reached, and between boundaries the local time is kept inside the pass so decided, also
  /// going backwards, where rounding can land it on the boundary it has already crossed. T
  /// (10 s) holds A at 0 (p from 0 to 100 over 1 s, repeat 3, linear, fill none, speed 0.5).
  /// A's boundary between passes 2 and 3, its own 2 s, is reached at T's time 0 + round(2 s /
  /// 0.5) = 4 s. Played at 0 and reversed at 5 s (T's time then 10 s − t), T reaches 4 s at
  /// 6 s: A's `repeat` (reversed) there, and A on the boundary shows pass 3's start, 0
  /// (grammar.md § Timing: a boundary belongs to the pass it starts). At 6 s + 1 ns T's time
  /// is 3 999 999 999, short of 4 s: A is back in pass 2, and round(3 999 999 999 · 0.5) =
  /// round(1 999 999 999.5) = 2 s is kept inside it, 1 999 999 999: 100 · 0.999 999 999. The
  /// oracle kept a backwards zone's upper boundary inside it and read pass 3's start there,
  /// 0 (seed 5010570, at two rates: T at speed 3 sought, then at speed −1).
  @Test func goingBackALocalTimeRoundedOntoAPassBoundaryAlreadyCrossedStaysInThePassBefore() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(time: 0, .add(.timeline(timing: OracleTiming(duration: 10_000 * ms), rate: 1), .idle)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: 0, to: 100, curve: .linear),
            timing: OracleTiming(duration: 1_000 * ms, iterations: 3, fill: .none), rate: 0.5, replace: false),
          .inTimeline(node: 0, at: 0))),
      OracleStep(time: 0, .control(.play, .node(0))),
      OracleStep(time: 5_000 * ms, .control(.reverse, .node(0))),
    ]
    let atBoundary = OracleWorld.run(steps, until: 6_000 * ms)
    #expect(atBoundary.value(of: 0) == 0)
    #expect(
      atBoundary.events.filter { $0.subject == .node(1) && $0.kind == .repeat }.map(\.time)
        == [2_000 * ms, 4_000 * ms, 6_000 * ms])
    for t in [6_000 * ms + 1, 6_000 * ms + 2] {
      let world = OracleWorld.run(steps, until: t)
      #expect(abs(world.value(of: 0) - 100 * 0.999_999_999) < 1e-9, "at \(t) ns")
    }
  }

  /// Standing at a start (grammar.md § Timing): an animation paused exactly where it started
  /// and then turned back stands there, its local time its start, until it moves. p = 0. A
  /// (to 100 over 1 s, delay 500 ms, fill backwards, linear) placed at 0 starts at 500 ms and
  /// is paused there; `speed -1` at 800 ms. At 800 ms it shows progress 0: 0. (The oracle
  /// kept a backwards local time a nanosecond above the boundary behind it even where it
  /// stood on it: 100 · 1e−9; seeds 24202856, 24109286.)
  @Test func pausedAtItsStartAndTurnedBackItStandsOnItsStart() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(delay: 500 * ms, duration: 1_000 * ms, fill: .backwards), rate: 1, replace: false),
          .now)),
      OracleStep(time: 500 * ms, .control(.pause, .node(0))),
      OracleStep(time: 800 * ms, .control(.speed(-1), .node(0))),
    ]
    let world = OracleWorld.run(steps, until: 800 * ms)
    #expect(world.value(of: 0) == 0)
    #expect(world.events.filter { $0.subject == .node(0) }.map(\.kind) == [.start])
  }

  /// A speed change while paused moves nothing (grammar.md § Timing), also on a pass
  /// boundary. p = 0. A (to 100 over 1 s, repeat forever, linear) placed at 0; `speed -1` at
  /// 2.5 s takes it back from its 2.5 s; at 3 s it reaches its boundary at 2 s going back (a
  /// reversed `repeat`) and is paused there, showing pass 3's start (a boundary belongs to the
  /// pass it starts): 0. `speed 1` at 3.5 s leaves it there: 0. Resumed at 4 s, it runs on in
  /// pass 3: at 4.25 s, 25. (The oracle kept the turned animation a nanosecond short of the
  /// boundary ahead of it, pass 2's end: 100 · (1 − 1e−9); seed 25257746.)
  @Test func turnedForwardsWhilePausedOnAPassBoundaryItsValueDoesNotMove() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(duration: 1_000 * ms, iterations: .infinity), rate: 1, replace: false),
          .now)),
      OracleStep(time: 2_500 * ms, .control(.speed(-1), .node(0))),
      OracleStep(time: 3_000 * ms, .control(.pause, .node(0))),
      OracleStep(time: 3_500 * ms, .control(.speed(1), .node(0))),
      OracleStep(time: 4_000 * ms, .control(.resume, .node(0))),
    ]
    #expect(OracleWorld.run(steps, until: 3_000 * ms).value(of: 0) == 0)
    #expect(OracleWorld.run(steps, until: 3_500 * ms).value(of: 0) == 0)
    #expect(OracleWorld.run(steps, until: 4_250 * ms).value(of: 0) == 25)
  }

  /// A negative delay starts an animation part-way, and the passes it skips fire no `repeat`
  /// (rule 3), also with `repeat forever`; played back below where it started, it loops on
  /// down through its passes (grammar.md § Timing: that point is no boundary). p = 0. A (to
  /// 100 over 1 s, delay −2.5 s, repeat forever, linear) placed at 0 starts in pass 3, 500 ms
  /// in: 50, with its `start` alone. Forwards it reaches pass 4 at 500 ms (`repeat`);
  /// `speed -1` at 600 ms takes it back over that boundary at 700 ms (reversed `repeat`),
  /// through where it started at 1.2 s (50, nothing fired) and over pass 3's start at 1.7 s
  /// (reversed `repeat`): at 2 s it is 700 ms into pass 2: 70. (The oracle counted the
  /// passes an endless animation's negative delay skips as crossed at its start, firing a
  /// `repeat` for each; seed 25015923.)
  @Test func anEndlessAnimationStartedPartWayFiresNoRepeatForThePassesItsDelaySkips() {
    let ms: OracleTime = 1_000_000
    let steps = [
      OracleStep(time: 0, .addProperty(0)),
      OracleStep(
        time: 0,
        .add(
          .animation(
            property: 0, shape: .tween(from: nil, to: 100, curve: .linear),
            timing: OracleTiming(delay: -2_500 * ms, duration: 1_000 * ms, iterations: .infinity), rate: 1,
            replace: false),
          .now)),
      OracleStep(time: 600 * ms, .control(.speed(-1), .node(0))),
    ]
    let atPlacement = OracleWorld.run(steps, until: 0)
    #expect(atPlacement.value(of: 0) == 50)
    #expect(atPlacement.events.filter { $0.subject == .node(0) }.map(\.kind) == [.start])
    #expect(OracleWorld.run(steps, until: 1_200 * ms).value(of: 0) == 50)
    let world = OracleWorld.run(steps, until: 2_000 * ms)
    #expect(abs(world.value(of: 0) - 70) < 1e-9)
    let repeats = world.events.filter { $0.subject == .node(0) && $0.kind == .repeat }
    #expect(repeats.map(\.time) == [500 * ms, 700 * ms, 1_700 * ms])
  }
}
