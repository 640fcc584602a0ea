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
  /// (Internal for the tests, which hold it from another thread.)
  let batches = Mutex<[[CheckedStatement?]]>([])

  init() {}

  /// Hands back `handed`, batches the runner is done with (what the runner still holds of
  /// them stays), and leaves it empty, unless the parsing thread holds the list this moment:
  /// then `handed` is left as it was, for the runner to hand back with more later. The
  /// runner never waits for the parsing thread (waiting on the lock was 4 % of the runner's
  /// time in a trace of `animate` statements: issue 14's front.run). Returns whether they went.
  @discardableResult
  func addIfFree(_ handed: inout [[CheckedStatement?]]) -> Bool {
    let went: Bool? = batches.withLockIfAvailable { [handed] in
      $0.append(contentsOf: handed)
      return true
    }
    guard went == true else { return false }
    handed.removeAll(keepingCapacity: true)
    return true
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
