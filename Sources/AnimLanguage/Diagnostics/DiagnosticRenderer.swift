// DiagnosticRenderer: shows a diagnostic as swiftc and clang do:
//
//     intro.anim:3:22: error: expected 'to' after the property, found 'over'
//       animate card.x from 0 over 1s
//                             ^~~~
//
// Line and column are computed here, from byte offsets, only when a diagnostic is shown.

/// Renders diagnostics of one source text, optionally with ANSI colour.
package struct DiagnosticRenderer: Sendable {
  package let source: SourceText
  /// Whether to colour the output; the CLI decides (a terminal, and NO_COLOR unset).
  package let usesColor: Bool
  /// The number shown for the source's first line: 1 for a file; for a REPL entry read
  /// from the middle of piped input, the input line it started on (the source's own
  /// `firstLine` unless given).
  package let firstLine: Int

  package init(source: SourceText, usesColor: Bool = false, firstLine: Int? = nil) {
    self.source = source
    self.usesColor = usesColor
    self.firstLine = max(1, firstLine ?? source.firstLine)
  }

  /// Whether diagnostics should be coloured: only on a terminal, and not when `NO_COLOR`
  /// is set to a non-empty value (https://no-color.org). The CLI and the REPL pass in the
  /// facts they know (`isatty(2)`, the process environment), so this stays testable.
  package static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
    guard isTerminal else { return false }
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    return true
  }

  /// The `FILE:LINE:COLUMN: severity: MESSAGE` line, the source line and the caret line,
  /// then the same for each note; ends with a newline.
  package func render(_ diagnostic: Diagnostic) -> String {
    var output = renderOne(
      severity: diagnostic.severity, message: diagnostic.message, span: diagnostic.span)
    for note in diagnostic.notes {
      if let span = note.span {
        output += renderOne(severity: .note, message: note.message, span: span)
      } else {
        output += "\(paint("note:", .note)) \(ShownText.escaped(note.message))\n"
      }
    }
    return output
  }

  /// Every diagnostic, in order.
  package func render(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map(render).joined()
  }

  /// How many diagnostics of one file are shown (`anim check`, `:load`): a file of random
  /// bytes can hold hundreds of thousands, and printing each with its line would take
  /// minutes and gigabytes. A script people write never gets near it.
  package static let shownLimit = 500

  /// The line that says how many diagnostics past the first `limit` were not shown
  /// (`x.anim: 12 more errors and 1 more warning not shown`), or nil when none was left out.
  package func notShownLine(_ diagnostics: [Diagnostic], limit: Int = shownLimit) -> String? {
    guard diagnostics.count > limit else { return nil }
    let errors = diagnostics.dropFirst(limit).filter(\.isError).count
    let warnings = diagnostics.count - limit - errors
    var counts: [String] = []
    if errors > 0 { counts.append(errors == 1 ? "1 more error" : "\(errors) more errors") }
    if warnings > 0 { counts.append(warnings == 1 ? "1 more warning" : "\(warnings) more warnings") }
    return "\(source.name): \(counts.joined(separator: " and ")) not shown\n"
  }

  /// The first `limit` diagnostics, then the line saying how many more there are.
  package func renderLimited(_ diagnostics: [Diagnostic], limit: Int = shownLimit) -> String {
    render(Array(diagnostics.prefix(limit))) + (notShownLine(diagnostics, limit: limit) ?? "")
  }

  /// `FILE:LINE:COLUMN` of a span's start.
  package func position(of span: SourceSpan) -> String {
    let location = source.location(of: span.start)
    return "\(source.name):\(shownLine(location.line)):\(location.column)"
  }

  private func renderOne(severity: Diagnostic.Severity, message: String, span: SourceSpan) -> String {
    let location = source.location(of: span.start)
    let header =
      bold("\(source.name):\(shownLine(location.line)):\(location.column):") + " "
      + paint("\(severity.rawValue):", severity) + " " + bold(ShownText.escaped(message))
    let lineRange = source.byteRange(ofLine: location.line)
    let clampedStart = min(max(span.start, lineRange.lowerBound), lineRange.upperBound)
    // A very long line (a minified or generated file) is shown as a window around the
    // column, marked with "...", so one diagnostic prints a few hundred bytes, not a megabyte.
    let shown = window(of: lineRange, around: clampedStart)
    let cutBefore = shown.lowerBound > lineRange.lowerBound ? "..." : ""
    let cutAfter = shown.upperBound < lineRange.upperBound ? "..." : ""
    // (Control bytes and invalid UTF-8 shown as `\x1B`: the caret counts that width.)
    let lineText = cutBefore + ShownText.escaped(source.bytes[shown]) + cutAfter
    // The caret line copies the tabs of the text before the column so it lines up.
    let prefix = cutBefore + ShownText.escaped(source.bytes[shown.lowerBound..<clampedStart])
    var caret = ""
    for character in prefix { caret.append(character == "\t" ? "\t" : " ") }
    caret.append("^")
    // Tildes under the rest of the span on this line, counted in Characters.
    let clampedEnd = min(max(span.end, clampedStart), shown.upperBound)
    if clampedEnd > clampedStart {
      let covered = ShownText.escaped(source.bytes[clampedStart..<clampedEnd])
      let extra = covered.count - 1
      if extra > 0 { caret += String(repeating: "~", count: extra) }
    }
    return header + "\n" + lineText + "\n" + paint(caret, .note, bold: true) + "\n"
  }

  /// A line of the source as numbered for people, counted from `firstLine`.
  private func shownLine(_ line: Int) -> Int {
    let (shown, overflow) = line.addingReportingOverflow(firstLine - 1)
    return overflow ? line : shown
  }

  /// The longest line shown whole, in bytes.
  static let longestLineShown = 240

  /// The part of a line to show: all of it when short, else about `longestLineShown`
  /// bytes that start a little before `offset`, cut at UTF-8 character boundaries.
  private func window(of line: Range<Int>, around offset: Int) -> Range<Int> {
    let limit = DiagnosticRenderer.longestLineShown
    guard line.count > limit else { return line }
    var start = max(line.lowerBound, offset - limit / 3)
    var end = min(line.upperBound, start + limit)
    func isContinuation(_ index: Int) -> Bool {
      index < source.bytes.count && source.bytes[index] & 0xC0 == 0x80
    }
    while start > line.lowerBound && isContinuation(start) { start -= 1 }
    while end < line.upperBound && isContinuation(end) { end += 1 }
    return start..<end
  }

  private func paint(_ text: String, _ severity: Diagnostic.Severity, bold: Bool = true) -> String {
    guard usesColor else { return text }
    let code: String
    switch severity {
    case .error: code = "31"  // red
    case .warning: code = "35"  // magenta, as clang
    case .note: code = "32"  // green, as the caret
    }
    return "\u{1B}[\(bold ? "1;" : "")\(code)m\(text)\u{1B}[0m"
  }

  private func bold(_ text: String) -> String {
    usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text
  }
}
