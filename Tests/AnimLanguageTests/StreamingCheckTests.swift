import AnimTestSupport
import Foundation
import Testing

@testable import AnimLanguage

/// `diagnose` reads a script one top-level statement at a time (and a large one on two
/// threads); its answer must be the whole-file check's in every case.
@Suite struct StreamingCheckTests {
  /// The whole-file check: parse everything, then check the tree.
  static func wholeFileDiagnostics(_ source: SourceText) -> [Diagnostic] {
    let parsed = parse(source)
    if parsed.hasErrors { return parsed.diagnostics }
    var checker = Checker(mode: .script, environment: Environment(), recordsFacts: true)
    checker.checkFile(parsed.file)
    return checker.orderedDiagnostics()
  }

  static func expectSameAsWholeFile(
    _ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    expectSameAsWholeFile(SourceText(name: name, contents: text), sourceLocation: sourceLocation)
  }

  static func expectSameAsWholeFile(_ source: SourceText, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let name = source.name
    let expected = describe(wholeFileDiagnostics(source), in: source)
    #expect(describe(diagnose(source), in: source) == expected, "\(name)", sourceLocation: sourceLocation)
    if let streamed = diagnoseStatementByStatement(source) {
      #expect(
        describe(streamed, in: source) == expected, "\(name), statement by statement", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: GoldenTests.fileNames())
  func goldenFile(_ name: String) throws {
    let data = try Data(contentsOf: GoldenTests.directory.appendingPathComponent(name))
    Self.expectSameAsWholeFile(SourceText(name: name, bytes: [UInt8](data)))
  }

  @Test(arguments: 0..<40)
  func generatedAndEditedScripts(_ seed: Int) {
    var generator = ScriptGenerator(seed: UInt64(seed))
    Self.expectSameAsWholeFile(generator.script(statements: 25), "generated-\(seed).anim")
    // Edited scripts reach errors of every kind, syntax errors among them.
    var edited = ScriptGenerator(seed: UInt64(seed) &+ 9000)
    var bytes = Array(edited.script(statements: 6).utf8)
    var random = SeededRandom(seed: UInt64(seed))
    for _ in 0..<3 {
      let offset = Int(random.next() % UInt64(bytes.count))
      switch random.next() % 3 {
      case 0: bytes.remove(at: offset)
      case 1: bytes.insert(bytes[Int(random.next() % UInt64(bytes.count))], at: offset)
      default: bytes.swapAt(offset, Int(random.next() % UInt64(bytes.count)))
      }
    }
    Self.expectSameAsWholeFile(String(decoding: bytes, as: UTF8.self), "edited-\(seed).anim")
  }

  /// What the statements further down declare decides some messages: each such case gives
  /// the whole-file answer (the statement-by-statement check notices and checks again).
  @Test func forwardReferences() {
    let cases = [
      // A control statement and a handler naming a timeline declared later: no error.
      "play later\non complete later { print \"done\" }\ntimeline later { wait 1s }",
      // `finish` on a timeline declared later that repeats forever.
      "target t { x: 0 }\nfinish later\ntimeline later repeat forever { animate t.x to 1 over 1s }",
      // A use before the declaration, and an unknown name that is declared nowhere.
      "let a = b + 1\nlet b = 2\nlet c = nowhere",
      "target t { x: 0 }\nanimate t.x to 1 over later\nlet later = 1s",
      "animate late.x to 1 over 1s\ntarget late { x: 0 }",
      // A top-level label used before it is placed, and a misspelt one.
      "target t { x: 0 }\nat intro + 1s animate t.x to 1 over 1s\nlabel intro at 2s",
      "target t { x: 0 }\nat intr + 1s animate t.x to 1 over 1s\nlabel intro at 2s",
      // A handler of an event emitted later (no warning), and of one never emitted.
      "on \"ping\" { print \"pong\" }\nemit \"ping\"",
      "on \"pong\" { print \"ping\" }\non \"ping\" { print \"pong\" }\nemit \"ping\"",
      "on \"pinj\" { print \"x\" }\nemit \"ping\"\nemit \"pong\"",
      // An interpolated emit silences the warnings, wherever it is.
      "on \"x\" { print \"y\" }\nlet n = 1\nemit \"e{n}\"",
      // A name declared twice, and a curve used before its declaration.
      "let a = 1\nlet a = 2",
      "target t { x: 0 }\nanimate t.x to 1 over 1s with bouncey\ncurve bouncey = spring(response: 1s, dampingFraction: 0.5)",
      // A name its own declaration uses; a curve whose value has an error (declared with
      // the error type) used further down, and before.
      "let a = a + 1",
      "curve c = 5\ntarget t { x: 0 }\nanimate t.x to 1 over 1s with c",
      "target t { x: 0 }\nanimate t.x to 1 over 1s with c\ncurve c = 5",
      "",
    ]
    for (index, text) in cases.enumerated() {
      Self.expectSameAsWholeFile(text, "forward-\(index).anim")
    }
  }

  @Test func aForwardTimelineNeedsTheWholeFile() {
    let source = SourceText(name: "f.anim", contents: "play later\ntimeline later { wait 1s }")
    #expect(diagnoseStatementByStatement(source) == nil)
    #expect(diagnose(source).isEmpty)
  }

  /// A name assumed undeclared further down, then declared, whether the declaration comes
  /// after the statement that asked or is that statement: the whole file is needed. A name
  /// declared before, found, is not asked about.
  @Test func aNameAssumedUndeclaredAndDeclaredNeedsTheWholeFile() {
    for text in ["let a = b + 1\nlet b = 2", "let a = a + 1"] {
      #expect(diagnoseStatementByStatement(SourceText(name: "n.anim", contents: text)) == nil, "\(text)")
    }
    let found = SourceText(name: "f.anim", contents: "let b = 2\nlet a = b + 1\ntarget t { x: a }")
    #expect(diagnoseStatementByStatement(found)?.isEmpty == true)
  }

  @Test func aHandlerBeforeItsEmitDoesNotNeedTheWholeFile() {
    let source = SourceText(name: "e.anim", contents: "on \"late\" { print \"x\" }\nemit \"late\"")
    #expect(diagnoseStatementByStatement(source)?.isEmpty == true)
  }

  /// A script large enough to be parsed on a second thread gives what one thread gives,
  /// clean or with errors anywhere.
  @Test func twoThreads() {
    var generator = ScriptGenerator(seed: 77)
    let text = generator.script(bytes: ParsingThread.minimumSize + 10_000)
    let middle = text.utf8.index(text.utf8.startIndex, offsetBy: text.utf8.count / 2)
    let lineEnd = text[middle...].firstIndex(of: "\n") ?? text.endIndex
    let variants = [
      text,
      text + "\nanimate nobody.x to 1 over 1s\n",
      String(text[..<lineEnd]) + "\nlet = = 3\n" + String(text[lineEnd...]),
      "play later\n" + text + "\ntimeline later { wait 1s }\n",
      "on \"late\" { print \"x\" }\n" + text + "\nemit \"late\"\n",
      text + "\nlet q = 1xs\n",
      // Nesting past the limit, on the parsing thread's stack.
      "let x = " + String(repeating: "(", count: 200_000) + "1" + String(repeating: ")", count: 200_000),
    ]
    for (index, variant) in variants.enumerated() {
      let source = SourceText(name: "big-\(index).anim", contents: variant)
      let expected = describe(Self.wholeFileDiagnostics(source), in: source)
      #expect(describe(diagnose(source), in: source) == expected, "variant \(index)")
      if let threaded = diagnoseOnTwoThreads(source) {
        #expect(describe(threaded, in: source) == expected, "variant \(index) on two threads")
      }
    }
  }
}

/// The parser's direct dispatch and fast paths agree with the tables they stand for.
@Suite struct ParserDispatchTests {
  static let kinds: [TokenKind] =
    [
      .identifier, .number, .duration, .percent, .color, .string, .leftParen, .rightParen, .leftBrace,
      .rightBrace, .leftBracket, .rightBracket, .comma, .colon, .dot, .semicolon, .equals, .plus, .minus, .star,
      .slash, .less, .lessEqual, .greater, .greaterEqual, .equalEqual, .notEqual, .halfOpenRange, .closedRange,
      .newline, .endOfFile, .invalid,
    ] + Keyword.allCases.map { .keyword($0) }

  /// The Pratt table as grammar.md's expression rules state it: what may begin an
  /// expression, and the binding of `or` < `and` < `not` < comparisons < `+ -` < `* /` < `.`.
  @Test func thePrattTableIsTheExpressionGrammar() {
    let beginsPrimary: Set<TokenKind> = [
      .number, .duration, .percent, .color, .string, .keyword(.now), .keyword(.true), .keyword(.false),
      .keyword(.not), .identifier, .leftParen, .minus,
    ]
    for kind in Self.kinds {
      #expect((PrefixRule(kind) != nil) == beginsPrimary.contains(kind), "\(kind)")
    }
    #expect(InfixRule(.keyword(.or))?.precedence == .disjunction)
    #expect(InfixRule(.keyword(.and))?.precedence == .conjunction)
    for comparison: TokenKind in [.less, .lessEqual, .greater, .greaterEqual, .equalEqual, .notEqual] {
      #expect(InfixRule(comparison)?.precedence == .comparison)
    }
    #expect(InfixRule(.plus)?.precedence == .term && InfixRule(.minus)?.precedence == .term)
    #expect(InfixRule(.star)?.precedence == .factor && InfixRule(.slash)?.precedence == .factor)
    #expect(InfixRule(.dot)?.precedence == .postfix)
    #expect(
      Precedence.disjunction < .conjunction && Precedence.conjunction < .negation && Precedence.negation < .comparison
        && Precedence.comparison < .term && Precedence.term < .factor && Precedence.factor < .postfix)
    let infixKinds = Self.kinds.filter { InfixRule($0) != nil }
    #expect(
      Set(infixKinds) == [
        .plus, .minus, .star, .slash, .dot, .keyword(.and), .keyword(.or), .less, .lessEqual, .greater,
        .greaterEqual, .equalEqual, .notEqual,
      ])
  }

  /// The one list of statement starts is what the parser accepts at the start of a
  /// statement: every other reserved word there is "expected a statement" (those that begin
  /// an expression aside, as an expression is a statement in the REPL).
  @Test func theStatementStartsAreWhatTheParserAcceptsFirst() {
    for keyword in Keyword.allCases where PrefixRule(.keyword(keyword)) == nil && keyword != .else {
      let result = parse(SourceText(name: "t.anim", contents: "\(keyword.rawValue) x\n"))
      let refused = result.diagnostics.contains { $0.message.hasPrefix("expected a statement, found") }
      #expect(refused == (keyword.statementStart == nil), "\(keyword)")
    }
    #expect(statementStartWords.count == Set(statementStartWords).count)
    #expect(
      Set(statementStartWords)
        == Set(
          Keyword.allCases.filter { $0.statementStart != nil }.map(\.rawValue)
            + ContextualKeyword.allCases.filter { $0.statementStart != nil }.map(\.rawValue)))
    // `else` alone says where it belongs.
    let orphan = parse(SourceText(name: "t.anim", contents: "else {}\n"))
    #expect(
      orphan.diagnostics.map(\.message) == ["'else' must follow the '}' of an 'if' on the same line ('} else {')"])
    // Control actions are the control statement starts, and the only ones.
    for keyword in Keyword.allCases {
      #expect((ControlAction(keyword) != nil) == (keyword.statementStart == .control), "\(keyword)")
    }
  }

  /// A contextual statement start begins its statement, except before `.`, `[`, `=` and the
  /// statement's end, where it is a name.
  @Test func aContextualStartIsANameBeforeDotBracketEqualsOrTheEnd() {
    for word in ContextualKeyword.allCases where word.statementStart != nil {
      for follower in [".x", " = 1", "[0].y", ""] {
        let result = parse(SourceText(name: "t.anim", contents: "\(word.rawValue)\(follower)\n"))
        #expect(!result.diagnostics.contains { $0.message.contains("expected") && $0.message.contains("'\(word)'") })
        guard let statement = result.file.statements.first else { continue }
        switch statement.kind {
        case .expression, .assignment: break
        default: Issue.record("\(word)\(follower) began a statement")
        }
      }
    }
  }

  @Test func controlActionsByKeyword() {
    for keyword in Keyword.allCases {
      #expect(ControlAction(keyword) == ControlAction(rawValue: keyword.rawValue), "\(keyword)")
    }
    #expect(ControlAction(rawValue: ContextualKeyword.speed.rawValue) == .speed)
  }
}

/// The lexer's fast paths (eight bytes of a word at a time, numbers without text) give what
/// the plain rules give.
@Suite struct LexerFastPathTests {
  func tokens(_ text: String) -> [Token] {
    Lexer.tokenize(SourceText(name: "t.anim", contents: text)).tokens
  }

  @Test func wordsOfEveryLengthAnywhere() {
    let words =
      Keyword.allCases.map(\.rawValue) + ContextualKeyword.allCases.map(\.rawValue) + [
        "a", "_", "x1", "card_2", "Animate", "animates", "timelines", "autoreversed", "abcdefg", "abcdefgh",
        "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "a_very_long_name_indeed_42",
        "Z9_", "toto", "ov", "withprevious",
      ]
    for word in words {
      let expected: TokenKind = Keyword(rawValue: word).map { .keyword($0) } ?? .identifier
      let expectedWord = ContextualKeyword(rawValue: word)
      // At the end of the input, before every kind of byte, and after padding that moves it
      // across the eight-byte boundaries.
      for padding in 0..<9 {
        for follower in ["", " ", "\n", ".", "(", "é", "#", "\u{7F}", "\"", "-"] {
          let prefix = String(repeating: " ", count: padding)
          let lexed = tokens(prefix + word + follower)
          #expect(lexed.first?.kind == expected, "\(word) + \(follower.debugDescription)")
          #expect(lexed.first?.word == expectedWord, "\(word) + \(follower.debugDescription)")
          #expect(lexed.first?.span == SourceSpan(start: padding, end: padding + word.utf8.count), "\(word)")
        }
      }
    }
  }

  @Test func numbersAsParsedText() {
    var random = SeededRandom(seed: 5)
    var texts = [
      "0", "0.0", "00.5", "1e22", "1e23", "9e-22", "1e-23", "123456789012345", "1234567890123456",
      "0.000000000000001", "1.5e+3", "1_000.000_1", "4.35", "0.1", "2.5e-1", "999999999999999e22",
    ]
    for _ in 0..<2000 {
      let digits = String(random.next() % 1_000_000_000_000)
      let fraction = String(random.next() % 10_000)
      let exponent = Int(random.next() % 50) - 25
      texts.append("\(digits).\(fraction)e\(exponent)")
      texts.append("\(digits.prefix(Int(random.next() % 15) + 1))")
    }
    for text in texts {
      let lexed = tokens(text)
      guard case .number(let value) = lexed.first?.value else {
        Issue.record("\(text) is not a number")
        continue
      }
      #expect(value == Double(text.replacingOccurrences(of: "_", with: "")), "\(text)")
    }
  }
}

/// The checker's name table against a Dictionary.
@Suite struct NameTableTests {
  @Test func behavesAsADictionary() {
    var table = NameTable<String, Int>()
    var reference: [String: Int] = [:]
    var random = SeededRandom(seed: 11)
    let names = (0..<300).map { "name\($0)" } + ["", "é", "a_much_longer_name_than_fifteen_bytes", "x"]
    for step in 0..<5_000 {
      let name = names[Int(random.next() % UInt64(names.count))]
      switch random.next() % 6 {
      case 0:
        table[name] = nil
        reference[name] = nil
      case 1:
        #expect(table.updateValue(step, forKey: name) == reference.updateValue(step, forKey: name))
      case 2:
        // Added only when absent: a present key keeps its value.
        let absent = reference[name] == nil
        if absent { reference[name] = step }
        #expect(table.insert(step, forKey: name) == absent)
      default:
        table[name] = step
        reference[name] = step
      }
      #expect(table[name] == reference[name])
      #expect(table.count == reference.count)
    }
    for name in names { #expect(table[name] == reference[name], "\(name)") }
    #expect(Set(table.allKeys) == Set(reference.keys))
    table.removeAll()
    #expect(table.isEmpty && table["name1"] == nil)
    table["name1"] = 1
    #expect(table["name1"] == 1 && table.count == 1)
  }

  /// The environment's table finds each symbol by the name it holds (no list of names beside
  /// it), across the index's growth, and a name declared again keeps one entry.
  @Test func anEnvironmentFindsEachSymbolByItsName() {
    var environment = Environment()
    let names = (0..<1_000).map { "t\($0)" } + ["é", "a_much_longer_name_than_fifteen_bytes"]
    for (n, name) in names.enumerated() {
      environment.declare(.target(TargetSymbol(name: name, properties: [], span: SourceSpan(at: n))))
    }
    environment.declare(.target(TargetSymbol(name: "t7", properties: [], span: SourceSpan(at: 5_000))))
    for (n, name) in names.enumerated() where name != "t7" {
      #expect(environment.target(named: name)?.span == SourceSpan(at: n), "\(name)")
    }
    #expect(environment.target(named: "t7")?.span == SourceSpan(at: 5_000))
    #expect(environment["t1000"] == nil && environment["t"] == nil && environment[""] == nil)
    #expect(environment.order == names.filter { $0 != "t7" } + ["t7"])
  }

  @Test func environmentsCompareByTheirDeclarations() {
    func symbol(_ name: String, _ value: Double) -> Symbol {
      .value(ValueSymbol(name: name, type: .number, constant: .number(value), curveKind: nil, span: SourceSpan(at: 0)))
    }
    var first = Environment()
    var second = Environment()
    first.declare(symbol("a", 1))
    first.declare(symbol("b", 2))
    second.declare(symbol("a", 1))
    #expect(first != second)
    second.declare(symbol("b", 2))
    #expect(first == second && first.hashValue == second.hashValue)
    #expect(first.order == ["a", "b"] && first["a"] == symbol("a", 1) && first["b"] == symbol("b", 2))
    // Declared again: the new symbol, and the name moves to the end.
    first.declare(symbol("a", 3))
    #expect(first["a"] == symbol("a", 3) && first.order == ["b", "a"])
    #expect(first != second)
  }

  /// A session declares names again and again (`:load` of a file it has loaded): each
  /// moves to the end, in the order of a list kept the plain way, over many redeclarations
  /// (past the point where the environment drops a name's earlier entries).
  @Test func namesDeclaredAgainMoveToTheEndInOrder() {
    func symbol(_ name: String, _ value: Double) -> Symbol {
      .value(ValueSymbol(name: name, type: .number, constant: .number(value), curveKind: nil, span: SourceSpan(at: 0)))
    }
    var environment = Environment()
    var expected: [String] = []
    var random = SeededRandom(seed: 14)
    for step in 0..<3_000 {
      let name = "n\(random.int(0...39))"
      environment.declare(symbol(name, Double(step)))
      expected.removeAll { $0 == name }
      expected.append(name)
      if step % 97 == 0 { #expect(environment.order == expected, "after step \(step)") }
    }
    #expect(environment.order == expected)
    #expect(environment[expected.last!] == symbol(expected.last!, 2_999))
  }
}

/// The environment keeps a `Symbol` for each declared name, as many as a script's
/// declarations: its size is its largest case's. A name (16 bytes), a constant or an
/// optional number (17), three one-byte members, and a span (8, at a multiple of 4) make 44
/// bytes, and the case's tag one more: 48 with padding; with a byte member between the name
/// and the 8-byte-aligned constant, a `let` took 53, and a symbol 56.
@Suite struct SymbolLayoutTests {
  @Test func aSymbolTakesFortyEightBytes() {
    #expect(MemoryLayout<ValueSymbol>.size <= 44)
    #expect(MemoryLayout<CurveSymbol>.size <= 44)
    #expect(MemoryLayout<TimelineSymbol>.size <= 44)
    #expect(MemoryLayout<TargetSymbol>.size <= 44)
    #expect(MemoryLayout<Symbol>.stride == 48)
  }
}
