// Keyword: the one list of reserved words. The lexer, the parser's messages, grammar.md
// (a test keeps them equal) and the REPL's completion all read it from here.

/// A reserved word of the `.anim` language: never an identifier, except as a property name
/// after `.` and inside a target's braces.
package enum Keyword: String, CaseIterable, Sendable {
  case `let`, curve, target, timeline
  case animate, keyframes, set, from, to, over, with
  case delay, `repeat`, forever, autoreverse, speed, fill, merge
  case at, label, previous, sequence, parallel, wait
  case on, emit, print
  case play, pause, resume, reverse, seek, finish, cancel
  case now
}

/// A word that is a keyword only where the grammar expects it, and an ordinary identifier
/// elsewhere (so a target may be called `start`). `repeat` as an event kind is the reserved
/// `Keyword.repeat`, so it is not listed here.
package enum ContextualKeyword: String, CaseIterable, Sendable {
  /// Event kinds after `on`.
  case complete, start
  /// Fill modes after `fill`.
  case none, forwards, backwards, both
  /// The merge mode after `merge`.
  case replace
  /// Step positions in `steps(n, ...)`.
  case jumpStart, jumpEnd, jumpNone, jumpBoth
}

extension Keyword {
  /// How a keyword begins a statement: the one list of statement-start words, which the
  /// parser's dispatch, its recovery and its suggestions read.
  package enum StatementStart: Sendable {
    /// `let`, `curve`, `target`, `timeline`, `on`, `label`: never after a placement.
    case declaration
    /// `at`, `with`: a placement, followed by an item (both also appear inside statements).
    case placement
    /// `animate`, `keyframes`, `set`, `print`, `emit`, `wait`, `sequence`, `parallel`.
    case item
    /// `play`, `pause`, `resume`, `reverse`, `seek`, `speed`, `finish`, `cancel` (an item too;
    /// `speed` also appears inside statements as an option).
    case control
  }

  /// How this keyword begins a statement, or nil when it never does.
  package var statementStart: StatementStart? {
    switch self {
    case .let, .curve, .target, .timeline, .on, .label: return .declaration
    case .at, .with: return .placement
    case .animate, .keyframes, .set, .print, .emit, .wait, .sequence, .parallel: return .item
    case .play, .pause, .resume, .reverse, .seek, .speed, .finish, .cancel: return .control
    case .from, .to, .over, .delay, .repeat, .forever, .autoreverse, .fill, .merge, .previous, .now: return nil
    }
  }

  /// Whether the keyword appears nowhere but at the start of a statement, so that the
  /// parser's recovery may resume at it: the statement starts except the placements and
  /// `speed`, which also appear inside statements.
  package var onlyBeginsStatements: Bool {
    switch statementStart {
    case .declaration?, .item?: return true
    case .control?: return self != .speed
    case .placement?, nil: return false
    }
  }

  /// The statement-start words, in declaration order (for "unknown statement ... did you mean").
  package static let statementStarts: [Keyword] = allCases.filter { $0.statementStart != nil }
}
