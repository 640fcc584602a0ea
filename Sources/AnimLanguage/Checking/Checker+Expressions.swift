// Checker+Expressions: the type of every expression, its constant value when it has one,
// and what its names refer to.

import AnimCore

/// What the checker knows about one expression.
struct Typed {
  var type: ValueType
  /// The value, when it is known before running.
  var constant: ConstantValue?
  /// For a curve: timing or spring.
  var curveKind: CurveKind?
  /// Whether it is a name that is the preset curve it names (`with easeIn`), whose facts
  /// are not kept: the name says them (WrittenFacts.swift).
  var isPresetAsWritten = false

  static let error = Typed(type: .error)

  init(type: ValueType, constant: ConstantValue? = nil, curveKind: CurveKind? = nil) {
    self.type = type
    self.constant = constant
    self.curveKind = curveKind
  }
}

extension Checker {
  /// Checks `expression` where a value of `expected` is required; reports a mismatch as
  /// "expected X CONTEXT, found Y". A plain number where a duration is required says so.
  mutating func expect(
    _ expression: Expression, _ expected: ValueType, _ context: @autoclosure () -> String
  ) -> Typed {
    let typed = check(expression)
    guard typed.type != expected, typed.type != .error, expected != .error else { return typed }
    if expected == .duration && typed.type == .number {
      var message: String
      if case .number(let value) = expression.kind {
        let text = formatNumber(value)
        message = "expected a duration \(context()), found the plain number \(text): write '\(text)s' or '\(text)ms'"
      } else {
        message =
          "expected a duration \(context()), found a plain number: a number is not a duration (multiply it by '1s')"
      }
      error(message, at: expression.span)
    } else {
      error("expected \(expected) \(context()), found \(typed.type)", at: expression.span)
    }
    return Typed.error
  }

  /// Checks an expression, records its type (and constant) and returns them.
  mutating func check(_ expression: Expression) -> Typed {
    let typed = infer(expression)
    recordFacts(typed, of: expression)
    return typed
  }

  /// Records what `check` found about an expression.
  mutating func recordFacts(_ typed: Typed, of expression: Expression) {
    if recordsFacts {
      // (A literal's constant is the literal, and a preset's name its preset:
      // `ResolvedFacts.constant(of:)` reads them there.)
      if let constant = typed.constant, !typed.isPresetAsWritten, !constant.isWritten(by: expression) {
        constants.record(constant, at: expression.span)
      }
      if recordsTypes {
        types[expression.span] = typed.type
        if let kind = typed.curveKind { curveKinds[expression.span] = kind }
      }
    }
  }

  private mutating func infer(_ expression: Expression) -> Typed {
    switch expression.kind {
    case .number:
      return Typed(type: .number, constant: ConstantValue(literal: expression))
    case .duration:
      return Typed(type: .duration, constant: ConstantValue(literal: expression))
    case .percent(let value):
      error(
        "expected a value, found the percent \(formatNumber(value))%: a percent is only a keyframe position",
        at: expression.span)
      return .error
    case .color:
      return Typed(type: .color, constant: ConstantValue(literal: expression))
    case .string(let literal):
      checkString(literal)
      return Typed(type: .string, constant: literal.plainText.map { .string($0) })
    case .vector(let components):
      return checkVector(components, span: expression.span)
    case .parenthesized(let inner):
      return check(inner)
    case .name(let name):
      return resolveName(name)
    case .member(let base, let name):
      return checkMember(base: base, name: name, span: expression.span)
    case .now:
      return Typed(type: .duration)
    case .boolean:
      return Typed(type: .boolean, constant: ConstantValue(literal: expression))
    case .not(let operand):
      let typed = expect(operand, .boolean, "after 'not'")
      guard case .boolean(let value)? = typed.constant else { return Typed(type: .boolean) }
      return Typed(type: .boolean, constant: .boolean(!value))
    case .index(let base, let index):
      _ = check(index)
      error(
        "expected a value, found the member '\(base.text)[...]': read one of its properties, as "
          + "'\(base.text)[i].PROPERTY'", at: expression.span)
      return .error
    case .call(let callee, let arguments):
      return checkCall(callee: callee, arguments: arguments, span: expression.span)
    case .negate(let operand):
      let typed = check(operand)
      guard let type = ConstantEvaluator.negatedType(of: typed.type) else {
        error("expected a number, a duration or a vector after '-', found \(typed.type)", at: operand.span)
        return .error
      }
      guard let constant = typed.constant else { return Typed(type: type) }
      return folded(ConstantEvaluator.negating(constant), type: type, at: expression.span)
    case .binary(let op, let left, let right):
      let leftTyped = check(left)
      let rightTyped = check(right)
      guard let type = ConstantEvaluator.resultType(of: op, leftTyped.type, rightTyped.type) else {
        error(
          "cannot apply '\(op.rawValue)' to \(leftTyped.type) and \(rightTyped.type): \(Checker.operatorRule(op))",
          at: expression.span)
        return .error
      }
      guard let a = leftTyped.constant, let b = rightTyped.constant else { return Typed(type: type) }
      return folded(ConstantEvaluator.applying(op, a, b), type: type, at: expression.span)
    case .invalid:
      return .error
    }
  }

  /// A constant computed by the language's arithmetic: its value, or the error it is when
  /// the checker reports it (an overflow), or no constant (a division by zero is left to
  /// run time, where it is reported).
  private mutating func folded(
    _ result: Result<ConstantValue, ArithmeticError>, type: ValueType, at span: SourceSpan
  ) -> Typed {
    switch result {
    case .success(let value):
      return Typed(type: type, constant: value)
    case .failure(let failure) where failure.isCheckError:
      error(failure.message, at: span)
      return .error
    case .failure:
      return Typed(type: type)
    }
  }

  /// What an operator accepts, for its type error.
  static func operatorRule(_ op: BinaryOperator) -> String {
    switch op {
    case .add, .subtract:
      return "'\(op.rawValue)' takes two numbers, two durations or two vectors of one size"
    case .multiply:
      return "'*' takes two numbers, two vectors of one size, a number and a vector, or a duration and a number"
    case .divide:
      return "'/' takes two numbers, two vectors of one size, a duration and a number, or two durations"
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      return "'\(op.rawValue)' compares two numbers or two durations"
    case .equal, .notEqual:
      return "'\(op.rawValue)' compares two values of one type"
    case .and, .or:
      return "'\(op.rawValue)' takes two booleans"
    }
  }

  // primary -> "(" expression "," expression [ "," expression [ "," expression ] ] ")"
  private mutating func checkVector(_ components: [Expression], span: SourceSpan) -> Typed {
    var values: [Double] = []
    values.reserveCapacity(components.count)
    var isConstant = true
    var hasError = false
    for component in components {
      let typed = expect(component, .number, "as a vector component")
      if typed.type == .error { hasError = true }
      if case .number(let value)? = typed.constant { values.append(value) } else { isConstant = false }
    }
    guard !hasError, let type = ValueType.vector(arity: components.count) else { return .error }
    return Typed(type: type, constant: isConstant ? .vector(values) : nil)
  }

  /// A name used as a value: a local, a `let` or `var`, a curve, a preset.
  mutating func resolveName(_ name: Identifier) -> Typed {
    if !localScopes.isEmpty, let local = local(named: name.text) {
      record(.local(name.text), of: name.span)
      return Typed(type: local.type)
    }
    return resolveName(name, symbol: self.symbol(named: name.text))
  }

  /// `resolveName` when the environment has already been asked (`symbol` is its answer).
  mutating func resolveName(_ name: Identifier, symbol: Symbol?) -> Typed {
    if let symbol {
      switch symbol {
      case .value(let value):
        record(.value(name.text), of: name.span)
        return Typed(type: value.type, constant: value.constant, curveKind: value.curveKind)
      case .curve(let curve):
        record(.curve(name.text), of: name.span)
        return Typed(type: .curve, constant: curve.value.map { .curve($0) }, curveKind: curve.kind)
      case .target:
        error(
          "expected a value, found the target '\(name.text)': read a property as '\(name.text).PROPERTY'", at: name.span
        )
        return .error
      case .timeline:
        error("expected a value, found the timeline '\(name.text)'", at: name.span)
        return .error
      }
    }
    if isDeclaredLater(name.text) {
      error("'\(name.text)' is used before its declaration", at: name.span)
      return .error
    }
    if let preset = Predeclared.curve(named: name.text) {
      // Not recorded: a name with no reference is the preset it names (WrittenFacts.swift).
      var typed = Typed(type: .curve, constant: preset.constant, curveKind: preset.curve.kind)
      typed.isPresetAsWritten = true
      return typed
    }
    if label(named: name.text) != nil {
      error(
        "expected a value, found the label '\(name.text)': a label only begins a placement, as 'at \(name.text) + 250ms ITEM'",
        at: name.span)
      return .error
    }
    if Predeclared.isFunction(name.text) {
      error("expected a value, found the function '\(name.text)': call it, as '\(name.text)(...)'", at: name.span)
      return .error
    }
    let candidates =
      environment.names { symbol in
        switch symbol {
        case .value, .curve: return true
        default: return false
        }
      } + Predeclared.curveNames + [Keyword.now.rawValue]
    error("unknown name '\(name.text)'\(didYouMean(name.text, among: candidates))", at: name.span)
    return .error
  }

  // postfix -> primary "." word
  /// `T.p` or `G[i].p` read in an expression: the property's type (a live value, never
  /// constant), recorded at `span`; an unknown property is reported with the nearest name.
  private mutating func readProperty(_ name: Identifier, of target: TargetSymbol, at span: SourceSpan) -> Typed {
    guard let property = target.property(named: name.text) else {
      error(
        "target '\(target.name)' has no property '\(name.text)'"
          + didYouMean(name.text, among: target.properties.map(\.name)),
        at: name.span)
      return .error
    }
    record(.property(ResolvedProperty(target: target.name, property: property.name)), of: span)
    return Typed(type: property.type)
  }

  private mutating func checkMember(base: Expression, name: Identifier, span: SourceSpan) -> Typed {
    // `G[i].p`: a property of one member of a group.
    if case .index(let groupName, let index) = base.kind {
      guard let target = resolveTarget(groupName) else {
        _ = check(index)
        return .error
      }
      record(.error, of: base.span)
      guard target.memberCount != nil else {
        _ = check(index)
        error("'\(target.name)' is one target, not a group: write '\(target.name).\(name.text)'", at: index.span)
        return .error
      }
      checkMemberIndex(index, of: target)
      return readProperty(name, of: target, at: span)
    }
    // `T.p`: a property of a target (a live value, never constant).
    if case .name(let targetName) = base.kind {
      if case .target(let target)? = self.symbol(named: targetName.text), let count = target.memberCount {
        record(.error, of: base.span)
        error(
          "'\(target.name)' is a group of \(count): read one member's property, as '\(target.name)[0].\(name.text)'",
          at: span)
        return .error
      }
      if case .target(let target)? = self.symbol(named: targetName.text) {
        record(.error, of: base.span)
        return readProperty(name, of: target, at: span)
      }
      if self.symbol(named: targetName.text) == nil, !isDeclaredLater(targetName.text),
        Predeclared.curve(named: targetName.text) == nil, label(named: targetName.text) == nil
      {
        // An unknown name before a dot is most likely a misspelt target.
        let targets = environment.names { if case .target = $0 { return true } else { return false } }
        let values = environment.names { if case .value = $0 { return true } else { return false } }
        if let near = nearestName(to: targetName.text, among: targets) {
          error("unknown target '\(targetName.text)'; did you mean '\(near)'?", at: targetName.span)
        } else if let near = nearestName(to: targetName.text, among: values) {
          error("unknown name '\(targetName.text)'; did you mean '\(near)'?", at: targetName.span)
        } else {
          error("unknown target '\(targetName.text)'", at: targetName.span)
        }
        record(.error, of: base.span)
        return .error
      }
    }
    let typed = check(base)
    switch typed.type {
    case .error:
      return .error
    case .vec2, .vec3, .vec4:
      let arity = typed.type.vectorArity ?? 0
      let componentNames = ["x", "y", "z", "w"]
      guard let index = componentNames.firstIndex(of: name.text) else {
        let valid = componentNames.prefix(arity).map { ".\($0)" }.joined(separator: ", ")
        error("\(typed.type) has no member '\(name.text)': its components are \(valid)", at: name.span)
        return .error
      }
      guard index < arity else {
        let needed = index == 2 ? "a vec3 or a vec4" : "a vec4"
        error("expected \(needed) before '.\(name.text)', found \(typed.type)", at: name.span)
        return .error
      }
      record(.component(index), of: span)
      var constant: ConstantValue?
      if case .vector(let values)? = typed.constant, index < values.count { constant = .number(values[index]) }
      return Typed(type: .number, constant: constant)
    case .color:
      guard let channel = ["r", "g", "b", "a"].firstIndex(of: name.text) else {
        error("a color has no member '\(name.text)': its channels are .r, .g, .b, .a", at: name.span)
        return .error
      }
      record(.component(channel), of: span)
      return Typed(type: .number)
    default:
      error("\(typed.type) has no member '\(name.text)'", at: name.span)
      return .error
    }
  }

  // call -> identifier "(" [ argument { "," argument } ] ")"
  private mutating func checkCall(callee: Identifier, arguments: [Argument], span: SourceSpan) -> Typed {
    if let symbol = self.symbol(named: callee.text) {
      error(
        "expected a function, found '\(callee.text)', which is \(symbol.kindDescription)", at: callee.span)
      for argument in arguments { _ = check(argument.value) }
      return .error
    }
    if let constructor = CurveConstructor(rawValue: callee.text) {
      record(.curveConstructor(constructor), of: callee.span)
      return checkCurveCall(constructor, arguments: arguments, span: span)
    } else if let function = BuiltinFunction(rawValue: callee.text) {
      record(.function(function), of: callee.span)
      return checkFunction(function, callee: callee, arguments: arguments, span: span)
    } else {
      for argument in arguments { _ = check(argument.value) }
      let known = Predeclared.functions
      error("unknown function '\(callee.text)'\(didYouMean(callee.text, among: known))", at: callee.span)
      return .error
    }
  }

  /// A value function of the table (`BuiltinFunction`): its arity and argument types by its
  /// signature, and its value, when the arguments are constant, by the function itself.
  private mutating func checkFunction(
    _ function: BuiltinFunction, callee: Identifier, arguments: [Argument], span: SourceSpan
  ) -> Typed {
    let name = callee.text
    let arity = function.arity
    var typedArguments: [Typed] = []
    for argument in arguments {
      if let label = argument.label {
        error("'\(name)' takes no argument labels, found '\(label.text):'", at: label.span)
      }
      typedArguments.append(check(argument.value))
    }
    guard arguments.count == arity else {
      error(
        "'\(name)' takes \(arity) argument\(arity == 1 ? "" : "s"), found \(arguments.count)", at: span)
      return .error
    }
    if typedArguments.contains(where: { $0.type == .error }) { return .error }
    let types = typedArguments.map(\.type)
    var result: ValueType
    switch function.signature {
    case .numbersOrDurations:
      let first = types[0]
      guard first == .number || first == .duration else {
        error(
          "expected a number or a duration as an argument of '\(name)', found \(first)", at: arguments[0].value.span)
        return .error
      }
      for (index, type) in types.enumerated().dropFirst() where type != first {
        error(
          "expected \(first) as an argument of '\(name)' (as its first argument), found \(type)",
          at: arguments[index].value.span)
        return .error
      }
      result = first
    case .number:
      guard types[0] == .number else {
        error("expected a number as the argument of '\(name)', found \(types[0])", at: arguments[0].value.span)
        return .error
      }
      result = .number
    case .interpolation:
      let first = types[0]
      guard first.isAnimatable || first == .duration else {
        error(
          "expected a number, a vector, a color or a duration as the first argument of 'lerp', found \(first)",
          at: arguments[0].value.span)
        return .error
      }
      guard types[1] == first else {
        error(
          "expected \(first) as the second argument of 'lerp' (as its first), found \(types[1])",
          at: arguments[1].value.span)
        return .error
      }
      guard types[2] == .number else {
        error(
          "expected a number as the third argument of 'lerp' (the fraction), found \(types[2])",
          at: arguments[2].value.span)
        return .error
      }
      result = first
    case .channels:
      for (index, type) in types.enumerated() where type != .number {
        error("expected a number as an argument of '\(name)', found \(type)", at: arguments[index].value.span)
        return .error
      }
      var inRange = true
      for (index, typed) in typedArguments.enumerated() {
        guard case .number(let value)? = typed.constant else { continue }
        if !function.channelRange(index).contains(value) {
          let failure = ArithmeticError.channelOutOfRange(function: name, channel: index, value: value)
          error(failure.message, at: arguments[index].value.span)
          inRange = false
        }
      }
      guard inRange else { return .error }
      result = .color
    }
    let values = typedArguments.compactMap(\.constant)
    guard values.count == arity else { return Typed(type: result) }
    return folded(function.apply(values), type: result, at: span)
  }

  /// A constant as messages show it: `1.5`, `250ms`, `40%`.
  func describe(_ value: ConstantValue) -> String {
    switch value {
    case .number(let x): return formatNumber(x)
    case .duration(let nanoseconds): return formatDuration(nanoseconds)
    case .percent(let x): return "\(formatNumber(x))%"
    case .vector(let components): return "(" + components.map(formatNumber).joined(separator: ", ") + ")"
    case .color: return "a color"
    case .string(let text): return "\"\(text)\""
    case .curve: return "a curve"
    case .boolean(let value): return value ? "true" : "false"
    }
  }
}

/// A number as the user would write it: `2`, not `2.0`.
func formatNumber(_ value: Double) -> String {
  if Swift.abs(value) < 1e15, ConstantEvaluator.isWhole(value) {
    return String(Int64(value))
  }
  return String(value)
}

/// A duration as the user would write it: `250ms`, `1.5s`, or exact nanoseconds in seconds.
func formatDuration(_ nanoseconds: Int64) -> String {
  if nanoseconds % 1_000_000 == 0 {
    let milliseconds = nanoseconds / 1_000_000
    if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    if Swift.abs(milliseconds) < 1000 { return "\(milliseconds)ms" }
  }
  return "\(formatNumber(Double(nanoseconds) / 1e9))s"
}
