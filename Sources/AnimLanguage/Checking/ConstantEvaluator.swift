// ConstantEvaluator: the static typing of operators (grammar.md § Types and values, its operator table) and the
// language's arithmetic, on the checker's constants and the runtime's values alike: the
// runtime computes through `applying` and `negating` (and `BuiltinFunction.apply`), so a
// value `check` folds is the value `run` computes. Every function here is total: a result
// that cannot be computed (a division by zero, an overflow) is an `ArithmeticError`, never a
// trap and never a non-finite number; the checker reports the overflows of constants and
// leaves a division by zero to run time.

package enum ConstantEvaluator {
  // MARK: - Types

  /// The type of `left op right`, or nil when the operator does not apply to those types.
  ///
  /// - `+ -`: number ± number, duration ± duration, vecN ± vecN.
  /// - `*`: number * number, vecN * vecN (component-wise), number * vecN and vecN * number,
  ///   duration * number and number * duration.
  /// - `/`: number / number, vecN / vecN (component-wise), duration / number,
  ///   duration / duration (a number).
  /// An error operand gives an error result (already reported).
  /// - `< <= > >=`: two numbers or two durations (a boolean).
  /// - `== !=`: two values of one type (a boolean).
  /// - `and or`: two booleans.
  static func resultType(of op: BinaryOperator, _ left: ValueType, _ right: ValueType) -> ValueType? {
    if left == .error || right == .error { return op.isComparison || op.isLogical ? .boolean : .error }
    switch op {
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      return left == right && (left == .number || left == .duration) ? .boolean : nil
    case .equal, .notEqual:
      return left == right && left != .percent ? .boolean : nil
    case .and, .or:
      return left == .boolean && right == .boolean ? .boolean : nil
    case .add, .subtract, .multiply, .divide:
      break
    }
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

  // The arithmetic of the language, for the checker's constants and the runtime's values
  // alike (the runtime calls these): every result is finite, or an `ArithmeticError`.

  /// `-value`.
  package static func negating(_ value: ConstantValue) -> Result<ConstantValue, ArithmeticError> {
    switch value {
    case .number(let x): return .success(.number(-x))
    case .duration(let nanoseconds):
      let (negated, overflow) = Int64(0).subtractingReportingOverflow(nanoseconds)
      return overflow ? .failure(.durationOverflow) : .success(.duration(nanoseconds: negated))
    case .vector(let components): return .success(.vector(components.map { -$0 }))
    default: return .failure(.notApplicable)
    }
  }

  /// `left op right`, for the operand types `resultType` accepts.
  package static func applying(
    _ op: BinaryOperator, _ left: ConstantValue, _ right: ConstantValue
  ) -> Result<ConstantValue, ArithmeticError> {
    if op.isComparison || op.isLogical { return comparing(op, left, right) }
    switch (left, right) {
    case (.number(let a), .number(let b)):
      return arithmetic(op, a, b).map { .number($0) }
    case (.vector(let a), .vector(let b)) where a.count == b.count:
      var components: [Double] = []
      components.reserveCapacity(a.count)
      for (x, y) in zip(a, b) {
        switch arithmetic(op, x, y) {
        case .success(let z): components.append(z)
        case .failure(let error): return .failure(error)
        }
      }
      return .success(.vector(components))
    case (.number(let a), .vector(let b)) where op == .multiply:
      return finite(.vector(b.map { a * $0 }))
    case (.vector(let a), .number(let b)) where op == .multiply || op == .divide:
      if op == .divide && b == 0 { return .failure(.divisionByZero) }
      return finite(.vector(a.map { op == .multiply ? $0 * b : $0 / b }))
    case (.duration(let a), .duration(let b)):
      switch op {
      case .add:
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .failure(.durationOverflow) : .success(.duration(nanoseconds: sum))
      case .subtract:
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? .failure(.durationOverflow) : .success(.duration(nanoseconds: difference))
      case .divide:
        return b == 0 ? .failure(.divisionByZero) : .success(.number(Double(a) / Double(b)))
      default:
        return .failure(.notApplicable)
      }
    case (.duration(let a), .number(let b)) where op == .multiply:
      guard let product = scaledExactly(Int128(a), by: b), let nanoseconds = Int64(exactly: product) else {
        return .failure(.durationOverflow)
      }
      return .success(.duration(nanoseconds: nanoseconds))
    case (.number, .duration) where op == .multiply:
      return applying(.multiply, right, left)
    case (.duration(let a), .number(let b)) where op == .divide:
      if b == 0 { return .failure(.divisionByZero) }
      // (Rounded from a Double quotient: exact to the nanosecond below 2^53 ns, 104 days.)
      guard let quotient = duration(seconds: nil, nanoseconds: Double(a) / b) else {
        return .failure(.durationOverflow)
      }
      return .success(quotient)
    default:
      return .failure(.notApplicable)
    }
  }

  /// A comparison or `and`/`or`, for the operand types `resultType` accepts. Numbers compare
  /// as IEEE doubles (every number is finite), durations as exact nanoseconds, other values
  /// by equality of every component.
  static func comparing(
    _ op: BinaryOperator, _ left: ConstantValue, _ right: ConstantValue
  ) -> Result<ConstantValue, ArithmeticError> {
    func ordered<T: Comparable>(_ a: T, _ b: T) -> Bool? {
      switch op {
      case .less: return a < b
      case .lessOrEqual: return a <= b
      case .greater: return a > b
      case .greaterOrEqual: return a >= b
      default: return nil
      }
    }
    switch (op, left, right) {
    case (.and, .boolean(let a), .boolean(let b)): return .success(.boolean(a && b))
    case (.or, .boolean(let a), .boolean(let b)): return .success(.boolean(a || b))
    case (.equal, _, _) where left.type == right.type: return .success(.boolean(left == right))
    case (.notEqual, _, _) where left.type == right.type: return .success(.boolean(left != right))
    case (_, .number(let a), .number(let b)):
      return ordered(a, b).map { .success(.boolean($0)) } ?? .failure(.notApplicable)
    case (_, .duration(let a), .duration(let b)):
      return ordered(a, b).map { .success(.boolean($0)) } ?? .failure(.notApplicable)
    default:
      return .failure(.notApplicable)
    }
  }

  /// `not value`.
  package static func negatingLogically(_ value: ConstantValue) -> Result<ConstantValue, ArithmeticError> {
    if case .boolean(let b) = value { return .success(.boolean(!b)) }
    return .failure(.notApplicable)
  }

  /// `applying`, or nil when the result is not known before running (for the checker).
  static func apply(_ op: BinaryOperator, _ left: ConstantValue, _ right: ConstantValue) -> ConstantValue? {
    try? applying(op, left, right).get()
  }

  /// `negating`, or nil.
  static func negate(_ value: ConstantValue) -> ConstantValue? {
    try? negating(value).get()
  }

  /// The value, or an overflow when a number in it is not finite.
  static func finite(_ value: ConstantValue) -> Result<ConstantValue, ArithmeticError> {
    switch value {
    case .number(let x) where !x.isFinite: return .failure(.numberOverflow)
    case .vector(let components) where !components.allSatisfy(\.isFinite): return .failure(.numberOverflow)
    case .color(let r, let g, let b, let a) where ![r, g, b, a].allSatisfy(\.isFinite): return .failure(.numberOverflow)
    default: return .success(value)
    }
  }

  /// round(n · x), halves away from zero, computed exactly (x = ±m · 2^e with m below 2^53,
  /// so n · m fits in 128 bits); nil when x is not finite or the result is beyond ±2^126.
  static func scaledExactly(_ n: Int128, by x: Double) -> Int128? {
    guard x.isFinite else { return nil }
    if n == 0 || x == 0 { return 0 }
    guard n.magnitude < UInt128(1) << 70 else { return nil }
    let significand = UInt128(x.isNormal ? x.significandBitPattern | (1 << 52) : x.significandBitPattern)
    let exponent = x.isNormal ? Int(x.exponent) - 52 : -1074
    let product = n.magnitude * significand  // below 2^123
    var magnitude: UInt128
    if exponent >= 0 {
      guard exponent < 126, product <= (UInt128(1) << 126) >> exponent else { return nil }
      magnitude = product << exponent
    } else if -exponent >= 127 {
      magnitude = 0  // below a half
    } else {
      let shift = -exponent
      magnitude = product >> shift
      let remainder = product - (magnitude << shift)
      if remainder >= UInt128(1) << (shift - 1) { magnitude += 1 }
    }
    let negative = (n < 0) != (x < 0)
    return negative ? -Int128(magnitude) : Int128(magnitude)
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
  package static func isWhole(_ value: Double) -> Bool {
    guard value.isFinite, Swift.abs(value) < 9e18 else { return value.isFinite }
    return Double(Int64(value)) == value
  }

  /// The value of a function applied to constant arguments (already type-checked), or nil.
  static func call(_ function: String, _ arguments: [ConstantValue]) -> ConstantValue? {
    guard let builtin = BuiltinFunction(rawValue: function) else { return nil }
    return try? builtin.apply(arguments).get()
  }

  // MARK: - Helpers

  private static func arithmetic(_ op: BinaryOperator, _ a: Double, _ b: Double) -> Result<Double, ArithmeticError> {
    let result: Double
    switch op {
    case .add: result = a + b
    case .subtract: result = a - b
    case .multiply: result = a * b
    case .divide:
      if b == 0 { return .failure(.divisionByZero) }
      result = a / b
    default:
      return .failure(.notApplicable)
    }
    return result.isFinite ? .success(result) : .failure(.numberOverflow)
  }
}
