import AnimLanguage
import Testing

@testable import AnimREPL

@Suite("Joining the lines of an entry")
struct InputBufferTests {
  /// Feeds lines and returns the entries completed, with the line each started on.
  private func entries(_ lines: [String]) -> [(String, Int)] {
    var buffer = InputBuffer()
    var done: [(String, Int)] = []
    for (index, line) in lines.enumerated() {
      if let entry = buffer.add(line, lineNumber: index + 1) { done.append((entry, buffer.firstLine)) }
    }
    if let rest = buffer.flush() { done.append((rest, buffer.firstLine)) }
    return done
  }

  @Test func anOpenBraceHoldsLinesUntilItCloses() {
    let result = entries(["target b { x: 0 }", "timeline x {", "  animate b.x to 1 over 1s", "}", "play x"])
    #expect(result.map(\.0) == ["target b { x: 0 }", "timeline x {\n  animate b.x to 1 over 1s\n}", "play x"])
    #expect(result.map(\.1) == [1, 2, 5])
  }

  @Test func nestedBracesAndParentheses() {
    let result = entries(["timeline x {", "  parallel {", "    animate b.pos to (1,", "      2) over 1s", "  }", "}"])
    #expect(result.count == 1)
    #expect(result[0].1 == 1)
  }

  @Test(arguments: [
    "print \"{ not a brace\"",
    "let a = 1 // {",
    "let a = 1 /* ( */",
    "}",
  ])
  func bracketsInStringsAndCommentsDoNotCount(line: String) {
    var buffer = InputBuffer()
    #expect(buffer.add(line, lineNumber: 1) == line)
    #expect(!buffer.isContinuing)
  }

  @Test func aTrailingOperatorOrCommaContinues() {
    #expect(entries(["let a = 1 +", "2"]).map(\.0) == ["let a = 1 +\n2"])
    #expect(entries(["target b { x: 0,", "y: 1 }"]).count == 1)
  }

  @Test func aCommandIsOneLineWhateverItHolds() {
    var buffer = InputBuffer()
    #expect(buffer.add(":load {weird.anim", lineNumber: 1) == ":load {weird.anim")
    #expect(!buffer.isContinuing)
  }

  @Test func discardDropsTheUnfinishedEntry() {
    var buffer = InputBuffer()
    #expect(buffer.add("timeline x {", lineNumber: 1) == nil)
    #expect(buffer.isContinuing)
    buffer.discard()
    #expect(!buffer.isContinuing)
    #expect(buffer.flush() == nil)
  }

  @Test func completenessCountsEachKindOfBracket() {
    let source = SourceText(name: "t", contents: "timeline x { animate b.p to (1, 2")
    let completeness = InputCompleteness(of: source)
    #expect(completeness.openBraces == 1)
    #expect(completeness.openParentheses == 1)
    #expect(completeness.needsMoreInput)
  }
}
