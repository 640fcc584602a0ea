// Curves, written from their definitions (CSS Easing Level 1, language.md's springs), simply:
// a Bézier is solved by bisection, a spring is its closed form.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a `steps()` curve jumps (CSS Easing Level 1).
package enum OracleStepJump: String, Sendable, Hashable, CaseIterable {
  case jumpStart, jumpEnd, jumpNone, jumpBoth
}

/// A spring by its physical parameters, with an initial velocity in distances per second.
package struct OracleSpring: Sendable, Hashable {
  package var mass: Double
  package var stiffness: Double
  package var damping: Double
  package var velocity: Double

  package init(mass: Double, stiffness: Double, damping: Double, velocity: Double = 0) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.velocity = velocity
  }

  /// SwiftUI's conversion: stiffness = (2π / response)² · mass, damping = 4π · ζ · mass / response.
  package init(response: Double, dampingFraction: Double, velocity: Double = 0) {
    let mass = 1.0
    self.init(
      mass: mass, stiffness: pow(2 * Double.pi / response, 2) * mass,
      damping: 4 * Double.pi * dampingFraction * mass / response, velocity: velocity)
  }

  /// ω₀ = √(k/m).
  var omega: Double { (stiffness / mass).squareRoot() }
  /// ζ = c / (2√(km)).
  var zeta: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// The displacement y(t) = x(t) − 1 of the motion from 0 to 1 (y(0) = −1, y'(0) = v₀), in
  /// closed form for the three regimes.
  package func displacement(at t: Double) -> Double {
    let y0 = -1.0
    let v0 = velocity
    let w0 = omega
    let z = zeta
    if z < 1 {
      let wd = w0 * (1 - z * z).squareRoot()
      return exp(-z * w0 * t) * (y0 * cos(wd * t) + (v0 + z * w0 * y0) / wd * sin(wd * t))
    } else if z == 1 {
      return exp(-w0 * t) * (y0 + (v0 + w0 * y0) * t)
    } else {
      let s = (z * z - 1).squareRoot()
      let r1 = -w0 * (z - s)
      let r2 = -w0 * (z + s)
      let c2 = (v0 - r1 * y0) / (r2 - r1)
      let c1 = y0 - c2
      return c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }
  }

  /// The settling time in seconds, as language.md defines it (relative to |d₀| = 1):
  /// under-damped, A·e^(−ζω₀t) = 0.001 with A = √(d₀² + ((v₀ + ζω₀d₀)/ω_d)²); otherwise the
  /// first t after which |y(t)| ≤ 0.001 for good.
  package var settlingSeconds: Double {
    let w0 = omega
    let z = zeta
    let y0 = -1.0
    if z < 1 {
      let wd = w0 * (1 - z * z).squareRoot()
      let a = (y0 * y0 + pow((velocity + z * w0 * y0) / wd, 2)).squareRoot()
      return max(0, log(a / 0.001) / (z * w0))
    }
    // |y| is a sum of at most two exponentials: beyond its last zero and last extremum it
    // only shrinks. Find a time beyond which it is below the threshold, then bisect on the
    // last time it is above, scanning finely so that a dip below and back is not missed.
    var far = 1.0 / w0
    while abs(displacement(at: far)) > 0.001 || far < 10 / w0 { far *= 2 }
    let steps = 20_000
    var lastAbove = -1.0
    for i in 0...steps {
      let t = far * Double(i) / Double(steps)
      if abs(displacement(at: t)) > 0.001 { lastAbove = t }
    }
    if lastAbove < 0 { return 0 }
    var lo = lastAbove
    var hi = min(far, lastAbove + far / Double(steps))
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if abs(displacement(at: mid)) > 0.001 { lo = mid } else { hi = mid }
    }
    return hi
  }

  /// The settling time rounded up to the nanosecond.
  package var settlingNanoseconds: Int64 { Int64((settlingSeconds * 1e9).rounded(.up)) }
}

/// A timing curve: progress in, eased progress out.
package enum OracleCurve: Sendable, Hashable {
  case linear
  case cubic(Double, Double, Double, Double)
  case steps(Int, OracleStepJump)
  /// A spring over `length` nanoseconds of its own time (its settling time, or stretched:
  /// `length` is then the settling time and the animation's duration stretches it).
  case spring(OracleSpring)

  package static let ease = OracleCurve.cubic(0.25, 0.1, 0.25, 1)
  package static let easeIn = OracleCurve.cubic(0.42, 0, 1, 1)
  package static let easeOut = OracleCurve.cubic(0, 0, 0.58, 1)
  package static let easeInOut = OracleCurve.cubic(0.42, 0, 0.58, 1)

  /// Eased progress at input progress `x` (0...1). `beforeFlag` is Web Animations' before
  /// flag, which only `steps` reads.
  package func progress(_ x: Double, beforeFlag: Bool = false) -> Double {
    switch self {
    case .linear:
      return x
    case .cubic(let x1, let y1, let x2, let y2):
      return Self.bezier(x, x1, y1, x2, y2)
    case .steps(let n, let jump):
      return Self.steps(x, n, jump, beforeFlag)
    case .spring(let spring):
      if x >= 1 { return 1 }  // at its settling time a spring ends exactly at its target
      if x <= 0 { return 0 }
      let t = x * Double(spring.settlingNanoseconds) / 1e9
      return 1 + spring.displacement(at: t)
    }
  }

  /// CSS cubic-bezier: solve x(t) = x by bisection (x(t) is monotone for x1, x2 in 0...1)
  /// to the last bit, then y(t). Outside 0...1 the chain never asks.
  static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
      let u = 1 - t
      return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    // x(t) − x, in double-double arithmetic (about 106 bits). Where x(t) is flat at the root
    // (cubic(1, y1, 0, y2) at x = 0.5: x(t) − 0.5 = 4 (t − 0.5)³), a Double's rounding in
    // x(t) moves the root by its cube root, about 10⁻⁵ of t; 106 bits move it by about
    // 10⁻¹¹. (t is a Double and 1 − t is exact for t in 0...1, so only the products round.)
    func excess(_ t: Double) -> DoubleDouble {
      let u = DoubleDouble(1 - t)
      let tt = DoubleDouble(t)
      let three = DoubleDouble(3)
      let a = three * u * u * tt * DoubleDouble(x1)
      let b = three * u * tt * tt * DoubleDouble(x2)
      return a + b + tt * tt * tt - DoubleDouble(x)
    }
    // Where x(t) is flat, every t in a small interval still rounds to x: the root is the
    // middle of that interval, found from both sides (the last t with x(t) < x and the first
    // with x(t) > x).
    func boundary(_ below: (DoubleDouble) -> Bool) -> Double {
      var lo = 0.0
      var hi = 1.0
      for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if mid == lo || mid == hi { break }
        if below(excess(mid)) { lo = mid } else { hi = mid }
      }
      return (lo + hi) / 2
    }
    let t = (boundary { $0.isNegative } + boundary { !$0.isPositive }) / 2
    return coordinate(t, y1, y2)
  }

  /// CSS Easing Level 1, "the steps() easing function".
  static func steps(_ x: Double, _ n: Int, _ jump: OracleStepJump, _ beforeFlag: Bool) -> Double {
    var step = (x * Double(n)).rounded(.down)
    if jump == .jumpStart || jump == .jumpBoth { step += 1 }
    if beforeFlag && (x * Double(n)).truncatingRemainder(dividingBy: 1) == 0 { step -= 1 }
    if x >= 0 && step < 0 { step = 0 }
    var jumps = Double(n)
    if jump == .jumpBoth { jumps += 1 }
    if jump == .jumpNone { jumps -= 1 }
    if x <= 1 && step > jumps { step = jumps }
    return step / jumps
  }
}

/// A number as an unevaluated sum of two Doubles, hi + lo with |lo| ≤ ulp(hi)/2: about 106
/// bits, by the error-free transformations (Knuth's two-sum, the fused multiply-add's exact
/// product error). Only what the cubic's x(t) needs.
struct DoubleDouble {
  var hi: Double
  var lo: Double

  init(_ x: Double) {
    hi = x
    lo = 0
  }

  init(hi: Double, lo: Double) {
    self.hi = hi
    self.lo = lo
  }

  var isNegative: Bool { hi < 0 || (hi == 0 && lo < 0) }
  var isPositive: Bool { hi > 0 || (hi == 0 && lo > 0) }

  /// a + b exactly as s + e.
  static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
    let s = a + b
    let v = s - a
    return (s, (a - (s - v)) + (b - v))
  }

  static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let (s, e) = twoSum(a.hi, b.hi)
    let (t, f) = twoSum(a.lo, b.lo)
    let (s2, e2) = twoSum(s, e + t)
    let (hi, lo) = twoSum(s2, e2 + f)
    return DoubleDouble(hi: hi, lo: lo)
  }

  static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(hi: -a.hi, lo: -a.lo) }

  static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + -b }

  static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let p = a.hi * b.hi
    let e = (-p).addingProduct(a.hi, b.hi)  // a.hi · b.hi − p, exactly
    let (hi, lo) = twoSum(p, e + (a.hi * b.lo + a.lo * b.hi))
    return DoubleDouble(hi: hi, lo: lo)
  }
}
