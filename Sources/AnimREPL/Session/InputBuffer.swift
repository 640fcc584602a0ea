// InputBuffer: joins the lines of one entry. A line that leaves a `{` or `(` open (or ends
// on an operator or a comma) is held, and the next line is added to it, until the entry is
// complete; then the whole entry is evaluated at once. The terminal and piped input share
// it, so they join lines identically.

import AnimLanguage

/// One entry being typed, line by line.
struct InputBuffer {
  /// The lines held so far, without newlines.
  private(set) var lines: [String] = []
  /// The input line number (1-based) of the entry's first line.
  private(set) var firstLine = 1

  /// Whether an entry is being continued (the prompt is `...> `).
  var isContinuing: Bool { !lines.isEmpty }

  /// The entry so far, lines joined with newlines.
  var text: String { lines.joined(separator: "\n") }

  /// Adds a line read as input line `lineNumber`. Returns the whole entry when it is
  /// complete (and empties the buffer), or nil when it needs more lines.
  mutating func add(_ line: String, lineNumber: Int) -> String? {
    if lines.isEmpty {
      firstLine = lineNumber
      // A command is one line, whatever brackets its arguments hold.
      if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(":") { return line }
    }
    lines.append(line)
    let entry = text
    if InputCompleteness(of: SourceText(name: "", contents: entry)).needsMoreInput { return nil }
    lines.removeAll()
    return entry
  }

  /// Hands over whatever is held (at the end of input, or on Ctrl-D at `...> `), even
  /// though it is incomplete, so its errors get reported.
  mutating func flush() -> String? {
    guard !lines.isEmpty else { return nil }
    defer { lines.removeAll() }
    return text
  }

  /// Drops the entry being typed (Ctrl-C).
  mutating func discard() {
    lines.removeAll()
  }

  /// What a line typed at `...> ` does when it is `:help` or `:quit` (or a prefix naming
  /// one): `:help` is answered and the unfinished entry kept; `:quit` leaves, the entry
  /// discarded. Any other line continues the entry.
  enum Continuation { case continues, help, quit }

  func continuation(of line: String) -> Continuation {
    guard isContinuing else { return .continues }
    switch Command.named(inLine: line) {
    case .help?: return .help
    case .quit?: return .quit
    default: return .continues
    }
  }
}
