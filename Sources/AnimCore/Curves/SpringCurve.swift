// A spring used as a timing curve from 0 to 1.

/// A spring as a curve from progress 0 to 1: a `Spring`, the initial velocity it starts with
/// and its length on a timeline.
///
/// The length is the spring's settling time (rounded up to the nanosecond), or, with
/// `over D` in the language, the duration D it is stretched to; either way input progress x
/// maps to x times the settling time of physics, so stretching changes speed, not shape.
/// At x ≥ 1 the curve is exactly 1: a spring ends exactly at its target.
public struct SpringCurve: Sendable, Hashable, Codable {
  /// The spring's physics.
  @inlinable
  public var spring: Spring { motion.spring }
  /// The initial velocity, in distances per second (1 = the whole distance per second).
  public let initialVelocity: Double
  /// The duration it was stretched to, in nanoseconds, or `nil` to run at its own pace.
  public let stretchedDuration: Int64?
  /// The settling time of this motion, in nanoseconds rounded up.
  public let settlingTime: Int64
  /// The length on a timeline, in nanoseconds: the stretched duration if any, else the
  /// settling time.
  public var duration: Int64 { stretchedDuration ?? settlingTime }

  @usableFromInline let motion: SpringMotion
  /// Seconds of physics per unit of input progress: the settling time in seconds.
  @usableFromInline let secondsPerProgress: Double

  /// - Parameters:
  ///   - spring: the physics.
  ///   - initialVelocity: distances per second at the start; any finite number.
  ///   - stretchedDuration: nanoseconds to stretch the motion to (`over D`), at least 0, or
  ///     `nil` for the spring's own settling time.
  /// - Throws: `CurveParameterError` for a non-finite velocity or a negative duration.
  public init(spring: Spring, initialVelocity: Double = 0, stretchedDuration: Int64? = nil) throws(CurveParameterError)
  {
    try CurveParameterError.check("velocity", initialVelocity, "finite") { _ in true }
    if let stretchedDuration, stretchedDuration < 0 {
      throw CurveParameterError(
        parameter: "duration", value: Double(stretchedDuration), requirement: "at least 0")
    }
    self.initialVelocity = initialVelocity
    self.stretchedDuration = stretchedDuration
    motion = SpringMotion(spring)
    settlingTime = motion.settlingTime(initialVelocity: initialVelocity)
    secondsPerProgress = Double(settlingTime) / 1e9
  }

  /// The eased progress at input progress `x` (the fraction of the curve's length):
  /// 1 − P(t) + V·Q(t) at t = x · settling time; exactly 0 at and before 0, exactly 1 at and
  /// after 1.
  @inlinable
  public func progress(at x: Double) -> Double {
    if !(x < 1) { return x.isNaN ? x : 1 }
    if !(x > 0) { return x.isNaN ? x : 0 }
    let (p, q) = motion.valueResponses(at: x * secondsPerProgress)
    return 1 - p + initialVelocity * q
  }

  /// The rate of change of progress at input progress `x`, in distances per second of the
  /// curve's duration (so a stretched spring reports its stretched speed): what velocity-
  /// preserving retargeting carries over. 0 at and after 1, where the spring has settled.
  @inlinable
  public func velocity(at x: Double) -> Double {
    if !(x < 1) { return x.isNaN ? x : 0 }
    let t = x > 0 ? x * secondsPerProgress : 0
    let responses = motion.responses(at: t)
    // Physics seconds per second of the curve's duration.
    let length = Double(duration)
    let timeScale = length > 0 ? Double(settlingTime) / length : 0
    return (-responses.displacementDerivative + initialVelocity * responses.velocityDerivative) * timeScale
  }

  public static func == (lhs: SpringCurve, rhs: SpringCurve) -> Bool {
    lhs.spring == rhs.spring && lhs.initialVelocity == rhs.initialVelocity
      && lhs.stretchedDuration == rhs.stretchedDuration
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(spring)
    hasher.combine(initialVelocity)
    hasher.combine(stretchedDuration)
  }

  private enum CodingKeys: String, CodingKey { case spring, initialVelocity, stretchedDuration }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let spring = try container.decode(Spring.self, forKey: .spring)
    let velocity = try container.decode(Double.self, forKey: .initialVelocity)
    let stretched = try container.decodeIfPresent(Int64.self, forKey: .stretchedDuration)
    do {
      try self.init(spring: spring, initialVelocity: velocity, stretchedDuration: stretched)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(spring, forKey: .spring)
    try container.encode(initialVelocity, forKey: .initialVelocity)
    try container.encodeIfPresent(stretchedDuration, forKey: .stretchedDuration)
  }
}
