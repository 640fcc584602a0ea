import AnimCore
import Foundation
import Testing

@testable import AnimLanguage

/// Checks `text` as a script; the parse must be clean.
func checked(_ text: String) -> (program: CheckedProgram, messages: [String]) {
  let source = SourceText(name: "test.anim", contents: text)
  let parsed = parse(source)
  #expect(
    parsed.diagnostics.isEmpty, "syntax errors in the test's own script: \(describe(parsed.diagnostics, in: source))")
  let program = check(parsed.file)
  return (program, describe(program.diagnostics, in: source))
}

/// The constant the checker found for `let NAME = ...` in `text`.
func constantOfLet(_ name: String, in text: String) -> ConstantValue? {
  let (program, messages) = checked(text)
  #expect(messages.isEmpty, "\(messages)")
  return program.environment.value(named: name)?.constant
}

/// The type the checker gave `let NAME = ...` in `text`.
func typeOfLet(_ name: String, in text: String) -> ValueType? {
  checked(text).program.environment.value(named: name)?.type
}

@Suite struct OperatorTypeTests {
  typealias Case = (BinaryOperator, ValueType, ValueType, ValueType?)

  /// grammar.md § Types and values: arithmetic `+ - * /` works component-wise on vectors;
  /// number * vector, duration * number, duration / number, duration / duration (a number);
  /// mixing types otherwise is a type error. Written out case by case, independently of the checker.
  static let cases: [Case] = [
    (.add, .number, .number, .number),
    (.subtract, .number, .number, .number),
    (.multiply, .number, .number, .number),
    (.divide, .number, .number, .number),
    (.add, .duration, .duration, .duration),
    (.subtract, .duration, .duration, .duration),
    (.multiply, .duration, .duration, nil),
    (.divide, .duration, .duration, .number),
    (.multiply, .duration, .number, .duration),
    (.multiply, .number, .duration, .duration),
    (.divide, .duration, .number, .duration),
    (.divide, .number, .duration, nil),
    (.add, .number, .duration, nil),
    (.subtract, .duration, .number, nil),
    (.add, .vec2, .vec2, .vec2),
    (.subtract, .vec3, .vec3, .vec3),
    (.multiply, .vec4, .vec4, .vec4),
    (.divide, .vec2, .vec2, .vec2),
    (.add, .vec2, .vec3, nil),
    (.multiply, .vec2, .vec4, nil),
    (.multiply, .number, .vec3, .vec3),
    (.multiply, .vec3, .number, .vec3),
    (.add, .number, .vec2, nil),
    (.divide, .number, .vec2, nil),
    (.multiply, .duration, .vec2, nil),
    (.add, .color, .color, nil),
    (.multiply, .number, .color, nil),
    (.add, .string, .string, nil),
    (.multiply, .string, .number, nil),
    (.add, .curve, .curve, nil),
    (.add, .percent, .percent, nil),
    (.add, .error, .string, .error),
    (.divide, .number, .error, .error),
  ]

  @Test(arguments: cases)
  func resultType(_ operation: Case) {
    let (op, left, right, expected) = operation
    #expect(ConstantEvaluator.resultType(of: op, left, right) == expected, "\(left) \(op.rawValue) \(right)")
  }

  /// The same table through the checker, from source: a sample value of each type.
  @Test(arguments: cases.filter { $0.1 != .error && $0.2 != .error && $0.1 != .percent })
  func resultTypeFromSource(_ operation: Case) {
    let (op, left, right, expected) = operation
    func sample(_ type: ValueType) -> String {
      switch type {
      case .number: return "2"
      case .duration: return "500ms"
      case .vec2: return "(1, 2)"
      case .vec3: return "(1, 2, 3)"
      case .vec4: return "(1, 2, 3, 4)"
      case .color: return "#102030"
      case .string: return "\"s\""
      case .curve: return "easeIn"
      default: return "?"
      }
    }
    let (program, messages) = checked("let r = \(sample(left)) \(op.rawValue) \(sample(right))")
    if let expected {
      #expect(messages.isEmpty)
      #expect(program.environment.value(named: "r")?.type == expected)
    } else {
      #expect(messages.count == 1)
      #expect(messages.first?.contains("cannot apply '\(op.rawValue)' to \(left) and \(right)") == true)
    }
  }

  @Test func negation() {
    #expect(ConstantEvaluator.negatedType(of: .number) == .number)
    #expect(ConstantEvaluator.negatedType(of: .duration) == .duration)
    #expect(ConstantEvaluator.negatedType(of: .vec3) == .vec3)
    #expect(ConstantEvaluator.negatedType(of: .color) == nil)
    #expect(ConstantEvaluator.negatedType(of: .string) == nil)
  }

  @Test func functionTypes() {
    #expect(typeOfLet("a", in: "let a = min(1s, 2s)") == .duration)
    #expect(typeOfLet("a", in: "let a = clamp(2, 0, 1)") == .number)
    #expect(typeOfLet("a", in: "let a = lerp((0, 0, 0), (1, 1, 1), 0.5)") == .vec3)
    #expect(typeOfLet("a", in: "let a = lerp(#000, #fff, 0.5)") == .color)
    #expect(typeOfLet("a", in: "let a = rgba(1, 2, 3, 0.5)") == .color)
    #expect(typeOfLet("a", in: "let a = sqrt(2) + sin(1) + cos(1) + abs(-1)") == .number)
    #expect(typeOfLet("a", in: "let a = now") == .duration)
    #expect(typeOfLet("a", in: "let a = spring(response: 1, dampingFraction: 1)") == .curve)
    #expect(typeOfLet("a", in: "target t { p: (1, 2, 3, 4) }\nlet a = t.p.w") == .number)
    #expect(typeOfLet("a", in: "target t { c: #fff }\nlet a = t.c.g") == .number)
    #expect(typeOfLet("a", in: "let a = \"x {now}\"") == .string)
  }
}

@Suite struct ConstantEvaluationTests {
  @Test func arithmeticOnLiterals() {
    let expected: Double = 1 + 2 * 3 - 4.0 / 8
    #expect(constantOfLet("a", in: "let a = 1 + 2 * 3 - 4 / 8") == .number(expected))
    #expect(constantOfLet("a", in: "let a = -(2 - 5)") == .number(3))
    let nanoseconds: Int64 = 250_000_000 * 2 + 1_000_000_000 / 4
    #expect(constantOfLet("a", in: "let a = 250ms * 2 + 1s / 4") == .duration(nanoseconds: nanoseconds))
    #expect(constantOfLet("a", in: "let a = 1s / 250ms") == .number(4))
    #expect(constantOfLet("a", in: "let a = 3 * 100ms") == .duration(nanoseconds: 300_000_000))
    #expect(constantOfLet("a", in: "let a = (1, 2) * 3 + (0.5, 0.5)") == .vector([3.5, 6.5]))
    #expect(constantOfLet("a", in: "let a = (6, 8) / (2, 4)") == .vector([3, 2]))
    #expect(constantOfLet("a", in: "let a = (1, 2, 3).z") == .number(3))
    #expect(constantOfLet("a", in: "let a = #ff8000") == .color(red: 255, green: 128, blue: 0, alpha: 1))
    #expect(constantOfLet("a", in: "let a = \"plain\"") == .string("plain"))
  }

  @Test func throughLets() {
    let text = "let d = 600ms\nlet half = d / 2\nlet ratio = half / d\nlet v = (ratio, ratio * 4)"
    #expect(constantOfLet("half", in: text) == .duration(nanoseconds: 300_000_000))
    #expect(constantOfLet("ratio", in: text) == .number(0.5))
    #expect(constantOfLet("v", in: text) == .vector([0.5, 2]))
  }

  @Test func functions() {
    #expect(constantOfLet("a", in: "let a = min(3, max(1, 2))") == .number(2))
    #expect(constantOfLet("a", in: "let a = clamp(5, 0, 1)") == .number(1))
    #expect(constantOfLet("a", in: "let a = clamp(-5s, 0s, 1s)") == .duration(nanoseconds: 0))
    #expect(constantOfLet("a", in: "let a = abs(-2.5) + 3") == .number(5.5))
    #expect(constantOfLet("a", in: "let a = lerp(10, 20, 0.25)") == .number(12.5))
    #expect(constantOfLet("a", in: "let a = lerp((0, 10), (10, 20), 0.5)") == .vector([5, 15]))
    #expect(constantOfLet("a", in: "let a = rgba(255, 0, 10, 0.5)") == .color(red: 255, green: 0, blue: 10, alpha: 0.5))
  }

  @Test func liveValuesAreNotConstant() {
    #expect(constantOfLet("a", in: "let a = now + 1s") == nil)
    #expect(constantOfLet("a", in: "target t { x: 1 }\nlet a = t.x * 2") == nil)
    // sqrt, sin and cos fold like the others: the checker and the runtime compute every
    // function through the one table (BuiltinFunction.apply).
    #expect(constantOfLet("a", in: "let a = sin(0)") == .number(0))
    #expect(constantOfLet("a", in: "let a = sqrt(4)") == .number(2))
  }

  /// grammar.md § Types and values: division by zero is only ever a runtime error, which
  /// check does not report.
  @Test func divisionByZeroIsNotACheckError() {
    for text in [
      "let a = 1 / 0", "let a = 1s / 0", "let a = 1s / 0s", "let a = (1, 2) / (0, 1)", "let z = 0\nlet a = 5 / z",
    ] {
      let (program, messages) = checked(text)
      #expect(messages.isEmpty, "\(text)")
      #expect(program.environment.value(named: "a")?.constant == nil, "\(text)")
    }
  }

  @Test func durationsRoundToTheNanosecondHalvesAwayFromZero() {
    #expect(ConstantEvaluator.apply(.multiply, .duration(nanoseconds: 1), .number(0.5)) == .duration(nanoseconds: 1))
    #expect(ConstantEvaluator.apply(.multiply, .duration(nanoseconds: -1), .number(0.5)) == .duration(nanoseconds: -1))
    #expect(ConstantEvaluator.apply(.divide, .duration(nanoseconds: 10), .number(3)) == .duration(nanoseconds: 3))
    #expect(ConstantEvaluator.apply(.divide, .duration(nanoseconds: 20), .number(3)) == .duration(nanoseconds: 7))
    #expect(ConstantEvaluator.duration(seconds: 1.5) == .duration(nanoseconds: 1_500_000_000))
  }

  @Test func overflowIsNotConstantAndNeverTraps() {
    let big = ConstantValue.duration(nanoseconds: .max)
    #expect(ConstantEvaluator.apply(.add, big, .duration(nanoseconds: 1)) == nil)
    #expect(ConstantEvaluator.apply(.subtract, .duration(nanoseconds: .min), .duration(nanoseconds: 1)) == nil)
    #expect(ConstantEvaluator.apply(.multiply, big, .number(2)) == nil)
    #expect(ConstantEvaluator.negate(.duration(nanoseconds: .min)) == nil)
    #expect(ConstantEvaluator.call("abs", [.duration(nanoseconds: .min)]) == nil)
    #expect(ConstantEvaluator.apply(.multiply, .number(1e308), .number(10)) == nil)
    #expect(ConstantEvaluator.duration(seconds: .infinity) == nil)
  }

  /// Each curve is the engine's, made by AnimCore's initialisers from the parameters written
  /// (a spring at its own length), and a preset is its CSS or SwiftUI curve.
  @Test func curvesAreResolved() throws {
    let (program, messages) = checked(
      "curve a = cubic(0.1, 0.2, 0.3, 0.4)\ncurve b = steps(3, jumpNone)\ncurve c = spring(duration: 300ms, bounce: 0.2, velocity: 2)\ncurve d = easeInOut\ncurve e = bouncy"
    )
    #expect(messages.isEmpty)
    let environment = program.environment
    #expect(environment.curve(named: "a")?.value == .cubicBezier(try CubicBezier(0.1, 0.2, 0.3, 0.4)))
    #expect(environment.curve(named: "b")?.value == .steps(try Steps(count: 3, position: .jumpNone)))
    #expect(
      environment.curve(named: "c")?.value
        == .spring(try SpringCurve(spring: Spring(duration: 0.3, bounce: 0.2), initialVelocity: 2)))
    #expect(environment.curve(named: "c")?.kind == .spring)
    #expect(environment.curve(named: "d")?.value == .cubicBezier(try CubicBezier(0.42, 0, 0.58, 1)))
    #expect(
      environment.curve(named: "e")?.value == .spring(try SpringCurve(spring: Spring(duration: 0.5, bounce: 0.3))))
    #expect(environment.curve(named: "a")?.kind == .timing)
    let (defaults, _) = checked("curve f = spring(duration: 1s)\ncurve g = spring(stiffness: 4, damping: 2)")
    #expect(
      defaults.environment.curve(named: "f")?.value == .spring(try SpringCurve(spring: Spring(duration: 1, bounce: 0))))
    #expect(
      defaults.environment.curve(named: "g")?.value
        == .spring(try SpringCurve(spring: Spring(mass: 1, stiffness: 4, damping: 2))))
  }

  /// A curve as a session shows it (`TimingCurve.written`) is the language's own spelling:
  /// checked again, it is the same curve.
  @Test func aCurveAsWrittenChecksBackToItself() throws {
    let curves: [TimingCurve] = [
      .linear, .cubicBezier(try CubicBezier(0.1, -2.5, 0.3, 0.4)), .steps(try Steps(count: 3, position: .jumpNone)),
      .spring(try SpringCurve(spring: Spring(response: 0.3, dampingFraction: 0.7), initialVelocity: -1.5)),
      CurvePreset.bouncy.curve,
    ]
    for curve in curves {
      let (program, messages) = checked("curve c = \(curve.written)")
      #expect(messages.isEmpty, "\(curve.written)")
      #expect(program.environment.curve(named: "c")?.value == curve, "\(curve.written)")
    }
    #expect(TimingCurve.linear.written == "linear")
    #expect(TimingCurve.easeIn.written == "cubic(0.42, 0, 1, 1)")
  }

  /// A curve whose parameters are each in range but which the engine refuses as a whole (a
  /// damping too large to be finite) is an error of the check, reported once, at the call:
  /// the runtime is never handed a curve it could not make.
  @Test func aCurveTheEngineRefusesIsACheckError() {
    let (_, messages) = checked("curve c = spring(response: 0.5, dampingFraction: 1e308)")
    #expect(messages.count == 1)
    #expect(messages.first?.hasPrefix("1:11: error: 'spring' cannot make a curve of these parameters: ") == true)
    let (_, fine) = checked("curve c = spring(response: 0.5, dampingFraction: 1e3)")
    #expect(fine.isEmpty)
  }

  /// A member and a call are resolved once, by the checker: a vector's component or a
  /// color's channel by its index, a callee by its table entry.
  @Test func membersAndCalleesAreResolved() {
    let text =
      "target card { pos: (0, 0), tint: #ff0000 }\nprint \"{card.pos.y} {card.tint.a} {min(1, 2)}\"\n"
      + "curve c = cubic(0.1, 0.2, 0.3, 0.4)"
    let (program, messages) = checked(text)
    #expect(messages.isEmpty)
    /// The span of the first `piece` in the text.
    func span(_ piece: String) -> SourceSpan {
      let start = text.range(of: piece).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
      return SourceSpan(start: start, end: start + piece.utf8.count)
    }
    #expect(program.references[span("card.pos.y")] == .component(1))
    #expect(program.references[span("card.tint.a")] == .component(3))
    #expect(program.references[span("min")] == .function(.min))
    #expect(program.references[span("cubic")] == .curveConstructor(.cubic))
  }

  /// Where a statement names a property or a timeline, the checker records what it resolved
  /// (`T.p` put together once), which the runtime looks up instead of the syntax.
  @Test func propertyAndTimelineReferencesAreResolved() {
    let text = """
      target card { x: 0 }
      timeline intro { animate card.x to 1 over 1s }
      animate card.x to 100 over 1s
      set card.x to card.x + 1
      pause card.x
      play intro
      on complete card.x { print "done" }
      on start intro { print "go" }
      """
    let (program, messages) = checked(text)
    #expect(messages.isEmpty)
    let cardX = ResolvedProperty(target: "card", property: "x")
    #expect(cardX.name == "card.x" && cardX.target == "card" && cardX.property == "x")
    let statements = program.file.statements
    guard case .animate(let animate) = statements[2].kind, case .set(let set) = statements[3].kind,
      case .control(let pause) = statements[4].kind, case .control(let play) = statements[5].kind,
      case .handler(let onComplete) = statements[6].kind, case .handler(let onStart) = statements[7].kind,
      case .property(let paused)? = pause.subject, case .name(let played)? = play.subject,
      case .lifecycle(_, _, .property(let completed)) = onComplete.event,
      case .lifecycle(_, _, .name(let started)) = onStart.event
    else {
      Issue.record("unexpected tree")
      return
    }
    for reference in [animate.property, set.property, paused, completed] {
      #expect(program.resolved.property(reference) == cardX)
    }
    #expect(program.references[set.value.span] == nil)
    #expect(program.resolved.timeline(played) == "intro")
    #expect(program.resolved.timeline(started) == "intro")
  }
}

@Suite struct SessionTests {
  func input(_ text: String, _ environment: inout Environment, _ mode: CheckMode = .session) -> [String] {
    let source = SourceText(name: "<repl>", contents: text)
    let parsed = parse(source)
    #expect(parsed.diagnostics.isEmpty)
    return describe(check(parsed.file, in: &environment, mode: mode).diagnostics, in: source)
  }

  @Test func aLaterDeclarationReplacesTheEarlierOne() {
    var session = Environment()
    #expect(input("let x = 1", &session).isEmpty)
    #expect(input("let x = (1, 2)", &session).isEmpty)
    #expect(session.value(named: "x")?.type == .vec2)
    #expect(input("target b { x: 0 }", &session).isEmpty)
    #expect(input("animate b.x to 1 over 1s", &session).isEmpty)
    #expect(input("target b { y: (0, 0) }", &session).isEmpty)
    #expect(session.target(named: "b")?.properties.map(\.name) == ["y"])
    #expect(input("animate b.x to 1 over 1s", &session) == ["1:11: error: target 'b' has no property 'x'"])
    #expect(input("animate b.y to (1, 1) over 1s", &session).isEmpty)
    #expect(input("curve c = easeIn", &session).isEmpty)
    #expect(input("curve c = smooth", &session).isEmpty)
    #expect(input("animate b.y to (2, 2) with c", &session).isEmpty)
    #expect(input("timeline t { }", &session).isEmpty)
    #expect(input("timeline t repeat forever { }", &session).isEmpty)
    #expect(input("finish t", &session) == ["1:8: error: cannot 'finish' 't': it repeats forever, so it has no end"])
    // A redeclaration of another kind replaces too.
    #expect(input("let t = 5", &session).isEmpty)
    #expect(
      input("play t", &session) == [
        "1:6: error: expected a timeline or a property 'TARGET.PROPERTY' after 'play', found 't', which is a value (a 'let')"
      ])
  }

  @Test func aScriptReportsTheSecondDeclaration() {
    var script = Environment()
    let messages = input("let x = 1\nlet x = 2", &script, .script)
    #expect(
      messages == ["2:5: error: 'x' is already declared as a value (a 'let'); a name is declared once in a script"])
  }

  @Test func anInputWithErrorsChangesNothing() {
    var session = Environment()
    #expect(input("let x = 1", &session).isEmpty)
    let before = session
    #expect(input("let y = 2\nlet x = nothing", &session).count == 1)
    #expect(session == before)
    #expect(session.value(named: "y") == nil)
  }

  @Test func laterInputsSeeEarlierDeclarations() {
    var session = Environment()
    #expect(input("let d = 300ms\ntarget card { x: 0 }", &session).isEmpty)
    #expect(input("timeline intro { animate card.x to 1 over d }", &session).isEmpty)
    #expect(input("play intro\nat 1s pause intro", &session).isEmpty)
    #expect(input("card.x", &session).isEmpty)
    #expect(input("play intr", &session) == ["1:6: error: unknown timeline 'intr'; did you mean 'intro'?"])
  }
}

@Suite struct CheckedProgramTests {
  static let example = """
    let duration = 600ms
    let accent   = #ff8800
    curve snap   = cubic(0.2, 0.9, 0.1, 1)
    curve wobble = spring(response: 0.5, dampingFraction: 0.45)
    target card  { angle: 0, opacity: 0, position: (0, 0), tint: #000000 }
    target badge { scale: 0 }
    timeline intro {
      animate card.opacity to 1 over 300ms with easeIn
      at 100ms animate card.angle to 180 over duration with snap
      animate card.tint to accent over 200ms
      with previous animate badge.scale to 1 with wobble
      label landed
      at landed + 250ms print "landed at {now}, angle {card.angle}"
      at +1s emit "x"
    }
    play intro
    at 400ms pause intro
    """

  @Test func targetsTimelinesAndCurves() throws {
    let (program, messages) = checked(Self.example)
    #expect(messages.isEmpty)
    let card = try #require(program.environment.target(named: "card"))
    #expect(card.properties.map(\.name) == ["angle", "opacity", "position", "tint"])
    #expect(card.properties.map(\.type) == [.number, .number, .vec2, .color])
    // The initial values are the initializers' constants, among the checker's facts.
    let declaration = try #require(
      program.file.statements.lazy.compactMap { statement -> TargetDeclaration? in
        if case .target(let declaration) = statement.kind { return declaration }
        return nil
      }.first)
    func initial(_ name: String) -> ConstantValue? {
      declaration.properties.first { $0.name.text == name }.flatMap { program.constant(of: $0.value) }
    }
    #expect(initial("position") == .vector([0, 0]))
    #expect(initial("tint") == .color(red: 0, green: 0, blue: 0, alpha: 1))
    #expect(program.environment.timeline(named: "intro")?.labels == ["landed"])
    #expect(program.environment.timeline(named: "intro")?.repeatsForever == false)
    #expect(program.environment.curve(named: "wobble")?.kind == .spring)
    #expect(program.environment.value(named: "duration")?.constant == .duration(nanoseconds: 600_000_000))
  }

  @Test func placementsAndTypes() throws {
    let (program, _) = checked(Self.example)
    let timeline = try #require(
      program.file.statements.first { if case .timeline = $0.kind { return true } else { return false } })
    guard case .timeline(let declaration) = timeline.kind else { return }
    let items = declaration.body.statements
    let placements = items.map { program.placement(of: $0, in: .appends) }
    #expect(placements[0] == .appended)
    guard case .absolute(let offset) = placements[1] else {
      Issue.record("expected an absolute placement, found \(String(describing: placements[1]))")
      return
    }
    #expect(program.constant(of: offset) == .duration(nanoseconds: 100_000_000))
    #expect(placements[2] == .appended)
    #expect(placements[3] == .withPrevious)
    guard case .label(let name, let offsets) = placements[5] else {
      Issue.record("expected a label placement, found \(String(describing: placements[5]))")
      return
    }
    #expect(name == "landed")
    #expect(offsets.count == 1 && offsets[0].sign == .plus)
    #expect(program.constant(of: offsets[0].expression) == .duration(nanoseconds: 250_000_000))
    #expect(placements[5].isLabelPlacement == true)
    if case .relative(.plus, _) = placements[6] {} else { Issue.record("expected at +1s to be relative") }
    // Only the label's placement is kept: the others are read from the syntax.
    #expect(program.placements.count == 1)
    #expect(program.placements[items[5].span] == placements[5])
    // Top level: now, and absolute.
    let top = program.file.statements.suffix(2).map { program.placement(of: $0, in: .runsNow) }
    #expect(top[0] == .now)
    if case .absolute = top[1] {} else { Issue.record("expected 'at 400ms' to be absolute") }
    // The interpolation's expressions are typed.
    guard case .print(let literal) = items[5].kind else { return }
    let interpolated = literal.parts.compactMap { part -> AnimLanguage.Expression? in
      if case .interpolation(let expression) = part { return expression }
      return nil
    }
    #expect(interpolated.map { program.type(of: $0) } == [.duration, .number])
    #expect(program.references[interpolated[1].span] == .property(ResolvedProperty(target: "card", property: "angle")))
  }

  @Test func topLevelRelativePlacementIsAbsoluteAndLabelsWinInPlacementHeads() {
    let (program, messages) = checked(
      "let mark = 1s\nat +2s print \"a\"\ntimeline t {\n  label mark at 3s\n  at mark + 1s print \"b\"\n}\nat mark print \"c\""
    )
    #expect(messages.isEmpty)
    let statements = program.file.statements
    guard case .absolute(let offset) = program.placement(of: statements[1], in: .runsNow) else {
      Issue.record("'at +2s' at the top level is 'at 2s'")
      return
    }
    #expect(program.constant(of: offset) == .duration(nanoseconds: 2_000_000_000))
    guard case .timeline(let declaration) = statements[2].kind else { return }
    #expect(program.placement(of: declaration.body.statements[1], in: .appends).isLabelPlacement == true)
    // Outside the timeline, 'mark' is the let.
    #expect(program.placement(of: statements[3], in: .runsNow).isLabelPlacement == false)
  }

  @Test func curveKindsOfWithExpressions() throws {
    let (program, _) = checked(Self.example)
    guard case .timeline(let declaration) = program.file.statements[6].kind else {
      Issue.record("statement 6 is the timeline")
      return
    }
    var kinds: [CurveKind?] = []
    for item in declaration.body.statements {
      if case .animate(let animate) = item.kind, let curve = animate.curve {
        kinds.append(program.curveKinds[curve.span])
      }
    }
    #expect(kinds == [.timing, .timing, .spring])
  }
}

/// The scripts in examples/ (when there are any) check clean.
@Suite struct ExampleTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

  static func exampleNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".anim") }.sorted()
  }

  @Test(arguments: exampleNames())
  func exampleChecksClean(_ name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let source = SourceText(name: name, bytes: [UInt8](data))
    #expect(describe(diagnose(source), in: source) == [], "in examples/\(name)")
  }
}

@Suite struct ParseAndCheckTests {
  @Test func theCheckerRunsOnlyAfterACleanParse() {
    var environment = Environment()
    let broken = parseAndCheck(
      SourceText(name: "a", contents: "let x = \nlet y = nothing"), in: &environment, mode: .session)
    #expect(broken.program == nil)
    #expect(broken.parse.hasErrors)
    #expect(!broken.isRunnable)
    let clean = parseAndCheck(SourceText(name: "b", contents: "let y = 2"), in: &environment, mode: .session)
    #expect(clean.isRunnable)
    #expect(clean.diagnostics.isEmpty)
    #expect(environment.value(named: "y")?.constant == .number(2))
    let open = parseAndCheck(SourceText(name: "c", contents: "timeline t {"), in: &environment, mode: .session)
    #expect(open.parse.hasErrors && !open.isRunnable)
  }
}

@Suite struct ValueCodingTests {
  @Test func constantsAndCurvesRoundTripThroughJSON() throws {
    let values: [ConstantValue] = [
      .number(1.5), .duration(nanoseconds: -7), .percent(40), .vector([1, 2, 3]),
      .color(red: 255, green: 0, blue: 10, alpha: 0.5), .string("s"),
      .curve(.cubicBezier(try CubicBezier(0.1, 2, 0.3, -1))), .curve(.steps(try Steps(count: 3, position: .jumpNone))),
      .curve(.spring(try SpringCurve(spring: Spring(mass: 1, stiffness: 100, damping: 10), initialVelocity: -2))),
      .curve(.linear),
    ]
    let data = try JSONEncoder().encode(values)
    #expect(try JSONDecoder().decode([ConstantValue].self, from: data) == values)
    let types: [ValueType] = [.number, .duration, .percent, .vec2, .vec3, .vec4, .color, .string, .curve]
    #expect(try JSONDecoder().decode([ValueType].self, from: JSONEncoder().encode(types)) == types)
  }
}

/// Issue 12, rule 4: a pass of no length cannot repeat for ever.
@Suite struct ZeroLengthForeverTests {
  @Test func overZeroWithRepeatForeverIsAnError() {
    let (_, messages) = checked("target a { x: 0 }\nanimate a.x to 1 over 0s repeat forever\n")
    #expect(messages.count == 1)
    #expect(messages.first?.contains("2:23") == true)
    #expect(messages.first?.contains("'over 0s' with 'repeat forever'") == true)
    let (_, keyframes) = checked("target a { x: 0 }\nkeyframes a.x over 0s repeat forever { 0%: 0\n100%: 1 }\n")
    #expect(keyframes.count == 1)
    #expect(keyframes.first?.contains("'over 0s' with 'repeat forever'") == true)
  }

  @Test func overZeroWithACountAndALengthWithForeverAreFine() {
    #expect(checked("target a { x: 0 }\nanimate a.x to 1 over 0s repeat 3\n").messages.isEmpty)
    #expect(checked("target a { x: 0 }\nanimate a.x to 1 over 1s repeat forever\n").messages.isEmpty)
  }
}
