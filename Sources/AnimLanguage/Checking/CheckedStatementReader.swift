// CheckedStatementReader: a script read, parsed and checked one top-level statement at a
// time, each statement handed over with what the checker resolved about it, so that a runner
// (`anim run`, `anim trace`) can run it and let it go, as `anim check` does (see
// Checker+Streaming.swift), instead of holding the whole tree and its facts.
//
// The streaming checker answers a question about the statements further down as if nothing
// came later, and checks the answers at the end; a wrong answer, a syntax error or a check
// error ends the reading, and the runner then reads the script whole (`parseAndCheck`),
// which reports the same diagnostics the script always had. A clean script (the case that
// matters for size) is read once.

/// A top-level statement checked clean, with the facts the runtime needs about it.
package struct CheckedStatement: Sendable {
  package var statement: Statement
  /// The constants, references and placements of this statement's nodes; empty from the
  /// first loop or `if` on, whose facts the reader gathers (`gatheredFacts()`).
  package var facts: ResolvedFacts
  /// Whether this statement is a top-level loop or `if`, or comes after one.
  package var isGathered: Bool
  /// Whether `facts` holds any fact: found by the checking thread from what it recorded, so
  /// that the runner need not count the three tables of every statement (each count copied
  /// its table, twice per statement held for later).
  package var hasFacts: Bool
}

/// Reads a script statement by statement for running it. A large script is parsed on one
/// thread and checked on another (`CheckingThread`), so that the runner's thread only runs
/// it: a runner and a checker on one thread took half again as long as `anim check`, which
/// runs the parser and the checker side by side.
package struct CheckedStatementReader {
  /// How a reading ended.
  package enum Outcome: Sendable {
    /// Every statement was handed over and the script checks clean; these are its warnings.
    case clean(warnings: [Diagnostic])
    /// The statements handed over are not the script's clean check: read it whole.
    case mustReadWhole
  }

  /// A small script's check, on this thread.
  private var check: StatementByStatementCheck?
  /// A large script's, on a thread of its own.
  private var hold: CheckingHold?
  /// (Internal for the tests, which watch it end.)
  var checking: CheckingThread? { hold?.checking }
  /// The checking thread's last batch, `batch[batchIndex...]` not yet taken (moved out). A
  /// statement given back goes back into the place it was taken from.
  private var batch: [CheckedStatement?] = []
  private var batchIndex = 0
  /// Where the batches a runner is done with go, for the parsing thread to let go of them
  /// (SpentStatements.swift; only a large script's, read on threads).
  private var spent: SpentStatements?
  /// Batches done with, not yet taken by `spent` (the parsing thread held it).
  private var handedBack: [[CheckedStatement?]] = []

  /// A reader of `source` as a script (`.script`, from an empty environment, as `anim run`
  /// reads one), or as a REPL entry (`.session`, against the session's declarations: a
  /// later declaration replaces an earlier one, and nothing warns about an `on "name"` that
  /// nothing emits, since a later entry may emit it).
  package init(_ source: SourceText, in environment: Environment = Environment(), mode: CheckMode = .script) {
    let threaded = source.bytes.count >= ParsingThread.minimumSize
    let spent = threaded ? SpentStatements() : nil
    let check = StatementByStatementCheck(source, in: environment, mode: mode, spent: spent)
    if threaded, let checking = CheckingThread.start(check) {
      hold = CheckingHold(checking)
      self.spent = spent
    } else {
      self.check = check
    }
  }

  /// The next top-level statement, checked, with its facts; nil at the end of the script or
  /// at its first error (then `finish()` says which).
  package mutating func next() -> CheckedStatement? {
    // (The checking thread is reached only for a new batch: a retain of it at each
    // statement contended with that thread's writes, 3 % of the runner's time.)
    if batchIndex == batch.count {
      if check != nil { return check!.next() }
      guard let checking else { return nil }
      if let spent, !batch.isEmpty {
        handedBack.append(batch)
        batch = []
        spent.addIfFree(&handedBack)
      }
      guard let statements = checking.nextBatch() else { return nil }
      batch = statements
      batchIndex = 0
    }
    batchIndex += 1
    return batch[batchIndex - 1].take()
  }

  /// Gives back the statement `next()` handed over last, once its runner is done with it: a
  /// large script's goes back into its batch, which goes, once done with, to the parsing
  /// thread that made it, to be let go there (what the runner still holds of it stays); a
  /// small script's, or one given back after a later one was handed over, is let go here.
  /// (Put back in place, it costs a copy into memory just read; appended to a list of its
  /// own, it was 3 % of the runner's time in a trace of `animate` statements.)
  package mutating func giveBack(_ checked: consuming CheckedStatement) {
    guard spent != nil, batchIndex > 0, case .none = batch[batchIndex - 1] else { return }
    batch[batchIndex - 1] = consume checked
  }

  /// The declarations so far: after a clean reading (`finish()`), the input's environment
  /// as the whole check (`check(_:in:mode:)`) leaves it.
  package var environment: Environment { check?.environment ?? checking?.ending?.environment ?? Environment() }

  /// The facts of the statements handed over gathered (`CheckedStatement.isGathered`), after
  /// `finish()`.
  package func gatheredFacts() -> ResolvedFacts {
    check?.gatheredFacts() ?? checking?.ending?.gatheredFacts ?? ResolvedFacts()
  }

  /// Whether the statements handed over were the whole script, checked clean. Called before
  /// `next()` returned nil, it stops the reading there (and the script must be read whole).
  package mutating func finish() -> Outcome {
    if check != nil { return check!.finish() }
    batch = []
    batchIndex = 0
    return checking?.finish() ?? .mustReadWhole
  }
}
