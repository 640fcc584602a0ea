// Formatter+Comments: where each comment goes in the canonical layout.
//
// Comments are not in the tree; they come in source order from the lexer's side list,
// and the printer takes them in that order, so none is lost and none changes place
// relative to another. A comment is, relative to the items of its block:
// - leading: it starts before an item (or before the block's `}`): written on its own
//   line(s), at the item's indent; two comments on one source line stay on one line;
// - trailing: it starts after an item, on the line where the item ends, before the next
//   item: written after the item on the same line (` // note`);
// - inside: it starts within a one-line item (or an item's header, before its `{`):
//   hoisted onto its own line just above the item, since a line comment cannot sit in
//   the middle of a line and an item is always printed on one line.
// Line comments lose trailing whitespace; block comments are copied byte for byte.

extension LayoutPrinter {
  /// Whether a comment not yet written starts before `offset`.
  func hasComment(before offset: Int) -> Bool {
    nextComment < comments.count && comments[nextComment].span.start < offset
  }

  /// Writes every comment that starts before `offset` on its own line, keeping one blank
  /// line where the source had at least one.
  mutating func writeLeadingComments(before offset: Int) {
    while hasComment(before: offset) {
      let comment = comments[nextComment]
      let blank = wantsBlankLine(before: comment.span.start)
      nextComment += 1
      lastEnd = comment.span.end
      let rest = trailingComments(after: comment.span.end, before: offset)
      writeLine(commentText(comment) + rest, blankBefore: blank)
    }
  }

  /// Writes the comments inside an item (before `offset`) on lines of their own above it.
  /// The first takes the item's blank line, which the item then no longer needs.
  mutating func hoistComments(before offset: Int, blankBefore: inout Bool) {
    while hasComment(before: offset) {
      let comment = comments[nextComment]
      nextComment += 1
      lastEnd = max(lastEnd, comment.span.end)
      writeLine(commentText(comment), blankBefore: blankBefore)
      blankBefore = false
    }
  }

  /// The comments that follow `offset` on the same source line, before `limit`, as text
  /// to append to the line (` /* a */ // b`); empty when there are none.
  mutating func trailingComments(after offset: Int, before limit: Int) -> String {
    var text = ""
    var position = max(offset, lastEnd)
    while nextComment < comments.count {
      let comment = comments[nextComment]
      guard comment.span.start >= position, comment.span.start < limit,
        !containsNewline(from: position, to: comment.span.start)
      else { break }
      text += " " + commentText(comment)
      nextComment += 1
      position = comment.span.end
    }
    lastEnd = max(lastEnd, position)
    return text
  }

  /// Whether the source has an empty line between the last thing written and `offset`
  /// (two line breaks with nothing but separators between them).
  func wantsBlankLine(before offset: Int) -> Bool {
    var newlines = 0
    var index = lastEnd
    while index < offset && index < source.bytes.count {
      if source.bytes[index] == UInt8(ascii: "\n") {
        newlines += 1
        if newlines >= 2 { return true }
      }
      index += 1
    }
    return false
  }

  func containsNewline(from start: Int, to end: Int) -> Bool {
    var index = start
    while index < end && index < source.bytes.count {
      if source.bytes[index] == UInt8(ascii: "\n") { return true }
      index += 1
    }
    return false
  }

  func commentText(_ comment: Comment) -> String {
    comment.style == .block ? comment.text : comment.text.trimmingTrailingWhitespace
  }
}

extension Comment {
  /// The comment as the formatter keeps it: a line comment without trailing whitespace
  /// (a `\r` of a CRLF file included), anything else byte for byte. Formatting keeps the
  /// sequence of these texts unchanged.
  package var comparableText: String {
    style == .block ? text : text.trimmingTrailingWhitespace
  }
}
