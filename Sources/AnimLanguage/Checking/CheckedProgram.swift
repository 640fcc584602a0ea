// CheckedProgram: what the checker learned about one input (or, for a script run statement
// by statement, one top-level statement), for the runtime. The syntax tree stays as the
// parser built it; the facts the runtime needs (each expression's type and constant value,
// what each name refers to, each curve's kind, each item's placement) are side tables
// keyed by the span of the node they describe (`SpanTable`). Within one input every
// expression has its own span, so a span names one node.

import AnimCore

/// One term of a label placement's offset: `+ 250ms` in `at landed + 250ms`.
package struct LabelOffset: Hashable, Sendable {
  package var sign: Sign
  package var expression: Expression

  package init(sign: Sign, expression: Expression) {
    self.sign = sign
    self.expression = expression
  }
}

/// Where an item starts, decided by the checker.
package enum ResolvedPlacement: Hashable, Sendable {
  /// No placement, inside a timeline or group: at the end so far.
  case appended
  /// No placement, at the top level or in a handler: at the moment the statement runs.
  case now
  /// `at E`: a time of the enclosing timeline's (or group's) local time.
  case absolute(Expression)
  /// `at +E` / `at -E`: after / before the end so far.
  case relative(Sign, Expression)
  /// `with previous`.
  case withPrevious
  /// `at NAME`, `at NAME + D`, `at NAME - D1 + D2`: a label of the enclosing timeline plus
  /// the offsets, in order.
  case label(name: String, offsets: [LabelOffset])

  /// Whether the item is placed at a label.
  package var isLabelPlacement: Bool {
    if case .label = self { return true }
    return false
  }
}

/// A target's property, as the checker resolved it: `T.p` as events, traces and handlers
/// name it. The checker puts the name together for a `T.p` read in an expression; the one a
/// statement names is put together from the reference as written when it runs
/// (`ResolvedFacts.property(_:)`: kept by span, a script's held statements each held one).
/// (The name and where the target ends in it, not three strings: a script's facts hold one
/// of these for every property it reads.)
package struct ResolvedProperty: Hashable, Sendable {
  /// `T.p`.
  package let name: String
  /// The length of `T` in `name`, in UTF-8 bytes.
  private let targetLength: Int

  package init(target: String, property: String) {
    name = "\(target).\(property)"
    targetLength = target.utf8.count
  }

  /// `T`.
  package var target: String { String(decoding: name.utf8.prefix(targetLength), as: UTF8.self) }
  /// `p`.
  package var property: String { String(decoding: name.utf8.dropFirst(targetLength + 1), as: UTF8.self) }
}

/// What a name in the source refers to.
package enum Reference: Hashable, Sendable {
  /// A `let`, or a top-level `var`.
  case value(String)
  /// A loop variable or a `var` local to a handler's run, a loop's pass or an `if` branch.
  case local(String)
  /// A `curve` declaration.
  case curve(String)
  /// A predeclared curve (`easeIn`, `smooth`...).
  case presetCurve(CurvePreset)
  /// `T.p`: in an expression (by the span of the whole `T.p`), and where a statement names
  /// a property (`animate`, `keyframes`, `set`, a control's or handler's subject) that is not
  /// `T.p` as written (WrittenFacts.swift: with ASCII names, never).
  case property(ResolvedProperty)
  /// A timeline, where a control or handler names it (by the name's span).
  case timeline(String)
  /// `V.x` of a vector or `C.r` of a color (by the span of the whole member expression): the
  /// component's index, 0 to 3 (x y z w; r g b a).
  case component(Int)
  /// The function a call calls (by the callee's span).
  case function(BuiltinFunction)
  /// The curve constructor a call calls (by the callee's span).
  case curveConstructor(CurveConstructor)
  /// A label of the enclosing timeline.
  case label(String)
  /// A step position word in `steps(n, jumpNone)`.
  case stepPosition(StepPosition)
}

/// The result of checking one input: the tree, its diagnostics, and the facts the runtime
/// needs to run it.
public struct CheckedProgram: Sendable {
  /// The syntax tree that was checked.
  package var file: SourceFile
  /// Errors and warnings, in source order.
  package var diagnostics: [Diagnostic]
  /// The declarations visible after this input (the session's, with this input's added).
  package var environment: Environment
  /// The static type of every checked expression, by the expression's span.
  package var types: SpanTable<ValueType>
  /// The kind of every curve expression (after `with`, in a `curve` declaration, a curve
  /// `let`), by the expression's span.
  package var curveKinds: SpanTable<CurveKind>
  /// What running the input reads: its constants, references and placements.
  package var resolved: ResolvedFacts

  /// The value of every expression that is constant, by the expression's span.
  package var constants: SpanTable<ConstantValue> { resolved.constants }
  /// What each name refers to, by the span of the name (an `Identifier`'s or a `.name`
  /// expression's span; for `T.p` the span of the whole reference).
  package var references: SpanTable<Reference> { resolved.references }
  /// The placement of every statement placed at a label, by the statement's span.
  package var placements: SpanTable<ResolvedPlacement> { resolved.placements }

  /// Whether any diagnostic is an error (the input must not run).
  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The static type of `expression`, if it was checked.
  package func type(of expression: Expression) -> ValueType? { types[expression.span] }

  /// The constant value of `expression`, when it has one.
  package func constant(of expression: Expression) -> ConstantValue? { resolved.constant(of: expression) }

  /// The placement of `statement`, an item of `body`.
  package func placement(of statement: Statement, in body: PlacementBody) -> ResolvedPlacement {
    resolved.placement(of: statement, in: body)
  }
}
