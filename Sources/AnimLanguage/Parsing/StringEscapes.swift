// StringEscapes: the escapes of a string literal, in one table. The lexer decodes with it and
// lists it in its "unknown escape" message; the formatter and the tree dump write text back
// with it, so that reading what they write gives the same text.

/// The backslash escapes of `.anim` strings: `\n \t \" \\ \{`.
package enum StringEscapes {
  /// Each escape: the byte written after the backslash, and the byte it stands for.
  package static let table: [(written: UInt8, meaning: UInt8)] = [
    (UInt8(ascii: "n"), UInt8(ascii: "\n")),
    (UInt8(ascii: "t"), UInt8(ascii: "\t")),
    (UInt8(ascii: "\""), UInt8(ascii: "\"")),
    (UInt8(ascii: "\\"), UInt8(ascii: "\\")),
    (UInt8(ascii: "{"), UInt8(ascii: "{")),
  ]

  /// The byte that `\` followed by `written` stands for, or nil when that is no escape.
  package static func meaning(of written: UInt8) -> UInt8? {
    table.first { $0.written == written }?.meaning
  }

  /// The escapes as a message lists them: `\n \t \" \\ and \{`.
  package static var listed: String {
    let escapes = table.map { "\\" + String(UnicodeScalar($0.written)) }
    return escapes.dropLast().joined(separator: " ") + " and " + escapes.last!
  }

  /// `text` as the inside of a string literal (without the quotes): each character that an
  /// escape stands for written as that escape.
  package static func escaping(_ text: String) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if scalar.isASCII, let escape = table.first(where: { $0.meaning == UInt8(scalar.value) }) {
        out.unicodeScalars.append("\\")
        out.unicodeScalars.append(UnicodeScalar(escape.written))
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
