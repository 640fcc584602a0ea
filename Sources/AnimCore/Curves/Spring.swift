// Springs: physical parameters and the SwiftUI ways of writing them.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A damped spring: a mass on a spring with a damper, `m·x'' + c·x' + k·x = 0`.
///
/// A spring is physics rather than a fixed-length curve: its motion depends only on these
/// three numbers and on where and how fast it starts. The Core Animation form (mass,
/// stiffness, damping) is stored; SwiftUI's forms (response and damping fraction, duration
/// and bounce) convert to it. Every initialiser validates, so that a spring that exists can
/// always be sampled and always settles.
public struct Spring: Sendable, Hashable, Codable {
  /// The moving mass m (> 0).
  public let mass: Double
  /// The spring constant k (> 0).
  public let stiffness: Double
  /// The damping coefficient c (> 0: an undamped spring would never settle).
  public let damping: Double

  /// A spring from Core Animation's parameters.
  ///
  /// - Throws: `CurveParameterError` if a parameter is not a finite number greater than 0, or
  ///   if together they give no finite, positive natural frequency and decay rate.
  public init(mass: Double = 1, stiffness: Double, damping: Double) throws(CurveParameterError) {
    try CurveParameterError.check("mass", mass, "greater than 0") { $0 > 0 }
    try CurveParameterError.check("stiffness", stiffness, "greater than 0") { $0 > 0 }
    try CurveParameterError.check("damping", damping, "greater than 0") { $0 > 0 }
    let frequencySquared = stiffness / mass
    guard frequencySquared.isFinite && frequencySquared > 0 else {
      throw CurveParameterError(
        parameter: "stiffness", value: stiffness,
        requirement: "such that stiffness / mass is a positive finite number")
    }
    let decay = damping / (2 * mass)
    guard decay.isFinite && decay > 0 else {
      throw CurveParameterError(
        parameter: "damping", value: damping,
        requirement: "such that damping / mass is a positive finite number")
    }
    self.init(unchecked: mass, stiffness, damping)
  }

  init(unchecked mass: Double, _ stiffness: Double, _ damping: Double) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
  }

  /// A spring from SwiftUI's response (seconds, the period of the undamped oscillation) and
  /// damping fraction (1 is critically damped, less bounces): mass 1,
  /// stiffness = (2π / response)², damping = 4π · dampingFraction / response.
  ///
  /// - Throws: `CurveParameterError` unless both are finite numbers greater than 0 and the
  ///   resulting stiffness is finite.
  public init(response: Double, dampingFraction: Double) throws(CurveParameterError) {
    try CurveParameterError.check("response", response, "greater than 0") { $0 > 0 }
    try CurveParameterError.check("dampingFraction", dampingFraction, "greater than 0") { $0 > 0 }
    let spring = Spring(uncheckedResponse: response, dampingFraction: dampingFraction)
    guard spring.stiffness.isFinite, spring.damping.isFinite, spring.damping > 0 else {
      throw CurveParameterError(
        parameter: spring.stiffness.isFinite ? "dampingFraction" : "response",
        value: spring.stiffness.isFinite ? dampingFraction : response,
        requirement: "small enough that the spring's stiffness and damping are finite")
    }
    try self.init(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
  }

  /// SwiftUI's conversion without validation, for the presets and after validation.
  init(uncheckedResponse response: Double, dampingFraction: Double) {
    let mass = 1.0
    let angular = 2 * Double.pi / response
    self.init(
      unchecked: mass, angular * angular * mass, 4 * Double.pi * dampingFraction * mass / response)
  }

  /// A spring from SwiftUI's duration (the response) and bounce: dampingFraction = 1 − bounce
  /// for bounce ≥ 0 and 1 / (1 + bounce) below (over-damped).
  ///
  /// - Throws: `CurveParameterError` unless duration is a finite number greater than 0 and
  ///   bounce is greater than −1 and less than 1.
  public init(duration: Double, bounce: Double = 0) throws(CurveParameterError) {
    try CurveParameterError.check("duration", duration, "greater than 0") { $0 > 0 }
    try CurveParameterError.check("bounce", bounce, "greater than -1 and less than 1") {
      $0 > -1 && $0 < 1
    }
    try self.init(response: duration, dampingFraction: Spring.dampingFraction(bounce: bounce))
  }

  /// SwiftUI's bounce → damping fraction rule.
  public static func dampingFraction(bounce: Double) -> Double {
    bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
  }

  /// SwiftUI's `.smooth`: duration 0.5 s, bounce 0 (critically damped).
  public static let smooth = Spring(uncheckedResponse: 0.5, dampingFraction: 1)
  /// SwiftUI's `.snappy`: duration 0.5 s, bounce 0.15.
  public static let snappy = Spring(uncheckedResponse: 0.5, dampingFraction: 1 - 0.15)
  /// SwiftUI's `.bouncy`: duration 0.5 s, bounce 0.3.
  public static let bouncy = Spring(uncheckedResponse: 0.5, dampingFraction: 1 - 0.3)

  /// ζ = c / (2√(km)): below 1 the spring overshoots and oscillates, at 1 it returns as fast
  /// as it can without overshooting, above 1 it creeps.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// ω₀ = √(k/m), radians per second: how fast it would oscillate without damping.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// SwiftUI's response: the undamped period 2π/ω₀, in seconds.
  public var response: Double { 2 * Double.pi / naturalFrequency }

  /// SwiftUI's damping fraction, which is the damping ratio ζ.
  public var dampingFraction: Double { dampingRatio }

  /// SwiftUI's bounce: 1 − ζ when ζ ≤ 1, 1/ζ − 1 above.
  public var bounce: Double {
    let zeta = dampingRatio
    return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
  }

  /// The closed-form motion of this spring, with its coefficients computed once.
  public var motion: SpringMotion { SpringMotion(self) }

  /// The settling time in nanoseconds (rounded up) of the normalised motion from 0 to 1 that
  /// starts with `initialVelocity` distances per second. See `SpringMotion.settlingTime`.
  public func settlingTime(initialVelocity: Double = 0) -> Int64 {
    motion.settlingTime(initialVelocity: initialVelocity)
  }

  private enum CodingKeys: String, CodingKey { case mass, stiffness, damping }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let mass = try container.decode(Double.self, forKey: .mass)
    let stiffness = try container.decode(Double.self, forKey: .stiffness)
    let damping = try container.decode(Double.self, forKey: .damping)
    do {
      try self.init(mass: mass, stiffness: stiffness, damping: damping)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(mass, forKey: .mass)
    try container.encode(stiffness, forKey: .stiffness)
    try container.encode(damping, forKey: .damping)
  }
}
