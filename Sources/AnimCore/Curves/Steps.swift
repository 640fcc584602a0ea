// CSS steps() timing curves.

/// Where a `steps()` curve jumps (CSS Easing Functions Level 1).
public enum StepPosition: String, Sendable, Hashable, Codable, CaseIterable {
  /// The first jump happens at the start: output starts at 1/n.
  case jumpStart
  /// The last jump happens at the end (the default, CSS `steps(n)`).
  case jumpEnd
  /// No jump at either end: n flat steps from 0 to 1 inclusive.
  case jumpNone
  /// Jumps at both ends: n flat steps strictly between 0 and 1.
  case jumpBoth
}

/// A CSS `steps(n, position)` easing: a staircase of `count` steps.
public struct Steps: Sendable, Hashable, Codable {
  /// The number of steps, at least 1 (at least 2 for `jumpNone`).
  public let count: Int
  /// Where the jumps are.
  public let position: StepPosition

  /// The smallest allowed `count` for a position: 2 for `jumpNone` (one step would never
  /// leave 0), 1 otherwise.
  public static func minimumCount(for position: StepPosition) -> Int {
    position == .jumpNone ? 2 : 1
  }

  /// - Throws: `CurveParameterError` if `count` is below `minimumCount(for: position)`.
  public init(count: Int, position: StepPosition = .jumpEnd) throws(CurveParameterError) {
    let minimum = Steps.minimumCount(for: position)
    guard count >= minimum else {
      throw CurveParameterError(
        parameter: "count", value: Double(count),
        requirement: position == .jumpNone ? "at least 2 for jumpNone" : "at least 1")
    }
    self.count = count
    self.position = position
  }

  /// The eased progress at input progress `x`, by the CSS step easing function algorithm.
  ///
  /// `beforeFlag` is Web Animations' before flag: set when the animation is in its before
  /// phase (or going backwards through its start), so that at an exact step boundary the
  /// output is the step before it. Inputs outside 0...1 keep stepping (for easings chained
  /// after an overshooting curve); all arithmetic is in Double, so a huge count cannot trap.
  @inlinable
  public func progress(at x: Double, beforeFlag: Bool) -> Double {
    let n = Double(count)
    let scaled = x * n
    let floored = scaled.rounded(.down)
    var step = floored
    if position == .jumpStart || position == .jumpBoth { step += 1 }
    if beforeFlag && floored == scaled { step -= 1 }
    if x >= 0 && step < 0 { step = 0 }
    let jumps: Double
    switch position {
    case .jumpStart, .jumpEnd: jumps = n
    case .jumpNone: jumps = n - 1
    case .jumpBoth: jumps = n + 1
    }
    if x <= 1 && step > jumps { step = jumps }
    return step / jumps
  }

  private enum CodingKeys: String, CodingKey { case count, position }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let count = try container.decode(Int.self, forKey: .count)
    let position = try container.decode(StepPosition.self, forKey: .position)
    do {
      try self.init(count: count, position: position)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(position, forKey: .position)
  }
}
