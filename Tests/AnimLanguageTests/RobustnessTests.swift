import AnimTestSupport
import Testing

@testable import AnimLanguage

/// Hostile input returns (errors or success) quickly and never crashes.
@Suite struct RobustnessTests {
  @Test func twoHundredThousandNestedParenthesesGiveOneError() {
    let text = "let x = " + String(repeating: "(", count: 200_000) + "1" + String(repeating: ")", count: 200_000)
    let source = SourceText(name: "deep.anim", contents: text)
    let clock = ContinuousClock()
    var result: ParseResult?
    let elapsed = clock.measure { result = parse(source) }
    let diagnostics = result?.diagnostics ?? []
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message == "too deeply nested: blocks and expressions may nest at most 256 levels")
    // The error is at the 257th parenthesis (the `let` value is level 1).
    #expect(diagnostics.first?.span.start == "let x = ".utf8.count + 256)
    #expect(elapsed < .seconds(5))
  }

  @Test func deeplyNestedBlocksGiveOneError() {
    let text =
      "timeline t {\n" + String(repeating: "sequence {\n", count: 10_000)
      + String(repeating: "}\n", count: 10_001)
    let result = parse(SourceText(name: "blocks.anim", contents: text))
    #expect(
      result.diagnostics.map(\.message) == ["too deeply nested: blocks and expressions may nest at most 256 levels"])
  }

  @Test func nestingJustUnderTheLimitIsFine() {
    // The `let` value is level 1; 255 parentheses make 256 levels.
    let text = "let x = " + String(repeating: "(", count: 255) + "1" + String(repeating: ")", count: 255)
    #expect(errorsOf(text) == [])
    let tooDeep = "let x = " + String(repeating: "(", count: 256) + "1" + String(repeating: ")", count: 256)
    #expect(errorsOf(tooDeep).count == 1)
  }

  @Test func longChainsCountTowardTheLimit() {
    // `1 + 1 + ...` nests to the left: each operator is one level of the tree.
    let short = "let x = 1" + String(repeating: " + 1", count: 200)
    #expect(errorsOf(short) == [])
    let chain = "let x = 1" + String(repeating: " + 1", count: 100_000)
    #expect(errorsOf(chain).count == 1)
    let minus = "let x = " + String(repeating: "-", count: 100_000) + "1"
    #expect(errorsOf(minus).count == 1)
    let members = "let x = a" + String(repeating: ".b", count: 100_000)
    #expect(errorsOf(members).count == 1)
  }

  @Test(arguments: [1 as UInt64, 2, 3, 42, 2026])
  func randomBytesDoNotCrash(seed: UInt64) {
    var generator = SeededRandom(seed: seed)
    var bytes = [UInt8]()
    for _ in 0..<50_000 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
    let result = parse(SourceText(name: "random.anim", bytes: bytes))
    #expect(result.hasErrors)
    // Rendering every diagnostic must not crash either.
    _ = DiagnosticRenderer(source: SourceText(name: "random.anim", bytes: bytes)).render(
      result.diagnostics.prefix(50).map { $0 })
  }

  @Test(arguments: [1 as UInt64, 7, 99])
  func randomTokenSoupDoesNotCrash(seed: UInt64) {
    // Plausible pieces in random order reach deeper into the parser than random bytes.
    let pieces = [
      "animate", "a.b", "to", "1", "over", "1s", "with", "(", ")", "{", "}", ",", ":", "\n", ";",
      "timeline", "t", "at", "+", "-", "*", "/", "\"x{", "}\"", "keyframes", "0%", "label", "on",
      "complete", "#fff", "previous", "repeat", "forever", "fill", "both", "target", "let", "=",
      "spring", "response:", ".", "now", "/*", "*/", "//", "sequence", "parallel", "seek", "speed",
    ]
    var generator = SeededRandom(seed: seed)
    var text = ""
    for _ in 0..<5_000 {
      text += pieces[Int(generator.next() % UInt64(pieces.count))] + " "
    }
    let result = parse(SourceText(name: "soup.anim", contents: text))
    #expect(result.hasErrors)
  }

  @Test func invalidUTF8IsAnErrorNotACrash() {
    let cases: [[UInt8]] = [
      [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
      Array("print \"".utf8) + [0xE2, 0x82] + Array("\"".utf8),
      Array("// comment ".utf8) + [0xFE],
      Array("/* ".utf8) + [0xC3] + Array(" */".utf8),
    ]
    for bytes in cases {
      let result = parse(SourceText(name: "bad.anim", bytes: bytes))
      #expect(result.diagnostics.count == 1, "for \(bytes)")
      #expect(result.diagnostics.first?.message.contains("UTF-8") == true, "for \(bytes)")
    }
  }

  @Test func aOneMegabyteLine() {
    var text = ""
    var index = 0
    while text.utf8.count < 1_000_000 {
      text += "let x\(index) = (1, 2) * 3; "
      index += 1
    }
    text += "print \"end\""
    let source = SourceText(name: "long.anim", contents: text)
    let result = parse(source)
    #expect(result.diagnostics.isEmpty)
    #expect(result.file.statements.count == index + 1)
    // An error at its end is located and rendered.
    let broken = SourceText(name: "long.anim", contents: text + " @")
    let diagnostics = parse(broken).diagnostics
    #expect(diagnostics.count == 1)
    #expect(broken.location(of: diagnostics[0].span.start) == SourceLocation(line: 1, column: text.count + 2))
    #expect(DiagnosticRenderer(source: broken).render(diagnostics[0]).hasSuffix("^\n"))
  }

  @Test func aOneMegabyteComment() {
    let text = "// " + String(repeating: "é", count: 500_000) + "\nplay x"
    let result = parse(SourceText(name: "comment.anim", contents: text))
    #expect(result.diagnostics.isEmpty)
    #expect(result.file.comments.count == 1)
  }

  @Test func aOneMegabyteString() {
    let text = "print \"" + String(repeating: "abc{x}", count: 170_000) + "\""
    let result = parse(SourceText(name: "string.anim", contents: text))
    #expect(result.diagnostics.isEmpty)
  }

  @Test func hugeNumbers() {
    #expect(errorsOf("let x = 1e400") == ["1:9: error: number '1e400' is beyond the range of a Double"])
    #expect(errorsOf("let x = 1e-400") == [])  // underflows to 0, which is in range
    #expect(errorsOf("wait 1e999999999999999999999s").count == 1)
    #expect(errorsOf("wait 1e-999999999999999999999s") == [])
    #expect(errorsOf("let x = " + String(repeating: "9", count: 400)).count == 1)
  }

  @Test func emptyAndBlankFiles() {
    for text in ["", "\n", "   \n\t\n", "// only a comment", "/* */", "#!/usr/bin/env anim", ";", "\r\n"] {
      let result = parse(SourceText(name: "empty.anim", contents: text))
      #expect(result.diagnostics.isEmpty, "for \(text.debugDescription)")
      #expect(result.file.statements.isEmpty)
    }
  }
}
