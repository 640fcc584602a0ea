// Parser: tokens to a `SourceFile`. Recursive descent for statements (this file), a Pratt
// parser for expressions (Parser+Expressions.swift). The grammar rule each function
// implements is the comment above it; grammar.md collects the same rules.
//
// Errors: a parse function that meets an error reports it once and throws `SyntaxError`;
// the statement loop catches it and skips to the next statement start (panic mode), so one
// parse reports every syntax error. Blocks and expressions together nest at most
// `Parser.nestingLimit` levels; deeper input is one error, never a stack overflow.

import AnimCore

/// What parsing a script produced: the tree (statements with syntax errors are left out)
/// and the diagnostics, in source order of discovery.
package struct ParseResult: Sendable {
  package var file: SourceFile
  package var diagnostics: [Diagnostic]

  /// Whether any diagnostic is an error.
  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Parses a whole script.
///
/// - Parameter source: the script's text.
/// - Returns: the syntax tree, every syntax error found, and whether the input looks cut
///   short (for the REPL's continuation lines).
package func parse(_ source: SourceText) -> ParseResult {
  Parser.parse(source)
}

/// The top-level statement at `span` of `source` read again: the tree the whole reading
/// made of it, spans included (they are offsets into `source`), so the checker's facts
/// about it, by span, still apply. A runner that holds a statement for later keeps its span
/// instead of its tree (a script may hold a hundred thousand).
///
/// - Parameters:
///   - source: the text the statement was read from.
///   - span: the statement's span (`Statement.span`), placement included.
/// - Returns: the statement; nil when the text at `span` is not one statement without
///   syntax errors.
package func reparseStatement(of source: SourceText, at span: SourceSpan) -> Statement? {
  var parser = Parser(source: source, range: span.start..<span.end, keepsComments: false)
  guard let statement = parser.nextStatementOfFile(), !parser.hasErrors, statement.span == span,
    parser.nextStatementOfFile() == nil, !parser.hasErrors
  else { return nil }
  return statement
}

/// Thrown after a syntax error has been reported, to unwind to the statement loop.
struct SyntaxError: Error {
  /// The nesting limit was passed: the rest of the input is abandoned.
  var abandonsInput = false
}

struct Parser {
  /// The deepest nesting of blocks and expressions together that a script may use.
  static let nestingLimit = 256

  let source: SourceText
  /// Hands out the tokens one at a time.
  var lexer: Lexer
  /// The token being looked at.
  var current: Token
  /// The token after `current`, once `peek(1)` has asked for it.
  var lookahead: Token?
  /// The kind and span of the last token consumed (a few messages look one token back).
  var previous: (kind: TokenKind, span: SourceSpan)?
  /// How many tokens have been consumed.
  var index = 0
  /// The parser's own errors (the lexer keeps its own).
  var diagnostics: [Diagnostic] = []
  /// Comments found inside string interpolations (the lexer keeps the others).
  var comments: [Comment] = []
  var depth: Int
  /// Set once the file's statements are all read (or the input was abandoned).
  var finished = false

  /// A parser over `range` of `source` (the whole text by default). Without
  /// `keepsComments`, comments are checked but not collected.
  init(source: SourceText, range: Range<Int>? = nil, keepsComments: Bool = true, depth: Int = 0) {
    self.source = source
    var lexer = Lexer(source, range: range, keepsComments: keepsComments)
    self.current = lexer.next()
    self.lexer = lexer
    self.depth = depth
  }

  static func parse(_ source: SourceText) -> ParseResult {
    var parser = Parser(source: source)
    var statements: [Statement] = []
    while let statement = parser.nextStatementOfFile() {
      statements.append(statement)
    }
    let (diagnostics, comments) = parser.finish()
    let file = SourceFile(
      statements: statements, comments: comments, span: SourceSpan(start: 0, end: source.bytes.count))
    return ParseResult(file: file, diagnostics: diagnostics)
  }

  /// After the last statement: lexes whatever the parse did not reach (for the lexer's
  /// errors and comments there), and returns every diagnostic in source order (the lexer's
  /// first among those at one offset, as they are found first) and every comment in order.
  mutating func finish() -> (diagnostics: [Diagnostic], comments: [Comment]) {
    while lexer.next().kind != .endOfFile {}
    let ordered = (lexer.diagnostics + diagnostics).enumerated().sorted {
      ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset)
    }.map(\.element)
    let comments = (lexer.comments + self.comments).sorted { $0.span.start < $1.span.start }
    return (ordered, comments)
  }

  /// Whether any syntax error has been found so far.
  var hasErrors: Bool { !diagnostics.isEmpty || !lexer.diagnostics.isEmpty }

  // MARK: - Statement lists

  // file -> { separator } [ statement { separator { separator } statement } ] { separator }
  // separator -> newline | ";"
  /// The next top-level statement of the file, or nil at its end. A statement with a syntax
  /// error is reported and skipped.
  mutating func nextStatementOfFile() -> Statement? {
    // The lexer reads the bytes through one buffer pointer for the whole statement, instead
    // of taking one for each token.
    let bytes = source.bytes
    return bytes.withUnsafeBufferPointer { buffer in
      lexer.buffer = buffer
      defer { lexer.buffer = UnsafeBufferPointer(start: nil, count: 0) }
      return readStatementOfFile()
    }
  }

  private mutating func readStatementOfFile() -> Statement? {
    while !finished {
      skipSeparators()
      if current.kind == .endOfFile { break }
      if current.kind == .rightBrace {
        report("unexpected '}': there is no open block to close", at: current.span)
        advance()
        continue
      }
      let statementStart = index
      do {
        let statement = try parseStatement()
        try expectStatementEnd()
        return statement
      } catch let error as SyntaxError {
        if error.abandonsInput { break }
        synchronize(statementStart: statementStart)
      } catch {
        break
      }
    }
    finished = true
    return nil
  }

  // block -> "{" { separator } [ statement { separator { separator } statement } ] { separator } "}"
  /// Parses a braced statement list. `opener` names what the block belongs to, for the
  /// "expected '}' to close ..." message, which also names the opener's line.
  mutating func parseBlock(of opener: @autoclosure () -> String) throws -> Block {
    let open = try expectOpeningBrace(of: opener())
    try enterLevel()
    defer { depth -= 1 }
    var statements: [Statement] = []
    while true {
      skipSeparators()
      if current.kind == .rightBrace {
        let close = advance()
        return Block(statements: statements, span: open.span.through(close.span))
      }
      if current.kind == .endOfFile {
        throw unclosedBlock(of: opener(), openedBy: open)
      }
      let statementStart = index
      do {
        let statement = try parseStatement()
        try expectStatementEnd()
        if statements.isEmpty { statements.reserveCapacity(4) }
        statements.append(statement)
      } catch let error as SyntaxError {
        if error.abandonsInput { throw error }
        synchronize(statementStart: statementStart)
      }
    }
  }

  // MARK: - Statements

  // statement -> letDecl | curveDecl | targetDecl | timelineDecl | handler | label
  //            | varDecl | forLoop | conditional | [ placement ] item
  // placement -> "at" [ "+" | "-" ] expression | "with" "previous"
  mutating func parseStatement() throws -> Statement {
    let start = current.span
    switch current.kind {
    case .keyword(.let): return try parseLet()
    case .keyword(.curve): return try parseCurve()
    case .keyword(.target): return try parseTarget()
    case .keyword(.timeline): return try parseTimeline()
    case .keyword(.on): return try parseHandler()
    case .keyword(.var): return try parseVariable()
    case .keyword(.for): return try parseForLoop()
    case .keyword(.if): return try parseConditional()
    case .keyword(.else):
      throw fail("'else' must follow the '}' of an 'if' on the same line ('} else {')", at: current.span)
    case .identifier where contextualStatementStart() == .label: return try parseLabel()
    case .keyword(.at):
      advance()
      var sign: Sign?
      if current.kind == .plus || current.kind == .minus {
        sign = current.kind == .plus ? .plus : .minus
        advance()
      }
      let offset = try parseExpression(context: "after 'at'")
      let placement = Placement.at(relativeSign: sign, offset: offset, span: start.through(offset.span))
      return try parseItem(placement: placement, start: start)
    case .keyword(.with):
      advance()
      guard current.word == .previous else {
        throw expected("'previous' after 'with' (a placement is 'with previous ITEM')")
      }
      let previous = advance()
      return try parseItem(placement: .withPrevious(span: start.through(previous.span)), start: start)
    default:
      return try parseItem(placement: nil, start: start)
    }
  }

  // item -> animate | keyframes | set | print | emit | control | wait | group | assignment
  //       | nested | expression
  // nested -> identifier options    (a timeline's name: alone, it is an expression)
  // assignment -> identifier "=" expression
  // print -> "print" string
  // emit -> "emit" string
  // wait -> "wait" expression
  mutating func parseItem(placement: Placement?, start: SourceSpan) throws -> Statement {
    let kind: StatementKind
    switch current.kind {
    case .keyword(.animate): kind = .animate(try parseAnimate())
    case .keyword(.keyframes): kind = .keyframes(try parseKeyframes())
    case .keyword(.print):
      advance()
      kind = .print(try parseStringArgument(of: "print"))
    case .keyword(.emit):
      advance()
      kind = .emit(try parseStringArgument(of: "emit"))
    case .identifier where contextualStatementStart() == .set: kind = .set(try parseSet())
    case .identifier where contextualStatementStart() == .wait:
      advance()
      kind = .wait(try parseExpression(context: "after 'wait'"))
    case .identifier where contextualStatementStart() == .sequence || contextualStatementStart() == .parallel:
      kind = .group(try parseGroup())
    case .identifier where contextualStatementStart() == .speed:
      kind = .control(try parseControl())
    case .keyword(let keyword) where ControlAction(keyword) != nil:
      kind = .control(try parseControl())
    case .identifier where contextualStatementStart() == .label:
      throw cannotFollowPlacement("label")
    case .keyword(let keyword)
    where keyword.statementStart == .declaration || keyword.statementStart == .placement
      || keyword.statementStart == .flow:
      throw cannotFollowPlacement(keyword.rawValue)
    case .keyword(let keyword) where !startsExpression(current.kind):
      throw fail("expected a statement, found '\(keyword.rawValue)', which is a reserved word", at: current.span)
    case .identifier where peek(1).kind == .equals:
      let name = takeIdentifier()
      advance()
      let value = try parseExpression(context: "after '\(name.text) ='")
      kind = .assignment(Assignment(name: name, value: value))
    default:
      if !startsExpression(current.kind) {
        throw expected(placement == nil ? "a statement" : "an item after the placement (animate, print, wait, ...)")
      }
      let expression = try parseExpression(context: "")
      // `intro speed 2 repeat 2`: a timeline's name with options is a nested timeline item.
      if case .name(let name) = expression.kind, current.word?.isOption == true {
        let options = try parseOptions()
        kind = .nested(NestedTimeline(name: name, options: options))
        break
      }
      // `animte card.x to 1`: a lone unknown word followed by more on the line is most
      // likely a misspelt statement keyword.
      if case .name(let name) = expression.kind, !isStatementEnd(current.kind) {
        let suggestion = didYouMean(name.text, among: statementStartWords)
        if !suggestion.isEmpty {
          throw fail("unknown statement '\(name.text)'\(suggestion)", at: name.span)
        }
      }
      kind = .expression(expression)
    }
    return Statement(placement: placement, kind: kind, span: start.through(previousSpan))
  }

  // letDecl -> "let" identifier "=" expression
  mutating func parseLet() throws -> Statement {
    let (name, value, span) = try parseBinding(of: "let")
    return Statement(kind: .letBinding(LetDeclaration(name: name, value: value)), span: span)
  }

  // varDecl -> "var" identifier "=" expression
  mutating func parseVariable() throws -> Statement {
    let (name, value, span) = try parseBinding(of: "var")
    return Statement(kind: .variable(VariableDeclaration(name: name, value: value)), span: span)
  }

  /// `KEYWORD NAME = EXPR`, the keyword current.
  mutating func parseBinding(of keyword: String) throws -> (Identifier, Expression, SourceSpan) {
    let start = advance().span
    let name = try expectIdentifier("a name after '\(keyword)'")
    try expect(.equals, "'=' after '\(keyword) \(name.text)'")
    let value = try parseExpression(context: "after '\(keyword) \(name.text) ='")
    return (name, value, start.through(value.span))
  }

  // forLoop -> "for" identifier "in" expression ( "..<" | "..." ) expression block
  mutating func parseForLoop() throws -> Statement {
    let start = advance().span
    let variable = try expectIdentifier("a name after 'for'")
    guard current.kind == .keyword(.in) else { throw expected("'in' after 'for \(variable.text)'") }
    advance()
    let lower = try parseExpression(context: "after 'in' (a range 'A..<B' or 'A...B')")
    guard current.kind == .halfOpenRange || current.kind == .closedRange else {
      throw expected("'..<' or '...' after the loop's first bound")
    }
    let closed = advance().kind == .closedRange
    let upper = try parseExpression(context: "after '\(closed ? "..." : "..<")'")
    let body = try parseBlock(of: "'for \(variable.text)'")
    let loop = ForLoop(variable: variable, lower: lower, upper: upper, closed: closed, body: body)
    return Statement(kind: .loop(loop), span: start.through(body.span))
  }

  // conditional -> "if" expression block { "else" "if" expression block } [ "else" block ]
  mutating func parseConditional() throws -> Statement {
    let start = advance().span
    var branches: [Conditional.Branch] = []
    var otherwise: Block?
    while true {
      let condition = try parseExpression(context: "after 'if' (a condition)")
      let body = try parseBlock(of: "'if'")
      branches.append(Conditional.Branch(condition: condition, body: body))
      guard current.kind == .keyword(.else) else { break }
      advance()
      if current.kind == .keyword(.if) {
        advance()
        continue
      }
      otherwise = try parseBlock(of: "'else'")
      break
    }
    let conditional = Conditional(branches: branches, otherwise: otherwise)
    return Statement(kind: .conditional(conditional), span: start.through(previousSpan))
  }

  // curveDecl -> "curve" identifier "=" expression
  mutating func parseCurve() throws -> Statement {
    let start = advance().span
    let name = try expectIdentifier("a name after 'curve'")
    try expect(.equals, "'=' after 'curve \(name.text)'")
    let value = try parseExpression(context: "after 'curve \(name.text) ='")
    return Statement(kind: .curve(CurveDeclaration(name: name, value: value)), span: start.through(value.span))
  }

  // targetDecl -> "target" identifier [ "[" expression "]" ] [ ":" targetKind ] "{" { newline } [ propertyInit { listSeparator propertyInit } [ "," ] ] { newline } "}"
  // targetKind -> "rect" | "circle" | "text" string | "none"
  // propertyInit -> word ":" expression
  // listSeparator -> "," { newline } | newline { newline }
  mutating func parseTarget() throws -> Statement {
    let start = advance().span
    let name = try expectIdentifier("a name after 'target'")
    var count: Expression?
    if current.kind == .leftBracket { count = try parseIndex(of: name) }
    var kind: TargetKind?
    if current.kind == .colon {
      advance()
      let word = current
      switch word.word {
      case .rect?: kind = .rect(advance().span)
      case .circle?: kind = .circle(advance().span)
      case .none?: kind = .none(advance().span)
      case .text?:
        advance()
        let literal = try parseStringArgument(of: "text")
        kind = .text(literal, span: word.span.through(literal.span))
      default:
        throw expected("a kind after ':' ('rect', 'circle', 'text \"...\"' or 'none')")
      }
    }
    let opener = "target '\(name.text)'"
    let open = try expectOpeningBrace(of: opener)
    try enterLevel()
    defer { depth -= 1 }
    var properties: [PropertyInitializer] = []
    let close = try parseList(of: opener, openedBy: open) { parser in
      let propertyName = try parser.expectWord("a property name")
      try parser.expect(.colon, "':' after property '\(propertyName.text)'")
      let value = try parser.parseExpression(context: "after '\(propertyName.text):'")
      if properties.isEmpty { properties.reserveCapacity(4) }
      properties.append(
        PropertyInitializer(name: propertyName, value: value, span: propertyName.span.through(value.span)))
    }
    let declaration = TargetDeclaration(
      name: name, count: count, kind: kind, properties: properties, bodySpan: open.span.through(close.span))
    return Statement(kind: .target(declaration), span: start.through(close.span))
  }

  // timelineDecl -> "timeline" identifier options block
  mutating func parseTimeline() throws -> Statement {
    let start = advance().span
    let name = try expectIdentifier("a name after 'timeline'")
    let options = try parseOptions()
    let body = try parseBlock(of: "timeline '\(name.text)'")
    let declaration = TimelineDeclaration(name: name, options: options, body: body)
    return Statement(kind: .timeline(declaration), span: start.through(body.span))
  }

  // group -> ( "sequence" | "parallel" ) options block
  mutating func parseGroup() throws -> GroupStatement {
    let keyword = advance()
    let kind: GroupKind = keyword.word == .sequence ? .sequence : .parallel
    let options = try parseOptions()
    let body = try parseBlock(of: "'\(kind.rawValue)'")
    return GroupStatement(kind: kind, options: options, body: body)
  }

  // handler -> "on" ( ( "complete" | "start" | "repeat" ) subject | string ) block
  mutating func parseHandler() throws -> Statement {
    let start = advance().span
    let event: EventSelector
    let description: String
    if current.kind == .string {
      let name = try parseStringArgument(of: "on")
      event = .custom(name)
      description = "handler 'on \(source.text(of: name.span))'"
    } else {
      let word = current
      let text = source.text(of: word.span)
      let kind: LifecycleEvent?
      kind = word.kind == .identifier ? LifecycleEvent(rawValue: text) : nil
      guard let kind else {
        var message =
          "expected 'complete', 'start', 'repeat' or an event name string after 'on', found \(describe(word))"
        if word.kind == .identifier {
          message += didYouMean(text, among: LifecycleEvent.allCases.map(\.rawValue))
        }
        throw fail(message, at: foundSpan)
      }
      advance()
      let subject = try parseSubject(after: "'on \(kind.rawValue)'")
      event = .lifecycle(kind: kind, kindSpan: word.span, subject: subject)
      description = "handler 'on \(kind.rawValue) \(source.text(of: subject.span))'"
    }
    let body = try parseBlock(of: description)
    return Statement(kind: .handler(EventHandler(event: event, body: body)), span: start.through(body.span))
  }

  // label -> "label" identifier [ "at" expression ]
  mutating func parseLabel() throws -> Statement {
    let start = advance().span
    let name = try expectIdentifier("a name after 'label'")
    var at: Expression?
    if current.kind == .keyword(.at) {
      advance()
      at = try parseExpression(context: "after 'label \(name.text) at'")
    }
    return Statement(kind: .label(LabelStatement(name: name, at: at)), span: start.through(previousSpan))
  }

  // animate -> "animate" propertyRef [ "from" expression ] "to" expression
  //            [ "over" expression ] [ "with" expression ] options [ stagger ]
  mutating func parseAnimate() throws -> AnimateStatement {
    advance()
    let property = try parsePropertyReference(after: "'animate'")
    var from: Expression?
    if current.kind == .keyword(.from) {
      advance()
      from = try parseExpression(context: "after 'from'")
    }
    guard current.kind == .keyword(.to) else {
      throw expected("'to' after \(from == nil ? "'animate \(source.text(of: property.span))'" : "the 'from' value")")
    }
    advance()
    let to = try parseExpression(context: "after 'to'")
    var over: Expression?
    if current.kind == .keyword(.over) {
      advance()
      over = try parseExpression(context: "after 'over'")
    }
    var curve: Expression?
    if current.kind == .keyword(.with) {
      advance()
      curve = try parseExpression(context: "after 'with' (a curve)")
    }
    let options = try parseOptions()
    if current.kind == .keyword(.over) || current.kind == .keyword(.with) {
      let word =
        current.kind == .keyword(.over)
        ? "'over' must come before 'with' and the options" : "'with' must come before the options"
      throw fail(
        "\(word): write 'animate T.p [from E] to E [over D] [with CURVE] [OPTIONS] [stagger ...]'", at: current.span)
    }
    let stagger = current.kind == .keyword(.stagger) ? try parseStagger() : nil
    return AnimateStatement(
      property: property, from: from, to: to, over: over, curve: curve, options: options, stagger: stagger)
  }

  // keyframes -> "keyframes" propertyRef [ "over" expression ] options [ stagger ]
  //              "{" { newline } [ keyframe { listSeparator keyframe } [ "," ] ] { newline } "}"
  // keyframe -> expression ":" expression [ "with" expression ]
  mutating func parseKeyframes() throws -> KeyframesStatement {
    advance()
    let property = try parsePropertyReference(after: "'keyframes'")
    var over: Expression?
    if current.kind == .keyword(.over) {
      advance()
      over = try parseExpression(context: "after 'over'")
    }
    let options = try parseOptions()
    let stagger = current.kind == .keyword(.stagger) ? try parseStagger() : nil
    let opener = "keyframes '\(source.text(of: property.span))'"
    let open = try expectOpeningBrace(of: opener)
    try enterLevel()
    defer { depth -= 1 }
    var keyframes: [Keyframe] = []
    let close = try parseList(of: opener, openedBy: open) { parser in
      let position = try parser.parseExpression(context: "for a keyframe position (a percent or a duration)")
      try parser.expect(.colon, "':' after the keyframe position")
      let value = try parser.parseExpression(context: "after the keyframe position")
      var curve: Expression?
      if parser.current.kind == .keyword(.with) {
        parser.advance()
        curve = try parser.parseExpression(context: "after 'with' (a curve)")
      }
      if keyframes.isEmpty { keyframes.reserveCapacity(4) }
      keyframes.append(
        Keyframe(position: position, value: value, curve: curve, span: position.span.through(parser.previousSpan)))
    }
    return KeyframesStatement(
      property: property, over: over, options: options, stagger: stagger, keyframes: keyframes,
      bodySpan: open.span.through(close.span))
  }

  // set -> "set" propertyRef "to" expression
  mutating func parseSet() throws -> SetStatement {
    advance()
    let property = try parsePropertyReference(after: "'set'")
    guard current.kind == .keyword(.to) else {
      throw expected("'to' after 'set \(source.text(of: property.span))'")
    }
    advance()
    let value = try parseExpression(context: "after 'to'")
    return SetStatement(property: property, value: value)
  }

  // control -> "play" subject [ "from" expression [ "to" expression ] ]
  //          | "pause" [ subject [ "at" expression ] ] | "resume" [ subject ] | "reverse" [ subject ]
  //          | "seek" subject "to" expression | "speed" subject expression
  //          | "finish" subject | "cancel" subject
  //          | "tween" subject "to" expression "over" expression [ "with" expression ]
  mutating func parseControl() throws -> ControlStatement {
    let verb = advance()
    let action: ControlAction
    if case .keyword(let keyword) = verb.kind, let named = ControlAction(keyword) {
      action = named
    } else if verb.word == .speed {
      action = .speed
    } else {
      throw fail("expected a control statement", at: verb.span)
    }
    var subject: Subject?
    if action.subjectIsOptional {
      if current.kind == .identifier { subject = try parseSubject(after: "'\(action.rawValue)'") }
    } else {
      subject = try parseSubject(after: "'\(action.rawValue)'")
    }
    var argument: Expression?
    var from: Expression?
    var over: Expression?
    var curve: Expression?
    switch action {
    case .play where current.kind == .keyword(.from):
      advance()
      from = try parseExpression(context: "after 'from' (a label or a time of the timeline)")
      if current.kind == .keyword(.to) {
        advance()
        argument = try parseExpression(context: "after 'to' (a label or a time of the timeline)")
      }
    case .pause where subject != nil && current.kind == .keyword(.at):
      advance()
      argument = try parseExpression(context: "after 'at' (a label or a time of the timeline)")
    case .seek:
      guard current.kind == .keyword(.to) else {
        throw expected("'to' after 'seek \(source.text(of: subject!.span))' (seek X to TIME)")
      }
      advance()
      argument = try parseExpression(context: "after 'to'")
    case .speed:
      let source = self.source  // the message is built only on error, from a copy
      argument = try parseExpression(context: "for the speed of '\(source.text(of: subject!.span))'")
    case .tween:
      let source = self.source
      guard current.kind == .keyword(.to) else {
        throw expected("'to' after 'tween \(source.text(of: subject!.span))' (tween X to TIME over DURATION)")
      }
      advance()
      argument = try parseExpression(context: "after 'to' (a label or a time of the timeline)")
      guard current.kind == .keyword(.over) else {
        throw expected(
          "'over' and a duration after 'tween \(source.text(of: subject!.span)) to ...' (tween X to TIME over DURATION)"
        )
      }
      advance()
      over = try parseExpression(context: "after 'over' (how long the playhead takes)")
      if current.kind == .keyword(.with) {
        advance()
        curve = try parseExpression(context: "after 'with' (the curve the playhead follows)")
      }
    default:
      break
    }
    return ControlStatement(action: action, subject: subject, argument: argument, from: from, over: over, curve: curve)
  }

  // stagger -> "stagger" [ expression ] [ "from" origin ] [ "total" expression ]
  //            [ "with" expression ] [ "grid" parenthesized ]
  // origin -> "start" | "end" | "center" | "edges" | "random" "(" expression ")" | expression
  mutating func parseStagger() throws -> StaggerClause {
    let start = advance().span
    var step: Expression?
    let clauseWords: [ContextualKeyword] = [.total, .grid]
    if current.kind != .keyword(.from) && current.kind != .keyword(.with)
      && !(current.word.map(clauseWords.contains) ?? false) && startsExpression(current.kind)
    {
      step = try parseExpression(context: "after 'stagger' (the delay between members)")
    }
    var origin = StaggerOrigin.start(nil)
    if current.kind == .keyword(.from) {
      advance()
      origin = try parseStaggerOrigin()
    }
    var total: Expression?
    if current.word == .total {
      advance()
      total = try parseExpression(context: "after 'total' (the whole spread of the delays)")
    }
    var curve: Expression?
    if current.kind == .keyword(.with) {
      advance()
      curve = try parseExpression(context: "after 'with' (the stagger's curve)")
    }
    var grid: Expression?
    if current.word == .grid {
      advance()
      guard current.kind == .leftParen else { throw expected("'(COLUMNS, ROWS)' after 'grid'") }
      grid = try parseExpression(context: "after 'grid'")
    }
    if step == nil && total == nil {
      throw fail(
        "a stagger needs its step ('stagger 50ms') or its whole spread ('stagger total 1s')",
        at: start.through(previousSpan))
    }
    if !isStatementEnd(current.kind) && current.kind != .leftBrace {
      throw expected(
        "the end of the stagger clause: write 'stagger STEP [from ORIGIN] [total D] [with CURVE] [grid (C, R)]'")
    }
    return StaggerClause(
      step: step, origin: origin, total: total, curve: curve, grid: grid, span: start.through(previousSpan))
  }

  mutating func parseStaggerOrigin() throws -> StaggerOrigin {
    switch current.word {
    case .start?: return .start(advance().span)
    case .end?: return .end(advance().span)
    case .center?: return .center(advance().span)
    case .edges?: return .edges(advance().span)
    case .random? where peek(1).kind == .leftParen:
      let word = advance()
      advance()
      let seed = try parseExpression(context: "for the seed of 'random'")
      let close = try expectClosingParenthesis(openedBy: word, what: "the seed of 'random'")
      return .random(seed: seed, span: word.span.through(close.span))
    default:
      return .member(
        try parseExpression(context: "after 'from' (start, end, center, edges, a member's index or random(SEED))"))
    }
  }

  // options -> { "delay" expression | "repeat" ( "forever" | expression ) | "autoreverse"
  //            | "speed" expression | "fill" ( "none" | "forwards" | "backwards" | "both" )
  //            | "merge" "replace" }
  mutating func parseOptions() throws -> [TimingOption] {
    var options: [TimingOption] = []
    while true {
      let start = current.span
      let kind: TimingOptionKind
      guard current.kind == .identifier, let word = current.word else { return options }
      switch word {
      case .delay:
        advance()
        kind = .delay(try parseExpression(context: "after 'delay'"))
      case .repeat:
        advance()
        if current.word == .forever {
          advance()
          kind = .repeatForever
        } else {
          kind = .repeat(try parseExpression(context: "after 'repeat' (a count or 'forever')"))
        }
      case .autoreverse:
        advance()
        kind = .autoreverse
      case .speed:
        advance()
        kind = .speed(try parseExpression(context: "after 'speed'"))
      case .fill:
        advance()
        let word = current
        let text = source.text(of: word.span)
        guard word.kind == .identifier, let mode = FillMode(rawValue: text) else {
          throw fail(
            "expected 'none', 'forwards', 'backwards' or 'both' after 'fill', found \(describe(word))"
              + (word.kind == .identifier ? didYouMean(text, among: FillMode.allCases.map(\.rawValue)) : ""),
            at: foundSpan)
        }
        advance()
        kind = .fill(mode)
      case .merge:
        advance()
        let word = current
        let text = source.text(of: word.span)
        guard word.kind == .identifier, let mode = MergeMode(rawValue: text) else {
          throw fail(
            "expected 'replace' after 'merge', found \(describe(word))"
              + (word.kind == .identifier ? didYouMean(text, among: MergeMode.allCases.map(\.rawValue)) : ""),
            at: foundSpan)
        }
        advance()
        kind = .merge(mode)
      default:
        return options
      }
      if options.isEmpty { options.reserveCapacity(4) }  // grown once, not twice
      options.append(TimingOption(kind: kind, span: start.through(previousSpan)))
    }
  }

  // MARK: - Pieces

  // propertyRef -> identifier [ "[" expression "]" ] "." word
  mutating func parsePropertyReference(after context: String) throws -> PropertyReference {
    guard current.kind == .identifier else {
      throw expected("a property 'TARGET.PROPERTY' after \(context)")
    }
    let target = takeIdentifier()
    let index = current.kind == .leftBracket ? try parseIndex(of: target) : nil
    guard current.kind == .dot else {
      throw expected("'.' and a property name after '\(target.text)' (write '\(target.text).PROPERTY')")
    }
    advance()
    let property = try expectWord("a property name after '\(target.text).'")
    if current.kind == .dot {
      throw fail(
        "expected a whole property 'TARGET.PROPERTY' after \(context): a component such as "
          + "'.x' cannot be animated or set alone", at: current.span)
    }
    return PropertyReference(
      target: target, index: index, property: property, span: target.span.through(property.span))
  }

  // subject -> identifier [ "[" expression "]" ] [ "." word ]
  mutating func parseSubject(after context: @autoclosure () -> String) throws -> Subject {
    guard current.kind == .identifier else {
      throw expected("a timeline name or a property 'TARGET.PROPERTY' after \(context())")
    }
    let name = takeIdentifier()
    let index = current.kind == .leftBracket ? try parseIndex(of: name) : nil
    guard current.kind == .dot else {
      if index != nil {
        throw expected("'.' and a property name after '\(source.text(of: name.span.through(previousSpan)))'")
      }
      return .name(name)
    }
    advance()
    let property = try expectWord("a property name after '\(name.text).'")
    return .property(
      PropertyReference(target: name, index: index, property: property, span: name.span.through(property.span)))
  }

  /// `print` and `emit` and `on` take a string literal.
  mutating func parseStringArgument(of keyword: String) throws -> StringLiteral {
    guard current.kind == .string else {
      throw expected("a string after '\(keyword)'")
    }
    let token = advance()
    return parseStringLiteral(token)
  }

  /// Parses `{ item, item \n item }` after its `{` has been read; `element` parses one item.
  /// Returns the closing brace.
  mutating func parseList(
    of opener: String, openedBy open: Token, element: (inout Parser) throws -> Void
  ) throws -> Token {
    do {
      skipNewlines()
      if current.kind == .rightBrace { return advance() }
      while true {
        if current.kind == .endOfFile { throw unclosedBlock(of: opener, openedBy: open) }
        try element(&self)
        let hadSeparator = current.kind == .comma || current.kind == .newline
        if current.kind == .comma { advance() }
        skipNewlines()
        if current.kind == .rightBrace { return advance() }
        if current.kind == .endOfFile { throw unclosedBlock(of: opener, openedBy: open) }
        if !hadSeparator {
          throw expected("',' or a new line between the entries of \(opener)")
        }
      }
    } catch let error as SyntaxError {
      // Skip the rest of the braces this list opened, so recovery resumes after them
      // instead of meeting their `}` as a stray one.
      if !error.abandonsInput { skipToClosingBrace() }
      throw error
    }
  }

  /// Skips to just after the `}` that closes the braces already open (nested blocks are
  /// skipped whole); stops at the end of input.
  mutating func skipToClosingBrace() {
    var braces = 0
    while current.kind != .endOfFile {
      let token = advance()
      if token.kind == .leftBrace { braces += 1 }
      if token.kind == .rightBrace {
        if braces == 0 { return }
        braces -= 1
      }
    }
  }

  // MARK: - Token helpers

  /// The span of the last token consumed.
  var previousSpan: SourceSpan { previous?.span ?? SourceSpan(at: 0) }

  /// The token after the current one (only one token ahead is ever needed).
  mutating func peek(_ offset: Int) -> Token {
    precondition(offset == 1, "the parser looks one token ahead")
    if current.kind == .endOfFile { return current }
    if let lookahead { return lookahead }
    let next = lexer.next()
    lookahead = next
    return next
  }

  @discardableResult
  mutating func advance() -> Token {
    let token = current
    if case .endOfFile = token.kind { return token }
    index &+= 1
    previous = (token.kind, token.span)
    if let next = lookahead {
      current = next
      lookahead = nil
    } else {
      current = lexer.next()
    }
    return token
  }

  mutating func skipSeparators() {
    while current.kind == .newline || current.kind == .semicolon { advance() }
  }

  mutating func skipNewlines() {
    while current.kind == .newline { advance() }
  }

  func isStatementEnd(_ kind: TokenKind) -> Bool {
    kind == .newline || kind == .semicolon || kind == .rightBrace || kind == .endOfFile
  }

  /// After a statement: a new line, `;`, the `}` of the enclosing block, or the end.
  mutating func expectStatementEnd() throws {
    if isStatementEnd(current.kind) { return }
    // A line that begins with a statement keyword ends the statement even when the lexer
    // dropped the newline (after an unclosed parenthesis already reported).
    if case .keyword(let keyword) = current.kind, keyword.onlyBeginsStatements,
      startsLine(current), hasErrors
    {
      return
    }
    // An invalid token was already reported by the lexer: say nothing more about it.
    if current.kind == .invalid { throw SyntaxError() }
    var message = "expected a new line or ';' after the statement, found \(describe(current))"
    if current.kind == .identifier {
      let text = source.text(of: current.span)
      if text == "s" || text == "ms", let previous, previous.kind == .number {
        message =
          "unexpected '\(text)' after a number: write a duration without a space, as "
          + "'\(source.text(of: previous.span))\(text)'"
      } else {
        message += didYouMean(text, among: Keyword.allCases.map(\.rawValue))
      }
    }
    throw fail(message, at: current.span)
  }

  mutating func expect(_ kind: TokenKind, _ what: @autoclosure () -> String) throws {
    guard current.kind == kind else { throw expected(what()) }
    advance()
  }

  /// `{` on the header's line.
  mutating func expectOpeningBrace(of opener: String) throws -> Token {
    guard current.kind == .leftBrace else {
      if current.kind == .newline {
        throw expected("'{' after \(opener) (a '{' stays on the line of its header)")
      }
      throw expected("'{' after \(opener)")
    }
    return advance()
  }

  /// A declared name: an identifier, not a keyword.
  mutating func expectIdentifier(_ what: String) throws -> Identifier {
    guard current.kind == .identifier else {
      if case .keyword(let keyword) = current.kind {
        throw fail("expected \(what), found '\(keyword.rawValue)', which is a reserved word", at: current.span)
      }
      throw expected(what)
    }
    return takeIdentifier()
  }

  /// Any word, keywords included (property names).
  mutating func expectWord(_ what: @autoclosure () -> String) throws -> Identifier {
    switch current.kind {
    case .identifier, .keyword: return takeIdentifier()
    default: throw expected(what())
    }
  }

  func identifier(_ token: Token) -> Identifier {
    let span = token.span
    if lexer.buffer.baseAddress != nil {
      // While a statement is read the bytes are at hand, and decoding from them directly
      // costs less than through a slice of the array. A word is ASCII.
      let bytes = UnsafeBufferPointer(rebasing: lexer.buffer[span.start..<span.end])
      return Identifier(String(decoding: bytes, as: UTF8.self), span: span)
    }
    return Identifier(source.text(of: span), span: span)
  }

  /// Consumes the current token as a name. (Not `identifier(advance())`, which copies the
  /// whole parser to call a non-mutating method around a mutating one, and the copy makes
  /// the lexer's next append copy its lists.)
  mutating func takeIdentifier() -> Identifier {
    let token = advance()
    return identifier(token)
  }

  /// How a message names a found token: its text, or "end of line", "end of input".
  func describe(_ token: Token) -> String {
    switch token.kind {
    case .newline, .endOfFile: return token.kind.displayName
    case .string: return "a string"
    case .invalid: return "invalid input"
    default:
      var text = source.text(of: token.span)
      if text.count > 24 { text = String(text.prefix(24)) + "..." }
      return "'\(text)'"
    }
  }

  // MARK: - Errors and recovery

  mutating func report(_ message: String, at span: SourceSpan, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: span, notes: notes))
  }

  /// Reports an error and returns the error to throw.
  mutating func fail(_ message: String, at span: SourceSpan, notes: [Diagnostic.Note] = []) -> SyntaxError {
    // An invalid token was already reported by the lexer: say nothing more about it.
    if current.kind == .invalid && span == current.span { return SyntaxError() }
    report(message, at: span, notes: notes)
    return SyntaxError()
  }

  /// "expected WHAT, found TOKEN" at the current token. (Whether typed input stops in the
  /// middle of a statement, so the REPL reads another line, is `InputCompleteness`'s.)
  mutating func expected(_ what: String) -> SyntaxError {
    // An invalid token was already reported by the lexer: say nothing more about it.
    if current.kind == .invalid { return SyntaxError() }
    return fail("expected \(what), found \(describe(current))", at: foundSpan)
  }

  /// Where a "found X" error points: at the current token, or, when that token is the end
  /// of the line, just after the last token of the line (as compilers point at a missing
  /// `;`), so a trailing comment does not move the caret.
  var foundSpan: SourceSpan {
    current.kind == .newline ? SourceSpan(at: previousSpan.end) : current.span
  }

  mutating func unclosedBlock(of opener: String, openedBy open: Token) -> SyntaxError {
    let line = source.line(of: open.span.start)
    return fail(
      "expected '}' to close the block of \(opener) opened at line \(line), found end of input",
      at: current.span, notes: [Diagnostic.Note("the block of \(opener) opens here", span: open.span)])
  }

  /// Counts one level of nesting; past the limit, reports once and abandons the input.
  mutating func enterLevel() throws {
    depth += 1
    if depth > Parser.nestingLimit {
      report(
        "too deeply nested: blocks and expressions may nest at most \(Parser.nestingLimit) levels",
        at: current.span)
      throw SyntaxError(abandonsInput: true)
    }
  }

  /// Panic mode: skips to the end of the statement in which an error was found (a new line
  /// or `;`, or before the `}` closing the enclosing block, or before a keyword that can
  /// only begin a statement), skipping whole `{ }` blocks on the way.
  mutating func synchronize(statementStart: Int) {
    // Always make progress: a statement that failed on its first token skips that token.
    if index == statementStart && current.kind != .endOfFile && current.kind != .rightBrace {
      advance()
    }
    var braces = 0
    while true {
      switch current.kind {
      case .endOfFile:
        return
      case .leftBrace:
        braces += 1
      case .rightBrace:
        if braces == 0 { return }
        braces -= 1
      case .newline, .semicolon:
        if braces == 0 {
          advance()
          // A header whose `{` went to the next line: skip that block too, rather than
          // reporting each of its lines.
          if current.kind == .leftBrace { continue }
          return
        }
      case .keyword(let keyword)
      where braces == 0 && keyword.onlyBeginsStatements && startsLine(current):
        // A line break the lexer dropped (inside an unclosed parenthesis) still ends the
        // damage when the next line begins with a statement keyword.
        return
      default:
        break
      }
      advance()
    }
  }

  /// Whether a token is the first on its line in the source.
  func startsLine(_ token: Token) -> Bool {
    var offset = token.span.start - 1
    while offset >= 0 {
      let byte = source.bytes[offset]
      if byte == UInt8(ascii: "\n") { return true }
      if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") { return false }
      offset -= 1
    }
    return true
  }
}

extension ControlAction {
  /// The action a reserved word names, if it names one (without going through strings);
  /// `speed`, a contextual word, is the other.
  init?(_ keyword: Keyword) {
    switch keyword {
    case .play: self = .play
    case .pause: self = .pause
    case .resume: self = .resume
    case .reverse: self = .reverse
    case .seek: self = .seek
    case .finish: self = .finish
    case .cancel: self = .cancel
    case .tween: self = .tween
    default: return nil
    }
  }
}

extension Parser {
  /// The contextual word that begins the statement at the current token: a contextual
  /// statement start, unless the next token is `.`, `[`, `=` or the end of the statement,
  /// where the word is a name (`set.x`, `label = 2`, `wait` alone).
  mutating func contextualStatementStart() -> ContextualKeyword? {
    guard let word = current.word, word.statementStart != nil else { return nil }
    switch peek(1).kind {
    case .dot, .leftBracket, .equals, .newline, .semicolon, .rightBrace, .endOfFile: return nil
    default: return word
    }
  }

  /// "'WORD' cannot follow a placement", at the current token.
  mutating func cannotFollowPlacement(_ word: String) -> SyntaxError {
    fail(
      "'\(word)' cannot follow a placement: only timeline items (animate, keyframes, set, print, "
        + "emit, wait, control statements, sequence, parallel) can be placed",
      at: current.span)
  }
}
