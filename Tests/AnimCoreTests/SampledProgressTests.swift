// Sampling's shortcut through the timing chain (`EffectTiming.sampledProgress`) must give what
// `computedTiming` gives, bit for bit, for every timing and local time: it is only a faster
// way to the same three values.

import AnimTestSupport
import Testing

@testable import AnimCore

@Suite("Sampling's shortcut through the timing chain")
struct SampledProgressTests {
  /// Both ways, compared: the same directed progress (bit for bit, or both no output), and
  /// the same before flag whenever there is output.
  func expectSame(_ timing: EffectTiming, _ local: Nanoseconds, _ backwards: Bool) {
    let full = timing.computedTiming(localTime: local, goingBackwards: backwards)
    let fast = timing.sampledProgress(localTime: local, goingBackwards: backwards)
    #expect(
      fast.progress?.bitPattern == full.directedProgress?.bitPattern,
      "\(timing) at \(local), backwards: \(backwards)")
    if fast.progress != nil {
      #expect(fast.beforeFlag == full.beforeFlag, "\(timing) at \(local), backwards: \(backwards)")
      #expect(fast.passForwards == (full.isGoingForwards ?? true), "\(timing) at \(local), backwards: \(backwards)")
    }
  }

  /// The local times where the chain changes its mind, and a few anywhere.
  func localTimes(_ timing: EffectTiming, _ random: inout SeededRandom) -> [Nanoseconds] {
    let end = saturatingSum(timing.delay, timing.activeDuration ?? Nanoseconds.max / 2)
    var times: [Nanoseconds] = [.min, -1, 0, 1, .max]
    for edge in [timing.delay, end] {
      for offset: Nanoseconds in [-2, -1, 0, 1, 2] { times.append(saturatingSum(edge, offset)) }
    }
    for _ in 0..<8 {
      let low = min(timing.delay, end) &- 1_000
      let high = max(timing.delay, end) &+ 1_000
      times.append(low < high ? Nanoseconds.random(in: low...high, using: &random) : low)
    }
    return times
  }

  @Test func theCommonShapeAgreesEverywhere() {
    var random = SeededRandom(seed: 31)
    let fills = FillMode.allCases
    for _ in 0..<5_000 {
      let delay = random.next() % 4 == 0 ? 0 : Nanoseconds.random(in: 0...3_000_000_000, using: &random)
      let duration =
        random.next() % 10 == 0
        ? Nanoseconds.random(in: 1...3, using: &random)
        : Nanoseconds.random(in: 1...3_000_000_000, using: &random)
      let timing = EffectTiming(
        delay: delay, duration: duration, fill: fills[Int(random.next() % UInt64(fills.count))])
      for local in localTimes(timing, &random) {
        expectSame(timing, local, false)
        expectSame(timing, local, true)
      }
    }
  }

  @Test func everyOtherShapeGoesThroughTheFullChain() {
    var random = SeededRandom(seed: 32)
    let counts: [Double] = [1, 0, 0.5, 2, 2.5, .infinity, .nan, -1]
    let delays: [Nanoseconds] = [0, -500, 700, .max - 10, .min + 10]
    let durations: [Nanoseconds] = [0, -5, 1, 1_000, .max - 5]
    let endDelays: [Nanoseconds] = [0, 0, -300, 300]
    for _ in 0..<5_000 {
      func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
      let timing = EffectTiming(
        delay: pick(delays), duration: pick(durations), iterations: pick(counts),
        direction: pick(PlaybackDirection.allCases), fill: pick(FillMode.allCases), endDelay: pick(endDelays))
      for local in localTimes(timing, &random) {
        expectSame(timing, local, false)
        expectSame(timing, local, true)
      }
    }
  }
}
