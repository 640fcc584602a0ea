// ConstantEvaluator: the static typing of operators and functions (language.md's operator
// table) and the arithmetic on constant values the checker uses to check ranges before a
// script runs. Every function here is total: a result that cannot be computed exactly
// (a division by zero, an overflowing duration, a non-finite number) is nil, "not known
// before running", never a trap and never an error (division by zero is a runtime error).

enum ConstantEvaluator {
  // MARK: - Types

  /// The type of `left op right`, or nil when the operator does not apply to those types.
  ///
  /// - `+ -`: number ± number, duration ± duration, vecN ± vecN.
  /// - `*`: number * number, vecN * vecN (component-wise), number * vecN and vecN * number,
  ///   duration * number and number * duration.
  /// - `/`: number / number, vecN / vecN (component-wise), duration / number,
  ///   duration / duration (a number).
  /// An error operand gives an error result (already reported).
  static func resultType(of op: BinaryOperator, _ left: ValueType, _ right: ValueType) -> ValueType? {
    if left == .error || right == .error { return .error }
    switch (op, left, right) {
    case (_, .number, .number): return .number
    case (_, _, _) where left.vectorArity != nil && left == right: return left
    case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
    case (.multiply, .number, _) where right.vectorArity != nil: return right
    case (.multiply, _, .number) where left.vectorArity != nil: return left
    case (.multiply, .duration, .number), (.multiply, .number, .duration): return .duration
    case (.divide, .duration, .number): return .duration
    case (.divide, .duration, .duration): return .number
    default: return nil
    }
  }

  /// The type of `-operand`, or nil: numbers, durations and vectors negate.
  static func negatedType(of operand: ValueType) -> ValueType? {
    switch operand {
    case .number, .duration, .vec2, .vec3, .vec4, .error: return operand
    default: return nil
    }
  }

  // MARK: - Values

  static func negate(_ value: ConstantValue) -> ConstantValue? {
    switch value {
    case .number(let x): return .number(-x)
    case .duration(let nanoseconds):
      let (negated, overflow) = Int64(0).subtractingReportingOverflow(nanoseconds)
      return overflow ? nil : .duration(nanoseconds: negated)
    case .vector(let components): return .vector(components.map { -$0 })
    default: return nil
    }
  }

  static func apply(_ op: BinaryOperator, _ left: ConstantValue, _ right: ConstantValue) -> ConstantValue? {
    switch (left, right) {
    case (.number(let a), .number(let b)):
      return number(arithmetic(op, a, b))
    case (.vector(let a), .vector(let b)) where a.count == b.count:
      return vector(zip(a, b).map { arithmetic(op, $0, $1) })
    case (.number(let a), .vector(let b)) where op == .multiply:
      return vector(b.map { a * $0 })
    case (.vector(let a), .number(let b)) where op == .multiply:
      return vector(a.map { $0 * b })
    case (.duration(let a), .duration(let b)):
      switch op {
      case .add:
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : .duration(nanoseconds: sum)
      case .subtract:
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : .duration(nanoseconds: difference)
      case .divide:
        return b == 0 ? nil : number(Double(a) / Double(b))
      case .multiply:
        return nil
      }
    case (.duration(let a), .number(let b)) where op == .multiply || op == .divide:
      if op == .divide && b == 0 { return nil }
      return duration(seconds: nil, nanoseconds: op == .multiply ? Double(a) * b : Double(a) / b)
    case (.number(let a), .duration(let b)) where op == .multiply:
      return duration(seconds: nil, nanoseconds: a * Double(b))
    default:
      return nil
    }
  }

  /// A duration from a number of seconds (or of nanoseconds), rounded to the nearest
  /// nanosecond (halves away from zero); nil when it is not finite or does not fit in Int64
  /// nanoseconds. (Rounded by conversion, not `rounded()`, which needs libm at link time.)
  static func duration(seconds: Double?, nanoseconds: Double? = nil) -> ConstantValue? {
    let value = seconds.map { $0 * 1e9 } ?? nanoseconds ?? .nan
    // 2^63 is exactly representable; anything at or beyond it does not fit.
    guard value.isFinite, value > -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else {
      return nil
    }
    let truncated = Int64(value)
    let fraction = value - Double(truncated)  // exact: both below 2^63, fraction below 1
    if fraction >= 0.5 { return .duration(nanoseconds: truncated + 1) }
    if fraction <= -0.5 { return .duration(nanoseconds: truncated - 1) }
    return .duration(nanoseconds: truncated)
  }

  /// Whether `value` is a whole number (checked by conversion, without libm).
  static func isWhole(_ value: Double) -> Bool {
    guard value.isFinite, Swift.abs(value) < 9e18 else { return value.isFinite }
    return Double(Int64(value)) == value
  }

  /// The value of a function applied to constant arguments (already type-checked), or nil.
  static func call(_ function: String, _ arguments: [ConstantValue]) -> ConstantValue? {
    let numbers = arguments.compactMap { value -> Double? in
      if case .number(let x) = value { return x }
      return nil
    }
    let durations = arguments.compactMap { value -> Int64? in
      if case .duration(let nanoseconds) = value { return nanoseconds }
      return nil
    }
    let allNumbers = numbers.count == arguments.count
    let allDurations = durations.count == arguments.count
    switch (function, arguments.count) {
    case ("min", 2) where allNumbers: return .number(Swift.min(numbers[0], numbers[1]))
    case ("max", 2) where allNumbers: return .number(Swift.max(numbers[0], numbers[1]))
    case ("min", 2) where allDurations: return .duration(nanoseconds: Swift.min(durations[0], durations[1]))
    case ("max", 2) where allDurations: return .duration(nanoseconds: Swift.max(durations[0], durations[1]))
    case ("clamp", 3) where allNumbers:
      return .number(Swift.min(Swift.max(numbers[0], numbers[1]), numbers[2]))
    case ("clamp", 3) where allDurations:
      return .duration(nanoseconds: Swift.min(Swift.max(durations[0], durations[1]), durations[2]))
    case ("abs", 1) where allNumbers: return .number(Swift.abs(numbers[0]))
    case ("abs", 1) where allDurations:
      return durations[0] == .min ? nil : .duration(nanoseconds: Swift.abs(durations[0]))
    // sqrt, sin and cos are left to the runtime: folding them would call libm, which an
    // executable without Foundation may not link, and the checker needs none of them.
    case ("lerp", 3) where allNumbers: return number(numbers[0] + (numbers[1] - numbers[0]) * numbers[2])
    case ("lerp", 3):
      guard case .vector(let a) = arguments[0], case .vector(let b) = arguments[1], a.count == b.count,
        case .number(let t) = arguments[2]
      else { return nil }
      return vector(zip(a, b).map { $0 + ($1 - $0) * t })
    case ("rgb", 3) where allNumbers:
      return .color(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: 1)
    case ("rgba", 4) where allNumbers:
      return .color(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: numbers[3])
    default:
      return nil
    }
  }

  // MARK: - Helpers

  private static func arithmetic(_ op: BinaryOperator, _ a: Double, _ b: Double) -> Double {
    switch op {
    case .add: return a + b
    case .subtract: return a - b
    case .multiply: return a * b
    // Division by zero gives a non-finite value, which `number` turns into "not constant":
    // the runtime reports it.
    case .divide: return b == 0 ? .nan : a / b
    }
  }

  private static func number(_ x: Double) -> ConstantValue? {
    x.isFinite ? .number(x) : nil
  }

  private static func vector(_ components: [Double]) -> ConstantValue? {
    components.allSatisfy(\.isFinite) ? .vector(components) : nil
  }
}
