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
  private var batch: [Statement] = []
  private var batchIndex = 0
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
  init(_ source: SourceText, in environment: Environment, mode: CheckMode) {
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
      let queue = StatementQueue(capacity: 8)
      if let thread = ParsingThread.start(parsing: source, into: queue) {
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
    guard !failed, let statement = nextParsed() else { return nil }
    let before = checker.diagnostics.count
    checker.checkNextTopLevelStatement(statement)
    if checker.diagnostics[before...].contains(where: { $0.severity == .error }) {
      failed = true
      return nil
    }
    if statement.kind.isFlow && !gathers {
      gathers = true
      // This statement's facts and every later one's make one table.
      checker.constants.stopListing()
      checker.references.stopListing()
      checker.placements.stopListing()
    }
    if gathers {
      return CheckedStatement(statement: statement, facts: ResolvedFacts(), isGathered: true)
    }
    let facts = ResolvedFacts(
      constants: checker.constants.take(), references: checker.references.take(),
      placements: checker.placements.take())
    return CheckedStatement(statement: statement, facts: facts, isGathered: false)
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
    while batchIndex == batch.count {
      guard !threadEnded, let queue else { return nil }
      switch queue.take() {
      case .statements(let statements):
        batch = statements
        batchIndex = 0
      case .end(let diagnostics):
        threadEnded = true
        threadSyntaxErrors = diagnostics
        batch = []
        batchIndex = 0
        if !diagnostics.isEmpty { failed = true }
        return nil
      }
    }
    batchIndex += 1
    return batch[batchIndex - 1]
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
