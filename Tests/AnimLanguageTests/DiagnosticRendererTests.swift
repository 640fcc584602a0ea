import Testing

@testable import AnimLanguage

@Suite struct DiagnosticRendererTests {
  @Test func rendersLikeCompilers() {
    let source = SourceText(name: "intro.anim", contents: "play x\nanimate card.x from 0 over 1s\n")
    // `over` starts at byte 7 + 22 on line 2, column 23.
    let start = 7 + 22
    let diagnostic = Diagnostic.error("expected 'to'", at: SourceSpan(start: start, end: start + 4))
    let text = DiagnosticRenderer(source: source).render(diagnostic)
    #expect(
      text == """
        intro.anim:2:23: error: expected 'to'
        animate card.x from 0 over 1s
                              ^~~~

        """)
  }

  @Test func warningsAndNotes() {
    let source = SourceText(name: "a.anim", contents: "let easeIn = 1\n")
    let diagnostic = Diagnostic.warning(
      "'easeIn' shadows a curve preset", at: SourceSpan(start: 4, end: 10),
      notes: [.init("declared here", span: SourceSpan(start: 0, end: 3)), .init("no place")])
    #expect(
      DiagnosticRenderer(source: source).render(diagnostic) == """
        a.anim:1:5: warning: 'easeIn' shadows a curve preset
        let easeIn = 1
            ^~~~~~
        a.anim:1:1: note: declared here
        let easeIn = 1
        ^~~
        note: no place

        """)
  }

  @Test func columnsCountCharactersAndTabsAreKept() {
    let text = "\tprint \"é✓\" @"
    let source = SourceText(name: "t.anim", contents: text)
    let offset = text.utf8.count - 1
    #expect(source.location(of: offset) == SourceLocation(line: 1, column: 13))
    let rendered = DiagnosticRenderer(source: source).render(
      .error("x", at: SourceSpan(start: offset, end: offset + 1)))
    #expect(rendered == "t.anim:1:13: error: x\n\(text)\n\t" + String(repeating: " ", count: 11) + "^\n")
  }

  @Test func aSpanOverSeveralLinesUnderlinesToTheEndOfItsFirstLine() {
    let source = SourceText(name: "t", contents: "ab cd\nef")
    let rendered = DiagnosticRenderer(source: source).render(.error("m", at: SourceSpan(start: 3, end: 8)))
    #expect(rendered == "t:1:4: error: m\nab cd\n   ^~\n")
  }

  @Test func anEmptySpanAtTheEndOfInput() {
    let source = SourceText(name: "t", contents: "play")
    let rendered = DiagnosticRenderer(source: source).render(.error("m", at: SourceSpan(at: 4)))
    #expect(rendered == "t:1:5: error: m\nplay\n    ^\n")
  }

  @Test func carriageReturnsAreNotShown() {
    let source = SourceText(name: "t", contents: "a\r\nbc\r\n")
    #expect(source.text(ofLine: 1) == "a")
    #expect(source.location(of: 4) == SourceLocation(line: 2, column: 2))
  }

  @Test func colourIsOptional() {
    let source = SourceText(name: "t", contents: "x")
    let diagnostic = Diagnostic.error("m", at: SourceSpan(start: 0, end: 1))
    #expect(!DiagnosticRenderer(source: source, usesColor: false).render(diagnostic).contains("\u{1B}"))
    let coloured = DiagnosticRenderer(source: source, usesColor: true).render(diagnostic)
    #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    #expect(coloured.hasSuffix("\u{1B}[0m\n"))
  }

  @Test func colourOnlyOnATerminalWithoutNoColor() {
    #expect(DiagnosticRenderer.wantsColor(isTerminal: true, environment: [:]))
    #expect(DiagnosticRenderer.wantsColor(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!DiagnosticRenderer.wantsColor(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(!DiagnosticRenderer.wantsColor(isTerminal: false, environment: [:]))
  }

  @Test func lineLookup() {
    let source = SourceText(name: "t", contents: "a\nbb\n\nccc")
    #expect((0...9).map { source.line(of: $0) } == [1, 1, 2, 2, 2, 3, 4, 4, 4, 4])
    #expect(source.text(ofLine: 4) == "ccc")
    #expect(source.text(ofLine: 3) == "")
  }
}
