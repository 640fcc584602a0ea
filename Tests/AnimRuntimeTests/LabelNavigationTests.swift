import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// grammar.md § Label navigation, traced: `seek X to LABEL ± D`, `play X from A [to B]` and
/// `pause X at A`, each to the nanosecond. The timeline `intro` below: a.x 0 → 100 over
/// [0, 1 s], then the label `landed` (1 s), then 100 → 0 over [1 s, 2 s] (linear): its value
/// at local time τ is 100 · τ / 1 s before 1 s and 100 · (2 s − τ) / 1 s after.
@Suite("Runtime: label navigation")
struct LabelNavigationTests {
  static let intro = """
    target a { x: 0 }
    timeline intro {
      animate a.x to 100 over 1s
      label landed
      animate a.x to 0 over 1s
    }
    on start intro { print "start {now}" }
    on complete intro { print "complete {now}" }

    """

  @Test func seekToALabelPlusAnOffset() throws {
    let traced = try trace(
      Self.intro + """
        play intro
        at 100ms pause intro
        at 200ms seek intro to landed + 250ms
        at 300ms seek intro to landed - 600ms
        at 400ms seek intro to 50ms
        """, TraceOptions(times: [200 * ms, 300 * ms, 400 * ms]))
    #expect(traced.number("a.x", at: 200 * ms) == 75)
    #expect(traced.number("a.x", at: 300 * ms) == 40)
    #expect(traced.number("a.x", at: 400 * ms) == 5)
  }

  @Test func playFromAToBPausesExactlyAtB() throws {
    // From 250 ms toward landed: local time 250 ms + t; it reaches landed at 750 ms and
    // stays paused there, without `complete`.
    let traced = try trace(
      Self.intro + """
        play intro from 250ms to landed
        """, TraceOptions(times: [0, 500 * ms, 750 * ms, 2 * s], until: 3 * s))
    #expect(traced.number("a.x", at: 0) == 25)
    #expect(traced.number("a.x", at: 500 * ms) == 75)
    #expect(traced.number("a.x", at: 750 * ms) == 100)
    #expect(traced.number("a.x", at: 2 * s) == 100)
    #expect(traced.prints.map(\.1) == ["start 0s"])
  }

  @Test func playFromAToAnEarlierBPlaysBackwards() throws {
    // From 1.5 s back to 1.25 s: local time 1.5 s − t; value 100 · (2 s − τ).
    let traced = try trace(
      Self.intro + """
        play intro from landed + 500ms to landed + 250ms
        """, TraceOptions(times: [0, 100 * ms, 250 * ms, s], until: 2 * s))
    #expect(traced.number("a.x", at: 0) == 50)
    #expect(close(traced.number("a.x", at: 100 * ms), 60))
    #expect(traced.number("a.x", at: 250 * ms) == 75)
    #expect(traced.number("a.x", at: s) == 75)
  }

  @Test func playFromAToTheEndPausesThereWithoutCompleting() throws {
    // From `landed` to 2 s, intro's end: local time 1 s + t, at the end at 1 s; paused there
    // (a.x 0), with no `complete`; a.x itself comes to rest there.
    let traced = try trace(
      Self.intro + """
        play intro from landed to 2s
        at 1500ms print "still {now}"
        """, TraceOptions(times: [500 * ms, 1 * s, 2 * s], until: 3 * s))
    #expect(traced.number("a.x", at: 500 * ms) == 50)
    #expect(traced.number("a.x", at: 1 * s) == 0)
    #expect(traced.prints.map(\.1) == ["start 0s", "still 1.5s"])
    #expect(traced.times("complete", "a.x") == [1 * s])
    #expect(traced.times("complete", "intro").isEmpty)
  }

  @Test func playFromAWithoutToPlaysToTheEndAndCompletes() throws {
    let traced = try trace(
      Self.intro + """
        play intro from landed
        """, TraceOptions(times: [500 * ms, 2 * s]))
    #expect(traced.number("a.x", at: 500 * ms) == 50)
    #expect(traced.prints.map(\.1) == ["start 0s", "complete 1s"])
  }

  @Test func aPausePointStopsThePlayheadOnceInEitherDirection() throws {
    let traced = try trace(
      Self.intro + """
        play intro
        pause intro at 600ms
        at 1s resume intro
        at 1200ms reverse intro
        at 1300ms pause intro at landed - 300ms
        """, TraceOptions(times: [600 * ms, 900 * ms, 1_200 * ms, 1_500 * ms, 2 * s], until: 3 * s))
    // Paused at 600 ms (60) until 1 s; resumed, local time 600 ms + (t − 1 s): 800 ms at
    // 1.2 s, reversed there; the new point at 700 ms is reached going back at 1.3 s.
    #expect(traced.number("a.x", at: 600 * ms) == 60)
    #expect(traced.number("a.x", at: 900 * ms) == 60)
    #expect(traced.number("a.x", at: 1_200 * ms) == 80)
    #expect(traced.number("a.x", at: 1_500 * ms) == 70)
    #expect(traced.number("a.x", at: 2 * s) == 70)
  }

  /// The timeline of the tween tests: `intro` with a print at `landed`.
  static let marked = """
    target a { x: 0 }
    timeline intro {
      animate a.x to 100 over 1s
      label landed
      print "at landed"
      animate a.x to 0 over 1s
    }
    on start intro { print "start {now}" }
    on complete intro { print "complete {now}" }

    """

  @Test func tweenMovesThePlayheadToATimeFiringWhatItCrosses() throws {
    // Played at 0 and paused at 500 ms (local 500 ms, 50); at 1 s, `tween intro to 1900ms over
    // 2s`: local time 500 ms + trunc(1.4 s · (t − 1 s) / 2 s), linear. It reaches `landed`
    // (1 s) at the first nanosecond where 0.7 · (t − 1 s) ≥ 0.5 s: 1 s + ⌈0.5 s / 0.7⌉ =
    // 1,714,285,715 ns; 1.2 s (a.x = 100 · (2 s − 1.2 s) / 1 s = 80) at 2 s; it stays paused
    // at 1.9 s (10) from 3 s on, with no `complete`.
    let traced = try trace(
      Self.marked + """
        play intro
        at 500ms pause intro
        at 1s tween intro to 1900ms over 2s
        """, TraceOptions(times: [1 * s, 2 * s, 3 * s, 4 * s], until: 5 * s))
    #expect(traced.number("a.x", at: 1 * s) == 50)
    #expect(close(traced.number("a.x", at: 2 * s), 80))
    #expect(close(traced.number("a.x", at: 3 * s), 10))
    #expect(close(traced.number("a.x", at: 4 * s), 10))
    #expect(traced.prints.filter { $0.1 == "at landed" }.map(\.0) == [1_714_285_715])
    #expect(traced.prints.map(\.1) == ["start 0s", "at landed"])
  }

  @Test func tweenBackwardsWithACurveEndsPausedAtItsPlace() throws {
    // From the end (2 s, a.x 0, completed at 2 s) back to `landed` over 1 s with easeIn:
    // local time 2 s − trunc(1 s · easeIn(u)); a.x reads 100 · (2 s − τ) / 1 s on the way, so
    // 100 · easeIn(0.5) at 3.5 s. Leaving its end backwards, it starts again (reversed) at 3 s;
    // the print at `landed` fires, backwards, as it arrives (4 s).
    let traced = try trace(
      Self.marked + """
        play intro
        at 3s tween intro to landed over 1s with easeIn
        """, TraceOptions(times: [3 * s, 3_500 * ms, 4 * s, 5 * s], until: 6 * s))
    let half = TimingCurve.easeIn.progress(at: 0.5)
    #expect(traced.number("a.x", at: 3 * s) == 0)
    #expect(close(traced.number("a.x", at: 3_500 * ms), 100 * half, 1e-6))
    #expect(traced.number("a.x", at: 4 * s) == 100)
    #expect(traced.number("a.x", at: 5 * s) == 100)
    #expect(traced.prints.map(\.1) == ["start 0s", "at landed", "complete 2s", "start 3s", "at landed"])
    #expect(traced.prints.last?.0 == 4 * s)
  }

  @Test func tweenOnATimelineAtRestStartsItAsThePlayheadLeaves() throws {
    // Never played: it starts at 0 as the playhead leaves its start, and reaches `landed`
    // (local 1 s, a.x 100) at 500 ms: local time 2t.
    let traced = try trace(
      Self.marked + """
        tween intro to landed over 500ms
        """, TraceOptions(times: [250 * ms, 500 * ms, 1 * s], until: 2 * s))
    #expect(traced.number("a.x", at: 250 * ms) == 50)
    #expect(traced.number("a.x", at: 500 * ms) == 100)
    #expect(traced.number("a.x", at: 1 * s) == 100)
    #expect(traced.prints.map(\.1) == ["start 0s", "at landed"])
    #expect(traced.prints.map(\.0) == [0, 500 * ms])
  }

  /// A pause point beyond the end of time (grammar.md § Timing: nothing may lie there) is a
  /// runtime error at its statement, which has no effect (§ Runtime errors): the earlier
  /// point at 500 ms stays, so the deck pauses there, 50 at 1 s. (It replaced the earlier one
  /// and left an action the engine never placed, so a session saved after it could not be
  /// restored: chapters-at-300ms with its label `two` at 2^62 − 1.)
  @Test func aPausePointBeyondTheEndOfTimeIsARuntimeErrorWithoutEffect() throws {
    let traced = try trace(
      """
      target slide { x: 0 }
      timeline deck {
        animate slide.x to 100 over 1s
        label far at 4611686018s
      }
      pause deck at 500ms
      at 100ms pause deck at far + 1s
      play deck
      """, TraceOptions(times: [400 * ms, s], until: 2 * s))
    #expect(traced.errors.map(\.message) == ["it would be placed beyond the end of time (2^62 ns, about 146 years)"])
    #expect(traced.number("slide.x", at: 400 * ms) == 40)
    #expect(traced.number("slide.x", at: s) == 50)
  }

  @Test func anUnknownLabelIsACheckErrorThatSuggests() {
    let source = SourceText(
      name: "t.anim", contents: Self.intro + "seek intro to landd\npause intro at nowhere + 1s\n")
    let messages = diagnose(source).map(\.message)
    #expect(
      messages == ["unknown label 'landd' of 'intro'; did you mean 'landed'?", "unknown label 'nowhere' of 'intro'"])
  }
}
