// InputCompleteness: whether typed input stops in the middle of a statement, so an
// interactive reader asks for another line (`...> `) instead of reporting an error.
// Decided with the lexer's tokens, so braces inside strings and comments do not count.

/// How input typed so far ends, as far as line continuation is concerned.
package struct InputCompleteness: Hashable, Sendable {
  /// `{` not yet closed by a `}`.
  package var openBraces: Int
  /// `(` or `[` not yet closed by a `)` or `]`.
  package var openParentheses: Int
  /// The last token is one after which a statement goes on to the next line
  /// (`TokenKind.continuesLine`).
  package var endsWithContinuation: Bool

  /// Whether another line should be read before the input is evaluated.
  package var needsMoreInput: Bool {
    openBraces > 0 || openParentheses > 0 || endsWithContinuation
  }

  /// Counts the bracket tokens of `source` (strings and comments hold none) and looks at
  /// its last token.
  package init(of source: SourceText) {
    let tokens = Lexer.tokenize(source).tokens
    var braces = 0
    var parentheses = 0
    var last: TokenKind?
    for token in tokens {
      switch token.kind {
      case .leftBrace: braces += 1
      case .rightBrace: braces = max(0, braces - 1)
      case .leftParen, .leftBracket: parentheses += 1
      case .rightParen, .rightBracket: parentheses = max(0, parentheses - 1)
      case .newline, .endOfFile: continue
      default: break
      }
      last = token.kind
    }
    self.openBraces = braces
    self.openParentheses = parentheses
    endsWithContinuation = last?.continuesLine ?? false
  }
}
