// Diagnose+Threads: `diagnose` on a large script with the parser and the checker on two
// threads. The parser hands top-level statements over a few at a time through a short queue,
// so neither thread waits for long and no more than a few statements' trees are held. The
// result is exactly the one-thread result: the checker sees the same statements in the same
// order, and stops at the first syntax error as it does there.

import Synchronization

/// `diagnoseStatementByStatement`, parsing on a second thread; nil when the script must be
/// checked whole (or when the thread cannot be started: the caller then does it on one).
func diagnoseOnTwoThreads(_ source: SourceText) -> [Diagnostic]? {
  let queue = StatementQueue(capacity: 8)
  guard let thread = ParsingThread.start(parsing: source, into: queue) else { return nil }
  var checker = Checker.statementByStatement()
  var syntaxErrors: [Diagnostic] = []
  receiving: while true {
    switch queue.take() {
    case .statements(let statements):
      for statement in statements { checker.checkNextTopLevelStatement(statement) }
    case .end(let diagnostics):
      syntaxErrors = diagnostics
      break receiving
    }
  }
  thread.join()
  if !syntaxErrors.isEmpty { return syntaxErrors }
  return checker.finishStatementByStatement()
}

/// What the parsing thread sends.
enum ParsedBatch: Sendable {
  /// The next statements to check.
  case statements([Statement])
  /// The parse is over: every syntax error (none when the statements may all be checked).
  case end([Diagnostic])
}

/// What a parsing thread sends its checker.
typealias StatementQueue = BoundedQueue<ParsedBatch>

/// The thread that parses a script and sends its statements.
final class ParsingThread: @unchecked Sendable {
  /// Below this size a script is parsed and checked on one thread (starting a thread costs
  /// more than it saves).
  static let minimumSize = 256 * 1024
  /// Statements per batch.
  static let batchSize = 128

  private let source: SourceText
  private let queue: StatementQueue
  /// Where a runner hands back the statements it is done with, for this thread to let go
  /// (SpentStatements.swift); nil for a check, whose checker lets each go as it goes. With
  /// one, the thread is one of a runner's three and runs as batch work (BatchScheduling.swift);
  /// a check's two threads have a core each on two.
  private let spent: SpentStatements?
  private var worker: WorkerThread?
  /// Set when what it would send is no longer wanted (a reading stopped part-way).
  private let stopping = Atomic<Bool>(false)

  private init(source: SourceText, queue: StatementQueue, spent: SpentStatements?) {
    self.source = source
    self.queue = queue
    self.spent = spent
  }

  /// Starts parsing `source` on a new thread, letting go between its batches of what
  /// `spent` holds; nil when no thread could be started.
  static func start(
    parsing source: SourceText, into queue: StatementQueue, lettingGo spent: SpentStatements? = nil
  ) -> ParsingThread? {
    let parsing = ParsingThread(source: source, queue: queue, spent: spent)
    guard let worker = WorkerThread.start({ parsing.run() }) else { return nil }
    parsing.worker = worker
    return parsing
  }

  /// Stops the parse at the next statement: the thread then sends its end (with no syntax
  /// errors) at once.
  func stop() {
    stopping.store(true, ordering: .relaxed)
  }

  /// Waits for the thread to end.
  func join() {
    worker?.join()
    worker = nil  // (it holds this, through its work)
  }

  /// Parses the script, sending its statements until the first syntax error, then the
  /// syntax errors.
  private func run() {
    if spent != nil { _ = BatchScheduling.enter() }
    var parser = Parser(source: source, keepsComments: false)
    var batch: [Statement] = []
    batch.reserveCapacity(ParsingThread.batchSize)
    var sending = true
    while let statement = parser.nextStatementOfFile() {
      if stopping.load(ordering: .relaxed) {
        queue.put(.end([]))
        return
      }
      // After a syntax error only syntax errors are reported: the rest is only parsed.
      if parser.hasErrors { sending = false }
      guard sending else { continue }
      batch.append(statement)
      if batch.count == ParsingThread.batchSize {
        queue.put(.statements(batch))
        batch.removeAll(keepingCapacity: true)
        spent?.letGo()
      }
    }
    if !batch.isEmpty { queue.put(.statements(batch)) }
    let (syntaxErrors, _) = parser.finish()
    queue.put(.end(syntaxErrors))
  }
}
