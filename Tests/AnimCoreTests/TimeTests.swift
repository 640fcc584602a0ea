import AnimTestSupport
import Testing

@testable import AnimCore

/// Rounding of Double → nanoseconds: nearest, halves away from zero, never trapping.
@Suite struct TimeConversionTests {
  @Test(
    arguments: [
      // (value, expected): halves go away from zero; just below a half goes down.
      (0.5, 1), (1.5, 2), (2.5, 3), (-0.5, -1), (-1.5, -2), (-2.5, -3),
      (0.49999999999999994, 0), (-0.49999999999999994, 0), (0.0, 0), (-0.0, 0),
      (1e6 + 0.25, 1_000_000), (1e6 + 0.75, 1_000_001),
    ] as [(Double, Int64)])
  func roundsToNearestWithHalvesAwayFromZero(value: Double, expected: Int64) {
    #expect(saturatingNanoseconds(rounding: value) == expected)
  }

  @Test func saturatesAndHandlesNaN() {
    #expect(saturatingNanoseconds(rounding: .nan) == 0)
    #expect(saturatingNanoseconds(rounding: .infinity) == .max)
    #expect(saturatingNanoseconds(rounding: -.infinity) == .min)
    #expect(saturatingNanoseconds(rounding: 1e300) == .max)
    #expect(saturatingNanoseconds(rounding: -1e300) == .min)
    // 2^63 does not fit; -2^63 is exactly Int64.min; the largest Double below 2^63 fits.
    #expect(saturatingNanoseconds(rounding: 9_223_372_036_854_775_808.0) == .max)
    #expect(saturatingNanoseconds(rounding: -9_223_372_036_854_775_808.0) == .min)
    let belowTwoTo63 = (9_223_372_036_854_775_808.0).nextDown  // 2^63 − 1024
    #expect(saturatingNanoseconds(rounding: belowTwoTo63) == Int64.max - 1023)
  }

  @Test func secondsBecomeNanoseconds() {
    #expect(Int64(seconds: 1.5) == 1_500_000_000)
    #expect(Int64(seconds: -2) == -2_000_000_000)
    #expect(Int64(seconds: 0.001) == 1_000_000)  // 0.001 · 1e9 is 1000000.0000000001 in Double
    #expect(Int64(seconds: 1e-10) == 0)
    #expect(Int64(seconds: 1e12) == .max)  // 1e21 ns is beyond Int64
    #expect(Int64(seconds: -.infinity) == .min)
    #expect(Int64(seconds: .nan) == 0)
    // 1/1024 s is exactly 976_562.5 ns: halves go away from zero.
    #expect(Int64(seconds: 0x1p-10) == 976_563)
    #expect(Int64(seconds: -0x1p-10) == -976_563)
  }

  /// The exact value of the Double times 10⁹, rounded once: checked with a fused
  /// multiply-add (one rounding of s·10⁹ − result, exact inputs below 2^53 ns).
  @Test func secondsRoundOnceFromTheExactProduct() {
    var random = SeededRandom(seed: 3)
    for _ in 0..<20_000 {
      let value = Double.random(in: -9e6...9e6, using: &random) / Double(Int.random(in: 1...1_000_000, using: &random))
      let result = Int64(seconds: value)
      let residual = (-Double(result)).addingProduct(value, 1e9)
      #expect(residual.magnitude <= 0.5, "\(value) s → \(result) ns")
    }
  }

  @Test func durationsRoundToNanoseconds() {
    #expect(Int64(rounding: .milliseconds(16)) == 16_000_000)
    #expect(Int64(rounding: .seconds(-2)) == -2_000_000_000)
    // 1 ns is 10⁹ attoseconds: half a nanosecond rounds away from zero, just under does not.
    #expect(Int64(rounding: Duration(secondsComponent: 0, attosecondsComponent: 500_000_000)) == 1)
    #expect(Int64(rounding: Duration(secondsComponent: 0, attosecondsComponent: 499_999_999)) == 0)
    #expect(Int64(rounding: Duration(secondsComponent: 0, attosecondsComponent: -500_000_000)) == -1)
    #expect(Int64(rounding: Duration(secondsComponent: 0, attosecondsComponent: -1_499_999_999)) == -1)
    #expect(Int64(rounding: .seconds(Int64.max)) == .max)
    #expect(Int64(rounding: .seconds(Int64.min)) == .min)
    #expect(Int64(rounding: Duration(nanoseconds: 123_456_789)) == 123_456_789)
    #expect(Duration(nanoseconds: -7) == .nanoseconds(-7))
  }

  @Test func nanosecondsBecomeSeconds() {
    #expect(seconds(1_500_000_000) == 1.5)
    #expect(seconds(-250_000_000) == -0.25)
    #expect(seconds(1) == 1 / 1e9)
    #expect(seconds(.max) == Double(Int64.max) / 1e9)
  }
}

/// Rate conversions: exact at ±1, correctly rounded elsewhere, saturating at the edges.
@Suite struct RateConversionTests {
  /// Times worth checking: small, around 2^53 (where Double stops being exact), and the ends.
  static func sampleTimes() -> [Int64] {
    var random = SeededRandom(seed: 1)
    var times: [Int64] = [0, 1, -1, 999, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, .max, .min, .max - 1, .min + 1]
    for _ in 0..<2_000 { times.append(Int64(bitPattern: random.next())) }
    for _ in 0..<2_000 { times.append(Int64.random(in: -(1 << 40)...(1 << 40), using: &random)) }
    return times
  }

  @Test func rateOneAndMinusOneAreExactIntegerOperations() {
    for t in Self.sampleTimes() {
      #expect(scaled(t, by: 1) == t)
      #expect(unscaled(t, by: 1) == t)
      let negated = t == .min ? Int64.max : -t  // saturating negation
      #expect(scaled(t, by: -1) == negated)
      #expect(unscaled(t, by: -1) == negated)
    }
  }

  /// Dyadic rates (whole powers of two times small integers) make t·rate an exact rational
  /// with a small denominator, so the expected value is plain integer arithmetic.
  @Test func dyadicRatesRoundExactlyEvenBeyondDoublePrecision() {
    // (numerator, denominator) with rate = numerator / denominator exactly in binary.
    let rates: [(Int128, Int128)] = [(1, 2), (3, 2), (2, 1), (-1, 4), (5, 8), (-7, 2), (1, 1024)]
    for t in Self.sampleTimes() {
      for (n, d) in rates {
        let rate = Double(n) / Double(d)
        // t·n/d rounded half away from zero, in integers.
        let exact = Int128(t) * n
        var q = exact / d
        let r = exact % d
        if 2 * r.magnitude >= d.magnitude { q += (exact < 0) != (d < 0) ? -1 : 1 }
        let expected = q > Int128(Int64.max) ? Int64.max : q < Int128(Int64.min) ? Int64.min : Int64(q)
        #expect(scaled(t, by: rate) == expected, "t=\(t) rate=\(rate)")
        // And the inverse: t / rate = t·d/n.
        let inverse = Int128(t) * d
        var qi = inverse / n
        let ri = inverse % n
        if 2 * ri.magnitude >= n.magnitude { qi += (inverse < 0) != (n < 0) ? -1 : 1 }
        let expectedInverse = qi > Int128(Int64.max) ? Int64.max : qi < Int128(Int64.min) ? Int64.min : Int64(qi)
        #expect(unscaled(t, by: rate) == expectedInverse, "t=\(t) rate=\(rate)")
      }
    }
  }

  /// For any rate, the result is within half a nanosecond of the true value. Checked with a
  /// fused multiply-add, which rounds once: for |t|, |result| < 2^53 both are exact Doubles, so
  /// fma(result, rate, −t) is the true residual rounded once, and rounding is monotone.
  @Test func arbitraryRatesAreWithinHalfANanosecond() {
    var random = SeededRandom(seed: 2)
    for _ in 0..<20_000 {
      // |t| ≤ 2^46 and |rate| ≥ 1/64 keep t/rate below 2^53, where Doubles are exact integers.
      let t = Int64.random(in: -(1 << 46)...(1 << 46), using: &random)
      let rate = Double.random(in: 1.0 / 64...8, using: &random) * (Bool.random(using: &random) ? 1 : -1)
      let s = scaled(t, by: rate)
      // residual = t·rate − s, must be within 1/2
      let scaledResidual = (-Double(s)).addingProduct(Double(t), rate)
      #expect(scaledResidual.magnitude <= 0.5, "t=\(t) rate=\(rate) s=\(s)")
      let u = unscaled(t, by: rate)
      // |t/rate − u| ≤ 1/2  ⟺  |t − u·rate| ≤ |rate|/2
      let unscaledResidual = (-Double(t)).addingProduct(Double(u), rate)
      #expect(unscaledResidual.magnitude <= rate.magnitude / 2, "t=\(t) rate=\(rate) u=\(u)")
    }
  }

  @Test func edgesSaturateOrVanishWithoutTrapping() {
    #expect(scaled(.max, by: 2) == .max)
    #expect(scaled(.min, by: 2) == .min)
    #expect(scaled(.max, by: -2) == .min)
    #expect(scaled(.min, by: -1) == .max)
    #expect(scaled(5, by: .nan) == 0)
    #expect(scaled(5, by: .infinity) == .max)
    #expect(scaled(-5, by: .infinity) == .min)
    #expect(scaled(0, by: .infinity) == 0)
    #expect(scaled(5, by: 0) == 0)
    #expect(scaled(5, by: 1e-300) == 0)
    #expect(scaled(5, by: 1e300) == .max)
    #expect(scaled(1, by: .leastNonzeroMagnitude) == 0)
    #expect(unscaled(5, by: 0) == .max)
    #expect(unscaled(-5, by: 0) == .min)
    #expect(unscaled(5, by: -0.0) == .min)
    #expect(unscaled(0, by: 0) == 0)
    #expect(unscaled(5, by: .nan) == 0)
    #expect(unscaled(5, by: .infinity) == 0)
    #expect(unscaled(5, by: 1e-300) == .max)
    #expect(unscaled(-5, by: .leastNonzeroMagnitude) == .min)
    #expect(unscaled(5, by: 1e300) == 0)
    #expect(unscaled(.max, by: 0.5) == .max)
    #expect(unscaled(3, by: 2) == 2)  // 1.5 rounds away from zero
    #expect(unscaled(-3, by: 2) == -2)
  }
}

/// Frame times: round(k · 10⁹ / fps), halves up, exactly.
@Suite struct FrameTimeTests {
  /// The expected value by exact rational arithmetic: floor(k·10⁹/f + 1/2), with the floor of
  /// a rational computed from Swift's truncating division and remainder.
  static func exactFrameTime(_ k: Int64, _ fps: Int64) -> Int128 {
    let n = Int128(k) * 1_000_000_000 * 2 + Int128(fps)  // (k·10⁹ + f/2)·2
    let d = Int128(fps) * 2
    let (q, r) = n.quotientAndRemainder(dividingBy: d)
    return r != 0 && (r < 0) != (d < 0) ? q - 1 : q
  }

  @Test(arguments: [1, 7, 24, 25, 30, 48, 59, 60, 90, 120, 144, 240, 1000, 3_000_000_007] as [Int64])
  func matchesExactRationalArithmetic(fps: Int64) {
    var random = SeededRandom(seed: UInt64(fps))
    var frames: [Int64] = Array(-50...2_000)
    for _ in 0..<2_000 { frames.append(Int64.random(in: -(1 << 33)...(1 << 33), using: &random)) }
    for k in frames {
      #expect(Int128(frameTime(k, fps: fps)) == Self.exactFrameTime(k, fps), "k=\(k) fps=\(fps)")
    }
  }

  @Test func knownValues() {
    #expect(frameTime(0, fps: 60) == 0)
    #expect(frameTime(1, fps: 60) == 16_666_667)  // 16_666_666.67
    #expect(frameTime(2, fps: 60) == 33_333_333)  // 33_333_333.33
    #expect(frameTime(60, fps: 60) == 1_000_000_000)
    #expect(frameTime(1, fps: 7) == 142_857_143)  // 142_857_142.857
    #expect(frameTime(3, fps: 7) == 428_571_429)  // 428_571_428.571
    #expect(frameTime(7, fps: 7) == 1_000_000_000)
    // Exact halves round up (toward +∞), on both sides of zero.
    #expect(frameTime(1, fps: 2_000_000_000) == 1)  // 0.5
    #expect(frameTime(3, fps: 2_000_000_000) == 2)  // 1.5
    #expect(frameTime(-1, fps: 2_000_000_000) == 0)  // −0.5
    #expect(frameTime(-3, fps: 2_000_000_000) == -1)  // −1.5
    #expect(frameTime(-1, fps: 60) == -16_666_667)
    #expect(frameTime(1, fps: -60) == -16_666_667)
  }

  @Test func saturatesWithoutTrapping() {
    #expect(frameTime(.max, fps: 1) == .max)
    #expect(frameTime(.min, fps: 1) == .min)
    #expect(frameTime(.max, fps: .max) == 1_000_000_000)
    #expect(frameTime(5, fps: 0) == .max)
    #expect(frameTime(-5, fps: 0) == .min)
    #expect(frameTime(0, fps: 0) == 0)
    #expect(frameTime(.min, fps: -1) == .max)
  }
}

/// A million pauses and resumes with the Web Animations formulas leave no drift at rate ±1.
@Suite struct PauseResumeDriftTests {
  /// hold = (parent − start)·rate on pause; start = parent − hold/rate on resume. At rate 1 an
  /// animation of duration D started at S finishes when (parent − start) = D; at rate −1 it
  /// starts at current time D and finishes at current time 0. Either way the finish must fall
  /// at exactly S + D + (total paused).
  @Test(arguments: [1.0, -1.0])
  func millionCyclesEndExactlyOnTime(rate: Double) {
    var random = SeededRandom(seed: rate > 0 ? 11 : 12)
    let duration: Nanoseconds = 1_000_000_000_000_000  // about 11.6 days
    let startedAt: Nanoseconds = Int64.random(in: 0...1_000_000_000_000, using: &random)
    let target: Nanoseconds = rate > 0 ? duration : 0  // the current time at which it ends
    var parent = startedAt
    // Playing starts at current time 0 (forwards) or D (backwards).
    var start = parent - unscaled(rate > 0 ? 0 : duration, by: rate)
    var totalPaused: Nanoseconds = 0
    for _ in 0..<1_000_000 {
      parent += Int64.random(in: 0...400_000_000, using: &random)  // play a while
      let hold = scaled(parent - start, by: rate)  // pause
      let pause = Int64.random(in: 0...1_000_000_000, using: &random)
      parent += pause
      totalPaused += pause
      start = parent - unscaled(hold, by: rate)  // resume
    }
    // Each play segment is at most 4e8 ns, so 10⁶ of them stay below D: still playing.
    let current = scaled(parent - start, by: rate)
    #expect(rate > 0 ? current < duration : current > 0)
    // The parent time at which current time reaches the target: start + target/rate.
    let finish = start + unscaled(target, by: rate)
    #expect(finish == startedAt + duration + totalPaused)
  }

  /// At other rates each resume is off by at most one conversion's rounding, never more.
  @Test(arguments: [0.5, 2.0, 0.3, 1.7, -3.25])
  func resumeAtOtherRatesIsOffByOneRoundingAtMost(rate: Double) {
    var random = SeededRandom(seed: 13)
    for _ in 0..<10_000 {
      let hold = Int64.random(in: -(1 << 45)...(1 << 45), using: &random)
      let parent = Int64.random(in: 0...(1 << 50), using: &random)
      let start = parent - unscaled(hold, by: rate)
      let current = scaled(parent - start, by: rate)
      // |unscaled·rate − hold| ≤ |rate|/2, then one more rounding of ≤ 1/2.
      #expect(Double((current - hold).magnitude) <= rate.magnitude / 2 + 0.5)
    }
  }
}
