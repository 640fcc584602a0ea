// Time: clock times as integer nanoseconds, and the few conversions between them.
//
// Every time in the engine is an exact integer count of nanoseconds. Floating point appears
// only at the edges (seconds typed by a person, playback rates, progress) and every
// conversion back to a clock time rounds to the nearest nanosecond, exactly once. Nothing is
// accumulated in floating point, so long runs do not drift.

/// A clock time or a span of time, in integer nanoseconds.
///
/// Integers make time exact: adding and subtracting spans never loses a nanosecond, so a
/// million pauses and resumes end exactly where arithmetic on paper says they end. Int64
/// holds about 292 years either side of zero.
public typealias Nanoseconds = Int64

extension Int64 {
  /// The number of nanoseconds nearest to `seconds` seconds (halves away from zero).
  ///
  /// Seconds arrive as `Double` from people and scripts; this is the one place they become
  /// clock time. The product with 10⁹ is computed exactly and rounded once (`seconds * 1e9`
  /// in Double would round twice). It never traps: NaN becomes 0, and values beyond the
  /// Int64 range (including the infinities) saturate at `Int64.min` / `Int64.max`.
  @inlinable
  public init(seconds: Double) {
    self = scaled(1_000_000_000, by: seconds)
  }
}

extension Int64 {
  /// The number of nanoseconds nearest to `duration` (halves away from zero), saturating.
  ///
  /// Swift's `Duration` counts attoseconds; embedders that measure time with it (a
  /// `ContinuousClock`, `.milliseconds(16)`) hand it to the engine through this.
  @inlinable
  public init(rounding duration: Duration) {
    let (whole, remainder) = duration.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    let rounded = remainder.magnitude >= 500_000_000 ? whole + (remainder < 0 ? -1 : 1) : whole
    self = clampedToNanoseconds(rounded)
  }
}

extension Duration {
  /// `ns` nanoseconds as a `Duration`, exactly.
  @inlinable
  public init(nanoseconds ns: Nanoseconds) {
    self = .nanoseconds(ns)
  }
}

/// `ns` nanoseconds as seconds: `Double(ns) / 1e9`, one correctly rounded division.
///
/// For display and for feeding physics (springs) that work in seconds; never converted back
/// and accumulated.
@inlinable
public func seconds(_ ns: Nanoseconds) -> Double {
  Double(ns) / 1e9
}

/// Rounds a Double to the nearest Int64 (halves away from zero) without ever trapping:
/// NaN becomes 0 and out-of-range values (including the infinities) saturate.
@inlinable
public func saturatingNanoseconds(rounding value: Double) -> Nanoseconds {
  if value.isNaN { return 0 }
  let rounded = value.rounded(.toNearestOrAwayFromZero)
  // 2^63 is exactly representable; anything at or above it does not fit in Int64.
  if rounded >= 9_223_372_036_854_775_808.0 { return .max }
  if rounded <= -9_223_372_036_854_775_808.0 { return .min }
  return Int64(rounded)
}

/// `t · rate`, rounded to the nearest nanosecond (halves away from zero), saturating.
///
/// This is how a parent's time becomes a child's time (current time = (parent − start) ·
/// rate). At rate 1 and −1 it is exact integer arithmetic with no floating point at all,
/// which is what keeps pause/resume cycles at normal speed drift-free. At other rates the
/// product is computed exactly (the rate's binary significand times `t`, in 128 bits) and
/// rounded once, so the result is the true nearest nanosecond even for times beyond 2^53 ns,
/// where `Double(t) * rate` would round twice. NaN rates give 0.
@inlinable
public func scaled(_ t: Nanoseconds, by rate: Double) -> Nanoseconds {
  if rate == 1 { return t }
  if rate == -1 { return t == .min ? .max : -t }
  if t == 0 || rate == 0 || rate.isNaN { return 0 }
  if rate.isInfinite { return (t > 0) == (rate > 0) ? .max : .min }
  let (significand, exponent) = exactBinaryParts(of: rate.magnitude)
  let negative = (t < 0) != (rate < 0)
  let product = UInt128(t.magnitude) * UInt128(significand)  // < 2^117: cannot overflow
  let magnitude: UInt128
  if exponent >= 0 {
    // Shifting left: saturate once the value needs more than 64 bits.
    if exponent >= 64 || product > (UInt128(UInt64.max) >> exponent) { return negative ? .min : .max }
    magnitude = product << exponent
  } else {
    let shift = -exponent
    if shift >= 127 { return 0 }  // product < 2^117, so the quotient is below one half
    let whole = product >> shift
    let remainder = product & ((UInt128(1) << shift) &- 1)
    let half = UInt128(1) << (shift - 1)
    magnitude = remainder >= half ? whole + 1 : whole
  }
  return signedSaturating(magnitude, negative: negative)
}

/// `t / rate`, rounded to the nearest nanosecond (halves away from zero), saturating.
///
/// The inverse conversion, from a child's time back to its parent's: resume sets
/// start = parent − hold / rate, and a rate change sets start = parent − current / rate.
/// At rate ±1 it is exact integer arithmetic; otherwise the quotient is computed exactly in
/// 128-bit integers and rounded once. A rate of 0 (which holds time still, so has no
/// inverse) saturates toward the sign of `t` (0 stays 0); NaN rates give 0; infinite rates
/// give 0.
@inlinable
public func unscaled(_ t: Nanoseconds, by rate: Double) -> Nanoseconds {
  if rate == 1 { return t }
  if rate == -1 { return t == .min ? .max : -t }
  if t == 0 || rate.isNaN || rate.isInfinite { return 0 }
  let negative = (t < 0) != (rate.sign == .minus)
  if rate == 0 { return negative ? .min : .max }
  let (significand, exponent) = exactBinaryParts(of: rate.magnitude)
  // t / (significand · 2^exponent) = (t · 2^-exponent) / significand when exponent < 0,
  // and t / (significand · 2^exponent) when exponent ≥ 0.
  let numerator: UInt128
  let denominator: UInt128
  let tMagnitude = UInt128(t.magnitude)
  if exponent >= 0 {
    // The denominator is at least 2^exponent; at 2^64 or more it exceeds 2·|t|, so the
    // quotient is below one half.
    if exponent >= 64 { return 0 }
    numerator = tMagnitude
    denominator = UInt128(significand) << exponent
  } else {
    let shift = -exponent
    // The quotient is at least |t| · 2^shift / 2^53. Once |t| · 2^shift reaches 2^117 the
    // quotient is at least 2^64 and saturates; below that the numerator fits in 128 bits.
    let bits = 64 - t.magnitude.leadingZeroBitCount
    if bits + shift > 117 { return negative ? .min : .max }
    numerator = tMagnitude << shift
    denominator = UInt128(significand)
  }
  let (whole, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
  // remainder ≥ denominator / 2, tested without halving: 2·remainder ≥ denominator.
  let magnitude = remainder >= denominator - remainder ? whole + 1 : whole
  return signedSaturating(magnitude, negative: negative)
}

/// The time of frame `frame` at `fps` frames per second: round(frame · 10⁹ / fps), computed
/// exactly in integers, halves rounding up (toward +∞).
///
/// Sampling a run at a fixed frame rate must put frame k at the same nanosecond on every
/// machine; integer arithmetic guarantees it where `Double(k) / fps` would not (1/60 s is not
/// a whole number of nanoseconds, and its error would grow with k). Never traps: results
/// beyond the Int64 range saturate, and `fps` 0 saturates toward the sign of `frame` (0 stays
/// 0). A negative `fps` counts frames backwards.
@inlinable
public func frameTime(_ frame: Int64, fps: Int64) -> Nanoseconds {
  if fps == 0 { return frame == 0 ? 0 : (frame > 0 ? .max : .min) }
  var numerator = Int128(frame) * 1_000_000_000
  var denominator = Int128(fps)
  if denominator < 0 {
    numerator = -numerator
    denominator = -denominator
  }
  // floor((2·n + d) / (2·d)) is n/d rounded with halves up. |n| < 2^94, so no overflow.
  let twice = 2 * numerator + denominator
  let twiceDenominator = 2 * denominator
  var quotient = twice / twiceDenominator
  if twice % twiceDenominator < 0 { quotient -= 1 }  // Swift's `/` truncates; we want floor
  if quotient > Int128(Int64.max) { return .max }
  if quotient < Int128(Int64.min) { return .min }
  return Int64(quotient)
}

/// A positive finite Double as an exact integer significand and a power-of-two exponent:
/// `value == Double(significand) · 2^exponent`, with the significand below 2^53.
@inlinable
func exactBinaryParts(of value: Double) -> (significand: UInt64, exponent: Int) {
  if value.isNormal {
    return (value.significandBitPattern | (1 << 52), Int(value.exponentBitPattern) - 1075)
  }
  return (value.significandBitPattern, -1074)  // subnormal
}

/// A magnitude with a sign as an Int64, saturating beyond the range.
@inlinable
func signedSaturating(_ magnitude: UInt128, negative: Bool) -> Nanoseconds {
  if negative {
    if magnitude >= UInt128(Int64.max) + 1 { return .min }
    return -Int64(magnitude)
  }
  if magnitude > UInt128(Int64.max) { return .max }
  return Int64(magnitude)
}

/// An exact 128-bit time clamped into the Int64 range, so sums of extreme times saturate
/// instead of trapping.
@inlinable
func clampedToNanoseconds(_ value: Int128) -> Nanoseconds {
  if value > Int128(Int64.max) { return .max }
  if value < Int128(Int64.min) { return .min }
  return Int64(value)
}

/// a + b, saturating at the Int64 range instead of trapping.
@inlinable
public func saturatingSum(_ a: Nanoseconds, _ b: Nanoseconds) -> Nanoseconds {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? (b > 0 ? .max : .min) : sum
}
