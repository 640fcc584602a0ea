import AnimTestSupport
import Testing

@testable import AnimLanguage

/// The generator's promises: the same seed gives the same script, every script is clean,
/// and together they use every form of grammar.md.
@Suite struct ScriptGeneratorTests {
  @Test func sameSeedSameScript() {
    var first = ScriptGenerator(seed: 7)
    var second = ScriptGenerator(seed: 7)
    var other = ScriptGenerator(seed: 8)
    let text = first.script(statements: 30)
    #expect(text == second.script(statements: 30))
    #expect(text != other.script(statements: 30))
  }

  @Test(arguments: 0..<200)
  func generatedScriptIsClean(_ seed: Int) {
    var generator = ScriptGenerator(seed: UInt64(seed) &* 7919)
    let text = generator.script(statements: 20 + seed % 60)
    let source = SourceText(name: "generated-\(seed).anim", contents: text)
    let diagnostics = diagnose(source)
    #expect(diagnostics.isEmpty, "\(describe(diagnostics, in: source))\n\(text)")
  }

  @Test func scriptOfABytesSize() {
    var generator = ScriptGenerator(seed: 3)
    let text = generator.script(bytes: 100_000)
    #expect(text.utf8.count >= 100_000)
    #expect(diagnose(SourceText(name: "big.anim", contents: text)).isEmpty)
  }

  /// Over a few dozen seeds, every form appears: looked for in the trees (through
  /// SyntaxDump, which shows meaning) and, for spellings, in the text.
  @Test func everyFormIsUsed() {
    var dumps = ""
    var texts = ""
    var commentStyles = Set<String>()
    for seed in 0..<60 {
      var generator = ScriptGenerator(seed: UInt64(seed))
      let text = generator.script(statements: 60)
      let result = parse(SourceText(name: "g.anim", contents: text))
      dumps += SyntaxDump.dump(result.file) + "\n"
      texts += text
      for comment in result.file.comments {
        switch comment.style {
        case .line: commentStyles.insert("line")
        case .block: commentStyles.insert(comment.text.dropFirst(2).contains("/*") ? "nested" : "block")
        case .shebang: commentStyles.insert("shebang")
        }
      }
    }
    let forms = [
      "(let ", "(curve ", "(target ", "(timeline ", "(animate ", "(from ", "(over ", "(with ",
      "(keyframes ", "(key 0% ", "(key 0s ", "(set ", "(print (string ", "(emit ",
      "(on complete ", "(on start ", "(on repeat ", "(on \"",
      "(play ", "(pause)", "(pause ", "(resume)", "(resume ", "(reverse)", "(reverse ", "(seek ", "(speed ",
      "(finish ", "(cancel ", "(wait ", "(label ", "(at ", "(at +", "(at -", "(with-previous ",
      "(sequence", "(parallel",
      "(delay ", "(repeat 2)", "(repeat forever)", "(autoreverse)", "(speed 2)",
      "(fill none)", "(fill forwards)", "(fill backwards)", "(fill both)", "(merge replace)",
      "(call cubic ", "(call steps ", "jumpNone", "jumpStart", "jumpBoth", "jumpEnd",
      "(call spring response: ", "(call spring duration: ", "(call spring mass: ", "velocity: ",
      " linear", " ease)", " easeIn", " easeOut", " easeInOut", " smooth", " snappy", " bouncy",
      "(call rgb ", "(call rgba ", "(call min ", "(call max ", "(call clamp ", "(call abs ",
      "(call sqrt ", "(call sin ", "(call cos ", "(call lerp ",
      "(vec ", "(paren ", "(- ", "(+ ", "(* ", "(/ ", " now", "%",
    ]
    for form in forms {
      #expect(dumps.contains(form), "no generated script uses \(form)")
    }
    let spellings = [
      "1_000", ".5", "1e3", "2.5e-1", "1.5s", "250ms", "#fff", "#ff8800", "#ff880080", "\\n", "\\t",
      "\\\"", "\\\\", "\\{", "lone }", "é", "; ", ".x", ".r", "to:", "on:", "fill:",
    ]
    for spelling in spellings {
      #expect(texts.contains(spelling), "no generated script writes \(spelling)")
    }
    #expect(commentStyles == ["line", "block", "nested", "shebang"])
  }
}
