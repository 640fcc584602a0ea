import AnimTestSupport
import Foundation
import Testing

@testable import AnimLanguage

/// The formatter's promises: the same tree and the same comments after formatting, a
/// fixed point after one pass, and the canonical layout of README's `anim fmt` paragraph on hand-written cases.
@Suite struct FormatterTests {
  /// Formats `text`, which must parse cleanly.
  static func formatted(_ text: String, name: String = "test.anim") -> String {
    let source = SourceText(name: name, contents: text)
    let result = parse(source)
    #expect(!result.hasErrors, "\(describe(result.diagnostics, in: source))")
    return format(result.file, source: source)
  }

  /// parse(fmt(x)) has x's tree and comments, and fmt(fmt(x)) == fmt(x).
  static func expectRoundTrip(_ text: String, name: String) {
    let source = SourceText(name: name, contents: text)
    let original = parse(source)
    #expect(!original.hasErrors, "\(name): \(describe(original.diagnostics, in: source))")
    let once = format(original.file, source: source)
    let onceSource = SourceText(name: name, contents: once)
    let reparsed = parse(onceSource)
    #expect(!reparsed.hasErrors, "\(name) formatted: \(describe(reparsed.diagnostics, in: onceSource))\n\(once)")
    #expect(SyntaxDump.dump(reparsed.file) == SyntaxDump.dump(original.file), "\(name): tree changed\n\(once)")
    #expect(
      reparsed.file.comments.map(\.comparableText) == original.file.comments.map(\.comparableText),
      "\(name): comments changed\n\(once)")
    let twice = format(reparsed.file, source: onceSource)
    #expect(twice == once, "\(name): not idempotent\n--- once\n\(once)--- twice\n\(twice)")
  }

  static let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples")

  static func exampleNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".anim") }.sorted()
  }

  static func example(_ name: String) throws -> String {
    try String(contentsOf: examplesDirectory.appendingPathComponent(name), encoding: .utf8)
  }

  // MARK: - Round trips

  @Test func thereAreExamples() {
    #expect(Self.exampleNames().count >= 10)
  }

  @Test(arguments: exampleNames())
  func exampleRoundTrips(_ name: String) throws {
    Self.expectRoundTrip(try Self.example(name), name: name)
  }

  @Test(arguments: 0..<200)
  func generatedScriptRoundTrips(_ seed: Int) {
    var generator = ScriptGenerator(seed: UInt64(seed))
    let text = generator.script(statements: 10 + seed % 40)
    Self.expectRoundTrip(text, name: "generated-\(seed).anim")
  }

  @Test func generatedScriptsInCanonicalLayoutAreFixedPoints() {
    // A script that is already canonical comes back byte for byte.
    for seed in 1000..<1010 {
      var generator = ScriptGenerator(seed: UInt64(seed))
      let canonical = Self.formatted(generator.script(statements: 30))
      #expect(Self.formatted(canonical) == canonical)
    }
  }

  // MARK: - Canonical layout, by hand

  static let layouts: [(input: String, expected: String)] = [
    // Alignment spaces, `;`, indentation and blank lines collapse.
    (
      "let duration   = 600ms;let accent=#ff8800\n\n\n\ncurve snap   =cubic(0.2,0.9 ,0.1,1)\n",
      "let duration = 600ms\nlet accent = #ff8800\n\ncurve snap = cubic(0.2, 0.9, 0.1, 1)\n"
    ),
    // A target that fits in 100 columns and holds no comment stays on one line, `, `
    // between its properties (the trailing comma dropped).
    (
      "target card  { angle: 0, opacity:0,position: (0,0), tint: #000000, }\ntarget e {}\n",
      "target card { angle: 0, opacity: 0, position: (0, 0), tint: #000000 }\ntarget e {}\n"
    ),
    // One longer than 100 columns, or with a comment inside, has one property per line,
    // commas dropped, `{` on the header's line.
    (
      "target wide { p0: 000, p1: 100, p2: 200, p3: 300, p4: 400, p5: 500, p6: 600, p7: 700, p8: 800, p9: 900, p10: 1000, p11: 1100 }\ntarget noted { x: 0, // why\n y: 0 }\n",
      "target wide {\n  p0: 000\n  p1: 100\n  p2: 200\n  p3: 300\n  p4: 400\n  p5: 500\n  p6: 600\n  p7: 700\n  p8: 800\n  p9: 900\n  p10: 1000\n  p11: 1100\n}\ntarget noted {\n  x: 0 // why\n  y: 0\n}\n"
    ),
    // Blocks: two-space indent, one item per line, no blank line after `{` or before `}`.
    (
      "timeline intro repeat 2   autoreverse {\n\n      animate card.x to 1 over 1s; with previous animate card.y to 2 over 1s\n\n}\non \"go\" { play intro }\n",
      "timeline intro repeat 2 autoreverse {\n  animate card.x to 1 over 1s\n  with previous animate card.y to 2 over 1s\n}\non \"go\" {\n  play intro\n}\n"
    ),
    // Operators get single spaces; user parentheses and literal spellings stay.
    (
      "let x=(1+2)*-3/.5 - 1_000+1e3\nlet d = 1.5s+250ms*2\nlet c = #F80\nlet v=(1,2,3)*2\n",
      "let x = (1 + 2) * -3 / .5 - 1_000 + 1e3\nlet d = 1.5s + 250ms * 2\nlet c = #F80\nlet v = (1, 2, 3) * 2\n"
    ),
    // A continuation line joins its statement.
    (
      "let x = 1 +\n    2\ncurve c = spring(response: 0.5,\n   dampingFraction: 0.45)\n",
      "let x = 1 + 2\ncurve c = spring(response: 0.5, dampingFraction: 0.45)\n"
    ),
    // Options keep the user's order; placements print as written.
    (
      "at  +250ms   animate a.b   to 1 over 1s fill both  delay 2s merge replace\nat landed+250ms print \"x\"\n",
      "at +250ms animate a.b to 1 over 1s fill both delay 2s merge replace\nat landed + 250ms print \"x\"\n"
    ),
    // Keyframes: one per line.
    (
      "keyframes ball.y over 1s { 0%: 0, 40%: -60 with easeOut,\n 100%:0 with spring(duration:300ms,bounce:0.3) }\n",
      "keyframes ball.y over 1s {\n  0%: 0\n  40%: -60 with easeOut\n  100%: 0 with spring(duration: 300ms, bounce: 0.3)\n}\n"
    ),
    // Strings keep their escapes and get formatted interpolations.
    (
      "print \"a\\tb \\\"q\\\" \\\\ \\{ } {1+2} {card.x}\\n\"\n",
      "print \"a\\tb \\\"q\\\" \\\\ \\{ } {1 + 2} {card.x}\\n\"\n"
    ),
    // Control statements.
    (
      "pause;resume   intro\nseek intro   to 1s ; speed intro  -0.5\n",
      "pause\nresume intro\nseek intro to 1s\nspeed intro -0.5\n"
    ),
    // Comments: trailing ones stay at the end of their line, own-line ones keep their
    // place and one blank line, a comment inside an item moves above it.
    (
      "#!/usr/bin/env anim   \n// head   \n\n\n/* block\n   kept */\nplay a   // trailing   \nlet x = 1 + // inside\n  2\ntimeline t { // opens\n  // first\n  play a /* after */\n\n\n  // last\n}  // closed\n",
      "#!/usr/bin/env anim\n// head\n\n/* block\n   kept */\nplay a // trailing\n// inside\nlet x = 1 + 2\ntimeline t { // opens\n  // first\n  play a /* after */\n\n  // last\n}  // closed\n"
        .replacingOccurrences(of: "}  // closed", with: "} // closed")
    ),
    // An empty file stays empty; a file of comments keeps them.
    ("", ""),
    ("\n\n// only\n\n", "// only\n"),
  ]

  /// The one-line rule's edge: a target of exactly 100 columns stays on one line, one of
  /// 101 does not (indentation counts, so the same target one level in breaks).
  @Test func aTargetOfExactly100ColumnsStaysOnOneLine() {
    let fixed = "target t { a: 1, b: ".count + " }".count
    let exactly = "target t { a: 1, b: \(String(repeating: "9", count: 100 - fixed)) }\n"
    let over = "target t { a: 1, b: \(String(repeating: "9", count: 101 - fixed)) }\n"
    #expect(exactly.count == 101 && over.count == 102)
    #expect(Self.formatted(exactly) == exactly)
    #expect(Self.formatted(over) == "target t {\n  a: 1\n  b: \(String(repeating: "9", count: 101 - fixed))\n}\n")
  }

  @Test(arguments: 0..<layouts.count)
  func canonicalLayout(_ index: Int) {
    let (input, expected) = Self.layouts[index]
    #expect(Self.formatted(input) == expected)
    Self.expectRoundTrip(input, name: "layout-\(index).anim")
  }
}

/// Comments in every place a comment can go: a generated script with block comments put
/// into random gaps between tokens and line comments at the end of random lines must
/// still round-trip (same tree, same comments in the same order, a fixed point).
@Suite struct FormatterCommentPlacementTests {
  @Test(arguments: 0..<120)
  func commentsAnywhere(_ seed: Int) {
    var generator = ScriptGenerator(seed: UInt64(seed) &+ 5000)
    let text = generator.script(statements: 15)
    var random = SeededRandom(seed: UInt64(seed))
    let source = SourceText(name: "g.anim", contents: text)
    let lexed = Lexer.tokenize(source)
    let commentSpans = lexed.comments.map(\.span)
    func insideComment(_ offset: Int) -> Bool {
      commentSpans.contains { $0.start <= offset && offset < $0.end }
    }
    // Candidate places: spaces and line ends between tokens, outside comments.
    var places: [(offset: Int, isLineEnd: Bool)] = []
    for (previous, next) in zip(lexed.tokens, lexed.tokens.dropFirst()) {
      for offset in previous.span.end..<next.span.start where !insideComment(offset) {
        let byte = source.bytes[offset]
        if byte == UInt8(ascii: " ") { places.append((offset, false)) }
        if byte == UInt8(ascii: "\n") { places.append((offset, true)) }
      }
    }
    var bytes = source.bytes
    var count = 0
    // From the end, so earlier offsets stay valid.
    for place in places.reversed() where random.next() % 4 == 0 {
      count += 1
      let comment = place.isLineEnd ? " // line \(count)" : " /* block \(count) */ "
      bytes.insert(contentsOf: Array(comment.utf8), at: place.offset)
    }
    let commented = String(decoding: bytes, as: UTF8.self)
    FormatterTests.expectRoundTrip(commented, name: "commented-\(seed).anim")
  }
}

/// Odd but valid scripts: generated scripts with random token-level edits (a token
/// deleted, doubled, or moved next to its neighbour, a line broken between tokens). Every
/// edited script that still parses must round-trip like any other.
@Suite struct FormatterMutationTests {
  @Test(arguments: 0..<600)
  func mutatedScriptRoundTrips(_ seed: Int) {
    guard let mutated = Self.mutatedScript(seed: seed) else { return }
    FormatterTests.expectRoundTrip(mutated, name: "mutated-\(seed).anim")
  }

  /// The edits must leave enough scripts parseable for the test above to test something.
  @Test func enoughEditedScriptsParse() {
    let parsing = (0..<600).filter { Self.mutatedScript(seed: $0) != nil }.count
    #expect(parsing >= 60, "only \(parsing) of 600 edited scripts parse")
  }

  /// The edited script of a seed, or nil when the edits broke its syntax.
  static func mutatedScript(seed: Int) -> String? {
    var generator = ScriptGenerator(seed: UInt64(seed) &+ 9000)
    let text = generator.script(statements: 4)
    let source = SourceText(name: "m.anim", contents: text)
    let tokens = Lexer.tokenize(source).tokens.filter { $0.kind != .endOfFile && $0.kind != .newline }
    var random = SeededRandom(seed: UInt64(seed))
    var bytes = source.bytes
    // Edits from the end so that earlier offsets stay valid.
    let picked = Set((0..<1).map { _ in Int(random.next() % UInt64(tokens.count)) })
    for index in picked.sorted(by: >) {
      let token = tokens[index]
      let text = Array(source.bytes[token.span.start..<token.span.end])
      switch random.next() % 4 {
      case 0: bytes.removeSubrange(token.span.start..<token.span.end)
      case 1: bytes.insert(contentsOf: text + [UInt8(ascii: " ")], at: token.span.start)
      case 2: bytes.insert(UInt8(ascii: "\n"), at: token.span.start)
      default:
        if index + 1 < tokens.count {
          let next = tokens[index + 1]
          let nextText = Array(source.bytes[next.span.start..<next.span.end])
          bytes.replaceSubrange(next.span.start..<next.span.end, with: text)
          bytes.replaceSubrange(token.span.start..<token.span.end, with: nextText)
        }
      }
    }
    let mutated = String(decoding: bytes, as: UTF8.self)
    return parse(SourceText(name: "m.anim", contents: mutated)).hasErrors ? nil : mutated
  }
}
