// Checker: the static meaning of a parsed script. It resolves every name, types every
// expression, folds constants to check ranges, decides placements, and reports every
// problem it finds in one run. Expressions are in Checker+Expressions.swift, curves in
// Checker+Curves.swift, timelines, options and keyframes in Checker+Timelines.swift.
//
// Names are visible from their declaration on, in source order (a REPL session is read the
// same way); labels are visible throughout their timeline. An expression whose type cannot
// be known because of an error already reported has the type `.error`, which matches every
// expectation, so one mistake gives one message.

import AnimCore

/// Checks a parsed input against an environment.
///
/// - Parameters:
///   - file: the parsed input (check only a tree without syntax errors: statements with
///     syntax errors are missing from it, and their names would be reported as unknown).
///   - environment: the declarations visible to the input: empty for a script, the session's
///     for a REPL input. When the input has no errors, it is updated with the input's
///     declarations; with errors it is left unchanged (the REPL's "an error changes nothing").
///   - mode: `.script` (a second declaration of a name is an error) or `.session` (it
///     replaces the earlier one).
/// - Returns: the diagnostics and the facts the runtime needs.
package func check(
  _ file: SourceFile, in environment: inout Environment, mode: CheckMode, recordingTypes: Bool = true
) -> CheckedProgram {
  var checker = Checker(mode: mode, environment: environment, recordsFacts: true)
  checker.recordsTypes = recordingTypes
  checker.checkFile(file)
  let program = checker.program(for: file)
  if !program.hasErrors { environment = checker.environment }
  return program
}

/// Checks a whole script from an empty environment.
package func check(_ file: SourceFile) -> CheckedProgram {
  var environment = Environment()
  return check(file, in: &environment, mode: .script)
}

/// The statement list being checked, which decides what may appear in it and where an
/// item without placement starts.
enum Body: Equatable {
  /// The script's (or REPL input's) top level: the root timeline.
  case root
  /// A `timeline NAME { ... }`.
  case timeline
  /// A `sequence { ... }` or `parallel { ... }` inside a timeline.
  case group(GroupKind)
  /// An `on ... { ... }` handler.
  case handler

  /// Whether an item without placement is appended at the end so far.
  var appends: Bool {
    switch self {
    case .timeline, .group(.sequence): return true
    default: return false
    }
  }

  /// Whether this is a `sequence` or `parallel` group (which has an end so far of its own).
  var isGroup: Bool {
    if case .group = self { return true }
    return false
  }

  /// The body as its items' placements as written read it (`ResolvedPlacement(written:in:)`).
  var placementBody: PlacementBody {
    switch self {
    case .root, .handler: return .runsNow
    case .timeline, .group(.sequence): return .appends
    case .group(.parallel): return .parallel
    }
  }

  /// How messages name the place: "inside a timeline".
  var description: String {
    switch self {
    case .root: return "at the top level"
    case .timeline: return "inside a timeline"
    case .group(let kind): return "inside a '\(kind.rawValue)'"
    case .handler: return "inside a handler"
    }
  }
}

struct Checker {
  let mode: CheckMode
  var environment: Environment
  var diagnostics: [Diagnostic] = []
  /// Whether the side tables below are filled. Diagnostics alone (`anim check`) do not need
  /// them, and on a large script they take more memory than the tree.
  let recordsFacts: Bool
  /// Whether, recording facts, the checker also records every expression's type and curve
  /// kind, which the runtime never reads (a REPL session's tools do). Off for a script read
  /// to be run statement by statement (`CheckedStatementReader`).
  var recordsTypes = true
  /// Set when the checker is fed a script one top-level statement at a time and knows
  /// nothing of the statements after the current one (see Checker+Streaming.swift).
  var streaming: StreamingState?
  /// How many timelines and handlers enclose the statement being checked: at 0, `labels`
  /// are the script's top-level labels.
  var labelScopeDepth = 0
  /// The local scopes around the statement being checked, innermost last: a handler's body,
  /// a loop's, an `if` branch's (empty at the top level of a script or a timeline).
  var localScopes: [[String: LocalSymbol]] = []
  /// The members of the groups declared so far (a script has at most a million).
  var groupMembers = 0
  /// The timeline whose body is being checked.
  var enclosingTimeline: String?
  /// Each timeline placed inside another: its parent and where.
  var childPlacements: [String: (parent: String, span: SourceSpan)] = [:]
  /// The properties of the target checked last, which the next one with the same
  /// properties shares.
  var lastPropertySymbols: [PropertySymbol] = []
  /// Each timeline's children, for finding cycles.
  var childrenOf: [String: Set<String>] = [:]
  /// Timelines started on the root by `play`, and where (a child cannot also be).
  var playedOnRoot: [String: SourceSpan] = [:]

  // The side tables of the `CheckedProgram`.
  var types: [SourceSpan: ValueType] = [:]
  var constants = FactRecorder<ConstantValue>()
  var references = FactRecorder<Reference>()
  var curveKinds: [SourceSpan: CurveKind] = [:]
  var placements = FactRecorder<ResolvedPlacement>()

  /// Top-level declarations of this input that the check has not reached yet, so a use
  /// before the declaration gets its own message rather than "unknown".
  var laterDeclarations: [String: SourceSpan] = [:]
  /// The labels of the timeline being checked (visible throughout it).
  var labels: [String: SourceSpan] = [:]
  /// The timelines this input declares, known before their declarations: a timeline name is
  /// visible throughout the input (as the subject of control statements and handlers), so
  /// a timeline may play one declared after it and a handler may come before its timeline.
  var upcomingTimelines: [String: TimelineSymbol] = [:]
  /// For `finish T.p`: whether the newest animation of each property, in a body that runs
  /// statement after statement, repeats forever.
  var newestAnimationRepeatsForever = NameTable<PropertyKey, Bool>()
  /// In a script, the names every `emit` sends, when all are plain strings (nil otherwise,
  /// and in a session, where a later input may emit): an `on "name"` that nothing emits
  /// never runs.
  var emittedEvents: Set<String>?

  init(mode: CheckMode, environment: Environment, recordsFacts: Bool, streaming: StreamingState? = nil) {
    self.mode = mode
    self.environment = environment
    self.recordsFacts = recordsFacts
    self.streaming = streaming
  }

  func program(for file: SourceFile) -> CheckedProgram {
    CheckedProgram(
      file: file, diagnostics: orderedDiagnostics(), environment: environment, types: SpanTable(types),
      curveKinds: SpanTable(curveKinds),
      resolved: ResolvedFacts(
        constants: constants.spanTable, references: references.spanTable, placements: placements.spanTable))
  }

  /// The diagnostics in source order (in the order found among those at one offset).
  func orderedDiagnostics() -> [Diagnostic] {
    diagnostics.enumerated().sorted {
      ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset)
    }.map(\.element)
  }

  // MARK: - Names

  /// The symbol `name` declares.
  func symbol(named name: String) -> Symbol? {
    environment[name]
  }

  /// Declares `symbol` in the environment.
  mutating func declareInEnvironment(_ symbol: Symbol) {
    environment.declare(symbol)
  }

  // MARK: - Side tables

  mutating func record(_ type: ValueType, of span: SourceSpan) {
    if recordsFacts && recordsTypes { types[span] = type }
  }

  mutating func record(_ constant: ConstantValue, of span: SourceSpan) {
    if recordsFacts { constants.record(constant, at: span) }
  }

  mutating func record(_ reference: Reference, of span: SourceSpan) {
    if recordsFacts { references.record(reference, at: span) }
  }

  mutating func record(_ kind: CurveKind, of span: SourceSpan) {
    if recordsFacts && recordsTypes { curveKinds[span] = kind }
  }

  // MARK: - What the statements after the current one declare

  /// Whether `name` is declared by a top-level statement that the check has not reached.
  /// (Asked only about a name not declared so far.)
  mutating func isDeclaredLater(_ name: String) -> Bool {
    if streaming != nil {
      assumeUndeclared(name)
      return false
    }
    return laterDeclarations[name] != nil
  }

  /// The timeline `name`, declared further down. (Asked only about a name not declared so far.)
  mutating func upcomingTimeline(named name: String) -> TimelineSymbol? {
    if streaming != nil {
      assumeUndeclared(name)
      return nil
    }
    return upcomingTimelines[name]
  }

  /// The names of the timelines declared further down, sorted (for suggestions).
  mutating func upcomingTimelineNames() -> [String] {
    if streaming != nil { streaming!.needsWholeFile = true }
    return upcomingTimelines.keys.sorted()
  }

  /// Where the label `name` of the enclosing timeline (or of the script's top level) is.
  mutating func label(named name: String) -> SourceSpan? {
    if let span = labels[name] { return span }
    if streaming != nil && labelScopeDepth == 0 { streaming!.namesAssumedNotLabels.insert(name) }
    return nil
  }

  /// The names of the enclosing timeline's labels, sorted (for suggestions).
  mutating func sortedLabelNames() -> [String] {
    if streaming != nil && labelScopeDepth == 0 { streaming!.needsWholeFile = true }
    return labels.keys.sorted()
  }

  // MARK: - Reporting

  mutating func error(_ message: String, at span: SourceSpan, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: span, notes: notes))
  }

  mutating func warning(_ message: String, at span: SourceSpan) {
    diagnostics.append(.warning(message, at: span))
  }

  // MARK: - File

  mutating func checkFile(_ file: SourceFile) {
    for statement in file.statements {
      if let name = declaredName(of: statement.kind), laterDeclarations[name.text] == nil {
        laterDeclarations[name.text] = name.span
        if case .timeline(let declaration) = statement.kind {
          upcomingTimelines[name.text] = TimelineSymbol(
            name: name.text, labels: Checker.labelNames(in: declaration.body.statements),
            repeatsForever: Checker.repeatsForever(declaration),
            passCount: Checker.literalPassCount(declaration.options), span: name.span)
        }
      }
    }
    if mode == .script { emittedEvents = Checker.emittedEvents(in: file.statements) }
    labels = collectLabels(in: file.statements)
    _ = checkItems(file.statements, in: .root)
  }

  /// The name a declaration statement declares.
  func declaredName(of kind: StatementKind) -> Identifier? {
    switch kind {
    case .letBinding(let declaration): return declaration.name
    case .curve(let declaration): return declaration.name
    case .target(let declaration): return declaration.name
    case .timeline(let declaration): return declaration.name
    case .variable(let declaration): return declaration.name
    default: return nil
    }
  }

  // MARK: - Declarations

  /// Adds a declaration: in a script a second one of a name is an error (the first stays);
  /// in a session it replaces the earlier one. Shadowing a predeclared name is a warning.
  mutating func declare(_ symbol: Symbol, name: Identifier) {
    if !laterDeclarations.isEmpty { laterDeclarations[name.text] = nil }
    if let predeclared = Predeclared.describe(name.text) {
      warning("'\(name.text)' shadows \(predeclared)", at: name.span)
    }
    if mode == .script, let existing = self.symbol(named: name.text) {
      // (A script's environment keeps the first declaration of a name: `existing`.)
      error(
        "'\(name.text)' is already declared as \(existing.kindDescription); a name is declared once in a script",
        at: name.span, notes: [Diagnostic.Note("the first declaration of '\(name.text)'", span: existing.span)])
      return
    }
    declareInEnvironment(symbol)
  }

  // letDecl -> "let" identifier "=" expression
  mutating func checkLet(_ declaration: LetDeclaration) {
    let typed = check(declaration.value)
    let symbol = ValueSymbol(
      name: declaration.name.text, type: typed.type, constant: typed.constant, curveKind: typed.curveKind,
      span: declaration.name.span)
    declare(.value(symbol), name: declaration.name)
  }

  // curveDecl -> "curve" identifier "=" expression
  mutating func checkCurveDeclaration(_ declaration: CurveDeclaration) {
    let typed = checkCurve(declaration.value, context: "after 'curve \(declaration.name.text) ='")
    if let kind = typed.curveKind {
      var value: TimingCurve?
      if case .curve(let curve)? = typed.constant { value = curve }
      declare(
        .curve(CurveSymbol(name: declaration.name.text, kind: kind, value: value, span: declaration.name.span)),
        name: declaration.name)
    } else {
      // Already reported: declare the name with the error type so its uses stay quiet.
      declare(
        .value(
          ValueSymbol(
            name: declaration.name.text, type: .error, constant: nil, curveKind: nil, span: declaration.name.span)),
        name: declaration.name)
    }
  }

  // targetDecl -> "target" identifier "{" property, ... "}"
  mutating func checkTarget(_ declaration: TargetDeclaration) {
    var memberCount: Int?
    if let count = declaration.count {
      memberCount = checkGroupCount(count, of: declaration.name)
      if memberCount == nil {
        // Declared as a group all the same, so its uses are not reported again.
        memberCount = 1
      }
    }
    if memberCount != nil {
      // In a group's braces `index` and `count` are the member's.
      withMemberNames(at: declaration.name.span) { checker in
        checker.checkTargetBody(declaration, memberCount: memberCount)
      }
    } else {
      checkTargetBody(declaration, memberCount: nil)
    }
  }

  private mutating func checkTargetBody(_ declaration: TargetDeclaration, memberCount: Int?) {
    if case .text(let literal, _)? = declaration.kind { checkString(literal) }
    var properties: [PropertySymbol] = []
    var spans: [SourceSpan] = []
    for initializer in declaration.properties {
      let typed = check(initializer.value)
      if let first = properties.firstIndex(where: { $0.name == initializer.name.text }) {
        error(
          "duplicate property '\(initializer.name.text)' in target '\(declaration.name.text)'",
          at: initializer.name.span,
          notes: [Diagnostic.Note("the first '\(properties[first].name)'", span: spans[first])])
        continue
      }
      var type = typed.type
      if !type.isAnimatable {
        error(
          "expected a number, a vector or a color as the initial value of '\(declaration.name.text).\(initializer.name.text)', found \(type)",
          at: initializer.value.span)
        type = .error
      }
      properties.append(PropertySymbol(name: initializer.name.text, type: type))
      spans.append(initializer.name.span)
    }
    // Targets declared one after another mostly have the same properties: their symbols
    // share one list (a script of a million targets held a million equal lists).
    if properties == lastPropertySymbols {
      properties = lastPropertySymbols
    } else {
      lastPropertySymbols = properties
    }
    declare(
      .target(
        TargetSymbol(
          name: declaration.name.text, properties: properties, span: declaration.name.span, memberCount: memberCount)),
      name: declaration.name)
  }

  // MARK: - Statement lists

  /// Checks the statements of one body in order. Returns whether the body runs forever (it
  /// holds an item that repeats forever), which makes an enclosing timeline or group run
  /// forever too.
  mutating func checkItems(_ statements: [Statement], in body: Body) -> Bool {
    var progress = BodyProgress()
    let outerNewest = newestAnimationRepeatsForever
    newestAnimationRepeatsForever = NameTable()
    defer { newestAnimationRepeatsForever = outerNewest }
    for statement in statements {
      checkItem(statement, in: body, progress: &progress)
    }
    return progress.runsForever
  }

  /// What checking a body carries from one statement to the next.
  struct BodyProgress {
    /// The first item that repeats forever.
    var foreverItem: SourceSpan?
    var runsForever = false
  }

  /// Checks the next statement of a body.
  mutating func checkItem(_ statement: Statement, in body: Body, progress: inout BodyProgress) {
    let placement = resolvePlacement(of: statement, in: body)
    // (Only a label's: the others are the placement as written, WrittenFacts.swift.)
    if recordsFacts, placement.isLabelPlacement { placements.record(placement, at: statement.span) }
    if body.appends, progress.foreverItem != nil, startsAtEndSoFar(statement, placement) {
      error(
        "this item starts at the end of an item that repeats forever, so it never starts; "
          + "place it with 'at TIME' or 'with previous'",
        at: statement.span)
    }
    var repeatsForever = false
    switch statement.kind {
    case .loop(let loop):
      checkLoop(loop, in: body, progress: &progress)
    case .conditional(let conditional):
      checkConditional(conditional, in: body, progress: &progress)
    default:
      repeatsForever = checkStatement(statement, in: body)
    }
    if repeatsForever {
      progress.runsForever = true
      if progress.foreverItem == nil { progress.foreverItem = statement.span }
    }
    if body == .root || body == .handler {
      trackNewestAnimation(of: statement, placement: placement, repeatsForever: repeatsForever)
    }
  }

  /// Whether an item's start is the end so far: appended, `at +D`/`at -D`, a label without
  /// `at`, or a `wait`.
  func startsAtEndSoFar(_ statement: Statement, _ placement: ResolvedPlacement) -> Bool {
    switch statement.kind {
    case .label(let label): return label.at == nil
    case .wait: return placement == .appended
    default:
      switch placement {
      case .appended, .relative: return true
      default: return false
      }
    }
  }

  /// Checks one statement; returns whether it repeats forever.
  mutating func checkStatement(_ statement: Statement, in body: Body) -> Bool {
    switch statement.kind {
    case .letBinding(let declaration):
      guard requireTopLevel("a 'let' declaration", body, statement) else { return false }
      checkLet(declaration)
    case .curve(let declaration):
      guard requireTopLevel("a 'curve' declaration", body, statement) else { return false }
      checkCurveDeclaration(declaration)
    case .target(let declaration):
      guard requireTopLevel("a 'target' declaration", body, statement) else { return false }
      checkTarget(declaration)
    case .timeline(let declaration):
      guard requireTopLevel("a 'timeline' declaration", body, statement) else { return false }
      checkTimeline(declaration)
    case .handler(let handler):
      guard requireTopLevel("an 'on' handler", body, statement) else { return false }
      checkHandler(handler)
    case .nested(let nested):
      return checkNested(nested.name, options: nested.options, in: body, statement: statement)
    case .expression(let expression):
      if case .name(let name) = expression.kind, body == .timeline || body.isGroup {
        // A timeline's name alone, inside a timeline, places it there.
        return checkNested(name, options: [], in: body, statement: statement)
      }
      if body != .root {
        error(
          "expected a timeline item, found an expression: an expression alone belongs at the top level",
          at: expression.span)
        return false
      }
      _ = check(expression)
    case .animate(let animate):
      if let stagger = animate.stagger { checkStagger(stagger, on: animate.property) }
      // On every member of a group, its values may read the member's `index` and `count`.
      guard isWholeGroup(animate.property) else { return checkAnimate(animate) }
      return withMemberNames(at: animate.property.span) { checker in checker.checkAnimate(animate) }
    case .keyframes(let keyframes):
      if let stagger = keyframes.stagger { checkStagger(stagger, on: keyframes.property) }
      guard isWholeGroup(keyframes.property) else { return checkKeyframes(keyframes) }
      return withMemberNames(at: keyframes.property.span) { checker in checker.checkKeyframes(keyframes) }
    case .set(let set):
      checkSet(set)
    case .print(let literal), .emit(let literal):
      checkString(literal)
    case .control(let control):
      checkControl(control)
    case .wait(let duration):
      let typed = expect(duration, .duration, "after 'wait'")
      if case .duration(let nanoseconds)? = typed.constant, nanoseconds < 0 {
        error(
          "expected a duration ≥ 0 after 'wait', found \(describe(.duration(nanoseconds: nanoseconds)))",
          at: duration.span)
      }
    case .label(let label):
      if let at = label.at { _ = expect(at, .duration, "after 'label \(label.name.text) at'") }
    case .variable(let declaration):
      checkVariable(declaration, in: body, statement: statement)
    case .assignment(let assignment):
      checkAssignment(assignment)
    case .loop, .conditional:
      break  // (checked by `checkItem`, which carries the body's progress into them)
    case .group(let group):
      let options = checkOptions(group.options, of: "'\(group.kind.rawValue)'")
      let bodyRunsForever = checkItems(group.body.statements, in: .group(group.kind))
      return options.repeatsForever || bodyRunsForever
    }
    return false
  }

  /// Declarations and handlers belong at the top level; reports them elsewhere.
  mutating func requireTopLevel(_ what: String, _ body: Body, _ statement: Statement) -> Bool {
    guard body == .root else {
      error("\(what) belongs at the top level, not \(body.description)", at: statement.span)
      return false
    }
    return true
  }

  // set -> "set" property "to" expression
  mutating func checkSet(_ set: SetStatement) {
    let property = resolveProperty(set.property)
    if isWholeGroup(set.property) {
      withMemberNames(at: set.property.span) { checker in checker.checkSetValue(set, property) }
    } else {
      checkSetValue(set, property)
    }
  }

  private mutating func checkSetValue(_ set: SetStatement, _ property: PropertySymbol?) {
    _ = expect(
      set.value, property?.type ?? .error,
      "after 'to' ('\(PropertyName(set.property))' is \(property?.type ?? .error))")
  }

  /// Checks the interpolations of a string.
  mutating func checkString(_ literal: StringLiteral) {
    for part in literal.parts {
      guard case .interpolation(let expression) = part else { continue }
      let typed = check(expression)
      if typed.type == .curve || typed.type == .percent {
        error("expected a value to show inside '{ }', found \(typed.type)", at: expression.span)
      }
    }
  }

  // MARK: - Names

  /// Resolves `T.p`; reports an unknown target or property with the nearest name.
  mutating func resolveProperty(_ reference: PropertyReference, requiresConstantIndex: Bool = false) -> PropertySymbol?
  {
    guard let target = resolveTarget(reference.target) else {
      if let index = reference.index { _ = check(index) }
      return nil
    }
    if let index = reference.index {
      if target.memberCount == nil {
        error(
          "'\(target.name)' is one target, not a group: write '\(target.name).\(reference.property.text)'",
          at: index.span)
        _ = check(index)
      } else if !checkMemberIndex(index, of: target), requiresConstantIndex {
        error("expected a constant member index here ('\(target.name)[3].\(reference.property.text)')", at: index.span)
      }
    }
    guard let property = target.property(named: reference.property.text) else {
      error(
        "target '\(target.name)' has no property '\(reference.property.text)'"
          + didYouMean(reference.property.text, among: target.properties.map(\.name)),
        at: reference.property.span)
      return nil
    }
    // (`T.p` as written, as it always is, is not kept: `ResolvedFacts.property(_:)` reads it
    // from the reference.)
    if recordsFacts, !ResolvedProperty.isWritten(target: target.name, property: property.name, by: reference) {
      record(.property(ResolvedProperty(target: target.name, property: property.name)), of: reference.span)
    }
    return property
  }

  /// Resolves a target name; reports an unknown one (or another kind of name).
  mutating func resolveTarget(_ name: Identifier) -> TargetSymbol? {
    if let symbol = self.symbol(named: name.text) {
      if case .target(let target) = symbol { return target }
      if case .value(let value) = symbol, value.type == .error { return nil }
      error("expected a target before '.', found '\(name.text)', which is \(symbol.kindDescription)", at: name.span)
      return nil
    }
    if isDeclaredLater(name.text) {
      error("'\(name.text)' is used before its declaration", at: name.span)
      return nil
    }
    let candidates = environment.names { if case .target = $0 { return true } else { return false } }
    error("unknown target '\(name.text)'\(didYouMean(name.text, among: candidates))", at: name.span)
    return nil
  }

  // MARK: - Timelines known ahead

  /// Whether a timeline repeats forever or holds an item that does, read from the syntax
  /// alone (for a timeline named before its declaration is checked).
  static func repeatsForever(_ declaration: TimelineDeclaration) -> Bool {
    func hasForever(_ options: [TimingOption]) -> Bool {
      options.contains { $0.kind == .repeatForever }
    }
    func bodyRunsForever(_ statements: [Statement]) -> Bool {
      statements.contains { statement in
        switch statement.kind {
        case .animate(let animate): return hasForever(animate.options)
        case .keyframes(let track): return hasForever(track.options)
        case .group(let group): return hasForever(group.options) || bodyRunsForever(group.body.statements)
        case .loop, .conditional: return statement.kind.nestedBlocks.contains { bodyRunsForever($0.statements) }
        default: return false
        }
      }
    }
    return hasForever(declaration.options) || bodyRunsForever(declaration.body.statements)
  }

  /// The names of a timeline body's labels, groups included, read from the syntax alone (for
  /// a timeline named before its declaration is checked).
  static func labelNames(in statements: [Statement]) -> [String] {
    statements.flatMap { statement -> [String] in
      switch statement.kind {
      case .label(let label): return [label.name.text]
      case .group(let group): return labelNames(in: group.body.statements)
      default: return []
      }
    }
  }

  /// The pass count of options whose `repeat` is a literal (1 without `repeat`), else nil.
  static func literalPassCount(_ options: [TimingOption]) -> Double? {
    var passes: Double? = 1
    for option in options {
      switch option.kind {
      case .repeatForever: passes = nil
      case .repeat(let count):
        if case .number(let value) = count.kind { passes = value } else { passes = nil }
      default: break
      }
    }
    return passes
  }
}
