// The closed-form damped harmonic oscillator.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The motion of a `Spring`, in closed form, for all three damping regimes.
///
/// By superposition the displacement from the target of any spring motion is
/// `x(t) − to = d₀·P(t) + v₀·Q(t)`, where d₀ and v₀ are the initial displacement and velocity
/// and P, Q are the two unit responses (P(0) = 1, P'(0) = 0; Q(0) = 0, Q'(0) = 1). Because P
/// and Q are plain numbers, one motion serves every `Animatable` value: scale the value's
/// displacement and velocity by them. Retargeting that keeps velocity needs the derivatives,
/// which are here too.
///
/// With β = c/2m (the decay rate) the responses share one shape, `P = E + a·Q` and
/// `Q' = E − b·Q`, with `P' = −ω₀²·Q`:
/// - under-damped, ω_d = √(ω₀² − β²): Q = e^(−βt)·sin(ω_d t)/ω_d, E = e^(−βt)·cos(ω_d t), a = b = β;
/// - critically damped: Q = t·e^(−βt), E = e^(−βt), a = b = β;
/// - over-damped, γ = √(β² − ω₀²), slow rate λ₁ = β − γ, fast rate λ₂ = β + γ:
///   Q = e^(−λ₁t)·(1 − e^(−2γt))/(2γ), E = e^(−λ₁t), a = λ₁, b = λ₂.
/// These forms have no cancellation near critical damping and no overflow for large t.
public struct SpringMotion: Sendable, Hashable, Codable {
  /// The spring this is the motion of.
  public let spring: Spring

  @usableFromInline
  enum Regime: UInt8, Sendable, Hashable {
    case underDamped, criticallyDamped, overDamped
  }

  @usableFromInline let regime: Regime
  /// ω₀².
  @usableFromInline let frequencySquared: Double
  /// The exponential rate of E: β (under- and critically damped) or λ₁ (over-damped).
  @usableFromInline let rate: Double
  /// ω_d (under-damped) or 2γ (over-damped); 0 when critically damped.
  @usableFromInline let frequency: Double
  /// a and b in `P = E + a·Q`, `Q' = E − b·Q`.
  @usableFromInline let a: Double, b: Double

  /// Damping ratios within this distance of 1 are treated as exactly critical: SwiftUI's
  /// `dampingFraction: 1` arrives here as 1 ± a few ulps, and the under-damped settling
  /// envelope grows without bound as ω_d → 0.
  public static let criticalTolerance = 1e-10

  public init(_ spring: Spring) {
    self.spring = spring
    let beta = spring.damping / (2 * spring.mass)
    let omega0Squared = spring.stiffness / spring.mass
    let omega0 = omega0Squared.squareRoot()
    frequencySquared = omega0Squared
    let zeta = spring.dampingRatio
    if abs(zeta - 1) <= SpringMotion.criticalTolerance {
      regime = .criticallyDamped
      rate = beta
      frequency = 0
      a = beta
      b = beta
    } else if zeta < 1 {
      regime = .underDamped
      rate = beta
      frequency = ((omega0 - beta) * (omega0 + beta)).squareRoot()
      a = beta
      b = beta
    } else {
      regime = .overDamped
      let gamma = ((beta - omega0) * (beta + omega0)).squareRoot()
      // β − γ = ω₀² / (β + γ), without the cancellation.
      rate = omega0Squared / (beta + gamma)
      frequency = 2 * gamma
      a = rate
      b = beta + gamma
    }
  }

  /// P, Q and their time derivatives at one instant.
  public struct Responses: Sendable, Hashable {
    /// P(t): the response to a unit initial displacement.
    public var displacement: Double
    /// Q(t): the response to a unit initial velocity.
    public var velocity: Double
    /// P'(t).
    public var displacementDerivative: Double
    /// Q'(t).
    public var velocityDerivative: Double

    @inlinable
    public init(displacement: Double, velocity: Double, displacementDerivative: Double, velocityDerivative: Double) {
      self.displacement = displacement
      self.velocity = velocity
      self.displacementDerivative = displacementDerivative
      self.velocityDerivative = velocityDerivative
    }
  }

  /// E(t) and Q(t), from which everything else follows.
  @inlinable
  func exponentialAndQ(at t: Double) -> (e: Double, q: Double) {
    let decay = exp(-rate * t)
    switch regime {
    case .underDamped:
      let (sine, cosine) = sineAndCosine(frequency * t)
      return (decay * cosine, decay * sine / frequency)
    case .criticallyDamped:
      return (decay, t * decay)
    case .overDamped:
      return (decay, decay * -expm1(-frequency * t) / frequency)
    }
  }

  /// P(t), Q(t), P'(t) and Q'(t) at `t` seconds, sharing one exponential.
  @inlinable
  public func responses(at t: Double) -> Responses {
    let (e, q) = exponentialAndQ(at: t)
    return Responses(
      displacement: e + a * q, velocity: q, displacementDerivative: -frequencySquared * q,
      velocityDerivative: e - b * q)
  }

  /// P(t) and Q(t) alone: all a sample needs. The value `t` seconds after the start of a motion
  /// from `target + d₀` with velocity `v₀` is `target + d₀·p + v₀·q`, for any value type with
  /// its own vector arithmetic; one exponential and one sine-and-cosine (under-damped).
  @inlinable
  public func valueResponses(at t: Double) -> (p: Double, q: Double) {
    let (e, q) = exponentialAndQ(at: t)
    return (e + a * q, q)
  }

  /// P(t): where a spring released from unit displacement at rest is, `t` seconds later.
  @inlinable
  public func displacementResponse(at t: Double) -> Double {
    let (e, q) = exponentialAndQ(at: t)
    return e + a * q
  }

  /// Q(t): where a spring started at its target with unit velocity is, `t` seconds later.
  @inlinable
  public func velocityResponse(at t: Double) -> Double {
    exponentialAndQ(at: t).q
  }

  /// P'(t) = −ω₀²·Q(t).
  @inlinable
  public func displacementResponseDerivative(at t: Double) -> Double {
    -frequencySquared * exponentialAndQ(at: t).q
  }

  /// Q'(t).
  @inlinable
  public func velocityResponseDerivative(at t: Double) -> Double {
    let (e, q) = exponentialAndQ(at: t)
    return e - b * q
  }

  /// The value and velocity, `t` seconds after the start, of a spring heading for `target`
  /// from `target + displacement` with `velocity` (value units per second): what
  /// velocity-preserving retargeting needs for any `Animatable` value.
  @inlinable
  public func state<Value: Animatable>(
    target: Value, displacement: Value, velocity: Value, at t: Double
  ) -> (value: Value, velocity: Value) {
    let r = responses(at: t)
    return (
      target + displacement.scaled(by: r.displacement) + velocity.scaled(by: r.velocity),
      displacement.scaled(by: r.displacementDerivative) + velocity.scaled(by: r.velocityDerivative)
    )
  }

  /// The settling time, in nanoseconds rounded up, of the normalised motion from 0 to 1
  /// starting with `initialVelocity` distances per second (d₀ = −1, v₀ = V).
  public func settlingTime(initialVelocity: Double) -> Int64 {
    settlingTime(displacement: -1, velocity: initialVelocity)
  }

  /// The settling time, in nanoseconds rounded up, of a motion starting `displacement` from
  /// its target with `velocity` (grammar.md § Curves): for an under-damped spring the t at which the
  /// envelope A·e^(−βt) falls to 0.001·|d₀|, A = √(d₀² + ((v₀ + βd₀)/ω_d)²); otherwise the
  /// first t after which |x(t) − to| ≤ 0.001·|d₀| for good.
  ///
  /// The result is the smallest whole nanosecond at which that criterion holds, as evaluated
  /// in Double. It saturates at `Int64.max` for motions that would take longer than Int64
  /// nanoseconds (about 292 years), and for a zero displacement with a nonzero velocity
  /// (relative to a zero distance, nothing ever settles); both zero gives 0.
  public func settlingTime(displacement d0: Double, velocity v0: Double) -> Int64 {
    guard d0.isFinite, v0.isFinite else { return .max }
    if d0 == 0 { return v0 == 0 ? 0 : .max }
    let tolerance = 0.001 * abs(d0)
    let settled: (Double) -> Bool
    let seconds: Double
    switch regime {
    case .underDamped:
      let amplitude = hypot(d0, (v0 + rate * d0) / frequency)
      settled = { t in amplitude * exp(-self.rate * t) <= tolerance }
      seconds = log(amplitude / tolerance) / rate
    case .criticallyDamped, .overDamped:
      // x(t) − to = e^(−λ₁t)·(d₀ + slope·S(t)), S(t) = t (critical) or (1 − e^(−2γt))/2γ.
      let slope = v0 + rate * d0
      let residual = { (t: Double) -> Double in
        let s = self.frequency == 0 ? t : -expm1(-self.frequency * t) / self.frequency
        return abs(exp(-self.rate * t) * (d0 + slope * s)) - tolerance
      }
      settled = { t in residual(t) <= 0 }
      seconds = lastCrossing(displacement: d0, slope: slope, residual: residual)
    }
    return SpringMotion.nanosecondsRoundedUp(seconds, settled: settled)
  }

  /// The last time the residual |x(t) − to| − tolerance crosses zero, for critically and
  /// over-damped motions. x(t) − to has at most one zero and one extremum for t > 0, so
  /// |x(t) − to| is monotonic between them: walk the pieces from the last, and bisect in
  /// the one where the residual changes sign.
  private func lastCrossing(displacement d0: Double, slope: Double, residual: (Double) -> Double) -> Double {
    // Turning points in S: the zero S = −d₀/slope and the extremum S = (slope − λ₁d₀)/(slope·λ₂).
    var breakpoints: [Double] = [0]
    if slope != 0 {
      for s in [-d0 / slope, (slope - rate * d0) / (slope * b)] {
        let t: Double
        if frequency == 0 {
          t = s
        } else {
          let y = frequency * s
          t = y < 1 ? -log1p(-y) / frequency : .infinity
        }
        if t > 0 && t.isFinite { breakpoints.append(t) }
      }
    }
    breakpoints.sort()
    // The last piece runs to infinity: find a time past the crossing by doubling.
    let last = breakpoints[breakpoints.count - 1]
    if residual(last) > 0 {
      var step = max(1 / rate, last, 1e-12)
      var high = last + step
      var doublings = 0
      while residual(high) > 0 {
        step *= 2
        high = last + step
        doublings += 1
        if doublings > 2_000 || !high.isFinite { return .infinity }
      }
      return SpringMotion.bisect(low: last, high: high, residual: residual)
    }
    var index = breakpoints.count - 1
    while index > 0 {
      let start = breakpoints[index - 1]
      if residual(start) > 0 {
        return SpringMotion.bisect(low: start, high: breakpoints[index], residual: residual)
      }
      index -= 1
    }
    return 0  // unreachable: the residual at 0 is 0.999·|d₀| > 0
  }

  /// Bisection for the crossing in (low, high], residual(low) > 0 ≥ residual(high), to the
  /// last bit; returns a time where the residual is ≤ 0.
  private static func bisect(low: Double, high: Double, residual: (Double) -> Double) -> Double {
    var low = low
    var high = high
    for _ in 0..<200 {
      let middle = 0.5 * (low + high)
      if middle <= low || middle >= high { break }
      if residual(middle) > 0 { low = middle } else { high = middle }
    }
    return high
  }

  /// `seconds` as whole nanoseconds rounded up, then nudged (by a step or two at most) to
  /// the smallest nanosecond at which `settled` holds, so the result agrees with the
  /// criterion as evaluated rather than with a rounding of it.
  static func nanosecondsRoundedUp(_ seconds: Double, settled: (Double) -> Bool) -> Int64 {
    guard seconds.isFinite else { return .max }
    let scaled = (seconds * 1e9).rounded(.up)
    guard scaled < 9.2e18 else { return .max }
    var n = Int64(max(scaled, 0))
    for _ in 0..<4 where !settled(Double(n) / 1e9) { n += 1 }
    for _ in 0..<4 where n > 0 && settled(Double(n - 1) / 1e9) { n -= 1 }
    return n
  }

  public static func == (lhs: SpringMotion, rhs: SpringMotion) -> Bool { lhs.spring == rhs.spring }

  public func hash(into hasher: inout Hasher) { hasher.combine(spring) }

  public init(from decoder: any Decoder) throws {
    self.init(try Spring(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try spring.encode(to: encoder)
  }
}
