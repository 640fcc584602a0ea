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
