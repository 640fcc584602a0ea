// Parser+Expressions: a Pratt parser. Each token kind has a rule: how it begins an
// expression (prefix), how it continues one (infix), and how tightly it binds.
//
// expression -> term
// term       -> factor { ( "+" | "-" ) factor }
// factor     -> unary { ( "*" | "/" ) unary }
// unary      -> "-" unary | postfix
// postfix    -> primary { "." word }
// primary    -> number | duration | percent | color | string | "now"
//             | identifier [ "(" [ argument { "," argument } ] ")" ]
//             | "(" expression ")" | "(" expression "," expression [ "," expression [ "," expression ] ] ")"
// argument   -> [ word ":" ] expression

/// How tightly an operator binds; higher binds tighter.
enum Precedence: Int, Comparable {
  case none
  case term  // + -
  case factor  // * /
  case unary  // -
  case postfix  // . member

  static func < (left: Precedence, right: Precedence) -> Bool { left.rawValue < right.rawValue }
}

extension Parser {
  /// The binding power of a token used as an infix operator, or `.none`.
  static func infixPrecedence(of kind: TokenKind) -> Precedence {
    switch kind {
    case .plus, .minus: return .term
    case .star, .slash: return .factor
    case .dot: return .postfix
    default: return .none
    }
  }

  /// Whether a token can begin an expression (it has a prefix rule).
  func startsExpression(_ kind: TokenKind) -> Bool {
    switch kind {
    case .number, .duration, .percent, .color, .string, .identifier, .keyword(.now), .leftParen, .minus:
      return true
    default:
      return false
    }
  }

  /// Parses a full expression. `context` completes "expected an expression ..." messages
  /// (`after 'to'`).
  mutating func parseExpression(context: String) throws -> Expression {
    try parseExpression(atLeast: .term, context: context)
  }

  /// The Pratt loop: a prefix rule, then infix rules while they bind at least as tightly as
  /// `minimum`.
  mutating func parseExpression(atLeast minimum: Precedence, context: String) throws -> Expression {
    try enterLevel()
    defer { depth -= 1 }
    var left = try parsePrefix(context: context)
    while true {
      let precedence = Parser.infixPrecedence(of: current.kind)
      if precedence == .none || precedence < minimum { break }
      left = try parseInfix(left: left, precedence: precedence)
    }
    return left
  }

  // primary and unary
  mutating func parsePrefix(context: String) throws -> Expression {
    let token = current
    switch token.kind {
    case .number:
      advance()
      guard case .number(let value) = token.value else { return Expression(.invalid, span: token.span) }
      return Expression(.number(value), span: token.span)
    case .duration:
      advance()
      guard case .duration(let nanoseconds) = token.value else { return Expression(.invalid, span: token.span) }
      return Expression(.duration(nanoseconds: nanoseconds), span: token.span)
    case .percent:
      advance()
      guard case .percent(let value) = token.value else { return Expression(.invalid, span: token.span) }
      return Expression(.percent(value), span: token.span)
    case .color:
      advance()
      guard case .color(let color) = token.value else { return Expression(.invalid, span: token.span) }
      return Expression(.color(color), span: token.span)
    case .string:
      advance()
      let literal = parseStringLiteral(token)
      return Expression(.string(literal), span: literal.span)
    case .keyword(.now):
      advance()
      return Expression(.now, span: token.span)
    case .identifier:
      advance()
      let name = identifier(token)
      if current.kind == .leftParen { return try parseCall(callee: name) }
      return Expression(.name(name), span: token.span)
    case .leftParen:
      return try parseParenthesized()
    case .minus:
      // unary -> "-" unary
      advance()
      let operand = try parseExpression(atLeast: .unary, context: "after '-'")
      return Expression(.negate(operand), span: token.span.through(operand.span))
    default:
      let suffix = context.isEmpty ? "" : " \(context)"
      if case .keyword(let keyword) = token.kind {
        throw fail(
          "expected an expression\(suffix), found '\(keyword.rawValue)', which is a reserved word",
          at: token.span)
      }
      throw expected("an expression\(suffix)")
    }
  }

  // term, factor, postfix
  mutating func parseInfix(left: Expression, precedence: Precedence) throws -> Expression {
    let operatorToken = advance()
    switch operatorToken.kind {
    case .dot:
      // postfix -> primary { "." word }   (any word, keywords included: `r.to`)
      let name = try expectWord("a property name after '.'")
      return Expression(.member(base: left, name: name), span: left.span.through(name.span))
    default:
      let symbol: BinaryOperator
      switch operatorToken.kind {
      case .plus: symbol = .add
      case .minus: symbol = .subtract
      case .star: symbol = .multiply
      default: symbol = .divide
      }
      // Left-associative: the right side binds one level tighter.
      let tighter = Precedence(rawValue: precedence.rawValue + 1) ?? .postfix
      let right = try parseExpression(atLeast: tighter, context: "after '\(symbol.rawValue)'")
      return Expression(.binary(symbol, left, right), span: left.span.through(right.span))
    }
  }

  // primary -> "(" expression ")" | "(" expression "," expression [ "," expression [ "," expression ] ] ")"
  mutating func parseParenthesized() throws -> Expression {
    let open = advance()
    var elements: [Expression] = []
    while true {
      elements.append(try parseExpression(context: elements.isEmpty ? "after '('" : "after ','"))
      if current.kind == .comma {
        advance()
        continue
      }
      break
    }
    let close = try expectClosingParenthesis(openedBy: open, what: elements.count == 1 ? "the parenthesis" : "the vector")
    let span = open.span.through(close.span)
    if elements.count == 1 { return Expression(.parenthesized(elements[0]), span: span) }
    if elements.count > 4 {
      report("a vector has 2, 3 or 4 components; this one has \(elements.count)", at: span)
    }
    return Expression(.vector(elements), span: span)
  }

  // call -> identifier "(" [ argument { "," argument } ] ")"
  // argument -> [ word ":" ] expression
  mutating func parseCall(callee: Identifier) throws -> Expression {
    let open = advance()
    try enterLevel()
    defer { depth -= 1 }
    var arguments: [Argument] = []
    if current.kind != .rightParen {
      while true {
        var label: Identifier?
        let isWord: Bool
        switch current.kind {
        case .identifier, .keyword: isWord = true
        default: isWord = false
        }
        if isWord && peek(1).kind == .colon {
          label = identifier(advance())
          advance()
        }
        let value = try parseExpression(context: label.map { "after '\($0.text):'" } ?? "as an argument of '\(callee.text)'")
        arguments.append(Argument(label: label, value: value, span: (label?.span ?? value.span).through(value.span)))
        if current.kind == .comma {
          advance()
          continue
        }
        break
      }
    }
    let close = try expectClosingParenthesis(openedBy: open, what: "the arguments of '\(callee.text)'")
    return Expression(.call(callee: callee, arguments: arguments), span: callee.span.through(close.span))
  }

  mutating func expectClosingParenthesis(openedBy open: Token, what: String) throws -> Token {
    if current.kind == .rightParen { return advance() }
    let line = source.line(of: open.span.start)
    if current.kind == .endOfFile { isIncomplete = true }
    if current.kind == .invalid { throw SyntaxError() }
    throw fail(
      "expected ')' to close \(what) opened at line \(line), found \(describe(current))",
      at: current.span, notes: [Diagnostic.Note("'(' opens here", span: open.span)])
  }

  // string -> '"' { text | "{" expression "}" } '"'
  /// Builds a string literal from the lexer's segments, parsing each interpolation's inside
  /// with a parser of its own over the same source (so spans stay file offsets).
  mutating func parseStringLiteral(_ token: Token) -> StringLiteral {
    guard case .string(let segments) = token.value else { return StringLiteral(parts: [], span: token.span) }
    var parts: [StringPart] = []
    for segment in segments {
      switch segment {
      case .text(let text, let span):
        parts.append(.text(text, span))
      case .interpolation(let span):
        parts.append(.interpolation(parseInterpolation(span)))
      }
    }
    return StringLiteral(parts: parts, span: token.span)
  }

  mutating func parseInterpolation(_ span: SourceSpan) -> Expression {
    let lexed = Lexer.tokenize(source, range: span.start..<span.end)
    var inner = Parser(
      source: source, tokens: lexed.tokens, diagnostics: lexed.diagnostics, comments: lexed.comments,
      depth: depth)
    defer {
      diagnostics += inner.diagnostics
      comments += inner.comments
    }
    if inner.current.kind == .endOfFile {
      inner.report("expected an expression inside '{ }' (write '\\{' for a literal brace)", at: span)
      return Expression(.invalid, span: span)
    }
    do {
      let expression = try inner.parseExpression(context: "inside '{ }'")
      if inner.current.kind != .endOfFile {
        throw inner.fail(
          "expected '}' to end the interpolation, found \(inner.describe(inner.current))", at: inner.current.span)
      }
      return expression
    } catch {
      return Expression(.invalid, span: span)
    }
  }
}
