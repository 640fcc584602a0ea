// `reparseStatement`: a top-level statement read again from its source at its span is the
// tree the whole reading made of it, spans included (a runner holds the span of a statement
// it runs later, not its tree, and the checker's facts are by span).

import AnimTestSupport
import Testing

@testable import AnimLanguage

struct ReparseStatementTests {
  /// Every top-level statement of generated scripts (every form, messy layout: comments,
  /// blank lines, `;`), read again at its span, equals the statement read with the script.
  @Test(arguments: 0..<40)
  func everyTopLevelStatementReadAgainIsTheSame(_ seed: Int) {
    var generator = ScriptGenerator(seed: UInt64(seed) &+ 7000)
    let source = SourceText(name: "generated.anim", contents: generator.script(statements: 20 + seed % 30))
    let parsed = parse(source)
    #expect(!parsed.hasErrors)
    #expect(!parsed.file.statements.isEmpty)
    for statement in parsed.file.statements {
      #expect(reparseStatement(of: source, at: statement.span) == statement, "at \(statement.span)")
    }
  }

  /// A placed statement's span includes its placement, and the tree read again has it.
  @Test func aPlacedStatementIsReadAgainWithItsPlacement() throws {
    let text = "target t { y: 0 }\nat 2s animate t.y to 1 over 250ms\n"
    let source = SourceText(name: "placed.anim", contents: text)
    let statement = try #require(parse(source).file.statements.last)
    // The statement runs from `at` to the end of `250ms` (the line without its newline).
    let start = text.utf8.count - "at 2s animate t.y to 1 over 250ms\n".utf8.count
    #expect(statement.span == SourceSpan(start: start, end: text.utf8.count - 1))
    let again = try #require(reparseStatement(of: source, at: statement.span))
    #expect(again == statement)
    #expect(again.placement?.span.start == start)
  }

  /// A span that is not exactly one statement reads nothing.
  @Test func aSpanThatIsNotOneStatementReadsNothing() {
    let text = "target t { y: 0 }\nset t.y to 1\nset t.y to 2\n"
    let source = SourceText(name: "two.anim", contents: text)
    let second = 18  // after "target t { y: 0 }\n"
    let end = text.utf8.count - 1
    // Two statements.
    #expect(reparseStatement(of: source, at: SourceSpan(start: second, end: end)) == nil)
    // A statement cut short (`set t.y to`): a syntax error.
    #expect(reparseStatement(of: source, at: SourceSpan(start: second, end: second + 10)) == nil)
    // The first of them, exactly: read.
    #expect(reparseStatement(of: source, at: SourceSpan(start: second, end: second + 12)) != nil)
  }
}
