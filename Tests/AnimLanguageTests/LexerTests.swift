import Testing

@testable import AnimLanguage

@Suite struct LexerTests {
  func lex(_ text: String) -> LexedTokens {
    Lexer.tokenize(SourceText(name: "t.anim", contents: text))
  }

  func kinds(_ text: String) -> [TokenKind] {
    lex(text).tokens.map(\.kind)
  }

  func duration(_ text: String) -> Int64? {
    let lexed = lex(text)
    guard lexed.diagnostics.isEmpty, lexed.tokens.count == 2, case .duration(let value) = lexed.tokens[0].value else {
      return nil
    }
    return value
  }

  @Test func tokenKindsOfAStatement() {
    #expect(
      kinds("animate card.x to (1, 2) * -3 over 1s") == [
        .keyword(.animate), .identifier, .dot, .identifier, .keyword(.to), .leftParen, .number, .comma,
        .number, .rightParen, .star, .minus, .number, .keyword(.over), .duration, .endOfFile,
      ])
    #expect(
      kinds("let a = b / c + d; x: {}") == [
        .keyword(.let), .identifier, .equals, .identifier, .slash, .identifier, .plus, .identifier,
        .semicolon, .identifier, .colon, .leftBrace, .rightBrace, .endOfFile,
      ])
  }

  @Test func everyKeywordLexesAsItself() {
    for keyword in Keyword.allCases {
      #expect(kinds(keyword.rawValue) == [.keyword(keyword), .endOfFile])
    }
    // Contextual words are identifiers to the lexer, marked with the word they spell.
    for word in ContextualKeyword.allCases {
      let tokens = lex(word.rawValue).tokens
      #expect(tokens.map(\.kind) == [.identifier, .endOfFile])
      #expect(tokens[0].word == word, "\(word)")
    }
    #expect(kinds("animates _x x_1 Animate") == [.identifier, .identifier, .identifier, .identifier, .endOfFile])
    // A word that only begins like a contextual one is a plain name.
    for text in ["labels", "Set", "delay_", "center2", "ind", "jumpstart"] {
      #expect(lex(text).tokens[0].word == nil, "\(text)")
    }
  }

  @Test func comparisonsRangesAndBrackets() {
    #expect(
      kinds("a < b <= c > d >= e == f != g") == [
        .identifier, .less, .identifier, .lessEqual, .identifier, .greater, .identifier, .greaterEqual,
        .identifier, .equalEqual, .identifier, .notEqual, .identifier, .endOfFile,
      ])
    #expect(kinds("0..<12") == [.number, .halfOpenRange, .number, .endOfFile])
    #expect(kinds("1...n") == [.number, .closedRange, .identifier, .endOfFile])
    #expect(kinds("a = b") == [.identifier, .equals, .identifier, .endOfFile])
    #expect(kinds("dots[3].y") == [.identifier, .leftBracket, .number, .rightBracket, .dot, .identifier, .endOfFile])
    // `!` alone begins no token.
    let bang = lex("a ! b")
    #expect(bang.diagnostics.map(\.message) == ["unexpected character '!'"])
  }

  @Test func aLineGoesOnAfterAndOrAndComparisonsAndInsideBrackets() {
    #expect(kinds("a and\nb") == [.identifier, .keyword(.and), .identifier, .endOfFile])
    #expect(kinds("a or\n\nb") == [.identifier, .keyword(.or), .identifier, .endOfFile])
    #expect(kinds("a <\nb") == [.identifier, .less, .identifier, .endOfFile])
    #expect(
      kinds("d[\n1\n]\nc") == [.identifier, .leftBracket, .number, .rightBracket, .newline, .identifier, .endOfFile])
    // Before `and`, the newline ends the statement, as before any operator.
    #expect(kinds("a\nand b") == [.identifier, .newline, .keyword(.and), .identifier, .endOfFile])
  }

  @Test func newlinesEndStatementsExceptAfterOperatorsCommasAndInsideParentheses() {
    #expect(kinds("a\nb") == [.identifier, .newline, .identifier, .endOfFile])
    #expect(kinds("a +\nb") == [.identifier, .plus, .identifier, .endOfFile])
    #expect(kinds("a -\n\n b") == [.identifier, .minus, .identifier, .endOfFile])
    #expect(kinds("a *\nb /\nc") == [.identifier, .star, .identifier, .slash, .identifier, .endOfFile])
    #expect(kinds("a,\nb") == [.identifier, .comma, .identifier, .endOfFile])
    #expect(
      kinds("(a\n,\nb\n)\nc") == [
        .leftParen, .identifier, .comma, .identifier, .rightParen, .newline, .identifier, .endOfFile,
      ])
    // Blank lines and lines after `;` give no extra newline tokens; nor does a leading one.
    #expect(
      kinds("\n\na\n\n\nb;\nc") == [
        .identifier, .newline, .identifier, .semicolon, .identifier, .endOfFile,
      ])
    // A newline after a comment still ends the statement.
    #expect(kinds("a // c\nb") == [.identifier, .newline, .identifier, .endOfFile])
    // A brace ends an unclosed parenthesis, so the block's newlines survive.
    #expect(
      kinds("f( {\na\n}") == [
        .identifier, .leftParen, .leftBrace, .newline, .identifier, .newline, .rightBrace, .endOfFile,
      ])
  }

  @Test func numbers() {
    func number(_ text: String) -> Double? {
      let lexed = lex(text)
      guard lexed.diagnostics.isEmpty, case .number(let value) = lexed.tokens[0].value else { return nil }
      return value
    }
    #expect(number("12") == 12)
    #expect(number("3.5") == 3.5)
    #expect(number(".5") == 0.5)
    #expect(number("1e3") == 1000)
    #expect(number("1E-2") == 0.01)
    #expect(number("2.5e+1") == 25)
    #expect(number("1_000") == 1000)
    #expect(number("1_000.000_1") == 1000.0001)
    #expect(number("0.1") == 0.1)
    // `1.` is a number and a dot (member access), not `1.0`.
    #expect(kinds("1.x") == [.number, .dot, .identifier, .endOfFile])
    // After a word, `.5` is a dot and a number.
    #expect(kinds("r.5") == [.identifier, .dot, .number, .endOfFile])
    #expect(kinds("r .5") == [.identifier, .number, .endOfFile])
    #expect(lex("1e400").diagnostics.map(\.message) == ["number '1e400' is beyond the range of a Double"])
    #expect(lex("1e400").tokens[0].span == SourceSpan(start: 0, end: 5))
    #expect(lex("12abc").diagnostics.count == 1)
    #expect(lex("2e").diagnostics.count == 1)
  }

  @Test func durationsAreExactNanoseconds() {
    let second: Int64 = 1_000_000_000
    #expect(duration("250ms") == 250 * Int64(1_000_000))
    #expect(duration("1.5s") == 3 * second / 2)
    #expect(duration("0.1s") == second / 10)
    #expect(duration("0.3s") == 3 * second / 10)
    #expect(duration(".5s") == second / 2)
    #expect(duration("0s") == 0)
    #expect(duration("0.000ms") == 0)
    #expect(duration("1_000ms") == second)
    #expect(duration("1e3ms") == second)
    #expect(duration("1e-9s") == 1)
    #expect(duration("0.000001ms") == 1)
    // More digits than a Double holds, still exact.
    #expect(duration("123456789.123456789s") == 123_456_789 * second + 123_456_789)
    // Rounded half up to the nanosecond.
    #expect(duration("1.0000000005s") == second + 1)
    #expect(duration("1.00000000049999s") == second)
    #expect(duration("5e-10s") == 1)
    #expect(duration("4.9e-10s") == 0)
    #expect(duration("0.0000005ms") == 1)
    // The largest duration, and one nanosecond more.
    #expect(duration("9223372036.854775807s") == Int64.max)
    #expect(duration("9223372036.8547758074s") == Int64.max)
    #expect(duration("9223372036.854775808s") == nil)
    #expect(duration("9223372036.8547758075s") == nil)  // rounds up past the maximum
    #expect(lex("99999999999999999999ms").diagnostics.count == 1)
    // No identifier character right after the unit.
    #expect(lex("1sx").diagnostics.count == 1)
    #expect(lex("1mss").diagnostics.count == 1)
    #expect(kinds("1 s") == [.number, .identifier, .endOfFile])
  }

  @Test func percents() {
    let lexed = lex("40% 12.5%")
    #expect(lexed.tokens.map(\.value) == [.percent(40), .percent(12.5), .none])
    #expect(lexed.tokens[1].span == SourceSpan(start: 4, end: 9))
  }

  @Test func colors() {
    func color(_ text: String) -> ColorLiteral? {
      let lexed = lex(text)
      guard lexed.diagnostics.isEmpty, case .color(let value) = lexed.tokens[0].value else { return nil }
      return value
    }
    #expect(color("#f80") == ColorLiteral(red: 0xFF, green: 0x88, blue: 0x00, alpha: 0xFF))
    #expect(color("#ff8800") == ColorLiteral(red: 0xFF, green: 0x88, blue: 0x00))
    #expect(color("#FF880080") == ColorLiteral(red: 0xFF, green: 0x88, blue: 0x00, alpha: 0x80))
    #expect(color("#000") == ColorLiteral(red: 0, green: 0, blue: 0))
    for bad in ["#", "#f", "#ff", "#ffff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "#12345z"] {
      #expect(lex(bad).diagnostics.count == 1, "\(bad)")
      #expect(lex(bad).tokens[0].kind == .color, "\(bad)")
    }
  }

  @Test func stringsAndInterpolation() {
    let text = #"print "a\n\"{x + 1}\{ } {y}""#
    let lexed = lex(text)
    #expect(lexed.diagnostics.isEmpty)
    let token = lexed.tokens[1]
    #expect(token.kind == .string)
    #expect(token.span == SourceSpan(start: 6, end: text.utf8.count))
    #expect(token.value == .string(0))
    let segments = lexed.segments(of: token)
    let source = SourceText(name: "t", contents: text)
    #expect(segments.count == 4)
    if case .text(let first, let span) = segments[0] {
      #expect(first == "a\n\"")
      #expect(source.text(of: span) == #"a\n\""#)
    }
    if case .interpolation(let span) = segments[1] { #expect(source.text(of: span) == "x + 1") }
    if case .text(let middle, _) = segments[2] { #expect(middle == "{ } ") }
    if case .interpolation(let span) = segments[3] { #expect(source.text(of: span) == "y") }
    // Nested braces inside an interpolation run to the matching one.
    #expect(lex(#""{ {1} }""#).diagnostics.isEmpty)
    // An unterminated string is reported at its opening quote.
    let unterminated = lex("x \"abc\nplay")
    #expect(unterminated.diagnostics.map(\.span) == [SourceSpan(start: 2, end: 3)])
    #expect(unterminated.tokens.map(\.kind) == [.identifier, .string, .newline, .keyword(.play), .endOfFile])
    #expect(lex("\"abc {x").diagnostics.map(\.span) == [SourceSpan(start: 0, end: 1)])
  }

  @Test func commentsAreCollectedWithSpans() {
    let text = "#!/usr/bin/env anim\nplay x // one\n/* two /* nested */ end */ pause"
    let lexed = lex(text)
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.comments.map(\.style) == [.shebang, .line, .block])
    #expect(lexed.comments.map(\.text) == ["#!/usr/bin/env anim", "// one", "/* two /* nested */ end */"])
    let source = SourceText(name: "t", contents: text)
    #expect(lexed.comments.map { source.text(of: $0.span) } == lexed.comments.map(\.text))
    #expect(lexed.tokens.map(\.kind) == [.keyword(.play), .identifier, .newline, .keyword(.pause), .endOfFile])
    // `#!` is a shebang only at the very start.
    #expect(lex("play x\n#!x").diagnostics.count >= 1)
  }

  @Test func tokensPointIntoTheSource() {
    let text = "animate card.opacity to 1 over 300ms"
    let source = SourceText(name: "t", contents: text)
    let spans = lex(text).tokens.dropLast().map { source.text(of: $0.span) }
    #expect(spans == ["animate", "card", ".", "opacity", "to", "1", "over", "300ms"])
  }

  @Test func strayBytesAreOneErrorPerRun() {
    #expect(lex("a @$? b").diagnostics.map(\.message) == ["unexpected characters '@$?'"])
    #expect(lex("é").diagnostics.map(\.message) == ["unexpected character 'é'"])
    #expect(lex("\u{7}").diagnostics.map(\.message) == ["unexpected control character (byte 0x07)"])
  }
}
