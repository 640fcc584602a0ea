// Diagnose+Threads: `diagnose` on a large script with the parser and the checker on two
// threads. The parser hands top-level statements over a few at a time through a short queue,
// so neither thread waits for long and no more than a few statements' trees are held. The
// result is exactly the one-thread result: the checker sees the same statements in the same
// order, and stops at the first syntax error as it does there.

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// A bounded first-in first-out queue from one thread to another.
final class StatementQueue: @unchecked Sendable {
  // `items[head...]` are waiting; guarded by `lock`.
  private var items: [ParsedBatch] = []
  private var head = 0
  private let lock = DispatchSemaphore(value: 1)
  private let waiting = DispatchSemaphore(value: 0)
  private let room: DispatchSemaphore

  init(capacity: Int) {
    room = DispatchSemaphore(value: capacity)
  }

  /// Adds a batch, waiting while the queue is full.
  func put(_ batch: ParsedBatch) {
    room.wait()
    lock.wait()
    items.append(batch)
    lock.signal()
    waiting.signal()
  }

  /// Removes the oldest batch, waiting while the queue is empty.
  func take() -> ParsedBatch {
    waiting.wait()
    lock.wait()
    let batch = items[head]
    head += 1
    if head >= 32 {
      items.removeFirst(head)
      head = 0
    }
    lock.signal()
    room.signal()
    return batch
  }
}

/// The thread that parses a script and sends its statements.
final class ParsingThread: @unchecked Sendable {
  /// Below this size a script is parsed and checked on one thread (starting a thread costs
  /// more than it saves).
  static let minimumSize = 256 * 1024
  /// Statements per batch.
  static let batchSize = 128

  private let source: SourceText
  private let queue: StatementQueue
  #if canImport(Glibc)
    private var thread = pthread_t()
  #endif

  private init(source: SourceText, queue: StatementQueue) {
    self.source = source
    self.queue = queue
  }

  /// Starts parsing `source` on a new thread; nil when no thread could be started.
  static func start(parsing source: SourceText, into queue: StatementQueue) -> ParsingThread? {
    #if canImport(Glibc)
      let parsing = ParsingThread(source: source, queue: queue)
      let context = Unmanaged.passRetained(parsing).toOpaque()
      // The stack the main thread usually has: the parser recurses (to the nesting limit).
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setstacksize(&attributes, 8 << 20)
      let status = pthread_create(
        &parsing.thread, &attributes,
        { context in
          let parsing = Unmanaged<ParsingThread>.fromOpaque(context!).takeRetainedValue()
          parsing.run()
          return nil
        }, context)
      if status != 0 {
        Unmanaged<ParsingThread>.fromOpaque(context).release()
        return nil
      }
      return parsing
    #else
      return nil
    #endif
  }

  /// Waits for the thread to end.
  func join() {
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #endif
  }

  /// Parses the script, sending its statements until the first syntax error, then the
  /// syntax errors.
  private func run() {
    var parser = Parser(source: source, keepsComments: false)
    var batch: [Statement] = []
    batch.reserveCapacity(ParsingThread.batchSize)
    var sending = true
    while let statement = parser.nextStatementOfFile() {
      // After a syntax error only syntax errors are reported: the rest is only parsed.
      if parser.hasErrors { sending = false }
      guard sending else { continue }
      batch.append(statement)
      if batch.count == ParsingThread.batchSize {
        queue.put(.statements(batch))
        batch.removeAll(keepingCapacity: true)
      }
    }
    if !batch.isEmpty { queue.put(.statements(batch)) }
    let (syntaxErrors, _) = parser.finish()
    queue.put(.end(syntaxErrors))
  }
}
