// ResolvedFacts: what the checker resolved about an input that running it reads, and all
// the runtime keeps of a check: each constant expression's value, what each name refers to,
// each statement's placement. A program the runtime runs keeps one for the whole input; a
// script run statement by statement (`CheckedStatementReader`) one for each statement it
// keeps (a timeline, a handler, a statement placed later), and nothing of the others.

/// The constants, references and placements of an input's (or one statement's) nodes.
package struct ResolvedFacts: Sendable {
  /// The value of every expression that is constant, by the expression's span.
  package var constants: SpanTable<ConstantValue>
  /// What each name refers to, by the span of the name (for `T.p`, of the whole reference).
  package var references: SpanTable<Reference>
  /// The placement of every statement, by the statement's span.
  package var placements: SpanTable<ResolvedPlacement>

  package init(
    constants: SpanTable<ConstantValue> = SpanTable(), references: SpanTable<Reference> = SpanTable(),
    placements: SpanTable<ResolvedPlacement> = SpanTable()
  ) {
    self.constants = constants
    self.references = references
    self.placements = placements
  }

  /// The constant value of `expression`, when it has one.
  package func constant(of expression: Expression) -> ConstantValue? { constants[expression.span] }

  /// The placement of `statement`.
  package func placement(of statement: Statement) -> ResolvedPlacement? { placements[statement.span] }

  /// The property a statement names (`animate T.p`, `set T.p`, `pause T.p`, `on start T.p`).
  package func property(_ reference: PropertyReference) -> ResolvedProperty? {
    guard case .property(let property)? = references[reference.span] else { return nil }
    return property
  }

  /// The timeline a control statement or handler names.
  package func timeline(_ name: Identifier) -> String? {
    guard case .timeline(let timeline)? = references[name.span] else { return nil }
    return timeline
  }
}
