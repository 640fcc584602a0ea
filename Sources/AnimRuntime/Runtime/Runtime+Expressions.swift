// Expressions: evaluating the language's expressions against live values.
//
// The checker has already decided every expression's type and folded the constant ones, so
// evaluation trusts the types and starts from the constants; what is left reads live
// property values, `now`, `let` values, and does arithmetic that may fail at run time
// (division by zero, overflow), which is a runtime error at the expression. The arithmetic
// and the builtin functions are AnimLanguage's (`ConstantEvaluator`, `BuiltinFunction`),
// the very functions the checker folds constants with.

import AnimCore
import AnimLanguage

extension Runtime {
  struct EvaluationError: Error {
    var message: String
    var span: SourceSpan
  }

  func evaluate(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> RuntimeValue {
    if let constant = context.facts.constant(of: expression) { return RuntimeValue(constant) }
    switch expression.kind {
    case .number(let x): return .number(x)
    case .duration(let ns): return .duration(ns)
    case .percent(let p): return .percent(p)
    case .color(let c):
      return .color(
        red: Double(c.red) / 255, green: Double(c.green) / 255, blue: Double(c.blue) / 255, alpha: Double(c.alpha) / 255
      )
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
      let value = try evaluate(inner, context)
      if case .percent(let p) = value { return .percent(-p) }
      return try computed(ConstantEvaluator.negating(value.constant), at: expression.span)
    case .boolean(let value):
      return .boolean(value)
    case .not(let operand):
      return try computed(ConstantEvaluator.negatingLogically(evaluate(operand, context).constant), at: expression.span)
    case .index:
      throw EvaluationError(message: "groups are not yet supported", span: expression.span)
    case .binary(let op, let left, let right) where op.isLogical:
      // `and` and `or` look at their right side only when the left does not decide.
      guard case .boolean(let a) = try evaluate(left, context) else {
        throw EvaluationError(message: "expected a boolean", span: left.span)
      }
      if a == (op == .or) { return .boolean(a) }
      guard case .boolean(let b) = try evaluate(right, context) else {
        throw EvaluationError(message: "expected a boolean", span: right.span)
      }
      return .boolean(b)
    case .binary(let op, let left, let right):
      let a = try evaluate(left, context)
      let b = try evaluate(right, context)
      return try computed(ConstantEvaluator.applying(op, a.constant, b.constant), at: expression.span)
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
    switch context.facts.references[identifier.span] {
    case .local(let name)?:
      if let value = context.locals?.value(of: name) { return value }
    case .value(let name)?:
      if let value = values[name] { return value }
    case .curve(let name)?:
      if let curve = curves[name] { return .curve(curve) }
    case .presetCurve(let preset)?:
      return .curve(preset.curve)
    case nil:
      if let preset = context.facts.preset(named: identifier) { return .curve(preset.curve) }
    default:
      break
    }
    throw EvaluationError(message: "'\(identifier.text)' has no value yet", span: identifier.span)
  }

  func evaluateMember(
    _ expression: Expression, base: Expression, name: Identifier, _ context: ProgramContext
  ) throws(EvaluationError) -> RuntimeValue {
    let reference = context.facts.references[expression.span]
    if case .property(let property)? = reference {
      var name = property.name
      if case .index(_, let index) = base.kind {
        name =
          Self.memberName(property.target, try memberIndex(index, of: property.target, context)) + "."
          + property.property
      }
      guard let id = properties[name] else {
        throw EvaluationError(message: "no property '\(name)'", span: expression.span)
      }
      return RuntimeValue(engine.value(of: id))
    }
    // A component of a vector or a channel of a color, as the checker resolved it.
    switch (reference, try evaluate(base, context)) {
    case (.component(let index)?, .vector(let v)) where index < v.count:
      return .number(v[index])
    case (.component(0)?, .color(let r, _, _, _)): return .number(r * 255)
    case (.component(1)?, .color(_, let g, _, _)): return .number(g * 255)
    case (.component(2)?, .color(_, _, let b, _)): return .number(b * 255)
    case (.component(3)?, .color(_, _, _, let a)): return .number(a)
    default:
      throw EvaluationError(message: "no member '\(name.text)'", span: name.span)
    }
  }

  /// A value the language's arithmetic computed (the checker folds constants with the same
  /// functions), or its failure as a runtime error at `span`.
  func computed(_ result: Result<ConstantValue, ArithmeticError>, at span: SourceSpan) throws(EvaluationError)
    -> RuntimeValue
  {
    switch result {
    case .success(let value): return RuntimeValue(value)
    case .failure(let failure): throw EvaluationError(message: failure.message, span: span)
    }
  }

  func call(
    _ callee: Identifier, _ arguments: [Argument], at span: SourceSpan, _ context: ProgramContext
  ) throws(EvaluationError) -> RuntimeValue {
    let function: BuiltinFunction
    switch context.facts.references[callee.span] {
    case .curveConstructor(let constructor)?:
      return .curve(try curveCall(constructor, arguments, at: span, context))
    case .function(let resolved)?:
      function = resolved
    default:
      throw EvaluationError(message: "unknown function '\(callee.text)'", span: callee.span)
    }
    var values: [ConstantValue] = []
    for argument in arguments { values.append(try evaluate(argument.value, context).constant) }
    return try computed(function.apply(values), at: span)
  }

  /// A curve call whose arguments are live (one with constant arguments the checker folded):
  /// the engine's curve of their values, made as the checker makes a constant one.
  func curveCall(
    _ constructor: CurveConstructor, _ arguments: [Argument], at span: SourceSpan, _ context: ProgramContext
  ) throws(EvaluationError) -> TimingCurve {
    func number(_ argument: Argument) throws(EvaluationError) -> Double {
      switch try evaluate(argument.value, context) {
      case .number(let x): return x
      case .duration(let ns): return seconds(ns)
      default: throw EvaluationError(message: "expected a number", span: argument.value.span)
      }
    }
    // The arguments' values first, then the curve AnimCore makes of them.
    var make: (() throws(CurveParameterError) -> TimingCurve?)?
    switch constructor {
    case .cubic:
      guard arguments.count == 4 else { break }
      var values: [Double] = []
      for argument in arguments { values.append(try number(argument)) }
      make = { () throws(CurveParameterError) in
        .cubicBezier(try CubicBezier(values[0], values[1], values[2], values[3]))
      }
    case .steps:
      guard let first = arguments.first else { break }
      let count = try number(first)
      var position = StepPosition.jumpEnd
      if arguments.count > 1, case .stepPosition(let p)? = context.facts.references[arguments[1].value.span] {
        position = p
      }
      guard count.isFinite, count >= 1, count <= Double(Int32.max) else { break }
      make = { () throws(CurveParameterError) in .steps(try Steps(count: Int(count), position: position)) }
    case .spring:
      var labelled: [String: Double] = [:]
      for argument in arguments {
        guard let label = argument.label?.text else { continue }
        labelled[label] = try number(argument)
      }
      make = { () throws(CurveParameterError) in try SpringForm.curve(labelled) }
    }
    do {
      if let curve = try make?() { return curve }
    } catch {
      // The engine refuses the values: a runtime error at the call.
      throw EvaluationError(message: error.description, span: span)
    }
    throw EvaluationError(message: "'\(constructor.rawValue)' cannot take these arguments", span: span)
  }

  /// A duration-typed expression's value.
  func duration(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Nanoseconds {
    // A duration written (`over 250ms`, `delay 1s`) is its value, as `evaluate` finds it (a
    // literal's constant), with no runtime value made and let go: twice per `animate`.
    if case .duration(let nanoseconds) = expression.kind { return nanoseconds }
    switch try evaluate(expression, context) {
    case .duration(let ns): return ns
    case .number(let x): return Nanoseconds(seconds: x)
    default: throw EvaluationError(message: "expected a duration", span: expression.span)
    }
  }

  /// A number-typed expression's value.
  func number(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Double {
    if case .number(let x) = expression.kind { return x }  // (as `duration` above)
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
    let curve: TimingCurve
    if case .curve(let constant)? = context.facts.constant(of: expression) {
      // A constant (a preset, a folded `cubic(…)`): what `evaluate` would return, taken as
      // the checker folded it, with no runtime value boxed and let go for it at each
      // `animate`.
      curve = constant
    } else {
      guard case .curve(let evaluated) = try evaluate(expression, context) else {
        throw EvaluationError(message: "expected a curve", span: expression.span)
      }
      curve = evaluated
    }
    guard let stretch, case .spring(let spring) = curve else { return curve }
    do {
      return .spring(
        try SpringCurve(spring: spring.spring, initialVelocity: spring.initialVelocity, stretchedDuration: stretch))
    } catch {
      throw EvaluationError(message: error.description, span: expression.span)
    }
  }
}
