// Token: what the lexer hands the parser. A token is a kind, a span into the source and
// the value the lexer already computed (a literal's, so the parser never re-reads digits; a
// contextual word's, so it never re-reads letters).

/// The kind of a token.
package enum TokenKind: Hashable, Sendable {
  case identifier
  case keyword(Keyword)
  case number
  case duration
  case percent
  case color
  case string
  case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
  case comma, colon, dot, semicolon, equals
  case plus, minus, star, slash
  /// `<`, `<=`, `>`, `>=`, `==`, `!=`.
  case less, lessEqual, greater, greaterEqual, equalEqual, notEqual
  /// `..<` and `...`, between a loop's bounds.
  case halfOpenRange, closedRange
  /// A newline that ends a statement (newlines inside `( )` or after an operator or a comma
  /// are not emitted).
  case newline
  case endOfFile
  /// Bytes the lexer could not read; it has already reported them.
  case invalid

  /// How messages name this kind of token: `'animate'`, `a number`, `end of line`.
  package var displayName: String {
    switch self {
    case .identifier: return "a name"
    case .keyword(let keyword): return "'\(keyword.rawValue)'"
    case .number: return "a number"
    case .duration: return "a duration"
    case .percent: return "a percent"
    case .color: return "a color"
    case .string: return "a string"
    case .leftParen: return "'('"
    case .rightParen: return "')'"
    case .leftBrace: return "'{'"
    case .rightBrace: return "'}'"
    case .leftBracket: return "'['"
    case .rightBracket: return "']'"
    case .less: return "'<'"
    case .lessEqual: return "'<='"
    case .greater: return "'>'"
    case .greaterEqual: return "'>='"
    case .equalEqual: return "'=='"
    case .notEqual: return "'!='"
    case .halfOpenRange: return "'..<'"
    case .closedRange: return "'...'"
    case .comma: return "','"
    case .colon: return "':'"
    case .dot: return "'.'"
    case .semicolon: return "';'"
    case .equals: return "'='"
    case .plus: return "'+'"
    case .minus: return "'-'"
    case .star: return "'*'"
    case .slash: return "'/'"
    case .newline: return "end of line"
    case .endOfFile: return "end of input"
    case .invalid: return "an invalid character"
    }
  }
}

extension TokenKind {
  /// Whether a line that ends with this token goes on to the next line: after a binary
  /// operator (`and`, `or` and the comparisons too) or a comma. The lexer drops the newline
  /// there, and the REPL reads another line.
  package var continuesLine: Bool {
    switch self {
    case .plus, .minus, .star, .slash, .comma, .keyword(.and), .keyword(.or),
      .less, .lessEqual, .greater, .greaterEqual, .equalEqual, .notEqual:
      return true
    default:
      return false
    }
  }
}

/// One piece of a string literal as the lexer found it: decoded text, or the byte range of
/// an interpolation's expression (between `{` and `}`), which the parser parses.
package enum StringSegment: Hashable, Sendable {
  case text(String, SourceSpan)
  case interpolation(SourceSpan)
}

/// The value of a token, computed once by the lexer: a literal's value, or which contextual
/// word an identifier spells. A string literal's segments wait in the lexer (or in
/// `LexedTokens`) under the literal's number, so that a token is trivially copyable and
/// passing tokens around costs no reference counting.
package enum TokenValue: Hashable, Sendable {
  case none
  case number(Double)
  /// Exact nanoseconds.
  case duration(Int64)
  /// The number before `%` (`40%` is 40).
  case percent(Double)
  case color(ColorLiteral)
  /// The string literal's number in its lexer (0 for the first); `Lexer.segments(of:)` and
  /// `LexedTokens.segments(of:)` give its segments.
  case string(Int)
  /// An identifier that spells a contextual word.
  case word(ContextualKeyword)
}

/// A token: a kind, the bytes it covers and its value. The lexer hands these to the parser
/// one at a time, and `tokenize` returns them all for tools.
package struct Token: Hashable, Sendable {
  package var kind: TokenKind
  package var span: SourceSpan
  package var value: TokenValue

  package init(kind: TokenKind, span: SourceSpan, value: TokenValue = .none) {
    self.kind = kind
    self.span = span
    self.value = value
  }

  /// The contextual word an identifier spells, if it spells one.
  package var word: ContextualKeyword? {
    if case .word(let word) = value { return word }
    return nil
  }
}

/// A comment and where it is: the formatter keeps comments, so the lexer collects them in a
/// side list instead of dropping them.
package struct Comment: Hashable, Sendable {
  package enum Style: Hashable, Sendable {
    /// `// ...` to the end of the line (the span excludes the newline).
    case line
    /// `/* ... */`, possibly nested and over several lines.
    case block
    /// `#!...` on the first line of a file (ignored by the language, kept by `anim fmt`).
    case shebang
  }

  package var style: Style
  package var span: SourceSpan
  /// The comment's text including its `//` or `/* */` markers.
  package var text: String

  package init(style: Style, span: SourceSpan, text: String) {
    self.style = style
    self.span = span
    self.text = text
  }
}
