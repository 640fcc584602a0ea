// Checker+Flow: loops, conditions and variables (grammar.md § Loops, conditions and
// variables). A loop's or an `if`'s items belong to the body the loop is in (in a timeline
// they are placed as if written out), so they are checked as that body's items; the names
// a loop, an `if` or a handler binds live in a local scope of their own.

/// A name bound inside a body: a loop variable or a local `var`.
struct LocalSymbol {
  enum Kind {
    /// `for NAME in ...`: a number, constant within one pass of the body.
    case loopVariable
    /// `var NAME = ...` in a handler, a loop or an `if` body: new on each run.
    case variable
  }

  var name: String
  var type: ValueType
  var kind: Kind
  var span: SourceSpan
}

extension Checker {
  /// The innermost local named `name`.
  func local(named name: String) -> LocalSymbol? {
    for scope in localScopes.reversed() {
      if let symbol = scope[name] { return symbol }
    }
    return nil
  }

  /// Binds a local in the innermost scope; a name that hides another is a warning, a second
  /// one in the same scope an error.
  mutating func bindLocal(_ symbol: LocalSymbol, at name: Identifier) {
    if let existing = localScopes[localScopes.count - 1][symbol.name] {
      error(
        "'\(name.text)' is already declared in this block", at: name.span,
        notes: [Diagnostic.Note("the first '\(name.text)'", span: existing.span)])
      return
    }
    if local(named: symbol.name) != nil || self.symbol(named: symbol.name) != nil {
      warning("'\(name.text)' hides the outer '\(name.text)' in this block", at: name.span)
    } else if let predeclared = Predeclared.describe(name.text) {
      warning("'\(name.text)' shadows \(predeclared)", at: name.span)
    }
    localScopes[localScopes.count - 1][symbol.name] = symbol
  }

  /// Checks `statements` as items of `body` in a local scope of their own.
  mutating func checkScoped(_ statements: [Statement], in body: Body, progress: inout BodyProgress) {
    localScopes.append([:])
    defer { localScopes.removeLast() }
    for statement in statements {
      checkItem(statement, in: body, progress: &progress)
    }
  }

  // forLoop -> "for" identifier "in" expression ( "..<" | "..." ) expression block
  mutating func checkLoop(_ loop: ForLoop, in body: Body, progress: inout BodyProgress) {
    for bound in [loop.lower, loop.upper] {
      let typed = expect(bound, .number, "as a loop bound (an integer)")
      if case .number(let value)? = typed.constant, !ConstantEvaluator.isWhole(value) {
        error("expected an integer as a loop bound, found \(formatNumber(value))", at: bound.span)
      }
    }
    rejectLabels(in: loop.body.statements, inside: "a loop")
    localScopes.append([:])
    defer { localScopes.removeLast() }
    bindLocal(
      LocalSymbol(name: loop.variable.text, type: .number, kind: .loopVariable, span: loop.variable.span),
      at: loop.variable)
    checkScoped(loop.body.statements, in: body, progress: &progress)
  }

  // conditional -> "if" expression block { "else" "if" expression block } [ "else" block ]
  mutating func checkConditional(_ conditional: Conditional, in body: Body, progress: inout BodyProgress) {
    for branch in conditional.branches {
      _ = expect(branch.condition, .boolean, "as the condition of 'if'")
      rejectLabels(in: branch.body.statements, inside: "an 'if'")
      checkScoped(branch.body.statements, in: body, progress: &progress)
    }
    if let otherwise = conditional.otherwise {
      rejectLabels(in: otherwise.statements, inside: "an 'else'")
      checkScoped(otherwise.statements, in: body, progress: &progress)
    }
  }

  /// A label's place must be known before its timeline plays, so none may be inside a loop
  /// or an `if`.
  mutating func rejectLabels(in statements: [Statement], inside what: String) {
    for statement in statements {
      if case .label(let label) = statement.kind {
        error(
          "a label cannot be inside \(what): a label marks one place, known before its timeline plays",
          at: label.name.span)
      }
    }
  }

  // varDecl -> "var" identifier "=" expression
  mutating func checkVariable(_ declaration: VariableDeclaration, in body: Body, statement: Statement) {
    switch body {
    case .timeline, .group:
      error(
        "a 'var' declaration is not a timeline item: declare it at the top level or in a handler",
        at: statement.span)
      _ = check(declaration.value)
      return
    case .root, .handler:
      break
    }
    let typed = check(declaration.value)
    var type = typed.type
    if type == .curve || type == .percent {
      error("expected a value for 'var \(declaration.name.text)', found \(type)", at: declaration.value.span)
      type = .error
    }
    if localScopes.isEmpty {
      // The top level: a global of the script or session.
      let symbol = ValueSymbol(
        name: declaration.name.text, type: type, constant: nil, curveKind: nil, span: declaration.name.span,
        isVariable: true)
      declare(.value(symbol), name: declaration.name)
    } else {
      bindLocal(
        LocalSymbol(name: declaration.name.text, type: type, kind: .variable, span: declaration.name.span),
        at: declaration.name)
    }
  }

  // assignment -> identifier "=" expression
  mutating func checkAssignment(_ assignment: Assignment) {
    let name = assignment.name
    let typed = check(assignment.value)
    var type: ValueType?
    if let local = local(named: name.text) {
      switch local.kind {
      case .loopVariable:
        error("cannot assign to the loop variable '\(name.text)': it is constant in each pass", at: name.span)
        return
      case .variable:
        record(.local(name.text), of: name.span)
        type = local.type
      }
    } else if let symbol = self.symbol(named: name.text) {
      guard case .value(let value) = symbol, value.isVariable else {
        let what = symbol.kindDescription
        let hint = (symbol.isValue ? " (declare it with 'var' to change it)" : "")
        error("cannot assign to '\(name.text)', which is \(what)\(hint)", at: name.span)
        return
      }
      record(.value(name.text), of: name.span)
      type = value.type
    } else if isDeclaredLater(name.text) {
      error("'\(name.text)' is used before its declaration", at: name.span)
      return
    } else {
      let variables = environment.names {
        if case .value(let value) = $0 { return value.isVariable } else { return false }
      }
      let locals = localScopes.flatMap { $0.values.filter { $0.kind == .variable }.map(\.name) }
      error(
        "unknown variable '\(name.text)'\(didYouMean(name.text, among: locals + variables)); declare it with 'var \(name.text) = ...'",
        at: name.span)
      return
    }
    if let type, type != .error, typed.type != .error, typed.type != type {
      error(
        "cannot assign \(typed.type) to '\(name.text)', which holds \(type): a variable keeps the type of its first value",
        at: assignment.value.span)
    }
  }
}

extension StatementKind {
  /// Whether this is a loop or an `if`, whose body a runner lays out where it stands.
  package var isFlow: Bool {
    switch self {
    case .loop, .conditional: return true
    default: return false
    }
  }

  /// The statement lists this statement holds (a timeline's, a group's, a handler's, a
  /// loop's body, an `if`'s branches), for the walks that look inside them.
  package var nestedBlocks: [Block] {
    switch self {
    case .timeline(let declaration): return [declaration.body]
    case .group(let group): return [group.body]
    case .handler(let handler): return [handler.body]
    case .loop(let loop): return [loop.body]
    case .conditional(let conditional):
      return conditional.branches.map(\.body) + (conditional.otherwise.map { [$0] } ?? [])
    default: return []
    }
  }
}
