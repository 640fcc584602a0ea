// CheckingThread: a large script checked on a thread of its own (its parser on another, as
// `anim check` parses), handed to the runner's thread a batch of checked statements at a
// time, so that running a script costs the runner's thread about what running it costs, and
// the check about what `anim check` costs.

import Synchronization

/// The thread that checks a script statement by statement and sends what it checked.
final class CheckingThread: @unchecked Sendable {
  /// How the reading ended, with what the reader asks for after it.
  struct Ending: Sendable {
    var outcome: CheckedStatementReader.Outcome
    var environment: Environment
    var gatheredFacts: ResolvedFacts
  }

  private enum Message: Sendable {
    /// Each statement optional so that the reader can move it out (`Optional.take()`),
    /// where reading it by index copied it (its tree's and its facts' references retained,
    /// and released again with the batch).
    case statements([CheckedStatement?])
    case end(Ending)
  }

  /// Statements per batch: enough that the two threads rarely wait on each other, few
  /// enough that little is held (each statement's tree and facts).
  private static let batchSize = 64

  /// The check; the thread's alone until it has sent its end.
  private var check: StatementByStatementCheck
  /// Thirty-two batches: a thread that waits for a core waits for a time slice of the
  /// scheduler's (milliseconds), and the queue between the others should not empty or fill
  /// in the meantime. With four, a trace of 270,000 targets kept two cores busy 75% of the
  /// time; with thirty-two, and the parser's queue as deep, the targets and animates forms'
  /// traces took 5% less time than with sixteen (nine alternated runs each), for 2.3 MB more
  /// at their peak (about 750 bytes a statement held). Deeper would go over front.run's
  /// memory goal.
  private let queue = BoundedQueue<Message>(capacity: 32)
  /// The reader's thread's scheduling before the reading, given back at its end (on that
  /// thread: BatchScheduling.swift).
  private var readerScheduling: BatchScheduling?
  /// Set when the reader stops reading before the end: the thread then sends no more.
  private let stopping = Atomic<Bool>(false)
  private var worker: WorkerThread?
  /// The end, once the reader has taken it (read on the reader's thread only).
  private(set) var ending: Ending?

  private init(_ check: StatementByStatementCheck) {
    self.check = check
  }

  /// Starts checking on a new thread; nil when no thread could be started.
  static func start(_ check: StatementByStatementCheck) -> CheckingThread? {
    let checking = CheckingThread(check)
    guard let worker = WorkerThread.start({ checking.run() }) else { return nil }
    checking.worker = worker
    checking.readerScheduling = BatchScheduling.enter()
    return checking
  }

  /// The next batch of checked statements, nil at the end (on the reader's thread); each is
  /// there to be moved out (`Optional.take()`).
  func nextBatch() -> [CheckedStatement?]? {
    guard ending == nil else { return nil }
    switch queue.take() {
    case .statements(let statements):
      return statements
    case .end(let ending):
      self.ending = ending
      readerScheduling?.leave()
      readerScheduling = nil
      worker?.join()
      worker = nil  // (it holds this, through its work)
      return nil
    }
  }

  /// How the reading ended; before its end, stops it there first (and its parsing thread).
  func finish() -> CheckedStatementReader.Outcome {
    if ending == nil {
      stopping.store(true, ordering: .relaxed)
      while nextBatch() != nil {}
      return .mustReadWhole
    }
    return ending!.outcome
  }

  private func run() {
    _ = BatchScheduling.enter()
    var batch: [CheckedStatement?] = []
    batch.reserveCapacity(Self.batchSize)
    while !stopping.load(ordering: .relaxed), check.appendNext(to: &batch) {
      if batch.count == Self.batchSize {
        queue.put(.statements(batch))
        batch = []
        batch.reserveCapacity(Self.batchSize)
      }
    }
    if !batch.isEmpty { queue.put(.statements(batch)) }
    let outcome = check.finish()
    queue.put(.end(Ending(outcome: outcome, environment: check.environment, gatheredFacts: check.gatheredFacts())))
  }
}

/// A reader's hold on its checking thread. The thread holds the `CheckingThread` while it
/// runs, so only the reader's letting go can tell that nobody will read on: a reader let go
/// part-way (its runner found that the script must be read whole) stops the thread, which
/// would otherwise wait for ever on a full queue, holding the check and the statements.
final class CheckingHold {
  let checking: CheckingThread

  init(_ checking: CheckingThread) {
    self.checking = checking
  }

  deinit {
    _ = checking.finish()
  }
}
