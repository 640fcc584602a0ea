// Syntax: the tree the parser builds, for every form of the `.anim` language. Value types
// only; every node carries the `SourceSpan` of the text it came from so the checker can
// point at it and the formatter can find the comments around it.
//
// The tree keeps what the user wrote (parentheses, option order, string parts) and decides
// nothing about meaning: a curve is an ordinary expression, a placement's head is not yet
// known to be a label. The checker interprets; the formatter prints it back.

import AnimCore

// MARK: - File

/// A whole script: its statements in order and, on the side, its comments.
package struct SourceFile: Hashable, Sendable {
  package var statements: [Statement]
  package var comments: [Comment]
  package var span: SourceSpan

  package init(statements: [Statement], comments: [Comment], span: SourceSpan) {
    self.statements = statements
    self.comments = comments
    self.span = span
  }
}

/// A name as written: an identifier, or any word (keywords included) where the grammar
/// allows that (property names).
package struct Identifier: Hashable, Sendable {
  package var text: String
  package var span: SourceSpan

  package init(_ text: String, span: SourceSpan) {
    self.text = text
    self.span = span
  }
}

/// `T.p`: a property of a target, the subject of `animate`, `keyframes`, `set` and of
/// control statements and handlers.
package struct PropertyReference: Hashable, Sendable {
  package var target: Identifier
  /// The member's index, for one member of a group (`dots[i].y`); nil for a plain target
  /// or for every member of a group (`dots.y`).
  package var index: Expression?
  package var property: Identifier
  package var span: SourceSpan

  package init(target: Identifier, index: Expression? = nil, property: Identifier, span: SourceSpan) {
    self.target = target
    self.index = index
    self.property = property
    self.span = span
  }
}

/// What a control statement or an `on complete|start|repeat` handler acts on: a name (a
/// timeline, as the checker will confirm) or a property `T.p`.
package enum Subject: Hashable, Sendable {
  case name(Identifier)
  case property(PropertyReference)

  package var span: SourceSpan {
    switch self {
    case .name(let identifier): return identifier.span
    case .property(let reference): return reference.span
    }
  }
}

/// `{ statements }`: the body of a timeline, a group or a handler. The span runs from `{`
/// to `}` inclusive.
package struct Block: Hashable, Sendable {
  package var statements: [Statement]
  package var span: SourceSpan

  package init(statements: [Statement], span: SourceSpan) {
    self.statements = statements
    self.span = span
  }
}

// MARK: - Statements

/// One statement or timeline item, with its optional placement prefix.
///
/// The span covers the whole statement, placement included.
package struct Statement: Hashable, Sendable {
  /// `at E`, `at +E`, `at -E` or `with previous` before an item; nil when none was written.
  package var placement: Placement?
  package var kind: StatementKind
  package var span: SourceSpan

  package init(placement: Placement? = nil, kind: StatementKind, span: SourceSpan) {
    self.placement = placement
    self.kind = kind
    self.span = span
  }
}

/// Where an item starts, as written before it.
package enum Placement: Hashable, Sendable {
  /// `at E ITEM` (sign nil), `at +E ITEM` or `at -E ITEM`. Only a sign written right after
  /// `at` makes it relative; `at landed + 250ms` is `at(nil, landed + 250ms)` and the checker
  /// decides whether the expression's head names a label.
  case at(relativeSign: Sign?, offset: Expression, span: SourceSpan)
  /// `with previous ITEM`.
  case withPrevious(span: SourceSpan)

  package var span: SourceSpan {
    switch self {
    case .at(_, _, let span): return span
    case .withPrevious(let span): return span
    }
  }
}

/// The sign of a relative placement.
package enum Sign: String, Hashable, Sendable {
  case plus = "+"
  case minus = "-"
}

/// Every kind of statement.
package indirect enum StatementKind: Hashable, Sendable {
  /// `let NAME = EXPR`
  case letBinding(LetDeclaration)
  /// `curve NAME = EXPR`
  case curve(CurveDeclaration)
  /// `target NAME { prop: EXPR, ... }`
  case target(TargetDeclaration)
  /// `timeline NAME [OPTIONS] { ITEMS }`
  case timeline(TimelineDeclaration)
  /// `animate T.p [from E] to E [over E] [with CURVE] [OPTIONS]`
  case animate(AnimateStatement)
  /// `keyframes T.p [over E] [OPTIONS] { POS: E [with CURVE], ... }`
  case keyframes(KeyframesStatement)
  /// `set T.p to E`
  case set(SetStatement)
  /// `print STRING`
  case print(StringLiteral)
  /// `emit STRING`
  case emit(StringLiteral)
  /// `on complete|start|repeat SUBJECT { ... }` and `on "name" { ... }`
  case handler(EventHandler)
  /// `play X`, `pause [X]`, `resume [X]`, `reverse [X]`, `seek X to E`, `speed X E`,
  /// `finish X`, `cancel X`
  case control(ControlStatement)
  /// `wait E`
  case wait(Expression)
  /// `label NAME [at E]`
  case label(LabelStatement)
  /// `sequence [OPTIONS] { ITEMS }` and `parallel [OPTIONS] { ITEMS }`
  case group(GroupStatement)
  /// A timeline placed in another with options (`intro speed 2 repeat 2`); a bare name in a
  /// timeline (`at 1s intro`) is an `expression` that the checker finds names a timeline.
  case nested(NestedTimeline)
  /// `var NAME = EXPR`.
  case variable(VariableDeclaration)
  /// `NAME = EXPR`, to a `var`.
  case assignment(Assignment)
  /// `for NAME in A..<B { ... }` or `A...B`.
  case loop(ForLoop)
  /// `if C { ... } else if C { ... } else { ... }`.
  case conditional(Conditional)
  /// A bare expression; the REPL prints its value.
  case expression(Expression)
}

/// A timeline placed as an item of another, with options of its own on top of its
/// declaration's.
package struct NestedTimeline: Hashable, Sendable {
  package var name: Identifier
  package var options: [TimingOption]

  package init(name: Identifier, options: [TimingOption]) {
    self.name = name
    self.options = options
  }
}

/// `var NAME = EXPR`: a variable whose type is its first value's.
package struct VariableDeclaration: Hashable, Sendable {
  package var name: Identifier
  package var value: Expression

  package init(name: Identifier, value: Expression) {
    self.name = name
    self.value = value
  }
}

/// `NAME = EXPR`.
package struct Assignment: Hashable, Sendable {
  package var name: Identifier
  package var value: Expression

  package init(name: Identifier, value: Expression) {
    self.name = name
    self.value = value
  }
}

/// `for NAME in LOWER..<UPPER { ... }` (`closed`: `LOWER...UPPER`).
package struct ForLoop: Hashable, Sendable {
  package var variable: Identifier
  package var lower: Expression
  package var upper: Expression
  /// Whether the range includes its upper bound (`...`) or not (`..<`).
  package var closed: Bool
  package var body: Block

  package init(variable: Identifier, lower: Expression, upper: Expression, closed: Bool, body: Block) {
    self.variable = variable
    self.lower = lower
    self.upper = upper
    self.closed = closed
    self.body = body
  }
}

/// `if C { ... } else if C { ... } else { ... }`: the first branch whose condition holds runs.
package struct Conditional: Hashable, Sendable {
  package struct Branch: Hashable, Sendable {
    package var condition: Expression
    package var body: Block

    package init(condition: Expression, body: Block) {
      self.condition = condition
      self.body = body
    }
  }

  /// The `if` and each `else if`, in order.
  package var branches: [Branch]
  package var otherwise: Block?

  package init(branches: [Branch], otherwise: Block?) {
    self.branches = branches
    self.otherwise = otherwise
  }
}

/// `let NAME = EXPR`
package struct LetDeclaration: Hashable, Sendable {
  package var name: Identifier
  package var value: Expression

  package init(name: Identifier, value: Expression) {
    self.name = name
    self.value = value
  }
}

/// `curve NAME = EXPR` (the expression is a curve name or a call such as `cubic(...)`).
package struct CurveDeclaration: Hashable, Sendable {
  package var name: Identifier
  package var value: Expression

  package init(name: Identifier, value: Expression) {
    self.name = name
    self.value = value
  }
}

/// `target NAME { prop: EXPR, ... }`
package struct TargetDeclaration: Hashable, Sendable {
  package var name: Identifier
  /// A group's member count (`target dots[12] { ... }`); nil for a single target.
  package var count: Expression?
  /// How a stage draws it (`target card: circle { ... }`); nil when not written (a rect).
  package var kind: TargetKind?
  package var properties: [PropertyInitializer]
  /// From `{` to `}`.
  package var bodySpan: SourceSpan

  package init(
    name: Identifier, count: Expression? = nil, kind: TargetKind? = nil, properties: [PropertyInitializer],
    bodySpan: SourceSpan
  ) {
    self.name = name
    self.count = count
    self.kind = kind
    self.properties = properties
    self.bodySpan = bodySpan
  }
}

/// What a target is drawn as: `rect` (the default), `circle`, `text "..."` (its
/// interpolations read each frame) or `none` (a holder of values, not drawn).
package enum TargetKind: Hashable, Sendable {
  case rect(SourceSpan)
  case circle(SourceSpan)
  case text(StringLiteral, span: SourceSpan)
  case none(SourceSpan)

  /// The kind as `fmt` writes it.
  package var word: String {
    switch self {
    case .rect: return "rect"
    case .circle: return "circle"
    case .text: return "text"
    case .none: return "none"
    }
  }
}

/// `prop: EXPR` inside a target's braces; any word is a property name there.
package struct PropertyInitializer: Hashable, Sendable {
  package var name: Identifier
  package var value: Expression
  package var span: SourceSpan

  package init(name: Identifier, value: Expression, span: SourceSpan) {
    self.name = name
    self.value = value
    self.span = span
  }
}

/// `timeline NAME [OPTIONS] { ITEMS }`
package struct TimelineDeclaration: Hashable, Sendable {
  package var name: Identifier
  package var options: [TimingOption]
  package var body: Block

  package init(name: Identifier, options: [TimingOption], body: Block) {
    self.name = name
    self.options = options
    self.body = body
  }
}

/// `animate T.p [from E] to E [over E] [with CURVE] [OPTIONS]`
package struct AnimateStatement: Hashable, Sendable {
  package var property: PropertyReference
  package var from: Expression?
  package var to: Expression
  package var over: Expression?
  /// The expression after `with`: a curve name or a call.
  package var curve: Expression?
  package var options: [TimingOption]
  /// The stagger clause, last (a statement on a whole group).
  package var stagger: StaggerClause? {
    get { boxedStagger?.clause }
    set { boxedStagger = newValue.map(StaggerBox.init) }
  }
  /// Whether it has a stagger clause, asked without copying the clause out (the runtime asks
  /// at every `animate`).
  package var hasStagger: Bool { boxedStagger != nil }
  private var boxedStagger: StaggerBox?

  package init(
    property: PropertyReference, from: Expression?, to: Expression, over: Expression?,
    curve: Expression?, options: [TimingOption], stagger: StaggerClause? = nil
  ) {
    self.property = property
    self.from = from
    self.to = to
    self.over = over
    self.curve = curve
    self.options = options
    self.boxedStagger = stagger.map(StaggerBox.init)
  }
}

/// `keyframes T.p [over E] [OPTIONS] { POS: E [with CURVE], ... }`
package struct KeyframesStatement: Hashable, Sendable {
  package var property: PropertyReference
  package var over: Expression?
  package var options: [TimingOption]
  /// The stagger clause, before the braces (a statement on a whole group).
  package var stagger: StaggerClause? {
    get { boxedStagger?.clause }
    set { boxedStagger = newValue.map(StaggerBox.init) }
  }
  private var boxedStagger: StaggerBox?
  package var keyframes: [Keyframe]
  /// From `{` to `}`.
  package var bodySpan: SourceSpan

  package init(
    property: PropertyReference, over: Expression?, options: [TimingOption], stagger: StaggerClause? = nil,
    keyframes: [Keyframe], bodySpan: SourceSpan
  ) {
    self.property = property
    self.over = over
    self.options = options
    self.boxedStagger = stagger.map(StaggerBox.init)
    self.keyframes = keyframes
    self.bodySpan = bodySpan
  }
}

/// `POS: E [with CURVE]` where POS is a percent literal (`40%`, an `ExpressionKind.percent`)
/// or a duration expression; the checker requires one kind per track.
package struct Keyframe: Hashable, Sendable {
  package var position: Expression
  package var value: Expression
  /// The curve of the segment that ends at this keyframe.
  package var curve: Expression?
  package var span: SourceSpan

  package init(position: Expression, value: Expression, curve: Expression?, span: SourceSpan) {
    self.position = position
    self.value = value
    self.curve = curve
    self.span = span
  }
}

/// `set T.p to E`
package struct SetStatement: Hashable, Sendable {
  package var property: PropertyReference
  package var value: Expression

  package init(property: PropertyReference, value: Expression) {
    self.property = property
    self.value = value
  }
}

/// `on EVENT { STATEMENTS }`
package struct EventHandler: Hashable, Sendable {
  package var event: EventSelector
  package var body: Block

  package init(event: EventSelector, body: Block) {
    self.event = event
    self.body = body
  }
}

/// What an `on` handler listens to.
package enum EventSelector: Hashable, Sendable {
  /// `on complete|start|repeat SUBJECT`; `kindSpan` is the span of the event word.
  case lifecycle(kind: LifecycleEvent, kindSpan: SourceSpan, subject: Subject)
  /// `on "name"`: a script event sent by `emit`.
  case custom(StringLiteral)
}

/// The engine's own events.
package enum LifecycleEvent: String, Hashable, Sendable, CaseIterable {
  case complete, start, `repeat`
}

/// A control statement: an action, what it acts on, and its argument.
package struct ControlStatement: Hashable, Sendable {
  package var action: ControlAction
  /// Nil only for `pause`, `resume` and `reverse` written without a subject (all of them).
  package var subject: Subject?
  /// `seek X to E`: E; `speed X E`: E; `play X from A to B`: B; `pause X at A`: A; `tween X
  /// to A over D`: A; nil for the others.
  package var argument: Expression?
  /// `play X from A [to B]`: A.
  package var from: Expression?
  /// `tween X to A over D [with CURVE]`: D and CURVE.
  package var over: Expression?
  package var curve: Expression?

  package init(
    action: ControlAction, subject: Subject?, argument: Expression?, from: Expression? = nil,
    over: Expression? = nil, curve: Expression? = nil
  ) {
    self.action = action
    self.subject = subject
    self.argument = argument
    self.from = from
    self.over = over
    self.curve = curve
  }
}

/// The control verbs.
package enum ControlAction: String, Hashable, Sendable, CaseIterable {
  case play, pause, resume, reverse, seek, speed, finish, cancel, tween

  /// Whether the subject may be left out (acting on everything).
  package var subjectIsOptional: Bool {
    self == .pause || self == .resume || self == .reverse
  }
}

/// `label NAME [at E]`
package struct LabelStatement: Hashable, Sendable {
  package var name: Identifier
  package var at: Expression?

  package init(name: Identifier, at: Expression?) {
    self.name = name
    self.at = at
  }
}

/// `sequence [OPTIONS] { ITEMS }` or `parallel [OPTIONS] { ITEMS }`
package struct GroupStatement: Hashable, Sendable {
  package var kind: GroupKind
  package var options: [TimingOption]
  package var body: Block

  package init(kind: GroupKind, options: [TimingOption], body: Block) {
    self.kind = kind
    self.options = options
    self.body = body
  }
}

package enum GroupKind: String, Hashable, Sendable {
  case sequence, parallel
}

// MARK: - Options

/// A stagger clause in a box of its own, as `animate` and `keyframes` hold it: the clause is
/// five optional expressions and an origin, about 170 bytes inline, and nearly every
/// statement has none; a large script's statements held until they run (placed later, in
/// timelines and handlers) are held by the hundred thousand, each with one word for it.
private final class StaggerBox: Hashable, Sendable {
  let clause: StaggerClause

  init(_ clause: StaggerClause) { self.clause = clause }

  static func == (a: StaggerBox, b: StaggerBox) -> Bool { a.clause == b.clause }

  func hash(into hasher: inout Hasher) { hasher.combine(clause) }
}

/// `stagger [STEP] [from ORIGIN] [total D] [with CURVE] [grid (C, R)]`: how a statement on a
/// whole group delays each member.
package struct StaggerClause: Hashable, Sendable {
  /// The delay per unit of distance from the origin; nil when `total` gives it.
  package var step: Expression?
  package var origin: StaggerOrigin
  package var total: Expression?
  /// The distribution curve.
  package var curve: Expression?
  /// `grid (C, R)`: the vector expression of columns and rows.
  package var grid: Expression?
  package var span: SourceSpan

  package init(
    step: Expression?, origin: StaggerOrigin, total: Expression?, curve: Expression?, grid: Expression?,
    span: SourceSpan
  ) {
    self.step = step
    self.origin = origin
    self.total = total
    self.curve = curve
    self.grid = grid
    self.span = span
  }
}

/// Where a stagger's distances are measured from.
package enum StaggerOrigin: Hashable, Sendable {
  /// `from start` (the default: the span is nil when no origin was written), `from end`,
  /// `from center`, `from edges`.
  case start(SourceSpan?)
  case end(SourceSpan)
  case center(SourceSpan)
  case edges(SourceSpan)
  /// `from N`: one member.
  case member(Expression)
  /// `from random(SEED)`: a seeded shuffle.
  case random(seed: Expression, span: SourceSpan)
}

/// One OPTION of an animation, keyframe track, timeline or group, in the order written
/// (the checker reports duplicates; the formatter keeps the order).
package struct TimingOption: Hashable, Sendable {
  package var kind: TimingOptionKind
  package var span: SourceSpan

  package init(kind: TimingOptionKind, span: SourceSpan) {
    self.kind = kind
    self.span = span
  }
}

package enum TimingOptionKind: Hashable, Sendable {
  /// `delay E`
  case delay(Expression)
  /// `repeat E`
  case `repeat`(Expression)
  /// `repeat forever`
  case repeatForever
  /// `autoreverse`
  case autoreverse
  /// `speed E`
  case speed(Expression)
  /// `fill none|forwards|backwards|both`: the engine's own fill modes.
  case fill(FillMode)
  /// `merge replace`
  case merge(MergeMode)
}

package enum MergeMode: String, Hashable, Sendable, CaseIterable {
  case replace
}

// MARK: - Expressions

/// An expression and its span.
package struct Expression: Hashable, Sendable {
  package var kind: ExpressionKind
  package var span: SourceSpan

  package init(_ kind: ExpressionKind, span: SourceSpan) {
    self.kind = kind
    self.span = span
  }
}

// Literals, `now` and vectors (an array is a reference already) are held in the expression
// itself; the other cases in a box of their own (`indirect`), so that an expression stays a
// few words: a script's tree holds hundreds of thousands of literals, each one allocation
// fewer this way.
package enum ExpressionKind: Hashable, Sendable {
  /// `12`, `3.5`, `.5`, `1e3`, `1_000` (always finite).
  case number(Double)
  /// `250ms`, `1.5s`: exact nanoseconds.
  case duration(nanoseconds: Int64)
  /// `40%`: the number before the sign (40).
  case percent(Double)
  /// `#rgb`, `#rrggbb`, `#rrggbbaa`.
  case color(ColorLiteral)
  /// `"text {expr}"`.
  indirect case string(StringLiteral)
  /// `(a, b)`, `(a, b, c)`, `(a, b, c, d)`; more than 4 components is a syntax error (the
  /// vector is still kept in the tree).
  case vector([Expression])
  /// `( E )`, kept so the formatter keeps the user's parentheses.
  indirect case parenthesized(Expression)
  /// A name: a `let`, a curve, a target, a preset, a contextual word such as `jumpEnd`.
  indirect case name(Identifier)
  /// `true` or `false`.
  case boolean(Bool)
  /// One member of a group: `dots[i]` (read through `.p`).
  indirect case index(base: Identifier, index: Expression)
  /// `E.name`: `card.angle`, `card.position.x` (any word is allowed after the dot).
  indirect case member(base: Expression, name: Identifier)
  /// `now`
  case now
  /// `f(args)`: `cubic(0.2, 0.9, 0.1, 1)`, `spring(response: 0.5, dampingFraction: 0.45)`.
  indirect case call(callee: Identifier, arguments: [Argument])
  /// `-E`
  indirect case negate(Expression)
  /// `not E`
  indirect case not(Expression)
  /// `E op E`
  indirect case binary(BinaryOperator, Expression, Expression)
  /// Stands where a syntax error was reported, so the tree stays whole.
  case invalid
}

/// A call argument, with its optional label (`response: 0.5`).
package struct Argument: Hashable, Sendable {
  package var label: Identifier?
  package var value: Expression
  package var span: SourceSpan

  package init(label: Identifier?, value: Expression, span: SourceSpan) {
    self.label = label
    self.value = value
    self.span = span
  }
}

package enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case equal = "=="
  case notEqual = "!="
  case and
  case or

  /// Whether the operator compares two values (a boolean result).
  package var isComparison: Bool {
    switch self {
    case .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual: return true
    default: return false
    }
  }

  /// Whether the operator joins two booleans.
  package var isLogical: Bool { self == .and || self == .or }
}

/// A string literal: text parts (escapes decoded) and interpolated expressions, in order.
package struct StringLiteral: Hashable, Sendable {
  package var parts: [StringPart]
  /// From the opening to the closing quote, inclusive.
  package var span: SourceSpan

  package init(parts: [StringPart], span: SourceSpan) {
    self.parts = parts
    self.span = span
  }

  /// The text when the literal has no interpolation (an event name), else nil.
  package var plainText: String? {
    var text = ""
    for part in parts {
      switch part {
      case .text(let piece, _): text += piece
      case .interpolation: return nil
      }
    }
    return text
  }
}

package enum StringPart: Hashable, Sendable {
  /// Literal text with its escapes decoded, and the span of its source bytes.
  case text(String, SourceSpan)
  /// `{expr}`; the expression's span excludes the braces.
  case interpolation(Expression)
}

/// A color literal's channels, each 0...255 (straight alpha, as written).
package struct ColorLiteral: Hashable, Sendable {
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8
  package var alpha: UInt8

  package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }
}
