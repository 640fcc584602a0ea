// Keyword: the one list of reserved words and the one list of contextual words. The lexer,
// the parser's messages, grammar.md (a test keeps them equal) and the REPL's completion all
// read them from here.

/// A reserved word of the `.anim` language: never a name, except as a property name after
/// `.` and inside a target's braces.
package enum Keyword: String, CaseIterable, Sendable {
  case `let`, curve, target, timeline
  case animate, keyframes, from, to, over, with
  case at, on, emit, print
  case play, pause, resume, reverse, seek, finish, cancel
  case now
  case `for`, `in`, `if`, `else`, `var`, and, or, not, `true`, `false`
  case tween, stagger
}

/// A word that is a keyword only where the grammar expects it, and an ordinary name
/// everywhere else: `target label { angle: 0 }` and `let delay = 2s` are fine. The lexer
/// marks these words on their identifier tokens (`Token.word`), so the parser tells them
/// apart without reading their text.
package enum ContextualKeyword: String, CaseIterable, Sendable {
  /// Statements that begin with a contextual word (when the next token is not `.`, `[`,
  /// `=` or the end of the statement).
  case set, wait, sequence, parallel, label, speed
  /// Timing options (`speed` too), and the placement `with previous`.
  case delay, `repeat`, forever, autoreverse, fill, merge, previous
  /// Event kinds after `on` (`repeat` too).
  case complete, start
  /// Fill modes after `fill`.
  case none, forwards, backwards, both
  /// The merge mode after `merge`.
  case replace
  /// Step positions in `steps(n, ...)`.
  case jumpStart, jumpEnd, jumpNone, jumpBoth
  /// A group member's number and the group's size, in a group's braces and statements.
  case index, count
  /// The stagger clause's origins (`start` too) and its other parts.
  case end, center, edges, random, total, grid
  /// A target's kind, after `:` (`none` too).
  case rect, circle, text
}

/// How a word begins a statement: the one list of statement starts, which the parser's
/// dispatch, its recovery and its suggestions read.
package enum StatementStart: Sendable {
  /// `let`, `curve`, `target`, `timeline`, `on`, `var`, `label`: never after a placement.
  case declaration
  /// `at`, `with`: a placement, followed by an item (both also appear inside statements).
  case placement
  /// `animate`, `keyframes`, `print`, `emit`, `set`, `wait`, `sequence`, `parallel`.
  case item
  /// `play`, `pause`, `resume`, `reverse`, `seek`, `finish`, `cancel`, `speed` (an item
  /// too).
  case control
  /// `for`, `if`: a block of statements, never after a placement.
  case flow
}

extension Keyword {
  /// How this keyword begins a statement, or nil when it never does.
  package var statementStart: StatementStart? {
    switch self {
    case .let, .curve, .target, .timeline, .on, .var: return .declaration
    case .at, .with: return .placement
    case .animate, .keyframes, .print, .emit: return .item
    case .play, .pause, .resume, .reverse, .seek, .finish, .cancel, .tween: return .control
    case .for, .if: return .flow
    case .from, .to, .over, .now, .in, .else, .and, .or, .not, .true, .false, .stagger: return nil
    }
  }

  /// Whether the keyword appears nowhere but at the start of a statement, so that the
  /// parser's recovery may resume at it: the reserved statement starts but the placements.
  package var onlyBeginsStatements: Bool {
    switch statementStart {
    case .declaration?, .item?, .control?, .flow?: return true
    case .placement?, nil: return false
    }
  }
}

extension ContextualKeyword {
  /// Whether the word begins a timing option (after an animation, a timeline's name or a
  /// nested timeline).
  package var isOption: Bool {
    switch self {
    case .delay, .repeat, .autoreverse, .speed, .fill, .merge: return true
    default: return false
    }
  }

  /// How this word begins a statement (where it is not a name), or nil when it never does.
  package var statementStart: StatementStart? {
    switch self {
    case .label: return .declaration
    case .set, .wait, .sequence, .parallel: return .item
    case .speed: return .control
    default: return nil
    }
  }
}

/// The words that begin statements, reserved and contextual, in declaration order (for
/// "unknown statement ... did you mean" and the REPL's completion).
package let statementStartWords: [String] =
  Keyword.allCases.filter { $0.statementStart != nil }.map(\.rawValue)
  + ContextualKeyword.allCases.filter { $0.statementStart != nil }.map(\.rawValue)
