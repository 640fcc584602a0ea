// Parser+Expressions: a Pratt parser. Each token kind has a rule: how it begins an
// expression (prefix), how it continues one (infix), and how tightly it binds.
//
// expression -> disjunction
// disjunction -> conjunction { "or" conjunction }
// conjunction -> negation { "and" negation }
// negation   -> "not" negation | comparison
// comparison -> term [ ( "<" | "<=" | ">" | ">=" | "==" | "!=" ) term ]
// term       -> factor { ( "+" | "-" ) factor }
// factor     -> unary { ( "*" | "/" ) unary }
// unary      -> "-" unary | postfix
// postfix    -> primary { "." word }
// primary    -> number | duration | percent | color | string | "now" | "true" | "false"
//             | identifier | member | call | parenthesized | vector
// member     -> identifier "[" expression "]"
// call       -> identifier "(" [ argument { "," argument } ] ")"
// argument   -> [ word ":" ] expression
// parenthesized -> "(" expression ")"
// vector     -> "(" expression "," expression [ "," expression [ "," expression ] ] ")"

/// How tightly an operator binds; higher binds tighter.
enum Precedence: Int, Comparable {
  case none
  case disjunction  // or
  case conjunction  // and
  case negation  // not
  case comparison  // < <= > >= == !=
  case term  // + -
  case factor  // * /
  case unary  // -
  case postfix  // . member

  static func < (left: Precedence, right: Precedence) -> Bool { left.rawValue < right.rawValue }

  /// The next tighter level: the right operand of a left-associative operator.
  var tighter: Precedence { Precedence(rawValue: rawValue + 1) ?? .postfix }
}

/// How a token begins an expression: the prefix column of the Pratt table. The parser
/// dispatches on it, so a token kind that can begin an expression is listed here once.
enum PrefixRule {
  case literal, string, now, boolean, nameOrCall, parenthesized, negation, not

  /// The rule of a token kind, or nil when the token cannot begin an expression.
  init?(_ kind: TokenKind) {
    switch kind {
    case .number, .duration, .percent, .color: self = .literal
    case .string: self = .string
    case .keyword(.now): self = .now
    case .keyword(.true), .keyword(.false): self = .boolean
    case .keyword(.not): self = .not
    case .identifier: self = .nameOrCall
    case .leftParen: self = .parenthesized
    case .minus: self = .negation
    default: return nil
    }
  }
}

/// How a token continues an expression, and how tightly it binds: the infix column of the
/// Pratt table, which the parser dispatches on.
enum InfixRule {
  /// `+ - * /`.
  case binary(Precedence)
  /// `.name`.
  case member

  /// The rule of a token kind, or nil when the token does not continue an expression.
  init?(_ kind: TokenKind) {
    switch kind {
    case .keyword(.or): self = .binary(.disjunction)
    case .keyword(.and): self = .binary(.conjunction)
    case .less, .lessEqual, .greater, .greaterEqual, .equalEqual, .notEqual: self = .binary(.comparison)
    case .plus, .minus: self = .binary(.term)
    case .star, .slash: self = .binary(.factor)
    case .dot: self = .member
    default: return nil
    }
  }

  var precedence: Precedence {
    switch self {
    case .binary(let precedence): return precedence
    case .member: return .postfix
    }
  }
}

extension Parser {
  /// Whether a token can begin an expression (it has a prefix rule).
  func startsExpression(_ kind: TokenKind) -> Bool { PrefixRule(kind) != nil }

  /// Parses a full expression. `context` completes "expected an expression ..." messages
  /// (`after 'to'`).
  mutating func parseExpression(context: @autoclosure () -> String) throws -> Expression {
    try parseExpression(atLeast: .disjunction, context: context())
  }

  /// The Pratt loop: the current token's prefix rule, then infix rules while they bind at
  /// least as tightly as `minimum`.
  mutating func parseExpression(
    atLeast minimum: Precedence, context: @autoclosure () -> String
  ) throws -> Expression {
    try enterLevel()
    defer { depth -= 1 }
    guard let prefix = PrefixRule(current.kind) else {
      throw expectedExpression(context: context())
    }
    var left = try parse(prefix, advance())
    // Each operator applied makes the tree one level deeper (`1 + 1 + 1` nests to the
    // left), and the checker and formatter walk the tree recursively: a chain counts
    // toward the nesting limit as parentheses do.
    var chain = 0
    defer { depth -= chain }
    while let infix = InfixRule(current.kind), infix.precedence >= minimum {
      chain += 1
      try enterLevel()
      left = try parse(infix, after: left, advance())
    }
    return left
  }

  /// Applies a prefix rule to the token it was chosen by.
  mutating func parse(_ rule: PrefixRule, _ token: Token) throws -> Expression {
    switch rule {
    case .literal: return parseLiteral(token)
    case .string: return parseString(token)
    case .now: return parseNow(token)
    case .boolean: return Expression(.boolean(token.kind == .keyword(.true)), span: token.span)
    case .not: return try parseNot(token)
    case .nameOrCall: return try parseNameOrCall(token)
    case .parenthesized: return try parseParenthesized(token)
    case .negation: return try parseNegation(token)
    }
  }

  /// Applies an infix rule to the expression so far and the operator token.
  mutating func parse(_ rule: InfixRule, after left: Expression, _ token: Token) throws -> Expression {
    switch rule {
    case .binary(let precedence): return try parseBinary(left, token, precedence: precedence)
    case .member: return try parseMember(left, token)
    }
  }

  mutating func expectedExpression(context: String) -> SyntaxError {
    let suffix = context.isEmpty ? "" : " \(context)"
    if case .keyword(let keyword) = current.kind {
      return fail(
        "expected an expression\(suffix), found '\(keyword.rawValue)', which is a reserved word",
        at: current.span)
    }
    return expected("an expression\(suffix)")
  }

  // primary -> number | duration | percent | color | ...
  mutating func parseLiteral(_ token: Token) -> Expression {
    let kind: ExpressionKind
    switch token.value {
    case .number(let value): kind = .number(value)
    case .duration(let nanoseconds): kind = .duration(nanoseconds: nanoseconds)
    case .percent(let value): kind = .percent(value)
    case .color(let color): kind = .color(color)
    case .none, .string, .word: kind = .invalid
    }
    return Expression(kind, span: token.span)
  }

  // primary -> ... | string | ...
  mutating func parseString(_ token: Token) -> Expression {
    let literal = parseStringLiteral(token)
    return Expression(.string(literal), span: literal.span)
  }

  // primary -> ... | "now" | ...
  mutating func parseNow(_ token: Token) -> Expression {
    Expression(.now, span: token.span)
  }

  // primary -> ... | identifier | member | call | ...
  mutating func parseNameOrCall(_ token: Token) throws -> Expression {
    let name = identifier(token)
    if current.kind == .leftParen { return try parseCall(callee: name, open: advance()) }
    if current.kind == .leftBracket {
      let index = try parseIndex(of: name)
      return Expression(.index(base: name, index: index), span: token.span.through(previousSpan))
    }
    return Expression(.name(name), span: token.span)
  }

  // member -> identifier "[" expression "]"
  /// A group member's index, after its group's name; the `[` is current.
  mutating func parseIndex(of group: Identifier) throws -> Expression {
    let open = advance()
    try enterLevel()
    defer { depth -= 1 }
    let index = try parseExpression(context: "for the index of '\(group.text)'")
    guard current.kind == .rightBracket else {
      if current.kind == .invalid { throw SyntaxError() }
      throw fail(
        "expected ']' to close the index of '\(group.text)', found \(describe(current))", at: foundSpan,
        notes: [Diagnostic.Note("'[' opens here", span: open.span)])
    }
    advance()
    return index
  }

  // unary -> "-" unary
  mutating func parseNegation(_ minus: Token) throws -> Expression {
    let operand = try parseExpression(atLeast: .unary, context: "after '-'")
    return Expression(.negate(operand), span: minus.span.through(operand.span))
  }

  // negation -> "not" negation | comparison
  mutating func parseNot(_ not: Token) throws -> Expression {
    let operand = try parseExpression(atLeast: .comparison, context: "after 'not'")
    return Expression(.not(operand), span: not.span.through(operand.span))
  }

  // term -> factor { ( "+" | "-" ) factor }
  // factor -> unary { ( "*" | "/" ) unary }
  mutating func parseBinary(
    _ left: Expression, _ operatorToken: Token, precedence: Precedence
  ) throws -> Expression {
    let symbol: BinaryOperator
    switch operatorToken.kind {
    case .plus: symbol = .add
    case .minus: symbol = .subtract
    case .star: symbol = .multiply
    case .slash: symbol = .divide
    case .less: symbol = .less
    case .lessEqual: symbol = .lessOrEqual
    case .greater: symbol = .greater
    case .greaterEqual: symbol = .greaterOrEqual
    case .equalEqual: symbol = .equal
    case .notEqual: symbol = .notEqual
    case .keyword(.and): symbol = .and
    default: symbol = .or
    }
    // Left-associative: the right side binds one level tighter.
    let right = try parseExpression(atLeast: precedence.tighter, context: "after '\(symbol.rawValue)'")
    // Comparisons do not chain: `a < b < c` would compare a boolean with a number.
    if symbol.isComparison, let next = InfixRule(current.kind), next.precedence == .comparison {
      throw fail(
        "comparisons do not chain: write 'a < b and b < c' (or parenthesize one comparison)", at: current.span)
    }
    return Expression(.binary(symbol, left, right), span: left.span.through(right.span))
  }

  // postfix -> primary { "." word }    (any word, keywords included: `r.to`)
  mutating func parseMember(_ left: Expression, _ dot: Token) throws -> Expression {
    let name = try expectWord("a property name after '.'")
    return Expression(.member(base: left, name: name), span: left.span.through(name.span))
  }

  // parenthesized -> "(" expression ")"
  // vector -> "(" expression "," expression [ "," expression [ "," expression ] ] ")"
  mutating func parseParenthesized(_ open: Token) throws -> Expression {
    var elements: [Expression] = []
    elements.reserveCapacity(4)  // one allocation for any vector (appending grows it twice)
    while true {
      elements.append(try parseExpression(context: elements.isEmpty ? "after '('" : "after ','"))
      if current.kind == .comma {
        advance()
        continue
      }
      break
    }
    let close = try expectClosingParenthesis(
      openedBy: open, what: elements.count == 1 ? "the parenthesis" : "the vector")
    let span = open.span.through(close.span)
    if elements.count == 1 { return Expression(.parenthesized(elements[0]), span: span) }
    if elements.count > 4 {
      report("a vector has 2, 3 or 4 components; this one has \(elements.count)", at: span)
    }
    return Expression(.vector(elements), span: span)
  }

  // call -> identifier "(" [ argument { "," argument } ] ")"
  // argument -> [ word ":" ] expression
  mutating func parseCall(callee: Identifier, open: Token) throws -> Expression {
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
          label = takeIdentifier()
          advance()
        }
        let value = try parseExpression(
          context: label.map { "after '\($0.text):'" } ?? "as an argument of '\(callee.text)'")
        if arguments.isEmpty { arguments.reserveCapacity(4) }
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
    if current.kind == .invalid { throw SyntaxError() }
    throw fail(
      "expected ')' to close \(what) opened at line \(line), found \(describe(current))",
      at: current.span, notes: [Diagnostic.Note("'(' opens here", span: open.span)])
  }

  // string -> '"' { character | escape | interpolation } '"'
  /// Builds a string literal from the lexer's segments, parsing each interpolation's inside
  /// with a parser of its own over the same source (so spans stay file offsets).
  mutating func parseStringLiteral(_ token: Token) -> StringLiteral {
    guard case .string = token.value else { return StringLiteral(parts: [], span: token.span) }
    let segments = lexer.segments(of: token)
    var parts: [StringPart] = []
    parts.reserveCapacity(segments.count)
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
    var inner = Parser(
      source: source, range: span.start..<span.end, keepsComments: lexer.keepsComments, depth: depth)
    defer {
      // The whole inside is lexed, for the lexer's errors and comments after a syntax error.
      while inner.lexer.next().kind != .endOfFile {}
      diagnostics += inner.lexer.diagnostics + inner.diagnostics
      comments += inner.lexer.comments + inner.comments
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
