// WrittenFacts: the facts about a node that its syntax already says, which `ResolvedFacts`
// reads from the node instead of keeping them by span.
//
// A script run statement by statement keeps, for every statement it holds for later (a
// hundred thousand `at`-placed `animate`s, a hundred thousand timelines), that statement's
// facts, and a script read whole keeps a table of every node's. Most of those entries say
// nothing the tree does not: the constant of a literal (`250ms`, `1`, `#ff8000`, `true`,
// `40%`) is the literal, the property `card.x` names is `card.x`, a preset's name
// (`with easeInOut`) is the preset when nothing declared shadows it (a shadowing name is
// recorded: `ResolvedFacts.preset(named:)`), and a placement is the one written (`at 2s`,
// `at +1s`, `with previous`, none) read in its kind of body. Kept by span, each took an
// entry (a table's bucket, a color's box) and made a statement's facts
// non-empty, so that each held statement had tables and a context of its own. Read from the
// syntax, they take nothing; the checker records only what the syntax does not say (folded
// constants, which name a word refers to, a placement at a label).

import AnimCore

extension ConstantValue {
  /// The value of a literal, as the checker types it: a number, a duration, a color (its
  /// channels in 0...255, its alpha in 0...1), a boolean, a percent (a keyframe position);
  /// nil for any other expression (a string, a vector, a name, arithmetic), whose constant,
  /// if any, is the checker's to record.
  package init?(literal expression: Expression) {
    switch expression.kind {
    case .number(let value): self = .number(value)
    case .duration(let nanoseconds): self = .duration(nanoseconds: nanoseconds)
    case .percent(let value): self = .percent(value)
    case .color(let color):
      self = .color(
        red: Double(color.red), green: Double(color.green), blue: Double(color.blue),
        alpha: Double(color.alpha) / 255)
    case .boolean(let value): self = .boolean(value)
    default: return nil
    }
  }
}

extension ConstantValue {
  /// Whether this is the constant `expression` has as written (`ConstantValue(literal:) ==
  /// self`), compared case by case with no constant made: the checker asks it of every
  /// expression it types, to record only what the syntax does not say, and making the
  /// literal's constant to compare took a copy and a destruction of each (a `let` of a
  /// million-line script of them asks it five times).
  func isWritten(by expression: Expression) -> Bool {
    switch (expression.kind, self) {
    case (.number(let written), .number(let value)): written == value
    case (.duration(let written), .duration(let value)): written == value
    case (.boolean(let written), .boolean(let value)): written == value
    case (.percent(let written), .percent(let value)): written == value
    case (.color, .color): ConstantValue(literal: expression) == self
    default: false
    }
  }
}

extension ResolvedProperty {
  /// The property `reference` names as written: `T.p` from its target's and its property's
  /// words (for a member `G[i].p`, the group's `G.p`, as the checker resolves it).
  package init(written reference: PropertyReference) {
    self.init(target: reference.target.text, property: reference.property.text)
  }

  /// Whether `target.property` is the property `reference` names as written, byte for byte
  /// (the runtime finds a property by its name's bytes), so that the checker need not record
  /// it. (Compared by parts, with no name put together: `anim check`, which records nothing,
  /// asks it of every `T.p`; neither part can hold a `.`.)
  package static func isWritten(target: String, property: String, by reference: PropertyReference) -> Bool {
    hasSameBytes(target, reference.target.text) && hasSameBytes(property, reference.property.text)
  }
}

/// The kind of body an item is placed in, which decides what its placement as written
/// means: where an item without one starts, and whether `at +E` is after an end so far.
package enum PlacementBody: Sendable {
  /// The top level or a handler: an item without placement starts when it runs, and there
  /// is no end so far (`at +E` is `at E`).
  case runsNow
  /// A timeline or a `sequence` group: an item without placement is appended at the end so
  /// far.
  case appends
  /// A `parallel` group: an item without placement starts with the group; it has an end
  /// so far.
  case parallel

  /// Whether the body has an end so far (a timeline or a group), after which `at +E`
  /// places.
  var hasEndSoFar: Bool { self != .runsNow }
}

extension ResolvedPlacement {
  /// The placement `statement` has as written in `body`, as the checker decides it
  /// (`resolvePlacement`) for every placement but a label's (`at NAME ± D`, which the
  /// checker records: whether a name is a label is not in the syntax).
  package init(written statement: Statement, in body: PlacementBody) {
    switch statement.placement {
    case nil: self = body == .appends ? .appended : .now
    case .withPrevious?: self = .withPrevious
    case .at(let sign?, let offset, _)?: self = body.hasEndSoFar ? .relative(sign, offset) : .absolute(offset)
    case .at(nil, let offset, _)?: self = .absolute(offset)
    }
  }
}
