// StatementByStatementCheck: a script read and checked one top-level statement at a time,
// each statement handed over with its facts (see CheckedStatementReader.swift, which runs it
// on the calling thread for a small script and on a checking thread for a large one).

/// A script read and checked statement by statement on the calling thread: what
/// `CheckedStatementReader` does itself for a small script, and has a checking thread do for
/// a large one.
struct StatementByStatementCheck {
  private var parser: Parser?
  private var thread: ParsingThread?
  private var queue: StatementQueue?
  /// What is left of the parsing thread's last batch, last first: each statement is moved
  /// out (`popLast()`), so that the checking thread keeps no reference to a statement it has
  /// handed over, and its tree is not freed by this one when the batch goes (a runner gives
  /// it back to the parsing thread, SpentStatements.swift).
  private var batch: [Statement] = []
  private var checker: Checker
  /// Set once a statement has a syntax or check error: nothing more is handed over.
  private var failed = false
  /// Set from the first top-level loop or `if` on: a runner lays those out with what follows
  /// them, so the facts of the rest of the script are gathered in one table.
  private var gathers = false
  /// Whether the parsing thread has sent its end, and the syntax errors it sent with it.
  private var threadEnded = false
  private var threadSyntaxErrors: [Diagnostic] = []

  /// A reader of `source` as a script (`.script`, from an empty environment, as `anim run`
  /// reads one), or as a REPL entry (`.session`, against the session's declarations: a
  /// later declaration replaces an earlier one, and nothing warns about an `on "name"` that
  /// nothing emits, since a later entry may emit it).
  ///
  /// With `spent`, the parsing thread of a large script lets go of what a runner hands back
  /// there (SpentStatements.swift).
  init(_ source: SourceText, in environment: Environment, mode: CheckMode, spent: SpentStatements? = nil) {
    var streaming = StreamingState()
    if mode == .session { streaming.emitted = nil }
    var checker = Checker(mode: mode, environment: environment, recordsFacts: true, streaming: streaming)
    checker.recordsTypes = false
    // Each statement's facts are handed over on their own (FactRecorder.swift).
    checker.constants = FactRecorder(listing: true)
    checker.references = FactRecorder(listing: true)
    checker.placements = FactRecorder(listing: true)
    self.checker = checker
    if source.bytes.count >= ParsingThread.minimumSize {
      // Deeper than a check's (8): three threads on two cores hand on statements through it
      // (see CheckingThread's queue).
      let queue = StatementQueue(capacity: 32)
      if let thread = ParsingThread.start(parsing: source, into: queue, lettingGo: spent) {
        self.queue = queue
        self.thread = thread
        return
      }
    }
    parser = Parser(source: source, keepsComments: false)
  }

  /// The next top-level statement, checked, with its facts; nil at the end of the script or
  /// at its first error (then `finish()` says which).
  mutating func next() -> CheckedStatement? {
    guard let statement = checkNext() else { return nil }
    let (facts, hasFacts) = takeFacts(of: statement)
    return CheckedStatement(statement: statement, facts: facts, isGathered: gathers, hasFacts: hasFacts)
  }

  /// `next()`, appended to `batch`: made there, where a `CheckedStatement` returned and then
  /// appended was copied (its references retained) and the returned one destroyed (released)
  /// on the checking thread. False at the end of the script or at its first error.
  mutating func appendNext(to batch: inout [CheckedStatement?]) -> Bool {
    guard let statement = checkNext() else { return false }
    let (facts, hasFacts) = takeFacts(of: statement)
    batch.append(CheckedStatement(statement: statement, facts: facts, isGathered: gathers, hasFacts: hasFacts))
    return true
  }

  /// The next top-level statement, checked; nil at the end of the script or at its first
  /// error.
  private mutating func checkNext() -> Statement? {
    guard !failed, let statement = nextParsed() else { return nil }
    let before = checker.diagnostics.count
    checker.checkNextTopLevelStatement(statement)
    if checker.diagnostics[before...].contains(where: { $0.severity == .error }) {
      failed = true
      return nil
    }
    return statement
  }

  /// The facts of `statement`, just checked: its own, which the checker then forgets, or
  /// none, once they are gathered (from the first top-level loop or `if` on, after which
  /// `gathers` is set); and whether they hold any.
  private mutating func takeFacts(of statement: Statement) -> (ResolvedFacts, hasFacts: Bool) {
    if statement.kind.isFlow && !gathers {
      gathers = true
      // This statement's facts and every later one's make one table.
      checker.constants.stopListing()
      checker.references.stopListing()
      checker.placements.stopListing()
    }
    if gathers { return (ResolvedFacts(), false) }
    // A `let` or `curve` whose value is a constant needs that constant alone: running it
    // (`Runtime.run`, `Runtime.planEntry`) reads the value's constant, and evaluating the value
    // returns it before it would look at a part. Its parts' facts (`0 * 2` in
    // `let x = 0 * 2 + 0.5`, the names it reads) are not handed over, and its one fact is
    // kept in the table itself (a `let` of a million-line script of them took an array each).
    if let value = Self.declaredValue(of: statement), let constant = checker.constants.listed(at: value.span) {
      checker.constants.forget()
      checker.references.forget()
      return (ResolvedFacts(constants: SpanTable(value.span, constant), placements: checker.placements.take()), true)
    }
    // (A recorder's count counts a span recorded twice twice: it is 0 exactly when its table
    // is empty.)
    let hasFacts = checker.constants.count + checker.references.count + checker.placements.count > 0
    let facts = ResolvedFacts(
      constants: checker.constants.take(), references: checker.references.take(),
      placements: checker.placements.take())
    return (facts, hasFacts)
  }

  /// The value a `let` or a `curve` declares.
  private static func declaredValue(of statement: Statement) -> Expression? {
    switch statement.kind {
    case .letBinding(let declaration): return declaration.value
    case .curve(let declaration): return declaration.value
    default: return nil
    }
  }

  /// The declarations so far: after a clean reading, the input's environment as the whole
  /// check (`check(_:in:mode:)`) leaves it.
  var environment: Environment { checker.environment }

  /// The facts of the statements handed over gathered (`CheckedStatement.isGathered`).
  func gatheredFacts() -> ResolvedFacts {
    ResolvedFacts(
      constants: checker.constants.spanTable, references: checker.references.spanTable,
      placements: checker.placements.spanTable)
  }

  /// The next statement the parser read, nil at the end or after a syntax error.
  private mutating func nextParsed() -> Statement? {
    if parser != nil {
      guard let statement = parser!.nextStatementOfFile() else { return nil }
      if parser!.hasErrors {
        failed = true
        return nil
      }
      return statement
    }
    while batch.isEmpty {
      guard !threadEnded, let queue else { return nil }
      switch queue.take() {
      case .statements(var statements):
        // Moved one at a time into `batch`, last first (reversed in place, each would be
        // copied).
        batch.reserveCapacity(statements.count)
        while let statement = statements.popLast() { batch.append(statement) }
      case .end(let diagnostics):
        threadEnded = true
        threadSyntaxErrors = diagnostics
        if !diagnostics.isEmpty { failed = true }
        return nil
      }
    }
    return batch.popLast()
  }

  /// After `next()` returned nil: whether the statements handed over were the whole
  /// script, checked clean.
  mutating func finish() -> CheckedStatementReader.Outcome {
    if let queue, let thread {
      // Called before the end (a runner that must read the script whole): the rest is not
      // wanted, and the reading is not the whole script's.
      if !threadEnded {
        thread.stop()
        failed = true
      }
      // The parsing thread may wait on a full queue: let it run to its end.
      while !threadEnded {
        if case .end(let diagnostics) = queue.take() {
          threadEnded = true
          threadSyntaxErrors = diagnostics
        }
      }
      thread.join()
      self.thread = nil
      if !threadSyntaxErrors.isEmpty { failed = true }
    }
    if parser != nil {
      let (syntaxErrors, _) = parser!.finish()
      if !syntaxErrors.isEmpty { failed = true }
    }
    guard !failed, let diagnostics = checker.finishStatementByStatement(),
      !diagnostics.contains(where: { $0.severity == .error })
    else { return .mustReadWhole }
    return .clean(warnings: diagnostics)
  }
}
