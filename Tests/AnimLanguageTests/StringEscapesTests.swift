import AnimTestSupport
import Testing

@testable import AnimLanguage

/// grammar.md's escapes (`escape -> "\n" | "\t" | '\"' | "\\" | "\{"`), read by the lexer and
/// written by the formatter and the tree dump from one table.
@Suite struct StringEscapesTests {
  /// The text of a one-string script, as the parser decoded it.
  func decoded(_ literal: String) -> String? {
    let result = parse(SourceText(name: "t.anim", contents: "print \(literal)\n"))
    guard result.diagnostics.isEmpty, case .print(let string) = result.file.statements.first?.kind else { return nil }
    return string.plainText
  }

  @Test func theTableIsGrammarsEscapes() {
    #expect(decoded(#""a\nb""#) == "a\nb")
    #expect(decoded(#""a\tb""#) == "a\tb")
    #expect(decoded(#""say \"hi\"""#) == "say \"hi\"")
    #expect(decoded(#""back\\slash""#) == "back\\slash")
    #expect(decoded(#""\{not interpolated}""#) == "{not interpolated}")
    #expect(StringEscapes.listed == #"\n \t \" \\ and \{"#)
    let unknown = parse(SourceText(name: "t.anim", contents: "print \"\\q\"\n"))
    #expect(unknown.diagnostics.first?.message == #"unknown escape '\q' in string; the escapes are \n \t \" \\ and \{"#)
  }

  /// What the writers escape, the lexer reads back as the same text.
  @Test func escapedTextReadsBackAsItself() {
    let alphabet: [Character] = ["a", "\n", "\t", "\"", "\\", "{", "}", "é", " ", "✓"]
    var random = SeededRandom(seed: 5)
    for _ in 0..<300 {
      let text = String((0..<random.int(0...12)).map { _ in random.pick(alphabet) })
      #expect(decoded("\"" + StringEscapes.escaping(text) + "\"") == text, "\(text.debugDescription)")
      #expect(SyntaxDump.quoted(text) == "\"" + StringEscapes.escaping(text) + "\"")
    }
  }
}
