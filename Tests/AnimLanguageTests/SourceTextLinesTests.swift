// SourceText's lines: the 1-based line of an offset, a line's bytes (without its `\n` or
// `\r\n`), and the line and column (in Characters) of an offset, from the newlines alone.

import Testing

@testable import AnimLanguage

@Suite struct SourceTextLinesTests {
  /// "ab\nc\r\n\né\nd": lines start at 0, 3, 6, 7 and 10 (`é` is two bytes).
  @Test func linesColumnsAndRanges() {
    let source = SourceText(name: "lines.anim", contents: "ab\nc\r\n\né\nd")
    #expect(source.bytes.count == 11)
    #expect((0...11).map { source.line(of: $0) } == [1, 1, 1, 2, 2, 2, 3, 4, 4, 4, 5, 5])
    #expect((1...5).map { source.byteRange(ofLine: $0) } == [0..<2, 3..<4, 6..<6, 7..<9, 10..<11])
    #expect((1...5).map { source.text(ofLine: $0) } == ["ab", "c", "", "é", "d"])
    // The column counts Characters: the `\n` after `é` is the second column of line 4.
    let location = source.location(of: 9)
    #expect(location.line == 4 && location.column == 2)
    #expect(source.location(of: 11).line == 5 && source.location(of: 11).column == 2)
  }

  /// A text without a newline is one line; one that ends with a newline has an empty last
  /// line after it.
  @Test func theFirstAndTheLastLine() {
    let one = SourceText(name: "one.anim", contents: "play x")
    #expect(one.line(of: 6) == 1 && one.byteRange(ofLine: 1) == 0..<6)
    let ended = SourceText(name: "ended.anim", contents: "play x\n")
    #expect(ended.line(of: 7) == 2 && ended.byteRange(ofLine: 2) == 7..<7)
    #expect(SourceText(name: "empty.anim", contents: "").line(of: 0) == 1)
  }

  /// Many lines (past 2^16 bytes): line k of "x\n" repeated starts at byte 2(k − 1).
  @Test func manyLines() {
    let source = SourceText(name: "many.anim", contents: String(repeating: "x\n", count: 50_000))
    for line in [1, 2, 32_768, 40_001, 50_000] {
      #expect(source.byteRange(ofLine: line) == 2 * (line - 1)..<2 * (line - 1) + 1)
      #expect(source.line(of: 2 * (line - 1) + 1) == line)
    }
    #expect(source.line(of: 100_000) == 50_001)
  }

  /// The line starts are found on first use, from whichever thread asks first: copies of a
  /// text asked on several threads at once give each the same lines.
  @Test func linesFoundOnFirstUseOnAnyThread() async {
    let source = SourceText(name: "many.anim", contents: String(repeating: "ab\n", count: 10_000))
    let lines = await withTaskGroup(of: [Int].self) { group in
      for task in 0..<8 {
        let copy = source
        group.addTask { (0..<100).map { copy.line(of: 3 * (task * 100 + $0)) } }
      }
      var all: [[Int]] = []
      for await lines in group { all.append(lines) }
      return all
    }
    #expect(lines.count == 8)
    // Byte 3m starts line m + 1.
    for found in lines { #expect(found.count == 100 && zip(found, found.dropFirst()).allSatisfy { $1 == $0 + 1 }) }
    #expect(source.line(of: 3 * 799) == 800 && source.byteRange(ofLine: 10_001) == 30_000..<30_000)
  }
}
