import AnimCore
import Testing

@testable import AnimLanguage

/// The facts a node's syntax says itself (WrittenFacts.swift): read from the node, not kept
/// by span, and the same as the checker's.
@Suite struct WrittenFactsTests {
  /// The first `animate` statement of `program`, with the statement itself.
  func firstAnimate(_ program: CheckedProgram) throws -> (Statement, AnimateStatement) {
    let statement = try #require(
      program.file.statements.first { if case .animate = $0.kind { return true } else { return false } })
    guard case .animate(let animate) = statement.kind else { throw CancellationError() }
    return (statement, animate)
  }

  @Test func aLiteralIsItsOwnConstant() {
    func literal(_ kind: ExpressionKind) -> ConstantValue? {
      ConstantValue(literal: Expression(kind, span: SourceSpan(at: 0)))
    }
    #expect(literal(.number(1.5)) == .number(1.5))
    #expect(literal(.duration(nanoseconds: 250_000_000)) == .duration(nanoseconds: 250_000_000))
    #expect(literal(.percent(40)) == .percent(40))
    #expect(literal(.boolean(true)) == .boolean(true))
    // `#ff800080`: channels as written (0...255), alpha as a fraction, as `rgba(...)` writes it.
    #expect(
      literal(.color(ColorLiteral(red: 255, green: 128, blue: 0, alpha: 128)))
        == .color(red: 255, green: 128, blue: 0, alpha: 128.0 / 255))
    // Anything else is the checker's to fold, or not a constant.
    #expect(literal(.now) == nil)
    #expect(literal(.vector([])) == nil)
    #expect(literal(.string(StringLiteral(parts: [.text("hi", SourceSpan(at: 0))], span: SourceSpan(at: 0)))) == nil)
  }

  /// `isWritten(by:)`, which the checker asks of every expression it types, is
  /// `ConstantValue(literal:) == self` for every pairing of literals and constants, equal or
  /// not, of the same case or another (and -0 is 0, and NaN no NaN, as `==` has them).
  @Test func aConstantIsWrittenByExactlyTheLiteralThatHasIt() {
    let span = SourceSpan(at: 0)
    let expressions: [Expression] = [
      .number(1.5), .number(0), .number(-0.0), .number(.nan), .duration(nanoseconds: 250_000_000),
      .duration(nanoseconds: 0), .percent(40), .percent(1.5), .boolean(true), .boolean(false),
      .color(ColorLiteral(red: 255, green: 128, blue: 0, alpha: 128)),
      .color(ColorLiteral(red: 0, green: 0, blue: 0, alpha: 255)),
      .now, .vector([]),
    ].map { Expression($0, span: span) }
    let constants: [ConstantValue] = [
      .number(1.5), .number(0), .number(.nan), .number(250_000_000), .duration(nanoseconds: 250_000_000),
      .duration(nanoseconds: 0), .percent(40), .number(40), .boolean(true), .boolean(false),
      .color(red: 255, green: 128, blue: 0, alpha: 128.0 / 255), .color(red: 0, green: 0, blue: 0, alpha: 1),
      .vector([1, 2]), .string("x"),
    ]
    for expression in expressions {
      for constant in constants {
        #expect(
          constant.isWritten(by: expression) == (ConstantValue(literal: expression) == constant),
          "\(constant) by \(expression.kind)")
      }
    }
  }

  @Test func aPropertyAsWrittenIsItsNameByParts() {
    let reference = PropertyReference(
      target: Identifier("card", span: SourceSpan(start: 0, end: 4)),
      property: Identifier("x", span: SourceSpan(start: 5, end: 6)), span: SourceSpan(start: 0, end: 6))
    #expect(ResolvedProperty(written: reference).name == "card.x")
    #expect(ResolvedProperty.isWritten(target: "card", property: "x", by: reference))
    #expect(!ResolvedProperty.isWritten(target: "card", property: "y", by: reference))
    #expect(!ResolvedProperty.isWritten(target: "cards", property: "x", by: reference))
    #expect(!ResolvedProperty.isWritten(target: "car", property: "x", by: reference))
  }

  /// Byte for byte, as the runtime finds names: a name canonically equal but written with
  /// other bytes (a decomposed é for a precomposed one) is not the name as written; long
  /// names (not held in place by String) compare all their bytes.
  @Test func aPropertyAsWrittenComparesBytesNotCanonicalEquality() {
    func reference(_ target: String, _ property: String) -> PropertyReference {
      let end = target.utf8.count
      return PropertyReference(
        target: Identifier(target, span: SourceSpan(start: 0, end: end)),
        property: Identifier(property, span: SourceSpan(start: end + 1, end: end + 1 + property.utf8.count)),
        span: SourceSpan(start: 0, end: end + 1 + property.utf8.count))
    }
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed)
    #expect(ResolvedProperty.isWritten(target: precomposed, property: "x", by: reference(precomposed, "x")))
    #expect(!ResolvedProperty.isWritten(target: precomposed, property: "x", by: reference(decomposed, "x")))
    #expect(!ResolvedProperty.isWritten(target: "t", property: decomposed, by: reference("t", precomposed)))
    let long = String(repeating: "panel", count: 8)
    #expect(ResolvedProperty.isWritten(target: long, property: long + "y", by: reference(long, long + "y")))
    #expect(!ResolvedProperty.isWritten(target: long, property: long + "y", by: reference(long, long + "z")))
  }

  @Test func literalsAndWrittenPropertiesAreReadNotKept() throws {
    let (program, messages) = checked(
      "target card { x: 0, tint: #ff8000 }\nat 2s animate card.x to 100 over 250ms with easeIn delay 1 * 2s\n")
    #expect(messages.isEmpty, "\(messages)")
    let (statement, animate) = try firstAnimate(program)
    // The literals: no entry, and their own values.
    for (expression, value) in [
      (animate.to, ConstantValue.number(100)), (try #require(animate.over), .duration(nanoseconds: 250_000_000)),
    ] {
      #expect(program.constants[expression.span] == nil)
      #expect(program.constant(of: expression) == value)
    }
    #expect(program.placements[statement.span] == nil)
    guard case .absolute(let offset) = program.placement(of: statement, in: .runsNow) else {
      Issue.record("expected 'at 2s' to be absolute")
      return
    }
    #expect(program.constant(of: offset) == .duration(nanoseconds: 2_000_000_000))
    // A folded constant is the checker's, kept.
    guard case .delay(let delay) = try #require(animate.options.first).kind else {
      Issue.record("expected the delay option")
      return
    }
    #expect(program.constants[delay.span] == .duration(nanoseconds: 2_000_000_000))
    // A preset curve named as written: no entry, and the preset's curve.
    let curve = try #require(animate.curve)
    #expect(program.constants[curve.span] == nil)
    #expect(program.constant(of: curve) == .curve(.easeIn))
    // `card.x` as written: no entry, and the checker's property.
    #expect(program.references[animate.property.span] == nil)
    #expect(program.resolved.property(animate.property)?.name == "card.x")
    #expect(program.resolved.property(animate.property)?.target == "card")
    // The only entry left: the folded delay (no reference; no placement: neither statement
    // is placed at a label).
    #expect(program.constants.count == 1)
    #expect(program.references.count == 0)
    #expect(program.placements.count == 0)
  }

  /// A preset's name that a declaration shadows is recorded, reference and constant, so
  /// that it is not read as the preset; one named as written in a statement streamed alone
  /// leaves it with no facts at all.
  @Test func aShadowedPresetNameIsKeptAndAWrittenOneIsNot() throws {
    for (declaration, reference) in [
      ("curve easeIn = cubic(0.1, 0.2, 0.3, 1)", Reference.curve("easeIn")),
      ("let easeIn = linear", Reference.value("easeIn")),
    ] {
      let (program, messages) = checked(
        "target card { x: 0 }\n\(declaration)\nanimate card.x to 100 over 250ms with easeIn\n")
      #expect(messages.allSatisfy { $0.contains("shadows") }, "\(messages)")
      let (_, animate) = try firstAnimate(program)
      let curve = try #require(animate.curve)
      guard case .name(let name) = curve.kind else {
        Issue.record("expected a name")
        return
      }
      #expect(program.references[name.span] == reference)
      #expect(program.resolved.preset(named: name) == nil)
      #expect(program.constant(of: curve) != .curve(.easeIn))
      #expect(program.constant(of: curve) != nil)
    }
    var reader = CheckedStatementReader(
      SourceText(name: "eased.anim", contents: "target t { y: 0 }\nanimate t.y to 1 over 250ms with easeInOut\n"))
    _ = reader.next()
    let next = reader.next()
    let eased = try #require(next)
    #expect(eased.facts.isEmpty)
    #expect(!eased.hasFacts)
  }

  @Test func aPlacedAnimationStreamedHoldsNoFacts() throws {
    var reader = CheckedStatementReader(
      SourceText(name: "placed.anim", contents: "target t { y: 0 }\nat 2s animate t.y to 1 over 250ms\n"))
    let target = reader.next()
    #expect(target != nil)
    let next = reader.next()
    let placed = try #require(next)
    #expect(placed.facts.constants.count == 0)
    #expect(placed.facts.references.count == 0)
    #expect(placed.facts.placements.count == 0)
    #expect(placed.facts.isEmpty)
    let end = reader.next()
    #expect(end == nil)
    guard case .clean = reader.finish() else {
      Issue.record("expected a clean reading")
      return
    }
  }

  /// A placement as written, in each kind of body (grammar.md § Placement): no placement is
  /// "when it runs" at the top level and in a handler, "at the end so far" in a timeline or
  /// `sequence`, "with the group" in a `parallel`; `at +D` is after the end so far where
  /// there is one, else `at D`; `at D` and `with previous` are themselves everywhere.
  @Test func aPlacementAsWrittenInEachBody() throws {
    let source = SourceText(
      name: "placements.anim",
      contents: "timeline t {\n  print \"a\"\n  at +1s print \"b\"\n  at 2s print \"c\"\n"
        + "  with previous print \"d\"\n}\n")
    let timeline = try #require(parse(source).file.statements.first)
    guard case .timeline(let declaration) = timeline.kind else { throw CancellationError() }
    let items = declaration.body.statements
    #expect(items.count == 4)
    guard case .at(_, let plusOne, _)? = items[1].placement, case .at(_, let two, _)? = items[2].placement else {
      throw CancellationError()
    }
    func written(_ index: Int, _ body: PlacementBody) -> ResolvedPlacement {
      ResolvedPlacement(written: items[index], in: body)
    }
    #expect(written(0, .runsNow) == .now)
    #expect(written(0, .appends) == .appended)
    #expect(written(0, .parallel) == .now)
    #expect(written(1, .runsNow) == .absolute(plusOne))
    #expect(written(1, .appends) == .relative(.plus, plusOne))
    #expect(written(1, .parallel) == .relative(.plus, plusOne))
    for body in [PlacementBody.runsNow, .appends, .parallel] {
      #expect(written(2, body) == .absolute(two))
      #expect(written(3, body) == .withPrevious)
    }
  }

  /// The checker keeps a placement only at a label (whether `at NAME` names a label is not
  /// in the syntax); every other one is the placement as written.
  @Test func onlyALabelsPlacementIsKept() throws {
    let (program, messages) = checked(
      "target a { x: 0 }\ntimeline t {\n  label mark at 1s\n  at mark + 1s set a.x to 1\n"
        + "  parallel {\n    at +1s set a.x to 2\n    set a.x to 3\n  }\n}\nat +2s play t\n")
    #expect(messages.isEmpty, "\(messages)")
    guard case .timeline(let declaration) = program.file.statements[1].kind else { throw CancellationError() }
    let items = declaration.body.statements
    #expect(program.placements.count == 1)
    #expect(program.placements[items[1].span]?.isLabelPlacement == true)
    guard case .group(let group) = items[2].kind else { throw CancellationError() }
    guard case .at(_, let plusOne, _)? = group.body.statements[0].placement else { throw CancellationError() }
    #expect(program.placement(of: group.body.statements[0], in: .parallel) == .relative(.plus, plusOne))
    #expect(program.placement(of: group.body.statements[1], in: .parallel) == .now)
    guard case .at(_, let plusTwo, _)? = program.file.statements[2].placement else { throw CancellationError() }
    #expect(program.placement(of: program.file.statements[2], in: .runsNow) == .absolute(plusTwo))
  }
}
