import AnimTestSupport
import Testing

@testable import AnimCore

/// The spec's procedures transcribed literally, in Double arithmetic, as an independent
/// reference (web-animations-1: phases, §4.8.3 active time and progress, the current
/// iteration, §4.9.1 direction, and the before flag of "calculating the transformed
/// progress"). Parameters are chosen so that every time and
/// product is an exact Double, which makes its answers exact too.
private struct SpecReference {
  var phase: AnimationPhase
  var activeTime: Double?
  var currentIteration: Double?
  var directedProgress: Double?
  var beforeFlag: Bool

  init(_ t: EffectTiming, localTime: Double, backwards: Bool) {
    let delay = Double(t.delay)
    let duration = Double(t.duration)
    let count = t.iterations
    let activeDuration = duration == 0 || count == 0 ? 0 : duration * count
    let endTime = max(delay + activeDuration + Double(t.endDelay), 0)
    let beforeActive = max(min(delay, endTime), 0)
    let activeAfter = max(min(delay + activeDuration, endTime), 0)
    if localTime < beforeActive || (backwards && localTime == beforeActive) {
      phase = .before
    } else if localTime > activeAfter || (!backwards && localTime == activeAfter) {
      phase = .after
    } else {
      phase = .active
    }
    switch phase {
    case .before:
      // One deliberate departure, written in grammar.md: the spec's max(local − delay, 0)
      // is kept from passing the end of the active interval (a negative delay that skips it
      // all would otherwise run into a pass that does not exist).
      activeTime = t.fill == .backwards || t.fill == .both ? max(min(localTime - delay, activeDuration), 0) : nil
    case .active:
      activeTime = localTime - delay
    default:
      activeTime = t.fill == .forwards || t.fill == .both ? max(min(localTime - delay, activeDuration), 0) : nil
    }
    guard let activeTime else {
      currentIteration = nil
      directedProgress = nil
      beforeFlag = false
      return
    }
    let overall = duration == 0 ? (phase == .before ? 0 : count) : activeTime / duration
    var simple = overall.isInfinite ? 0 : overall.truncatingRemainder(dividingBy: 1)
    if simple == 0 && (phase == .active || phase == .after || activeTime > 0) && activeTime == activeDuration
      && count != 0
    {
      simple = 1
    }
    var iteration: Double
    if phase == .after && count.isInfinite {
      iteration = .infinity
    } else if simple == 1 {
      iteration = overall.rounded(.down) - 1
    } else {
      iteration = overall.rounded(.down)
    }
    currentIteration = iteration
    var forwards: Bool
    switch t.direction {
    case .normal: forwards = true
    case .reverse: forwards = false
    case .alternate, .alternateReverse:
      if t.direction == .alternateReverse { iteration += 1 }
      forwards = iteration.isInfinite || iteration.truncatingRemainder(dividingBy: 2) == 0
    }
    directedProgress = forwards ? simple : 1 - simple
    beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)
  }
}

@Suite struct TimingPropertyTests {
  /// Random but exactly representable parameters: durations are multiples of 8 ns and
  /// iteration counts multiples of 1/8, so duration × iterations is a whole number of
  /// nanoseconds and the reference's Double arithmetic is exact.
  private static func randomTiming(_ random: inout SeededRandom) -> EffectTiming {
    let iterationChoices: [Double] = [
      0, 0.5, 1, 1.25, 2, 2.5, 3, 4, .infinity, Double(Int.random(in: 0...40, using: &random)) / 8,
    ]
    return EffectTiming(
      delay: Int64.random(in: -2_000...2_000, using: &random),
      duration: Bool.random(using: &random) && Bool.random(using: &random)
        ? 0 : 8 * Int64.random(in: 1...250, using: &random),
      iterations: iterationChoices.randomElement(using: &random)!,
      direction: PlaybackDirection.allCases.randomElement(using: &random)!,
      fill: FillMode.allCases.randomElement(using: &random)!,
      endDelay: Int64.random(in: -2_000...2_000, using: &random))
  }

  @Test func agreesWithTheSpecTranscriptionAndStaysInRange() {
    var random = SeededRandom(seed: 42)
    for _ in 0..<3_000 {
      let effect = Self.randomTiming(&random)
      // Local times around every interesting point, plus random ones.
      var times: [Int64] = (0..<20).map { _ in Int64.random(in: -3_000...12_000, using: &random) }
      let points = [0, effect.delay, effect.endTime ?? 0, effect.delay + (effect.activeDuration ?? 0)]
      for point in points { times += [point - 1, point, point + 1] }
      for local in times {
        for backwards in [false, true] {
          let got = effect.computedTiming(localTime: local, goingBackwards: backwards)
          let want = SpecReference(effect, localTime: Double(local), backwards: backwards)
          func context() -> Comment { "\(effect) at \(local) backwards=\(backwards)" }  // built only on failure
          #expect(got.phase == want.phase, context())
          #expect(got.activeTime.map(Double.init) == want.activeTime, context())
          #expect(got.currentIteration == want.currentIteration, context())
          #expect(got.beforeFlag == want.beforeFlag || got.directedProgress == nil, context())
          #expect(got.isInEffect == (want.activeTime != nil), context())
          if let wantProgress = want.directedProgress, let gotProgress = got.directedProgress {
            #expect(abs(gotProgress - wantProgress) <= 1e-12, context())
          } else {
            #expect(got.directedProgress == nil && want.directedProgress == nil, context())
          }
          for progress in [got.directedProgress, got.simpleIterationProgress].compactMap({ $0 }) {
            #expect((0...1).contains(progress), context())
          }
        }
      }
    }
  }

  /// Inside the active interval directed progress moves by exactly 1/duration per
  /// nanosecond within a pass; alternate directions are continuous across passes too.
  @Test func directedProgressIsContinuousInsideTheActiveInterval() {
    var random = SeededRandom(seed: 7)
    for _ in 0..<300 {
      var effect = Self.randomTiming(&random)
      // The active interval whole: no negative delay or end delay clipping it, and filled
      // so its forwards end (the after phase) has output.
      effect.delay = effect.delay.magnitude > 0 ? Int64(effect.delay.magnitude) : 0
      effect.endDelay = 0
      effect.fill = .both
      effect.duration = 8 * Int64.random(in: 1...40, using: &random)
      if effect.iterations == 0 { effect.iterations = 2 }
      let end = effect.activeDuration.map { effect.delay + $0 } ?? effect.delay + 20 * effect.duration
      guard end > effect.delay else { continue }
      let step = 1 / Double(effect.duration)
      var previous = effect.computedTiming(localTime: effect.delay, goingBackwards: false)
      #expect(previous.phase == .active)
      for local in (effect.delay + 1)...end {
        let filled = effect.computedTiming(localTime: local, goingBackwards: false)
        guard let before = previous.directedProgress, let now = filled.directedProgress else {
          Issue.record("no output inside the active interval: \(effect) at \(local)")
          break
        }
        let samePass = previous.currentIteration == filled.currentIteration || filled.phase == .after
        if samePass || effect.direction == .alternate || effect.direction == .alternateReverse {
          #expect(abs(abs(now - before) - step) <= 1e-12, "\(effect) at \(local): \(before) → \(now)")
        }
        previous = filled
      }
    }
  }

  /// Playing a whole number of passes backwards in time retraces the forward path exactly:
  /// direction D at t equals its mirror at activeDuration − t (normal ↔ reverse; alternate
  /// stays alternate for an even count and becomes alternateReverse for an odd one). Normal
  /// and reverse jump at interior pass boundaries, so there only the interval's ends count.
  @Test func wholePassesMirrorExactly() {
    var random = SeededRandom(seed: 99)
    for _ in 0..<500 {
      let duration = Int64.random(in: 1...5_000, using: &random)
      let passes = Int.random(in: 1...5, using: &random)
      let direction = PlaybackDirection.allCases.randomElement(using: &random)!
      let mirrored: PlaybackDirection
      switch direction {
      case .normal: mirrored = .reverse
      case .reverse: mirrored = .normal
      case .alternate: mirrored = passes % 2 == 0 ? .alternate : .alternateReverse
      case .alternateReverse: mirrored = passes % 2 == 0 ? .alternateReverse : .alternate
      }
      let forward = EffectTiming(duration: duration, iterations: Double(passes), direction: direction, fill: .both)
      let backward = EffectTiming(duration: duration, iterations: Double(passes), direction: mirrored, fill: .both)
      let activeDuration = duration * Int64(passes)
      #expect(forward.activeDuration == activeDuration)
      var times: [Int64] = [0, activeDuration]
      times += (0..<50).map { _ in Int64.random(in: 0...activeDuration, using: &random) }
      let bounces = direction == .alternate || direction == .alternateReverse
      for t in times where bounces || t == 0 || t == activeDuration || t % duration != 0 {
        let there = forward.computedTiming(localTime: t, goingBackwards: false)
        let back = backward.computedTiming(localTime: activeDuration - t, goingBackwards: false)
        #expect(there.directedProgress == back.directedProgress, "\(forward) at \(t)")
      }
    }
  }
}
