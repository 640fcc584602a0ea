import Testing

@testable import AnimLanguage

/// Issue 13, item 4: no control byte from a file or input is ever written as it is: each is
/// shown as `\x1B` (two upper-case hex digits per byte), and a caret counts that width.
@Suite struct ShownTextTests {
  @Test func controlBytesAndInvalidUTF8AreEscapedByteByByte() {
    #expect(ShownText.escaped("plain text, tab\there, é ✓") == "plain text, tab\there, é ✓")
    #expect(ShownText.escaped([0x61, 0x1B, 0x5B, 0x32, 0x4A, 0x00, 0x7F, 0x62]) == "a\\x1B[2J\\x00\\x7Fb")
    // C1 controls (U+0085 is C2 85), each of their bytes; a stray continuation byte and a
    // truncated sequence, byte by byte.
    #expect(ShownText.escaped([0xC2, 0x85, 0x41]) == "\\xC2\\x85A")
    #expect(ShownText.escaped([0x80, 0xE2, 0x9C]) == "\\x80\\xE2\\x9C")
    // Newline and carriage return are controls too when shown inside one line.
    #expect(ShownText.escaped("a\nb\r") == "a\\x0Ab\\x0D")
  }

  @Test func aCaretUnderAnEscapedByteCountsItsWidth() {
    let source = SourceText(name: "c.anim", bytes: Array("print \"a".utf8) + [0x1B] + Array("b\" x\n".utf8))
    // `x` is at byte 12 (after `print "a`, ESC, `b" `): shown after the four characters of `\x1B`.
    let text = DiagnosticRenderer(source: source).render(.error("unexpected", at: SourceSpan(start: 12, end: 13)))
    #expect(
      text == """
        c.anim:1:13: error: unexpected
        print "a\\x1Bb" x
                       ^

        """)
  }

  @Test func aControlCharacterInAStringOrACommentIsAnError() {
    let lexed = Lexer.tokenize(
      SourceText(name: "t.anim", bytes: Array("print \"a".utf8) + [0x1B] + Array("\" // b".utf8) + [0x07] + [0x0A]))
    let messages = lexed.diagnostics.map(\.message)
    #expect(
      messages == [
        "control character \\x1B in string: a script holds no control characters but tab",
        "control character \\x07 in comment: a script holds no control characters but tab",
      ])
    // Tab and CR LF line ends are fine.
    #expect(Lexer.tokenize(SourceText(name: "t.anim", contents: "print \"a\tb\" // c\td\r\n")).diagnostics.isEmpty)
  }
}
