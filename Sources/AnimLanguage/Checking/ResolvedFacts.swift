// ResolvedFacts: what the checker resolved about an input that running it reads, and all
// the runtime keeps of a check: each constant expression's value, what each name refers to,
// each statement's placement. A program the runtime runs keeps one for the whole input; a
// script run statement by statement (`CheckedStatementReader`) one for each statement it
// keeps (a timeline, a handler, a statement placed later), and nothing of the others.

/// The constants, references and placements of an input's (or one statement's) nodes.
package struct ResolvedFacts: Sendable {
  /// The value of every expression that is constant, by the expression's span; a literal's
  /// is not kept (it is the literal: `constant(of:)` reads it from the node, WrittenFacts.swift).
  package var constants: SpanTable<ConstantValue>
  /// What each name refers to, by the span of the name (for `T.p`, of the whole reference);
  /// the property a statement's `T.p` names is kept only when it is not `T.p` as written
  /// (`property(_:)` reads it from the node).
  package var references: SpanTable<Reference>
  /// The placement of every statement whose placement its syntax does not say (at a
  /// label), by the statement's span (`placement(of:in:)` reads the others from the node).
  package var placements: SpanTable<ResolvedPlacement>

  package init(
    constants: SpanTable<ConstantValue> = SpanTable(), references: SpanTable<Reference> = SpanTable(),
    placements: SpanTable<ResolvedPlacement> = SpanTable()
  ) {
    self.constants = constants
    self.references = references
    self.placements = placements
  }

  /// A view of `shared`, which may grow (`SpanEntries`).
  package init(sharing shared: SharedFacts) {
    self.init(
      constants: SpanTable(sharing: shared.constants), references: SpanTable(sharing: shared.references),
      placements: SpanTable(sharing: shared.placements))
  }

  /// Whether no fact is kept: a statement whose facts its syntax says all holds nothing.
  package var isEmpty: Bool { constants.count == 0 && references.count == 0 && placements.count == 0 }

  /// The constant value of `expression`, when it has one: a literal's own value, the
  /// checker's, or the curve of a preset's name (`preset(named:)`).
  package func constant(of expression: Expression) -> ConstantValue? {
    if let literal = ConstantValue(literal: expression) { return literal }
    if let constant = constants[expression.span] { return constant }
    guard case .name(let name) = expression.kind, let preset = preset(named: name) else { return nil }
    return preset.constant
  }

  /// The preset curve a name is, when it is one: a preset's name that the checker recorded
  /// no reference for (a `let`, a `curve` or a local of that name shadows it, and is
  /// recorded). The checker records nothing for a preset named as written.
  package func preset(named name: Identifier) -> CurvePreset? {
    // (The table first: any other name has an entry there.)
    guard references[name.span] == nil else { return nil }
    return Predeclared.curve(named: name.text)
  }

  /// The placement of `statement`, an item of `body`: the checker's, when it recorded one
  /// (a label's), else the placement as written (WrittenFacts.swift).
  package func placement(of statement: Statement, in body: PlacementBody) -> ResolvedPlacement {
    placements[statement.span] ?? ResolvedPlacement(written: statement, in: body)
  }

  /// The property a statement names (`animate T.p`, `set T.p`, `pause T.p`, `on start T.p`):
  /// the checker's, when it recorded one, else `T.p` as written. (The runtime runs only
  /// inputs that checked clean, in which every such reference resolved.)
  package func property(_ reference: PropertyReference) -> ResolvedProperty? {
    switch references[reference.span] {
    case .property(let property)?: return property
    case nil: return ResolvedProperty(written: reference)
    default: return nil
    }
  }

  /// Whether the property `reference` names is `T.p` as written (`property(_:)` reads it from
  /// the node): the runtime then finds it by the reference's two words, with no name made.
  package func namesPropertyAsWritten(_ reference: PropertyReference) -> Bool {
    references[reference.span] == nil
  }

  /// The timeline a control statement or handler names.
  package func timeline(_ name: Identifier) -> String? {
    guard case .timeline(let timeline)? = references[name.span] else { return nil }
    return timeline
  }
}

/// The facts of many statements of one input, in one list of each kind (see `SpanEntries`).
package final class SharedFacts: Sendable {
  package let constants = SpanEntries<ConstantValue>()
  package let references = SpanEntries<Reference>()
  package let placements = SpanEntries<ResolvedPlacement>()

  package init() {}

  /// Adds a statement's facts, that statement after those added so far.
  package func append(_ facts: ResolvedFacts) {
    constants.append(facts.constants)
    references.append(facts.references)
    placements.append(facts.placements)
  }
}
