// CSS cubic-bezier() timing curves.

/// A CSS `cubic-bezier(x1, y1, x2, y2)` easing: the curve from (0, 0) to (1, 1) with control
/// points (x1, y1) and (x2, y2), read as "eased progress y at input progress x".
///
/// x1 and x2 must lie in 0...1, which keeps x(t) monotonic so that every x has exactly one
/// y; y1 and y2 are free (overshoot). Sampling is the engine's hot path, so a table of t at
/// evenly spaced x is computed once, here, and `progress(at:)` allocates nothing and, for
/// almost every input, takes no branch that depends on it.
public struct CubicBezier: Sendable, Hashable, Codable {
  /// The first control point.
  public let x1: Double, y1: Double
  /// The second control point.
  public let x2: Double, y2: Double

  /// t(x) at x = k/39 for k = 0...39, rounded to the nearest multiple of 1/65535 and stored
  /// as 40 little-endian `UInt16`s: a bracket and a first guess for `solveT`, found by
  /// arithmetic on x instead of a search. Forty 16-bit entries guess better than
  /// fewer, more precise ones (the rounding, ≤ 7.7e-6, is below the interpolation error)
  /// and keep the curve at 112 bytes: it is stored inline in `TimingCurve`, and an enum over
  /// 128 bytes is copied with `memcpy` each time it is switched on, which cost more than
  /// linear sampling itself. The polynomial coefficients are recomputed from the control
  /// points on each call (a few operations that overlap the table lookup) for the same reason.
  @usableFromInline let table: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

  /// The number of equal x intervals the table divides 0...1 into.
  @usableFromInline static var tableIntervals: Int { 39 }

  /// The table's unit: an entry e stands for t = e / 65535.
  @usableFromInline static var tableScale: Double { 65535 }

  /// How far the true t may lie outside the bracket read from the table: the rounding of an
  /// entry (half a unit, 7.7e-6) with room to spare.
  @usableFromInline static var tableMargin: Double { 2e-5 }

  /// The allowed range of x1 and x2.
  public static let controlXRange: ClosedRange<Double> = 0...1

  /// The allowed range of y1 and y2: overshoot, but not so far that the curve's polynomial
  /// (3·y1, 3·(y2 − y1)...) or a value scaled by its progress could overflow.
  public static let controlYRange: ClosedRange<Double> = -1_000_000...1_000_000

  /// A curve with control points (x1, y1) and (x2, y2).
  ///
  /// - Throws: `CurveParameterError` if any value is not finite, x1 or x2 is outside 0...1
  ///   (x(t) would fold back and one x would have several y), or y1 or y2 is outside
  ///   ±10⁶ (`controlYRange`).
  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(CurveParameterError) {
    try CurveParameterError.check("x1", x1, "in 0...1") { CubicBezier.controlXRange.contains($0) }
    try CurveParameterError.check("y1", y1, "in -1000000...1000000") { CubicBezier.controlYRange.contains($0) }
    try CurveParameterError.check("x2", x2, "in 0...1") { CubicBezier.controlXRange.contains($0) }
    try CurveParameterError.check("y2", y2, "in -1000000...1000000") { CubicBezier.controlYRange.contains($0) }
    self.init(unchecked: x1, y1, x2, y2)
  }

  init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
    let p = CubicBezier.coefficients(x1, x2)
    // t at x = k/39, each solved within the bracket the previous one starts (x(t) is
    // monotonic), to far better than the table's rounding.
    var table: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &table) { bytes in
      let n = CubicBezier.tableIntervals
      var previous = 0.0
      for k in 1...n {
        var t = 1.0
        if k < n {
          t = CubicBezier.solveTSlowly(
            p, Double(k) / Double(n), from: min(previous + 1 / Double(n), 1), low: previous, high: 1,
            tolerance: 1e-9)
          previous = t
        }
        let entry = UInt16((min(max(t, 0), 1) * CubicBezier.tableScale).rounded())
        bytes.storeBytes(of: entry.littleEndian, toByteOffset: 2 * k, as: UInt16.self)
      }
    }
    self.table = table
  }

  /// CSS `ease`.
  public static let ease = CubicBezier(unchecked: 0.25, 0.1, 0.25, 1)
  /// CSS `ease-in`.
  public static let easeIn = CubicBezier(unchecked: 0.42, 0, 1, 1)
  /// CSS `ease-out`.
  public static let easeOut = CubicBezier(unchecked: 0, 0, 0.58, 1)
  /// CSS `ease-in-out`.
  public static let easeInOut = CubicBezier(unchecked: 0.42, 0, 0.58, 1)

  // x(t) = ((ax·t + bx)·t + cx)·t with cx = 3·x1, bx = 3·(x2 − x1) − cx, ax = 1 − cx − bx,
  // and the same for y.

  /// (a, b, c) for control coordinates p1 and p2.
  @inlinable @inline(__always)
  static func coefficients(_ p1: Double, _ p2: Double) -> (a: Double, b: Double, c: Double) {
    let c = 3 * p1
    let b = 3 * (p2 - p1) - c
    return (1 - c - b, b, c)
  }

  /// (ax, bx, cx).
  @inlinable
  var xCoefficients: (a: Double, b: Double, c: Double) { Self.coefficients(x1, x2) }

  /// (ay, by, cy).
  @inlinable
  var yCoefficients: (a: Double, b: Double, c: Double) { Self.coefficients(y1, y2) }

  /// p(t) − x for the cubic p with coefficients (a, b, c), as c·t − x + t²·(b + a·t): the
  /// same value as Horner's rule to rounding, in a third fewer dependent steps.
  @inlinable @inline(__always)
  static func cubic(_ p: (a: Double, b: Double, c: Double), at t: Double, minus x: Double = 0) -> Double {
    (p.c * t - x) + (t * t) * (p.b + p.a * t)
  }

  /// p′(t).
  @inlinable @inline(__always)
  static func slope(_ p: (a: Double, b: Double, c: Double), at t: Double) -> Double {
    p.c + t * (2 * p.b + 3 * p.a * t)
  }

  /// The eased progress at input progress `x`.
  ///
  /// Inside 0...1 it solves x(t) = x by Newton's method kept inside a bracket (falling back
  /// to bisection when a step would leave it, or the slope vanishes) until a step is at most
  /// 1e-12, then returns y(t); the first step, from a guess interpolated in a table, is of
  /// fourth order, so that one Newton step after it almost always meets the tolerance.
  /// 0 and 1 map exactly to 0 and 1. Outside 0...1 it follows the CSS rule: a straight line
  /// through the end point along the nearest control point that is not on the end point's
  /// vertical.
  @inlinable @inline(__always)
  public func progress(at x: Double) -> Double {
    if !(x > 0) { return x == 0 ? 0 : startSlope * x }  // NaN stays NaN
    if !(x < 1) { return x == 1 ? 1 : 1 + endSlope * (x - 1) }
    return Self.cubic(yCoefficients, at: solveT(x))
  }

  /// The slope of the line that extends the curve before 0 (CSS Easing Level 1): through P0
  /// and P1, or if x1 is 0, through P0 and P2, else flat.
  @usableFromInline
  var startSlope: Double {
    if x1 > 0 { return y1 / x1 }
    if x2 > 0 { return y2 / x2 }
    return 0
  }

  /// The slope of the line that extends the curve after 1: through P2 and P3, or if x2 is 1,
  /// through P1 and P3, else flat.
  @usableFromInline
  var endSlope: Double {
    if x2 < 1 { return (y2 - 1) / (x2 - 1) }
    if x1 < 1 { return (y1 - 1) / (x1 - 1) }
    return 0
  }

  /// Table entries k and k + 1, in units of 1/65535, for k in 0..<39.
  ///
  /// Two aligned 64-bit loads and a funnel shift: a 32-bit load of both entries at once
  /// could straddle two of the 16-byte stores that copy the table to the stack, which the
  /// processor cannot forward (measured slower), and a chain of selects among the ten words
  /// was compiled into a branch on the input, mispredicted half the time.
  @inlinable @inline(__always)
  func tableBracket(_ k: Int) -> (below: Double, above: Double) {
    let word = k >> 2
    let (low, high) = withUnsafeBytes(of: table) {
      (
        UInt64(littleEndian: $0.load(fromByteOffset: 8 * word, as: UInt64.self)),
        // Word 10 does not exist; for k in 36...38 both entries are in word 9.
        UInt64(littleEndian: $0.load(fromByteOffset: 8 * min(word + 1, 9), as: UInt64.self))
      )
    }
    let shift = UInt64(k & 3) << 4
    let pair = (low &>> shift) | ((high &<< 1) &<< (63 &- shift))
    return (Double(UInt16(truncatingIfNeeded: pair)), Double(UInt16(truncatingIfNeeded: pair &>> 16)))
  }

  /// The t in 0...1 with x(t) = x, for x in (0, 1).
  ///
  /// The common path is straight-line code: a guess interpolated in the table; one step of
  /// the inverse series of the cubic to fourth order (h = u − c₂u² + (2c₂² − c₃)u³ +
  /// 5c₂(c₃ − c₂²)u⁴ with u = −f/f′, c₂ = f″/2f′, c₃ = f‴/6f′, all at the guess), which turns
  /// the table's error of about 1e-4 into about 1e-16; then one Newton step, which is
  /// accepted when it is at most 1e-12. Anything else (a step that leaves the bracket, a
  /// vanishing slope, a larger last step: about 2% of inputs, next to where x′(t) = 0)
  /// continues in `solveTSlowly`.
  @inlinable @inline(__always)
  func solveT(_ x: Double) -> Double {
    let p = xCoefficients
    let scaled = x * Double(Self.tableIntervals)
    let k = min(Int(scaled), Self.tableIntervals - 1)
    let (below, above) = tableBracket(k)
    let unit = 1 / Self.tableScale
    // The root lies in [low, high]. Clamped to 0...1: outside it x(t) need not be monotonic,
    // and when x′(0) = 0, x(t) = x has a second root just below 0 for tiny x.
    let low = max(below * unit - Self.tableMargin, 0)
    let high = min(above * unit + Self.tableMargin, 1)
    let t0 = (below + (scaled - Double(k)) * (above - below)) * unit
    let f = Self.cubic(p, at: t0, minus: x)
    let r = 1 / Self.slope(p, at: t0)
    let u = -f * r
    let c2 = (p.b + 3 * p.a * t0) * r  // f″/2f′
    let c3 = p.a * r  // f‴/6f′
    let c2c2 = c2 * c2
    let uu = u * u
    // t0 + u − c₂u² + (2c₂² − c₃)u³ + 5c₂(c₃ − c₂²)u⁴, grouped for fewer dependent steps.
    let t1 = (t0 + u) + uu * ((u * (2 * c2c2 - c3) - c2) + uu * (5 * c2 * (c3 - c2c2)))
    if t1 > low && t1 < high {  // false for NaN, from a vanishing slope
      let step = Self.cubic(p, at: t1, minus: x) * (1 / Self.slope(p, at: t1))
      if abs(step) <= 1e-12 { return t1 - step }
      return Self.solveTSlowly(p, x, from: t1, low: low, high: high, tolerance: 1e-12)
    }
    return Self.solveTSlowly(p, x, from: 0.5 * (low + high), low: low, high: high, tolerance: 1e-12)
  }

  /// The t with x(t) = x for the cubic with coefficients `p`, by Newton's method from `t`
  /// kept inside [low, high] (which must hold the root, to within rounding), falling back to
  /// bisection when a step would leave it or the slope vanishes, until a step is at most
  /// `tolerance`.
  @usableFromInline @inline(never)
  static func solveTSlowly(
    _ p: (a: Double, b: Double, c: Double), _ x: Double, from t: Double, low: Double, high: Double,
    tolerance: Double
  ) -> Double {
    var t = t
    var low = low
    var high = high
    for _ in 0..<100 {
      let error = Self.cubic(p, at: t, minus: x)
      low = error < 0 ? t : low
      high = error > 0 ? t : high
      let step = error / Self.slope(p, at: t)
      // Converged: test this before the bracket, because at the root rounding noise in
      // `error` can make t itself an end of the bracket and push a tiny step onto it.
      if abs(step) <= tolerance { return t - step }
      var next = t - step
      if !(next > low && next < high) { next = error == 0 ? t : 0.5 * (low + high) }
      t = next
    }
    return t
  }

  public static func == (lhs: CubicBezier, rhs: CubicBezier) -> Bool {
    lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(x1)
    hasher.combine(y1)
    hasher.combine(x2)
    hasher.combine(y2)
  }

  private enum CodingKeys: String, CodingKey { case x1, y1, x2, y2 }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let x1 = try container.decode(Double.self, forKey: .x1)
    let y1 = try container.decode(Double.self, forKey: .y1)
    let x2 = try container.decode(Double.self, forKey: .x2)
    let y2 = try container.decode(Double.self, forKey: .y2)
    do {
      try self.init(x1, y1, x2, y2)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(x1, forKey: .x1)
    try container.encode(y1, forKey: .y1)
    try container.encode(x2, forKey: .x2)
    try container.encode(y2, forKey: .y2)
  }
}
