import AnimTestSupport
import Foundation
import Testing

@testable import AnimLanguage

/// The checker never crashes and always points inside the source, whatever well-formed
/// script it is given: scripts made by replacing words of a clean script at random (with
/// names, literals and calls of every type) mostly parse and then exercise every check.
@Suite struct CheckerRobustnessTests {
  static let replacements = [
    "card", "angle", "x", "intro", "other", "landed", "begin", "base", "snap", "easeIn", "bouncy", "min", "jumpNone",
    "0", "1", "-1", "2.5", "1e308", "0s", "1s", "-250ms", "40%", "#fff", "\"s\"", "(1, 2)", "(1, 2, 3, 4)", "now",
    "spring(mass: 1)", "steps(0)", "cubic(2, 0, 1, 1)", "rgb(300, 0, 0)", "1 / 0", "1s * 1s", "card.angle.x",
  ]

  static func script() throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden").appendingPathComponent("ok-every-form.anim")
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test(arguments: 0..<4)
  func randomWordReplacementsNeverCrash(seed: Int) throws {
    var generator = SeededRandom(seed: UInt64(seed) &* 7919 &+ 1)
    let original = try Self.script()
    let words = original.split(separator: " ", omittingEmptySubsequences: false)
    var checkedCount = 0
    for _ in 0..<40 {
      var mutated = words.map(String.init)
      for _ in 0..<Int.random(in: 1...2, using: &generator) {
        let index = Int.random(in: 0..<mutated.count, using: &generator)
        guard mutated[index].allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
        mutated[index] = Self.replacements.randomElement(using: &generator)!
      }
      let source = SourceText(name: "mutated.anim", contents: mutated.joined(separator: " "))
      let parsed = parse(source)
      var diagnostics = parsed.diagnostics
      if !parsed.hasErrors {
        checkedCount += 1
        diagnostics += check(parsed.file).diagnostics
      }
      for diagnostic in diagnostics {
        #expect(diagnostic.span.start >= 0 && diagnostic.span.end <= source.bytes.count)
        #expect(!diagnostic.message.isEmpty)
      }
      _ = DiagnosticRenderer(source: source).render(diagnostics)
    }
    // Most mutants parse, so the checker itself was exercised.
    #expect(checkedCount > 10)
  }

  /// The checker's recursion follows the parser's nesting limit.
  @Test func deepButLegalNestingChecks() {
    let depth = 200
    let text = "let a = " + String(repeating: "(", count: depth) + "1s" + String(repeating: ")", count: depth) + " * 2"
    let source = SourceText(name: "deep.anim", contents: text)
    #expect(diagnose(source).isEmpty)
  }
}
