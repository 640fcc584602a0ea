// Expressions: evaluating the language's expressions against live values.
//
// The checker has already decided every expression's type and folded the constant ones, so
// evaluation trusts the types and starts from the constants; what is left reads live
// property values, `now`, `let` values, and does arithmetic that may fail at run time
// (division by zero), which is a runtime error at the expression.

import AnimCore
import AnimLanguage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Runtime {
  struct EvaluationError: Error {
    var message: String
    var span: SourceSpan
  }

  func evaluate(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> RuntimeValue {
    if let constant = context.checked.constant(of: expression) { return RuntimeValue(constant) }
    switch expression.kind {
    case .number(let x): return .number(x)
    case .duration(let ns): return .duration(ns)
    case .percent(let p): return .percent(p)
    case .color(let c):
      return .color(
        red: Double(c.red) / 255, green: Double(c.green) / 255, blue: Double(c.blue) / 255, alpha: Double(c.alpha) / 255)
    case .string(let literal):
      return .string(try interpolate(literal, context))
    case .vector(let elements):
      var components: [Double] = []
      for element in elements {
        guard case .number(let x) = try evaluate(element, context) else {
          throw EvaluationError(message: "a vector's components are numbers", span: element.span)
        }
        components.append(x)
      }
      return .vector(components)
    case .parenthesized(let inner):
      return try evaluate(inner, context)
    case .now:
      return .duration(engine.now)
    case .name(let identifier):
      return try evaluateName(identifier, context)
    case .member(let base, let name):
      return try evaluateMember(expression, base: base, name: name, context)
    case .call(let callee, let arguments):
      return try call(callee, arguments, at: expression.span, context)
    case .negate(let inner):
      switch try evaluate(inner, context) {
      case .number(let x): return .number(-x)
      case .duration(let ns): return .duration(ns == .min ? .max : -ns)
      case .percent(let p): return .percent(-p)
      case .vector(let v): return .vector(v.map { -$0 })
      default: throw EvaluationError(message: "cannot negate this value", span: expression.span)
      }
    case .binary(let op, let left, let right):
      return try arithmetic(op, try evaluate(left, context), try evaluate(right, context), at: expression.span, right.span)
    case .invalid:
      throw EvaluationError(message: "invalid expression", span: expression.span)
    }
  }

  func interpolate(_ literal: StringLiteral, _ context: ProgramContext) throws(EvaluationError) -> String {
    var text = ""
    for part in literal.parts {
      switch part {
      case .text(let piece, _): text += piece
      case .interpolation(let expression): text += try evaluate(expression, context).text
      }
    }
    return text
  }

  func evaluateName(_ identifier: Identifier, _ context: ProgramContext) throws(EvaluationError) -> RuntimeValue {
    switch context.checked.references[identifier.span] {
    case .value(let name)?:
      if let value = values[name] { return value }
    case .curve(let name)?:
      if let curve = curves[name] { return .curve(curve) }
    case .presetCurve(_, let value)?:
      return .curve(value)
    default:
      if let value = values[identifier.text] { return value }
      if let curve = curves[identifier.text] { return .curve(curve) }
    }
    throw EvaluationError(message: "'\(identifier.text)' has no value yet", span: identifier.span)
  }

  func evaluateMember(
    _ expression: Expression, base: Expression, name: Identifier, _ context: ProgramContext
  ) throws(EvaluationError) -> RuntimeValue {
    if case .property(let target, let property)? = context.checked.references[expression.span] {
      guard let id = properties["\(target).\(property)"] else {
        throw EvaluationError(message: "no property '\(target).\(property)'", span: expression.span)
      }
      return RuntimeValue(engine.value(of: id))
    }
    // A component of a vector or a channel of a color.
    let value = try evaluate(base, context)
    switch value {
    case .vector(let v):
      let index = ["x", "y", "z", "w"].firstIndex(of: name.text)
      guard let index, index < v.count else {
        throw EvaluationError(message: "no component '\(name.text)'", span: name.span)
      }
      return .number(v[index])
    case .color(let r, let g, let b, let a):
      switch name.text {
      case "r": return .number(r * 255)
      case "g": return .number(g * 255)
      case "b": return .number(b * 255)
      case "a": return .number(a)
      default: throw EvaluationError(message: "no channel '\(name.text)'", span: name.span)
      }
    default:
      throw EvaluationError(message: "no member '\(name.text)'", span: name.span)
    }
  }

  func arithmetic(
    _ op: BinaryOperator, _ a: RuntimeValue, _ b: RuntimeValue, at span: SourceSpan, _ rightSpan: SourceSpan
  ) throws(EvaluationError) -> RuntimeValue {
    func divisionByZero() -> EvaluationError { EvaluationError(message: "division by zero", span: span) }
    func combine(_ x: Double, _ y: Double) throws(EvaluationError) -> Double {
      switch op {
      case .add: return x + y
      case .subtract: return x - y
      case .multiply: return x * y
      case .divide:
        if y == 0 { throw divisionByZero() }
        return x / y
      }
    }
    switch (a, b) {
    case (.number(let x), .number(let y)): return .number(try combine(x, y))
    case (.percent(let x), .percent(let y)): return .percent(try combine(x, y))
    case (.duration(let x), .duration(let y)):
      switch op {
      case .add: return .duration(x &+ y)
      case .subtract: return .duration(x &- y)
      case .divide:
        if y == 0 { throw divisionByZero() }
        return .number(Double(x) / Double(y))
      case .multiply: throw EvaluationError(message: "cannot multiply two durations", span: span)
      }
    case (.duration(let x), .number(let y)):
      switch op {
      case .multiply: return .duration(saturatingNanoseconds(rounding: Double(x) * y))
      case .divide:
        if y == 0 { throw divisionByZero() }
        return .duration(saturatingNanoseconds(rounding: Double(x) / y))
      default: throw EvaluationError(message: "cannot combine a duration and a number with '\(op.rawValue)'", span: span)
      }
    case (.number(let x), .duration(let y)) where op == .multiply:
      return .duration(saturatingNanoseconds(rounding: x * Double(y)))
    case (.vector(let u), .vector(let v)) where u.count == v.count:
      var result: [Double] = []
      for (x, y) in zip(u, v) { result.append(try combine(x, y)) }
      return .vector(result)
    case (.number(let x), .vector(let v)) where op == .multiply:
      return .vector(v.map { x * $0 })
    case (.vector(let v), .number(let x)) where op == .multiply || op == .divide:
      if op == .divide && x == 0 { throw divisionByZero() }
      return .vector(v.map { op == .multiply ? $0 * x : $0 / x })
    case (.string(let x), .string(let y)) where op == .add:
      return .string(x + y)
    default:
      throw EvaluationError(message: "cannot combine these values with '\(op.rawValue)'", span: span)
    }
  }

  func call(
    _ callee: Identifier, _ arguments: [Argument], at span: SourceSpan, _ context: ProgramContext
  ) throws(EvaluationError) -> RuntimeValue {
    if callee.text == "cubic" || callee.text == "steps" || callee.text == "spring" {
      return .curve(try curveCall(callee, arguments, at: span, context))
    }
    var values: [RuntimeValue] = []
    for argument in arguments { values.append(try evaluate(argument.value, context)) }
    let numbers = values.compactMap { value -> Double? in
      if case .number(let x) = value { return x }
      return nil
    }
    let durations = values.compactMap { value -> Nanoseconds? in
      if case .duration(let ns) = value { return ns }
      return nil
    }
    let allNumbers = numbers.count == values.count
    let allDurations = durations.count == values.count
    switch (callee.text, values.count) {
    case ("min", 2) where allNumbers: return .number(Swift.min(numbers[0], numbers[1]))
    case ("min", 2) where allDurations: return .duration(Swift.min(durations[0], durations[1]))
    case ("max", 2) where allNumbers: return .number(Swift.max(numbers[0], numbers[1]))
    case ("max", 2) where allDurations: return .duration(Swift.max(durations[0], durations[1]))
    case ("clamp", 3) where allNumbers: return .number(Swift.min(Swift.max(numbers[0], numbers[1]), numbers[2]))
    case ("clamp", 3) where allDurations:
      return .duration(Swift.min(Swift.max(durations[0], durations[1]), durations[2]))
    case ("abs", 1) where allNumbers: return .number(Swift.abs(numbers[0]))
    case ("abs", 1) where allDurations: return .duration(durations[0] == .min ? .max : Swift.abs(durations[0]))
    case ("sqrt", 1) where allNumbers:
      if numbers[0] < 0 { throw EvaluationError(message: "square root of a negative number", span: span) }
      return .number(numbers[0].squareRoot())
    case ("sin", 1) where allNumbers: return .number(sin(numbers[0]))
    case ("cos", 1) where allNumbers: return .number(cos(numbers[0]))
    case ("lerp", 3) where allNumbers: return .number(numbers[0] + (numbers[1] - numbers[0]) * numbers[2])
    case ("lerp", 3):
      if case .vector(let a) = values[0], case .vector(let b) = values[1], case .number(let t) = values[2], a.count == b.count {
        return .vector(zip(a, b).map { $0 + ($1 - $0) * t })
      }
      if case .color(let r1, let g1, let b1, let a1) = values[0], case .color(let r2, let g2, let b2, let a2) = values[1],
        case .number(let t) = values[2]
      {
        return .color(red: r1 + (r2 - r1) * t, green: g1 + (g2 - g1) * t, blue: b1 + (b2 - b1) * t, alpha: a1 + (a2 - a1) * t)
      }
    case ("rgb", 3) where allNumbers:
      return .color(red: numbers[0] / 255, green: numbers[1] / 255, blue: numbers[2] / 255, alpha: 1)
    case ("rgba", 4) where allNumbers:
      return .color(red: numbers[0] / 255, green: numbers[1] / 255, blue: numbers[2] / 255, alpha: numbers[3])
    default:
      break
    }
    throw EvaluationError(message: "'\(callee.text)' cannot take these arguments", span: span)
  }

  func curveCall(
    _ callee: Identifier, _ arguments: [Argument], at span: SourceSpan, _ context: ProgramContext
  ) throws(EvaluationError) -> CurveValue {
    func number(_ argument: Argument) throws(EvaluationError) -> Double {
      switch try evaluate(argument.value, context) {
      case .number(let x): return x
      case .duration(let ns): return seconds(ns)
      default: throw EvaluationError(message: "expected a number", span: argument.value.span)
      }
    }
    switch callee.text {
    case "cubic":
      guard arguments.count == 4 else { break }
      return .cubic(
        x1: try number(arguments[0]), y1: try number(arguments[1]), x2: try number(arguments[2]),
        y2: try number(arguments[3]))
    case "steps":
      guard let first = arguments.first else { break }
      let count = try number(first)
      var position = AnimLanguage.StepPosition.jumpEnd
      if arguments.count > 1, case .stepPosition(let p)? = context.checked.references[arguments[1].value.span] {
        position = p
      } else if arguments.count > 1, case .name(let word) = arguments[1].value.kind,
        let p = AnimLanguage.StepPosition(rawValue: word.text)
      {
        position = p
      }
      guard count.isFinite, count >= 1, count <= Double(Int32.max) else { break }
      return .steps(count: Int(count), position: position)
    default:
      var labelled: [String: Double] = [:]
      for argument in arguments {
        guard let label = argument.label?.text else { continue }
        labelled[label] = try number(argument)
      }
      let velocity = labelled["velocity"] ?? 0
      if let response = labelled["response"], let fraction = labelled["dampingFraction"] {
        return .spring(.response(response: response, dampingFraction: fraction), velocity: velocity)
      }
      if let duration = labelled["duration"] {
        return .spring(.duration(duration: duration, bounce: labelled["bounce"] ?? 0), velocity: velocity)
      }
      if let stiffness = labelled["stiffness"], let damping = labelled["damping"] {
        return .spring(
          .physical(mass: labelled["mass"] ?? 1, stiffness: stiffness, damping: damping), velocity: velocity)
      }
    }
    throw EvaluationError(message: "'\(callee.text)' cannot take these arguments", span: span)
  }

  /// A duration-typed expression's value.
  func duration(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Nanoseconds {
    switch try evaluate(expression, context) {
    case .duration(let ns): return ns
    case .number(let x): return Nanoseconds(seconds: x)
    default: throw EvaluationError(message: "expected a duration", span: expression.span)
    }
  }

  /// A number-typed expression's value.
  func number(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Double {
    switch try evaluate(expression, context) {
    case .number(let x): return x
    case .percent(let p): return p
    default: throw EvaluationError(message: "expected a number", span: expression.span)
    }
  }

  /// A curve-typed expression's engine curve.
  func curve(
    _ expression: Expression?, stretch: Nanoseconds?, _ context: ProgramContext
  ) throws(EvaluationError) -> TimingCurve {
    guard let expression else { return .linear }
    guard case .curve(let value) = try evaluate(expression, context) else {
      throw EvaluationError(message: "expected a curve", span: expression.span)
    }
    do {
      return try CurveConversion.curve(value, stretch: stretch)
    } catch {
      throw EvaluationError(message: "\(error)", span: expression.span)
    }
  }
}
