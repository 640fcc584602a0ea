// CSS cubic-bezier() timing curves.

/// A CSS `cubic-bezier(x1, y1, x2, y2)` easing: the curve from (0, 0) to (1, 1) with control
/// points (x1, y1) and (x2, y2), read as "eased progress y at input progress x".
///
/// x1 and x2 must lie in 0...1, which keeps x(t) monotonic so that every x has exactly one
/// y; y1 and y2 are free (overshoot). Sampling is the engine's hot path, so the polynomial
/// coefficients and a table of x samples are computed once, here, and `progress(at:)`
/// allocates nothing.
public struct CubicBezier: Sendable, Hashable, Codable {
  /// The first control point.
  public let x1: Double, y1: Double
  /// The second control point.
  public let x2: Double, y2: Double

  // x(t) = ((ax·t + bx)·t + cx)·t with ax = 1 − cx − bx, and the same for y. The leading
  // coefficients are recomputed (one subtraction) to keep the curve small.
  @usableFromInline let bx: Double, cx: Double
  @usableFromInline let by: Double, cy: Double

  @inlinable
  var ax: Double { 1 - cx - bx }

  @inlinable
  var ay: Double { 1 - cy - by }

  /// x at t = i/7 for i = 1...6 (x is exactly 0 at 0 and 1 at 1): a bracket and a first
  /// guess for Newton's method. Seven segments guess as well as fifteen did (measured), and
  /// keep the curve at 112 bytes: it is stored inline in `TimingCurve`, and an enum over
  /// 128 bytes is copied with `memcpy` each time it is switched on, which cost more than
  /// linear sampling itself.
  @usableFromInline let s1: Double, s2: Double, s3: Double, s4: Double, s5: Double, s6: Double

  /// The allowed range of x1 and x2.
  public static let controlXRange: ClosedRange<Double> = 0...1

  /// A curve with control points (x1, y1) and (x2, y2).
  ///
  /// - Throws: `CurveParameterError` if any value is not finite, or x1 or x2 is outside 0...1
  ///   (x(t) would fold back and one x would have several y).
  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(CurveParameterError) {
    try CurveParameterError.check("x1", x1, "in 0...1") { CubicBezier.controlXRange.contains($0) }
    try CurveParameterError.check("y1", y1, "finite") { _ in true }
    try CurveParameterError.check("x2", x2, "in 0...1") { CubicBezier.controlXRange.contains($0) }
    try CurveParameterError.check("y2", y2, "finite") { _ in true }
    self.init(unchecked: x1, y1, x2, y2)
  }

  init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
    let cx = 3 * x1
    let bx = 3 * (x2 - x1) - cx
    let ax = 1 - cx - bx
    self.cx = cx
    self.bx = bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    func sample(_ i: Int) -> Double {
      let t = Double(i) / 7
      return ((ax * t + bx) * t + cx) * t
    }
    s1 = sample(1)
    s2 = sample(2)
    s3 = sample(3)
    s4 = sample(4)
    s5 = sample(5)
    s6 = sample(6)
  }

  /// CSS `ease`.
  public static let ease = CubicBezier(unchecked: 0.25, 0.1, 0.25, 1)
  /// CSS `ease-in`.
  public static let easeIn = CubicBezier(unchecked: 0.42, 0, 1, 1)
  /// CSS `ease-out`.
  public static let easeOut = CubicBezier(unchecked: 0, 0, 0.58, 1)
  /// CSS `ease-in-out`.
  public static let easeInOut = CubicBezier(unchecked: 0.42, 0, 0.58, 1)

  @inlinable
  func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }

  @inlinable
  func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }

  @inlinable
  func dxdt(at t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

  /// The eased progress at input progress `x`.
  ///
  /// Inside 0...1 it solves x(t) = x by Newton's method kept inside a bracket (falling back
  /// to bisection when a step would leave it, or the slope vanishes) until a step is at most
  /// 1e-12, then returns y(t). 0 and 1 map exactly to 0 and 1. Outside 0...1 it follows the
  /// CSS rule: a straight line through the end point along the nearest control point that is
  /// not on the end point's vertical.
  @inlinable
  public func progress(at x: Double) -> Double {
    if !(x > 0) { return x == 0 ? 0 : startSlope * x }  // NaN stays NaN
    if !(x < 1) { return x == 1 ? 1 : 1 + endSlope * (x - 1) }
    return y(at: solveT(x))
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

  /// The t in 0...1 with x(t) = x, for x in (0, 1).
  @inlinable
  func solveT(_ x: Double) -> Double {
    // Find the segment [i/7, (i+1)/7] whose end samples bracket x (three comparisons),
    // then interpolate linearly in it for a first guess.
    let i: Int
    let below: Double
    let above: Double
    if x < s4 {
      if x < s2 {
        if x < s1 { (i, below, above) = (0, 0, s1) } else { (i, below, above) = (1, s1, s2) }
      } else {
        if x < s3 { (i, below, above) = (2, s2, s3) } else { (i, below, above) = (3, s3, s4) }
      }
    } else {
      if x < s6 {
        if x < s5 { (i, below, above) = (4, s4, s5) } else { (i, below, above) = (5, s5, s6) }
      } else {
        (i, below, above) = (6, s6, 1)
      }
    }
    var low = Double(i) / 7
    var high = Double(i + 1) / 7
    var t = above > below ? low + (x - below) / (above - below) * (high - low) : low
    for _ in 0..<100 {
      let error = self.x(at: t) - x
      // Branch-free bracket updates: the sign of `error` is unpredictable, and a
      // mispredicted branch per iteration cost a quarter of the time.
      low = error < 0 ? t : low
      high = error > 0 ? t : high
      let step = error / dxdt(at: t)
      // Converged: test this before the bracket, because at the root rounding noise in
      // `error` can make t itself an end of the bracket and push a tiny step onto it.
      if abs(step) <= 1e-12 { return t - step }
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
