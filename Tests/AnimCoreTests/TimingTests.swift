import Foundation
import Testing

@testable import AnimCore

// Worked examples of the Web Animations Level 1 timing model. Durations are round numbers of
// nanoseconds so each expected value can be worked by hand from the spec's formulas; the
// working is in the comments.

private func timing(
  delay: Nanoseconds = 0, duration: Nanoseconds = 1000, iterations: Double = 1,
  direction: PlaybackDirection = .normal, fill: FillMode = .both, endDelay: Nanoseconds = 0
) -> EffectTiming {
  EffectTiming(
    delay: delay, duration: duration, iterations: iterations, direction: direction, fill: fill, endDelay: endDelay)
}

@Suite struct ActiveDurationTests {
  @Test func activeDurationAndEndTime() {
    #expect(timing(iterations: 2.5).activeDuration == 2500)  // 1000 × 2.5
    #expect(timing(duration: 3, iterations: 0.5).activeDuration == 2)  // 1.5 rounds away from zero
    #expect(timing(duration: 3, iterations: 1.0 / 3).activeDuration == 1)
    #expect(timing(iterations: .infinity).activeDuration == nil)
    #expect(timing(iterations: .infinity).endTime == nil)
    #expect(timing(duration: 0, iterations: .infinity).activeDuration == 0)  // zero duration wins
    #expect(timing(iterations: 0).activeDuration == 0)
    #expect(timing(duration: -5).activeDuration == 0)  // a negative duration counts as 0
    #expect(timing(iterations: .nan).activeDuration == 0)
    #expect(timing(iterations: -2).activeDuration == 0)
    #expect(timing(delay: 100, iterations: 2.5, endDelay: 50).endTime == 2650)  // 100 + 2500 + 50
    #expect(timing(delay: 100, endDelay: -2000).endTime == 0)  // max(100 + 1000 − 2000, 0)
    #expect(timing(delay: .max, duration: .max, endDelay: .max).endTime == .max)  // saturates
    // Whole counts multiply exactly; products beyond Int64 saturate.
    #expect(timing(duration: 123_456_789_123, iterations: 7).activeDuration == 864_197_523_861)
    #expect(timing(duration: .max, iterations: 3).activeDuration == .max)
    // Beyond 2^53: exact by the rounding path.
    #expect(timing(duration: 3, iterations: 0x1p60).activeDuration == 3 << 60)
    #expect(timing(duration: 3, iterations: 0x1p62).activeDuration == .max)
  }
}

@Suite struct PhaseTests {
  // delay 100, duration 1000: before-active boundary 100, active-after boundary 1100.
  @Test(
    arguments: [
      (99, false, AnimationPhase.before), (99, true, .before),
      (100, false, .active), (100, true, .before),  // backwards at the start: before
      (500, false, .active), (500, true, .active),
      (1100, false, .after), (1100, true, .active),  // forwards at the end: after
      (1101, false, .after), (1101, true, .after),
    ] as [(Nanoseconds, Bool, AnimationPhase)])
  func phaseAtEachBoundary(localTime: Nanoseconds, backwards: Bool, expected: AnimationPhase) {
    let result = timing(delay: 100).computedTiming(localTime: localTime, goingBackwards: backwards)
    #expect(result.phase == expected)
  }

  @Test func negativeDelayStartsPartWayThrough() {
    // delay −200: before-active boundary max(min(−200, 800), 0) = 0; active time = t + 200.
    let effect = timing(delay: -200)
    let forwards = effect.computedTiming(localTime: 0, goingBackwards: false)
    #expect(forwards.phase == .active)
    #expect(forwards.activeTime == 200)
    #expect(forwards.directedProgress == 0.2)
    let backwards = effect.computedTiming(localTime: 0, goingBackwards: true)
    #expect(backwards.phase == .before)
    #expect(backwards.activeTime == 200)  // fill backwards: max(0 − (−200), 0)
    #expect(effect.computedTiming(localTime: -1, goingBackwards: false).phase == .before)
  }

  @Test func negativeEndDelayCutsTheActiveIntervalShort() {
    // endDelay −400: end time 600, active-after boundary min(0 + 1000, 600) = 600.
    let effect = timing(endDelay: -400)
    #expect(effect.computedTiming(localTime: 599, goingBackwards: false).phase == .active)
    let atEnd = effect.computedTiming(localTime: 600, goingBackwards: false)
    #expect(atEnd.phase == .after)
    #expect(atEnd.activeTime == 600)  // max(min(600 − 0, 1000), 0)
    #expect(atEnd.directedProgress == 0.6)
    #expect(effect.computedTiming(localTime: 600, goingBackwards: true).phase == .active)
  }

  @Test func delayBeyondTheEndTime() {
    // delay 500, duration 100, endDelay −700: end time max(500 + 100 − 700, 0) = 0, both
    // boundaries 0. Forwards at 0 is after (active time max(min(0 − 500, 100), 0) = 0).
    let effect = timing(delay: 500, duration: 100, endDelay: -700)
    let forwards = effect.computedTiming(localTime: 0, goingBackwards: false)
    #expect(forwards.phase == .after)
    #expect(forwards.activeTime == 0)
    #expect(forwards.directedProgress == 0)
    #expect(effect.computedTiming(localTime: 0, goingBackwards: true).phase == .before)
    #expect(effect.computedTiming(localTime: 300, goingBackwards: true).phase == .after)
  }

  @Test func unresolvedLocalTimeIsIdleWithNoOutput() {
    let result = timing().computedTiming(localTime: nil, goingBackwards: false)
    #expect(result.phase == .idle)
    #expect(result.activeTime == nil)
    #expect(result.directedProgress == nil)
    #expect(!result.isInEffect)
  }

  @Test func extremeTimesSaturateInsteadOfTrapping() {
    let effect = timing(delay: .min, duration: .max, iterations: 3, endDelay: .max)
    for local in [Int64.min, -1, 0, 1, .max] {
      for backwards in [false, true] {
        let result = effect.computedTiming(localTime: local, goingBackwards: backwards)
        if let progress = result.directedProgress { #expect((0...1).contains(progress)) }
      }
    }
    let forever = timing(iterations: .infinity)
    #expect(forever.computedTiming(localTime: .max, goingBackwards: false).phase == .active)
  }
}

@Suite struct FillTests {
  // delay 100, duration 1000: t = 50 is before, t = 2000 after.
  @Test(arguments: FillMode.allCases)
  func fillDecidesOutputOutsideTheActiveInterval(fill: FillMode) {
    let effect = timing(delay: 100, fill: fill)
    let before = effect.computedTiming(localTime: 50, goingBackwards: false)
    let coversBefore = fill == .backwards || fill == .both
    #expect(before.phase == .before)
    #expect(before.activeTime == (coversBefore ? 0 : nil))  // max(50 − 100, 0)
    #expect(before.directedProgress == (coversBefore ? 0 : nil))
    #expect(before.isInEffect == coversBefore)
    let active = effect.computedTiming(localTime: 350, goingBackwards: false)
    #expect(active.activeTime == 250)  // the active phase always has output
    #expect(active.directedProgress == 0.25)
    let after = effect.computedTiming(localTime: 2000, goingBackwards: false)
    let coversAfter = fill == .forwards || fill == .both
    #expect(after.phase == .after)
    #expect(after.activeTime == (coversAfter ? 1000 : nil))  // max(min(1900, 1000), 0)
    #expect(after.directedProgress == (coversAfter ? 1 : nil))
    #expect(after.currentIteration == (coversAfter ? 0 : nil))
  }
}

@Suite struct DirectionTests {
  // delay 100, duration 1000, 2 iterations, fill both. Expected directed progress at
  //   t = 0    (before: active time 0, iteration 0, simple 0),
  //   t = 350  (iteration 0, simple 0.25),
  //   t = 1350 (iteration 1, simple 0.25),
  //   t = 5000 (after: active time 2000 = active duration, so simple 1 of iteration 1).
  // normal: simple; reverse: 1 − simple; alternate: forwards on even iterations;
  // alternateReverse: forwards on odd iterations.
  @Test(
    arguments: [
      (PlaybackDirection.normal, [0, 0.25, 0.25, 1]),
      (.reverse, [1, 0.75, 0.75, 0]),
      (.alternate, [0, 0.25, 0.75, 0]),
      (.alternateReverse, [1, 0.75, 0.25, 1]),
    ] as [(PlaybackDirection, [Double])])
  func directedProgressInEachPhase(direction: PlaybackDirection, expected: [Double]) {
    let effect = timing(delay: 100, iterations: 2, direction: direction)
    let results = [0, 350, 1350, 5000].map { effect.computedTiming(localTime: $0, goingBackwards: false) }
    #expect(results.map(\.phase) == [.before, .active, .active, .after])
    #expect(results.map(\.directedProgress) == expected)
    #expect(results.map(\.currentIteration) == [0, 0, 1, 1])
  }

  @Test(arguments: [PlaybackDirection.alternate, .alternateReverse])
  func alternateParity(direction: PlaybackDirection) {
    // 4 passes of 1000: at k·1000 + 250 the simple progress is 0.25; alternate runs pass k
    // forwards when k is even, alternateReverse when k is odd.
    let effect = timing(iterations: 4, direction: direction)
    for k in 0..<4 {
      let result = effect.computedTiming(localTime: Int64(k) * 1000 + 250, goingBackwards: false)
      let forwards = (k % 2 == 0) == (direction == .alternate)
      #expect(result.currentIteration == Double(k))
      #expect(result.isGoingForwards == forwards)
      #expect(result.directedProgress == (forwards ? 0.25 : 0.75))
    }
  }
}

@Suite struct IterationTests {
  @Test func fractionalIterationsEndMidPass() {
    // 2.5 passes of 1000: active duration 2500; at the end, overall progress 2.5, so simple
    // progress 0.5 of pass index 2, from either direction of travel.
    let effect = timing(iterations: 2.5, fill: .forwards)
    for backwards in [false, true] {
      let end = effect.computedTiming(localTime: 2500, goingBackwards: backwards)
      #expect(end.phase == (backwards ? .active : .after))
      #expect(end.overallProgress == 2.5)
      #expect(end.simpleIterationProgress == 0.5)
      #expect(end.currentIteration == 2)
      #expect(end.directedProgress == 0.5)
    }
    let justBefore = effect.computedTiming(localTime: 2499, goingBackwards: false)
    #expect(justBefore.currentIteration == 2)
    #expect(justBefore.simpleIterationProgress == 499.0 / 1000)
  }

  @Test func fractionalEndUsesTheExactIterationCount() {
    // duration 3, 0.5 passes: the active duration rounds to 2 ns, but the end is still
    // overall progress 0.5 (the spec's active time / duration with exact times).
    let end = timing(duration: 3, iterations: 0.5).computedTiming(localTime: 2, goingBackwards: false)
    #expect(end.phase == .after)
    #expect(end.overallProgress == 0.5)
    #expect(end.directedProgress == 0.5)
  }

  @Test func exactIterationBoundaryBelongsToTheNextIteration() {
    // 3 passes of 1000; t = 1000 is progress 0 of pass 1, not progress 1 of pass 0.
    let effect = timing(iterations: 3)
    let result = effect.computedTiming(localTime: 1000, goingBackwards: false)
    #expect(result.currentIteration == 1)
    #expect(result.simpleIterationProgress == 0)
    #expect(result.overallProgress == 1)
    // The same in both directions of travel: only the active interval's ends are direction
    // dependent.
    #expect(effect.computedTiming(localTime: 1000, goingBackwards: true) == result)
    // alternate: pass 1 runs backwards, so its progress 0 is directed progress 1.
    let alternate = timing(iterations: 3, direction: .alternate).computedTiming(localTime: 2000, goingBackwards: false)
    #expect(alternate.currentIteration == 2)
    #expect(alternate.directedProgress == 0)
  }

  @Test(arguments: [false, true])
  func endOfTheActiveIntervalIsProgressOneOfTheLastPass(backwards: Bool) {
    // 3 passes of 1000: at t = 3000 overall progress 3 gives simple 0, which the spec turns
    // into 1 of pass 2, going forwards (after phase, filled) or backwards (active phase).
    for fill in [FillMode.forwards, .both] {
      let end = timing(iterations: 3, fill: fill).computedTiming(localTime: 3000, goingBackwards: backwards)
      #expect(end.phase == (backwards ? .active : .after))
      #expect(end.activeTime == 3000)
      #expect(end.overallProgress == 3)
      #expect(end.simpleIterationProgress == 1)
      #expect(end.currentIteration == 2)
      #expect(end.directedProgress == 1)
    }
    // With fill none the forwards end has no output; arriving backwards it is still active.
    let unfilled = timing(iterations: 3, fill: .none).computedTiming(localTime: 3000, goingBackwards: backwards)
    #expect(unfilled.directedProgress == (backwards ? 1 : nil))
  }

  @Test func infiniteIterations() {
    // 1000 per pass forever: at 10¹⁵ + 250 ns, pass 10¹² at 0.25; never an after phase.
    let effect = timing(iterations: .infinity, direction: .alternate)
    let far = effect.computedTiming(localTime: 1_000_000_000_000_250, goingBackwards: false)
    #expect(far.phase == .active)
    #expect(far.currentIteration == 1e12)
    #expect(far.simpleIterationProgress == 0.25)
    #expect(far.directedProgress == 0.25)  // 10¹² is even: forwards
    let odd = effect.computedTiming(localTime: 1_000_000_000_001_250, goingBackwards: false)
    #expect(odd.directedProgress == 0.75)
  }
}

@Suite struct ZeroDurationTests {
  // duration 0, delay 100: both boundaries are 100. Before: overall progress 0; otherwise
  // overall progress = iteration count, and simple 0 at the end becomes 1 of the last pass.
  @Test(arguments: PlaybackDirection.allCases)
  func singlePass(direction: PlaybackDirection) {
    let effect = timing(delay: 100, duration: 0, direction: direction)
    // forwards: normal and alternate (pass 0 even); alternateReverse runs pass 0 backwards.
    let forwards = direction == .normal || direction == .alternate
    let before = effect.computedTiming(localTime: 50, goingBackwards: false)
    #expect(before.phase == .before)
    #expect(before.directedProgress == (forwards ? 0 : 1))
    let atBoundaryBackwards = effect.computedTiming(localTime: 100, goingBackwards: true)
    #expect(atBoundaryBackwards.phase == .before)
    #expect(atBoundaryBackwards.overallProgress == 0)
    let after = effect.computedTiming(localTime: 100, goingBackwards: false)
    #expect(after.phase == .after)
    #expect(after.overallProgress == 1)
    #expect(after.simpleIterationProgress == 1)
    #expect(after.currentIteration == 0)
    #expect(after.directedProgress == (forwards ? 1 : 0))
  }

  @Test(arguments: FillMode.allCases)
  func fillStillDecidesOutput(fill: FillMode) {
    let effect = timing(delay: 100, duration: 0, fill: fill)
    let before = effect.computedTiming(localTime: 50, goingBackwards: false)
    #expect(before.isInEffect == fill.fillsBackwards)
    let after = effect.computedTiming(localTime: 150, goingBackwards: false)
    #expect(after.isInEffect == fill.fillsForwards)
    #expect(after.directedProgress == (fill.fillsForwards ? 1 : nil))
  }

  @Test func manyPasses() {
    // 2.5 passes: overall 2.5, simple 0.5, pass 2 (even: alternate runs it forwards).
    let fractional = timing(duration: 0, iterations: 2.5, direction: .alternate).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(fractional.simpleIterationProgress == 0.5)
    #expect(fractional.currentIteration == 2)
    #expect(fractional.directedProgress == 0.5)
    // 3 passes: overall 3 → simple 1 of pass 2 (even); alternate ends forwards at 1,
    // alternateReverse at 0.
    let three = timing(duration: 0, iterations: 3, direction: .alternate).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(three.currentIteration == 2)
    #expect(three.directedProgress == 1)
    let threeReversed = timing(duration: 0, iterations: 3, direction: .alternateReverse).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(threeReversed.directedProgress == 0)
    // 2 passes alternate: simple 1 of pass 1 (odd, backwards) ends where it began.
    let two = timing(duration: 0, iterations: 2, direction: .alternate).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(two.currentIteration == 1)
    #expect(two.directedProgress == 0)
    // Forever: overall ∞, simple 1, current iteration ∞, and an infinite iteration counts
    // as forwards.
    let forever = timing(duration: 0, iterations: .infinity, direction: .alternate).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(forever.overallProgress == .infinity)
    #expect(forever.simpleIterationProgress == 1)
    #expect(forever.currentIteration == .infinity)
    #expect(forever.directedProgress == 1)
    let foreverReversed = timing(duration: 0, iterations: .infinity, direction: .reverse).computedTiming(
      localTime: 0, goingBackwards: false)
    #expect(foreverReversed.directedProgress == 0)
    // Zero passes: overall 0, simple stays 0 (the count is 0).
    let none = timing(duration: 0, iterations: 0).computedTiming(localTime: 0, goingBackwards: false)
    #expect(none.currentIteration == 0)
    #expect(none.directedProgress == 0)
  }

  @Test func zeroIterationsOfANonZeroDuration() {
    // active duration 0: at the boundary going forwards, after phase, overall 0 / 1000 = 0.
    let result = timing(delay: 100, iterations: 0, direction: .reverse).computedTiming(
      localTime: 100, goingBackwards: false)
    #expect(result.phase == .after)
    #expect(result.simpleIterationProgress == 0)
    #expect(result.currentIteration == 0)
    #expect(result.directedProgress == 1)
  }
}

@Suite struct BeforeFlagTests {
  // Set in the before phase when the pass runs forwards, in the after phase when it runs
  // backwards; never in the active phase.
  @Test(arguments: PlaybackDirection.allCases)
  func beforeFlagByPhaseAndDirection(direction: PlaybackDirection) {
    let effect = timing(delay: 100, iterations: 2, direction: direction)
    let before = effect.computedTiming(localTime: 0, goingBackwards: false)  // pass 0
    let active = effect.computedTiming(localTime: 600, goingBackwards: false)
    let after = effect.computedTiming(localTime: 9000, goingBackwards: false)  // end of pass 1
    let pass0Forwards = direction == .normal || direction == .alternate
    let pass1Forwards = direction == .normal || direction == .alternateReverse
    #expect(before.beforeFlag == pass0Forwards)
    #expect(!active.beforeFlag)
    #expect(after.beforeFlag == !pass1Forwards)
  }
}

@Suite struct TimingCodableTests {
  @Test func foreverIsSpelledOutAndRoundTrips() throws {
    let forever = timing(delay: 5, iterations: .infinity, direction: .alternateReverse, fill: .forwards, endDelay: -3)
    let data = try JSONEncoder().encode(forever)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"forever\""))
    #expect(text.contains("\"alternateReverse\""))
    #expect(try JSONDecoder().decode(EffectTiming.self, from: data) == forever)
    let finite = timing(iterations: 2.5)
    #expect(try JSONDecoder().decode(EffectTiming.self, from: JSONEncoder().encode(finite)) == finite)
  }

  @Test func missingMembersTakeTheDefaultsAndBadSpellingsFail() throws {
    let minimal = try JSONDecoder().decode(EffectTiming.self, from: Data(#"{"duration": 7}"#.utf8))
    #expect(minimal == EffectTiming(duration: 7))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(EffectTiming.self, from: Data(#"{"duration": 7, "iterations": "forevr"}"#.utf8))
    }
  }
}
