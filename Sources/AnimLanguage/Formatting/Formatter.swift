// Formatter: a syntax tree back to text, in the one canonical layout of `anim fmt`
// (README, Using anim: `anim fmt`): two-space indent, one item per line, `{` on its header's line, no column
// alignment, single spaces around binary operators, `, ` in lists.
//
// The formatter never changes meaning: it keeps the user's option order, parentheses and
// the source text of every literal, and re-emits strings with their escapes. It keeps
// every comment, in order (Formatter+Comments.swift decides where each one goes), and
// keeps at most one blank line where the user left one between items.
//
// The layout depends only on the tree and the comments, never on how the input was laid
// out (apart from blank lines), so formatting is idempotent: fmt(fmt(x)) == fmt(x).

/// The canonical layout of a script that parsed without errors.
///
/// Only call this on a tree whose parse reported no errors: a tree with `.invalid`
/// placeholders is printed as best it can be, and that is not a layout to write back.
///
/// - Parameters:
///   - file: the tree `parse(source)` returned.
///   - source: the text it was parsed from (literals and comments are copied from it).
/// - Returns: the formatted script, ending with one newline (empty for an empty script).
package func format(_ file: SourceFile, source: SourceText) -> String {
  var printer = LayoutPrinter(source: source, comments: file.comments)
  printer.printFile(file)
  return printer.output
}

/// Walks the tree and writes lines. Comments are taken in source order through a cursor,
/// so each comment is written exactly once.
struct LayoutPrinter {
  let source: SourceText
  let comments: [Comment]
  /// The next comment not yet written.
  var nextComment = 0
  /// The source offset just after the last thing written (an item or a comment); blank
  /// lines in the source are looked for between it and the next thing.
  var lastEnd = 0
  /// True right after a `{` line (and at the start of the file): no blank line there.
  var atBlockStart = true
  var indentLevel = 0
  var output = ""

  init(source: SourceText, comments: [Comment]) {
    self.source = source
    self.comments = comments
  }

  // MARK: - File and blocks

  mutating func printFile(_ file: SourceFile) {
    if let first = comments.first, first.style == .shebang {
      writeLine(first.text.trimmingTrailingWhitespace, blankBefore: false)
      nextComment = 1
      lastEnd = first.span.end
      atBlockStart = false
    }
    printStatements(file.statements, closingAt: source.bytes.count)
  }

  /// The statements of a file or block, then the comments left before its end (`}`).
  mutating func printStatements(_ statements: [Statement], closingAt end: Int) {
    for (index, statement) in statements.enumerated() {
      let limit = index + 1 < statements.count ? statements[index + 1].span.start : end
      printStatement(statement, nextStart: limit)
    }
    writeLeadingComments(before: end)
  }

  mutating func printStatement(_ statement: Statement, nextStart: Int) {
    let prefix = placementText(statement.placement)
    switch statement.kind {
    case .target(let declaration):
      let count = declaration.count.map { "[\(expression($0))]" } ?? ""
      var kind = ""
      switch declaration.kind {
      case .text(let literal, _)?: kind = ": text \(string(literal))"
      case let other?: kind = ": \(other.word)"
      case nil: break
      }
      printListElement(
        headerSpan: statement.span, bodySpan: declaration.bodySpan, nextStart: nextStart,
        header: "target \(declaration.name.text)\(count)\(kind)",
        entries: declaration.properties.map { property in
          ListEntry(span: property.span, text: "\(property.name.text): \(expression(property.value))")
        }, oneLineWithin: Self.oneLineTargetWidth)
    case .keyframes(let keyframes):
      var header = prefix + "keyframes \(reference(keyframes.property))"
      if let over = keyframes.over { header += " over \(expression(over))" }
      header += optionsText(keyframes.options) + staggerText(keyframes.stagger)
      printListElement(
        headerSpan: statement.span, bodySpan: keyframes.bodySpan, nextStart: nextStart, header: header,
        entries: keyframes.keyframes.map { keyframe in
          var text = "\(expression(keyframe.position)): \(expression(keyframe.value))"
          if let curve = keyframe.curve { text += " with \(expression(curve))" }
          return ListEntry(span: keyframe.span, text: text)
        })
    case .timeline(let declaration):
      printBlockElement(
        span: statement.span, body: declaration.body, nextStart: nextStart,
        header: "timeline \(declaration.name.text)" + optionsText(declaration.options))
    case .group(let group):
      printBlockElement(
        span: statement.span, body: group.body, nextStart: nextStart,
        header: prefix + group.kind.rawValue + optionsText(group.options))
    case .handler(let handler):
      let event: String
      switch handler.event {
      case .lifecycle(let kind, _, let subject): event = "\(kind.rawValue) \(subjectText(subject))"
      case .custom(let name): event = string(name)
      }
      printBlockElement(span: statement.span, body: handler.body, nextStart: nextStart, header: "on \(event)")
    case .loop(let loop):
      let range = "\(expression(loop.lower))\(loop.closed ? "..." : "..<")\(expression(loop.upper))"
      printBlockElement(
        span: statement.span, body: loop.body, nextStart: nextStart, header: "for \(loop.variable.text) in \(range)")
    case .conditional(let conditional):
      printConditional(conditional, span: statement.span, nextStart: nextStart)
    default:
      printLineElement(span: statement.span, nextStart: nextStart, text: prefix + itemText(statement.kind))
    }
  }

  /// A one-line item: its leading comments, the comments inside it (hoisted above it, as
  /// a line cannot hold them all), the item and its trailing comments.
  mutating func printLineElement(span: SourceSpan, nextStart: Int, text: String) {
    writeLeadingComments(before: span.start)
    var blank = wantsBlankLine(before: span.start)
    hoistComments(before: span.end, blankBefore: &blank)
    let trailing = trailingComments(after: span.end, before: nextStart)
    writeLine(text + trailing, blankBefore: blank)
  }

  /// An item with a block of statements: `HEADER {`, the items one level in, `}`.
  mutating func printBlockElement(span: SourceSpan, body: Block, nextStart: Int, header: String) {
    let open = body.span.start
    let close = body.span.end - 1
    writeLeadingComments(before: span.start)
    var blank = wantsBlankLine(before: span.start)
    hoistComments(before: open, blankBefore: &blank)
    if body.statements.isEmpty && !hasComment(before: close) {
      writeLine(header + " {}" + trailingComments(after: span.end, before: nextStart), blankBefore: blank)
      return
    }
    let firstStart = body.statements.first?.span.start ?? close
    writeLine(header + " {" + trailingComments(after: open + 1, before: firstStart), blankBefore: blank)
    indentLevel += 1
    atBlockStart = true
    printStatements(body.statements, closingAt: close)
    indentLevel -= 1
    writeLine("}" + trailingComments(after: span.end, before: nextStart), blankBefore: false)
  }

  /// `if C {`, its items, `} else if C {`, its items, ..., `} else {`, its items, `}`.
  mutating func printConditional(_ conditional: Conditional, span: SourceSpan, nextStart: Int) {
    writeLeadingComments(before: span.start)
    var blank = wantsBlankLine(before: span.start)
    var blocks = conditional.branches.map { ("if \(expression($0.condition))", $0.body) }
    if let otherwise = conditional.otherwise { blocks.append(("", otherwise)) }
    for (index, (condition, body)) in blocks.enumerated() {
      let open = body.span.start
      let close = body.span.end - 1
      hoistComments(before: open, blankBefore: &blank)
      let header = (index == 0 ? "" : "} else ") + condition + (condition.isEmpty ? "{" : " {")
      let firstStart = body.statements.first?.span.start ?? close
      writeLine(header + trailingComments(after: open + 1, before: firstStart), blankBefore: index == 0 && blank)
      indentLevel += 1
      atBlockStart = true
      printStatements(body.statements, closingAt: close)
      indentLevel -= 1
    }
    writeLine("}" + trailingComments(after: span.end, before: nextStart), blankBefore: false)
  }

  /// One entry of a target's properties or a keyframe track.
  struct ListEntry {
    var span: SourceSpan
    var text: String
  }

  /// The widest a target may be, with its indentation, and stay on one line.
  static let oneLineTargetWidth = 100

  /// `HEADER {`, one entry per line (no commas: a new line separates them), `}`; or, given
  /// `oneLineWithin`, `HEADER { a: 1, b: 2 }` on one line when that fits the width with its
  /// indentation and the braces hold no comment.
  mutating func printListElement(
    headerSpan: SourceSpan, bodySpan: SourceSpan, nextStart: Int, header: String, entries: [ListEntry],
    oneLineWithin width: Int? = nil
  ) {
    let open = bodySpan.start
    let close = bodySpan.end - 1
    writeLeadingComments(before: headerSpan.start)
    var blank = wantsBlankLine(before: headerSpan.start)
    hoistComments(before: open, blankBefore: &blank)
    if entries.isEmpty && !hasComment(before: close) {
      writeLine(header + " {}" + trailingComments(after: headerSpan.end, before: nextStart), blankBefore: blank)
      return
    }
    if let width, !hasComment(before: close) {
      let line = header + " { " + entries.map(\.text).joined(separator: ", ") + " }"
      if 2 * indentLevel + line.count <= width {
        writeLine(line + trailingComments(after: headerSpan.end, before: nextStart), blankBefore: blank)
        return
      }
    }
    let firstStart = entries.first?.span.start ?? close
    writeLine(header + " {" + trailingComments(after: open + 1, before: firstStart), blankBefore: blank)
    indentLevel += 1
    atBlockStart = true
    for (index, entry) in entries.enumerated() {
      let limit = index + 1 < entries.count ? entries[index + 1].span.start : close
      printLineElement(span: entry.span, nextStart: limit, text: entry.text)
    }
    writeLeadingComments(before: close)
    indentLevel -= 1
    writeLine("}" + trailingComments(after: headerSpan.end, before: nextStart), blankBefore: false)
  }

  // MARK: - Lines

  /// Writes one line at the current indent; `blankBefore` asks for one empty line first
  /// (never at the start of a block or file).
  mutating func writeLine(_ text: String, blankBefore: Bool) {
    if blankBefore && !atBlockStart { output += "\n" }
    output += String(repeating: "  ", count: indentLevel) + text + "\n"
    atBlockStart = false
  }
}

extension String {
  /// The string without spaces, tabs and carriage returns at its end.
  var trimmingTrailingWhitespace: String {
    var scalars = Substring(self)
    while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
    return String(scalars)
  }
}
