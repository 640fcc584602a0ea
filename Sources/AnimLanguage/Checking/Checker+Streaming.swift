// Checker+Streaming: checking a script one top-level statement at a time, so that `anim
// check` never holds more than one statement's tree (and the tokens it is reading). The
// whole-file check holds the script's whole tree, several times the script's size.
//
// The checker of a whole file first reads every top-level statement for what is declared
// further down: a use before a declaration gets its own message, a control statement or a
// handler may name a timeline declared later, a placement may name a top-level label that
// comes later, and `on "name"` warns when nothing in the script emits the name. A checker
// fed one statement at a time does not know the rest of the file, so it answers those
// questions as if nothing came later, remembers each question asked, and at the end of the
// script checks the answers against what the script turned out to declare. The warnings
// about emitted names wait for the end. When an answer was wrong (rare: a forward
// reference, usually in a script that also has errors), the caller checks the whole file
// instead, so the result is always the whole-file check's.

/// What a checker fed one statement at a time assumed, and what it learned on the way.
struct StreamingState {
  /// Names asked about as "declared further down?" (answered no).
  var namesAssumedUndeclared = NameTable<String, Bool>()
  /// Names asked about as "a top-level label?" and not found among the labels so far.
  var namesAssumedNotLabels: Set<String> = []
  /// A suggestion needed every label or timeline of the file.
  var needsWholeFile = false
  /// Whether a top-level statement declares a name assumed undeclared (anywhere: before
  /// the statement that asked, or after it): the script must be checked whole. Found as each
  /// declaring statement is checked (`noteDeclared`) and as each name is assumed
  /// (`assumeUndeclared`), where a set of the hashes of every declared name, asked at the
  /// end, held 2.1 MB for a script of 225,000 targets.
  var anAssumedNameIsDeclared = false
  /// The names top-level statements declared that the environment does not hold: none
  /// known (a declaration with an error declares its name with the error type), kept so
  /// that the answer never rests on that.
  var declaredButAbsent: Set<String> = []
  /// Every name `emit` sends; nil once one of them is interpolated.
  var emitted: Set<String>? = []
  /// `on "name"` handlers, whose warning waits for the end: the name, where it is, and where
  /// its warning goes among the diagnostics found by then.
  var pendingHandlers: [(name: String, span: SourceSpan, position: Int)] = []
  /// The top-level body's progress from one statement to the next.
  var progress = Checker.BodyProgress()
}

extension Checker {
  /// A checker for a script read one top-level statement at a time.
  static func statementByStatement() -> Checker {
    Checker(mode: .script, environment: Environment(), recordsFacts: false, streaming: StreamingState())
  }

  /// Checks the script's next top-level statement.
  @inline(never)  // a boundary of its own, for profiles
  mutating func checkNextTopLevelStatement(_ statement: Statement) {
    // (Noted after the check: the statement itself may have asked about its name.)
    defer { if let name = declaredName(of: statement.kind) { noteDeclared(name.text) } }
    if streaming!.emitted != nil { Checker.collectEmittedEvents(of: statement, into: &streaming!.emitted) }
    // `labels` are the top-level labels so far, this statement's included.
    switch statement.kind {
    case .label, .group:
      var found = labels
      labels = [:]  // so that `found` is the only reference and grows in place
      collectLabels(in: [statement], into: &found)
      labels = found
    default:
      break
    }
    var progress = streaming!.progress
    checkItem(statement, in: .root, progress: &progress)
    streaming!.progress = progress
  }

  /// After the last statement: the diagnostics in source order, or nil when an assumption
  /// about the statements further down turned out wrong (the script must be checked whole).
  mutating func finishStatementByStatement() -> [Diagnostic]? {
    guard let state = streaming else { return nil }
    if state.needsWholeFile { return nil }
    if state.anAssumedNameIsDeclared { return nil }
    if state.namesAssumedNotLabels.contains(where: { labels[$0] != nil }) { return nil }
    if let emitted = state.emitted {
      // Inserted last first, so that each position still counts the diagnostics before it.
      for pending in state.pendingHandlers.reversed() where !emitted.contains(pending.name) {
        diagnostics.insert(
          Checker.handlerNeverRuns(pending.name, at: pending.span, emitted: emitted), at: pending.position)
      }
    }
    return orderedDiagnostics()
  }
}

extension Checker {
  /// Records that a top-level statement declared `name` (as it was checked), so that
  /// `finishStatementByStatement` knows whether a name assumed undeclared is declared.
  private mutating func noteDeclared(_ name: String) {
    if streaming!.namesAssumedUndeclared[name] != nil { streaming!.anAssumedNameIsDeclared = true }
    if environment[name] == nil { streaming!.declaredButAbsent.insert(name) }
  }

  /// Records that the check answered, of `name`, that no statement further down declares
  /// it: wrong when a statement before this one did (it is in the environment, or declared
  /// but absent), and when one after it does (`noteDeclared`).
  mutating func assumeUndeclared(_ name: String) {
    // (A name assumed before was asked about then, and `noteDeclared` has watched it since.)
    guard streaming!.namesAssumedUndeclared.insert(true, forKey: name) else { return }
    if environment[name] != nil || streaming!.declaredButAbsent.contains(name) {
      streaming!.anAssumedNameIsDeclared = true
    }
  }
}

/// `T.p` as a table key.
struct PropertyKey: Hashable, CheapKey {
  var target: String
  var property: String

  var cheapHash: UInt32 {
    let hash = fnv1a(property, from: fnv1a(target) ^ 0x2E)  // 0x2E: the `.` between them
    return hash == 0 ? 1 : hash
  }
}
