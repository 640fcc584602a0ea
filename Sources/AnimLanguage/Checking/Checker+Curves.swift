// Checker+Curves: curve expressions (`with CURVE`, `curve NAME = CURVE`) and the curve
// constructors `cubic`, `steps` and `spring`, with the parameter ranges of grammar.md § Curves'
// curve table, reported with their location before anything runs. A call whose parameters
// are constant is folded into the engine's curve by AnimCore's own initialisers (CubicBezier,
// Steps, Spring), which validate it: the runtime takes the curve as it is and validates it no
// more. (CurveRangeAgreementTests proves the ranges here equal to the initialisers'.)

import AnimCore

/// The parameter ranges of the curve constructors (grammar.md § Curves).
enum CurveRanges {
  /// cubic's x1 and x2 (y1, y2 are free: overshoot is allowed).
  static let cubicX = CubicBezier.controlXRange
  /// cubic's y1 and y2: overshoot allowed, within ±10⁶ so that no evaluation overflows.
  static let cubicY = CubicBezier.controlYRange
  /// steps(n): n ≥ 1, ≥ 2 for jumpNone (AnimCore's `Steps.minimumCount(for:)`).
  /// spring's bounce: −1 < B < 1.
  static func isValidBounce(_ bounce: Double) -> Bool { bounce > -1 && bounce < 1 }
  /// spring's response, duration, dampingFraction, mass, stiffness, damping: > 0.
  static func isValidPositive(_ value: Double) -> Bool { value > 0 }
}

extension Checker {
  /// Checks an expression that must be a curve; an unknown name is an "unknown curve" with
  /// the nearest curve name.
  mutating func checkCurve(_ expression: Expression, context: @autoclosure () -> String) -> Typed {
    var symbol: Symbol?
    if case .name(let name) = expression.kind {
      symbol = self.symbol(named: name.text)
    }
    if case .name(let name) = expression.kind, symbol == nil,
      !isDeclaredLater(name.text), Predeclared.curve(named: name.text) == nil
    {
      let candidates =
        environment.names { symbol in
          switch symbol {
          case .curve: return true
          case .value(let value): return value.type == .curve
          default: return false
          }
        } + Predeclared.curveNames
      error("unknown curve '\(name.text)'\(didYouMean(name.text, among: candidates))", at: name.span)
      record(.error, of: expression.span)
      return .error
    }
    // A name is looked up once (`check` would look it up again).
    let typed: Typed
    if case .name(let name) = expression.kind {
      typed = resolveName(name, symbol: symbol)
      recordFacts(typed, of: expression)
    } else {
      typed = check(expression)
    }
    if typed.type != .curve && typed.type != .error {
      error("expected a curve \(context()), found \(typed.type)", at: expression.span)
      return .error
    }
    return typed
  }

  /// `cubic(...)`, `steps(...)`, `spring(...)`.
  mutating func checkCurveCall(_ constructor: CurveConstructor, arguments: [Argument], span: SourceSpan) -> Typed {
    switch constructor {
    case .cubic: return checkCubic(arguments, span: span)
    case .steps: return checkSteps(arguments, span: span)
    case .spring: return checkSpring(arguments, span: span)
    }
  }

  // cubic(x1, y1, x2, y2)
  private mutating func checkCubic(_ arguments: [Argument], span: SourceSpan) -> Typed {
    var values: [Double] = []
    var valid = true
    for (index, argument) in arguments.enumerated() {
      if let label = argument.label {
        error("'cubic' takes no argument labels, found '\(label.text):'", at: label.span)
      }
      let typed = expect(argument.value, .number, "as an argument of 'cubic'")
      if typed.type == .error { valid = false }
      guard case .number(let value)? = typed.constant else { continue }
      values.append(value)
      if index == 0 || index == 2, !CurveRanges.cubicX.contains(value) {
        error(
          "expected '\(index == 0 ? "x1" : "x2")' of 'cubic' in 0...1, found \(formatNumber(value))",
          at: argument.value.span)
        valid = false
      } else if index == 1 || index == 3, !CurveRanges.cubicY.contains(value) {
        error(
          "expected '\(index == 1 ? "y1" : "y2")' of 'cubic' in -1000000...1000000, found \(formatNumber(value))",
          at: argument.value.span)
        valid = false
      }
    }
    guard arguments.count == 4 else {
      error("'cubic' takes 4 arguments (x1, y1, x2, y2), found \(arguments.count)", at: span)
      return .error
    }
    guard valid else { return .error }
    guard values.count == 4 else { return Typed(type: .curve, curveKind: .timing) }
    return foldedCurve(.cubic, at: span) { () throws(CurveParameterError) in
      .cubicBezier(try CubicBezier(values[0], values[1], values[2], values[3]))
    }
  }

  // steps(n) | steps(n, jumpStart | jumpEnd | jumpNone | jumpBoth)
  private mutating func checkSteps(_ arguments: [Argument], span: SourceSpan) -> Typed {
    guard arguments.count == 1 || arguments.count == 2 else {
      for argument in arguments { _ = check(argument.value) }
      error("'steps' takes 1 or 2 arguments (a count and a position), found \(arguments.count)", at: span)
      return .error
    }
    for argument in arguments {
      if let label = argument.label {
        error("'steps' takes no argument labels, found '\(label.text):'", at: label.span)
      }
    }
    var valid = true
    var position = StepPosition.jumpEnd
    if arguments.count == 2 {
      let expression = arguments[1].value
      // A step position is a keyword here, whatever else the word names.
      if case .name(let word) = expression.kind, let found = StepPosition(rawValue: word.text) {
        position = found
        record(.stepPosition(found), of: word.span)
      } else {
        valid = false
        let names = StepPosition.allCases.map(\.rawValue)
        if case .name(let word) = expression.kind {
          error("unknown step position '\(word.text)'\(didYouMean(word.text, among: names))", at: word.span)
        } else {
          error(
            "expected a step position (jumpStart, jumpEnd, jumpNone or jumpBoth) as the second argument of 'steps'",
            at: expression.span)
        }
      }
    }
    let countExpression = arguments[0].value
    let typed = expect(countExpression, .number, "as the step count of 'steps'")
    if typed.type == .error { valid = false }
    var count: Int?
    if case .number(let value)? = typed.constant {
      let minimum = Steps.minimumCount(for: position)
      if !ConstantEvaluator.isWhole(value) || value < Double(minimum) || value > 1e15 {
        let requirement = position == .jumpNone ? "a whole number ≥ 2 for 'jumpNone'" : "a whole number ≥ 1"
        error(
          "expected the step count of 'steps' to be \(requirement), found \(formatNumber(value))",
          at: countExpression.span)
        valid = false
      } else {
        count = Int(value)
      }
    }
    guard valid else { return .error }
    guard let count else { return Typed(type: .curve, curveKind: .timing) }
    return foldedCurve(.steps, at: span) { () throws(CurveParameterError) in
      .steps(try Steps(count: count, position: position))
    }
  }

  // spring(response: R, dampingFraction: F [, velocity: V])
  // spring(duration: D [, bounce: B] [, velocity: V])
  // spring([mass: M,] stiffness: K, damping: C [, velocity: V])
  private mutating func checkSpring(_ arguments: [Argument], span: SourceSpan) -> Typed {
    var values = LabelMap<Double>()
    var given = LabelMap<Argument>()
    var valid = true
    for argument in arguments {
      guard let label = argument.label else {
        _ = check(argument.value)
        error(
          "expected a labelled spring parameter, found an argument without a label: \(SpringForm.usage)",
          at: argument.span)
        valid = false
        continue
      }
      guard SpringForm.allLabels.contains(label.text) else {
        _ = check(argument.value)
        error(
          "unknown spring parameter '\(label.text)'\(didYouMean(label.text, among: SpringForm.allLabels))",
          at: label.span)
        valid = false
        continue
      }
      if given[label.text] != nil {
        _ = check(argument.value)
        error("duplicate spring parameter '\(label.text)'", at: label.span)
        valid = false
        continue
      }
      given[label.text] = argument
      let parameter = checkSpringParameter(label.text, argument.value)
      if let value = parameter.value {
        values[label.text] = value
      } else if parameter.isError {
        valid = false
      }
    }
    guard valid else { return .error }
    // Exactly one form, all of its parameters.
    let forms = Set(given.labels.compactMap(SpringForm.form(of:)))
    guard forms.count == 1, let form = forms.first else {
      if forms.isEmpty {
        error("'spring' needs its parameters: \(SpringForm.usage)", at: span)
      } else {
        let labels = arguments.compactMap { $0.label?.text }.filter { $0 != "velocity" }
        let first = labels.first ?? ""
        let other = labels.first { SpringForm.form(of: $0) != SpringForm.form(of: first) } ?? ""
        error("'\(first):' and '\(other):' belong to different spring forms: \(SpringForm.usage)", at: span)
      }
      return .error
    }
    let missing = form.labels.filter { given[$0] == nil && form.defaults[$0] == nil }
    guard missing.isEmpty else {
      let present = form.labels.filter { given[$0] != nil }.map { "'\($0):'" }.joined(separator: " and ")
      let absent = missing.map { "'\($0):'" }.joined(separator: " and ")
      error("'spring' with \(present) also needs \(absent)", at: span)
      return .error
    }
    // Constant when every parameter written is (a default stands for one left out).
    var known: [String: Double] = [:]
    for label in given.labels {
      guard let value = values[label] else { return Typed(type: .curve, curveKind: .spring) }
      known[label] = value
    }
    return foldedCurve(.spring, at: span) { () throws(CurveParameterError) in try SpringForm.curve(known) }
  }

  /// A constant curve call folded into the engine's curve by `make` (AnimCore's initialisers,
  /// which validate it). The ranges above catch what a user writes, each at its argument; a
  /// combination they pass and the engine refuses (a stiffness too large for its mass) is
  /// reported here, at the call, so that no curve the runtime is handed can fail.
  private mutating func foldedCurve(
    _ constructor: CurveConstructor, at span: SourceSpan, _ make: () throws(CurveParameterError) -> TimingCurve?
  ) -> Typed {
    do {
      guard let curve = try make() else { return Typed(type: .curve, curveKind: constructor.kind) }
      return Typed(type: .curve, constant: .curve(curve), curveKind: curve.kind)
    } catch {
      self.error("'\(constructor.rawValue)' cannot make a curve of these parameters: \(error.description)", at: span)
      return .error
    }
  }

  /// Checks one spring parameter's type and, when constant, its range. Returns its value in
  /// seconds or as a number when constant and valid, and whether it has the error type.
  private mutating func checkSpringParameter(
    _ label: String, _ expression: Expression
  ) -> (value: Double?, isError: Bool) {
    let typed = check(expression)
    var value: Double?
    switch typed.type {
    case .error:
      return (nil, true)
    case .number:
      if case .number(let x)? = typed.constant { value = x }
    case .duration where label == "response" || label == "duration":
      if case .duration(let nanoseconds)? = typed.constant { value = Double(nanoseconds) / 1e9 }
    default:
      let expected = label == "response" || label == "duration" ? "a duration or a number of seconds" : "a number"
      error("expected \(expected) after '\(label):', found \(typed.type)", at: expression.span)
      record(.error, of: expression.span)
      return (nil, true)
    }
    guard let value else { return (nil, false) }
    let requirement: String?
    switch label {
    case "bounce":
      requirement = CurveRanges.isValidBounce(value) ? nil : "greater than -1 and less than 1"
    case "velocity":
      requirement = value.isFinite ? nil : "a finite number"
    case "response", "duration":
      // The stiffness (2π / response)² must stay finite.
      let stiffness = (2 * Double.pi / value) * (2 * Double.pi / value)
      requirement = CurveRanges.isValidPositive(value) && stiffness.isFinite ? nil : "greater than 0"
    default:
      requirement = CurveRanges.isValidPositive(value) ? nil : "greater than 0"
    }
    if let requirement {
      let shown = typed.type == .duration ? describe(typed.constant!) : formatNumber(value)
      error("expected '\(label)' of 'spring' \(requirement), found \(shown)", at: expression.span)
      record(.error, of: expression.span)
      return (nil, true)
    }
    return (value, false)
  }
}

/// A few values by argument label: a list (a dictionary costs more for three or four).
struct LabelMap<Value> {
  private var entries: [(label: String, value: Value)] = []

  var labels: [String] { entries.map(\.label) }

  subscript(label: String) -> Value? {
    get { entries.first { $0.label == label }?.value }
    set {
      if let index = entries.firstIndex(where: { $0.label == label }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        if entries.isEmpty { entries.reserveCapacity(4) }
        entries.append((label, newValue))
      }
    }
  }
}
