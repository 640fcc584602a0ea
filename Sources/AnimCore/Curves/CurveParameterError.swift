// Why a curve's parameters were refused.

/// A curve parameter outside its allowed range, with the reason in words.
///
/// Curves validate when they are made, so that sampling never has to: the language's checker
/// calls the same throwing initialisers and shows `description` to the user, which keeps the
/// ranges in one place.
public struct CurveParameterError: Error, Hashable, CustomStringConvertible {
  /// The parameter's name as written in the language (`x1`, `bounce`, `count`...).
  public let parameter: String
  /// The value that was refused.
  public let value: Double
  /// What the value must be, phrased to follow "must be": `in 0...1`, `greater than 0`.
  public let requirement: String

  public init(parameter: String, value: Double, requirement: String) {
    self.parameter = parameter
    self.value = value
    self.requirement = requirement
  }

  public var description: String {
    let shown = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    return "'\(parameter)' must be \(requirement), not \(shown)"
  }

  /// Checks that `value` is finite, then that it passes `isAllowed`.
  @usableFromInline
  static func check(
    _ parameter: String, _ value: Double, _ requirement: String, _ isAllowed: (Double) -> Bool
  ) throws(CurveParameterError) {
    guard value.isFinite else {
      throw CurveParameterError(parameter: parameter, value: value, requirement: "a finite number")
    }
    guard isAllowed(value) else {
      throw CurveParameterError(parameter: parameter, value: value, requirement: requirement)
    }
  }
}
