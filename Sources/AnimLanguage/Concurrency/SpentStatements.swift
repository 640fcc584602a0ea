// SpentStatements: the batches of checked statements a runner is done with, let go on the
// thread that parsed them.
//
// A large script's statements are parsed on one thread, checked on another and run on the
// runner's (CheckedStatementReader.swift). A statement's tree is a few allocations (its kind's
// box, its options, a name's box), all made by the parsing thread; let go where they were
// run, each took a walk of the tree and a free into another thread's heap, on the thread that
// `anim run` and `anim trace` wait for. Handed back here instead, they are let go by the
// parsing thread between its batches, whose heap then gives the same memory to the next
// statements' trees.

import Synchronization

/// Batches of checked statements handed back by their runner, to be let go by the parsing
/// thread.
final class SpentStatements: Sendable {
  private let batches = Mutex<[[CheckedStatement?]]>([])

  init() {}

  /// Hands back a batch the runner is done with (what the runner still holds of it stays).
  func add(_ batch: consuming [CheckedStatement?]) {
    let batch = batch
    batches.withLock { $0.append(batch) }
  }

  /// Lets go of the batches handed back so far, outside the lock (so that the runner, handing
  /// back the next, does not wait for it).
  func letGo() {
    var taken: [[CheckedStatement?]] = []
    batches.withLock { swap(&taken, &$0) }
  }

  /// How many batches wait to be let go (for the tests).
  var waitingCount: Int { batches.withLock { $0.count } }
}
