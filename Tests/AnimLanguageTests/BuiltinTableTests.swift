import AnimCore
import Foundation
import Testing

@testable import AnimLanguage

/// Issue 12, rule 11: each builtin function, curve preset, spring form and step position is
/// defined once (Builtins.swift); grammar.md's tables and the fuzz dictionary agree with it.
@Suite struct BuiltinTableAgreementTests {
  static func rows(marked marker: String) throws -> [[String]] {
    let grammar = try GrammarTests.read("grammar.md")
    guard let start = grammar.range(of: "<!-- \(marker) -->"),
      let end = grammar.range(of: "<!-- /\(marker) -->", range: start.upperBound..<grammar.endIndex)
    else { return [] }
    return grammar[start.upperBound..<end.lowerBound].split(separator: "\n")
      .filter { $0.hasPrefix("| `") }
      .map { line in
        line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
          .map { $0.hasPrefix("`") && $0.hasSuffix("`") ? String($0.dropFirst().dropLast()) : $0 }
      }
  }

  @Test func grammarsFunctionTableIsTheTable() throws {
    let forms = try Self.rows(marked: "functions").map { $0[0] }
    #expect(forms == BuiltinFunction.allCases.map(\.form))
  }

  /// Each preset row's curve, checked as written, is the preset's value.
  @Test func grammarsPresetTableIsTheTable() throws {
    let rows = try Self.rows(marked: "presets")
    #expect(rows.map { $0[0] } == CurvePreset.allCases.map(\.rawValue))
    for row in rows {
      let (program, messages) = checked("curve c = \(row[1])")
      #expect(messages.isEmpty)
      let value = program.environment.curve(named: "c")?.value
      #expect(value == CurvePreset(rawValue: row[0])?.curve, "\(row[0])")
    }
  }

  /// grammar.md's tables of options, events, placement and control are the code's tables
  /// (ReferenceTables.swift), row for row, form and meaning, which `:help` prints.
  @Test(arguments: ReferenceTable.allCases)
  func grammarsReferenceTablesAreTheTables(table: ReferenceTable) throws {
    let rows = try Self.rows(marked: table.rawValue)
    #expect(rows.map { $0[0] } == table.rows.map(\.form))
    #expect(rows.map { $0.count > 1 ? $0[1] : "" } == table.rows.map(\.meaning))
    let grammar = try GrammarTests.read("grammar.md")
    #expect(grammar.contains("<!-- \(table.rawValue) -->\n| \(table.formHeading) | \(table.meaningHeading) |\n"))
  }

  /// Each preset is written in grammar.md as the code writes it (`:help curves` too).
  @Test func grammarsPresetsAreWrittenAsTheCodeWritesThem() throws {
    let rows = try Self.rows(marked: "presets")
    #expect(rows.map { $0[1] } == CurvePreset.allCases.map(\.written))
  }

  @Test func grammarsSpringFormsAreTheTable() throws {
    let listed = GrammarTests.words(marked: "springs", in: try GrammarTests.read("grammar.md")).joined(separator: " ")
    let forms = listed.components(separatedBy: "spring(").dropFirst().map { form in
      form.split(separator: " ").filter { $0.hasSuffix(":") }.map { String($0.dropLast()) }
    }
    #expect(forms == SpringForm.allCases.map(\.labels))
  }

  @Test func grammarsStepPositionsAreTheTable() throws {
    #expect(
      GrammarTests.words(marked: "steps", in: try GrammarTests.read("grammar.md"))
        == StepPosition.allCases.map(\.rawValue))
  }

  @Test func theFuzzDictionaryHoldsEveryName() throws {
    let dictionary = try GrammarTests.read("fuzz/anim.dict")
    let words = Set(
      dictionary.split(separator: "\n").filter { $0.hasPrefix("\"") && $0.hasSuffix("\"") }
        .map { String($0.dropFirst().dropLast()) })
    for name in Builtins.names { #expect(words.contains(name), "fuzz/anim.dict lacks \(name)") }
    let languageWords = Keyword.allCases.map(\.rawValue) + ContextualKeyword.allCases.map(\.rawValue)
    for word in languageWords { #expect(words.contains(word), "fuzz/anim.dict lacks \(word)") }
    for kind in ParserDispatchTests.kinds {
      guard kind.displayName.hasPrefix("'") else { continue }
      let spelling = String(kind.displayName.dropFirst().dropLast())
      #expect(words.contains(spelling), "fuzz/anim.dict lacks \(spelling)")
    }
  }

  /// The checker knows every function of the table (arity from the table) and no other.
  @Test func theCheckerKnowsEveryFunction() {
    for function in BuiltinFunction.allCases {
      let arguments = Array(repeating: "1", count: function.arity).joined(separator: ", ")
      let (_, messages) = checked("let a = \(function.rawValue)(\(arguments))")
      #expect(messages.isEmpty, "\(function.rawValue): \(messages)")
      let (_, wrong) = checked("let a = \(function.rawValue)(\(arguments), 1)")
      #expect(wrong.count == 1, "\(function.rawValue) with one argument too many")
    }
    #expect(checked("let a = hypot(1, 2)").messages.first?.contains("unknown function") == true)
  }

  /// The checker finds a preset by its exact name only: each of the table's, and no name
  /// that differs in case, length or a byte (a long one too).
  @Test func theCheckerFindsEachPresetByItsExactName() {
    for preset in CurvePreset.allCases {
      #expect(Predeclared.curve(named: preset.rawValue) == preset)
      for other in [preset.rawValue.uppercased(), preset.rawValue + " ", String(preset.rawValue.dropLast())] {
        #expect(Predeclared.curve(named: other) == nil, "\(other)")
      }
    }
    for other in ["", "easeinout", "easeInOutButLongerThanFifteenBytes", "spring", "é"] {
      #expect(Predeclared.curve(named: other) == nil, "\(other)")
    }
  }

  /// Each preset's curve is its own (the lists of curves are in the order of the cases), by
  /// grammar.md § Curves: CSS's Béziers, and SwiftUI's springs of half a second.
  @Test func eachPresetHasItsOwnCurve() throws {
    let beziers: [CurvePreset: TimingCurve] = [
      .linear: .linear, .ease: .ease, .easeIn: .easeIn, .easeOut: .easeOut, .easeInOut: .easeInOut,
    ]
    for preset in CurvePreset.allCases {
      #expect(preset.constant == .curve(preset.curve), "\(preset)")
      if let bezier = beziers[preset] {
        #expect(preset.curve == bezier, "\(preset)")
        continue
      }
      guard case .spring = preset.curve else {
        Issue.record("\(preset) is not a spring")
        continue
      }
      let bounce: Double = preset == .smooth ? 0 : preset == .snappy ? 0.15 : 0.3
      let made = try #require(try SpringForm.curve(["duration": 0.5, "bounce": bounce]))
      #expect(preset.curve == made, "\(preset)")
    }
  }
}

/// Issue 12, rules 8 and 11: the values of the functions and operators, by hand.
@Suite struct ExactArithmeticTests {
  /// "lerp(1s, 3s, 0.5) ... is 2s (a + round((b − a)·t) ns, halves away from zero)".
  @Test func lerpOnDurations() {
    #expect(constantOfLet("a", in: "let a = lerp(1s, 3s, 0.5)") == .duration(nanoseconds: 2_000_000_000))
    #expect(constantOfLet("a", in: "let a = lerp(0s, 0.000000001s, 0.5)") == .duration(nanoseconds: 1))
    #expect(constantOfLet("a", in: "let a = lerp(0s, -0.000000001s, 0.5)") == .duration(nanoseconds: -1))
    #expect(constantOfLet("a", in: "let a = lerp(0s, 0.000000003s, 0.25)") == .duration(nanoseconds: 1))  // 0.75
    #expect(constantOfLet("a", in: "let a = lerp(0.000000010s, 0.000000020s, 2)") == .duration(nanoseconds: 30))
    // 2^53 + 1 ns is not a Double: computed in integers, it stays exact.
    #expect(
      constantOfLet("a", in: "let a = lerp(0s, 9007199.254740993s, 1)") == .duration(nanoseconds: 9_007_199_254_740_993)
    )
    // b − a does not fit in 64 bits; the result does.
    #expect(constantOfLet("a", in: "let a = lerp(-9223372036s, 9223372036s, 0.5)") == .duration(nanoseconds: 0))
  }

  @Test func durationsTimesNumbersAreExact() {
    #expect(constantOfLet("a", in: "let a = 9007199.254740993s * 1") == .duration(nanoseconds: 9_007_199_254_740_993))
    #expect(constantOfLet("a", in: "let a = 0.000000003s * 0.5") == .duration(nanoseconds: 2))
    #expect(constantOfLet("a", in: "let a = -0.000000003s * 0.5") == .duration(nanoseconds: -2))
    #expect(constantOfLet("a", in: "let a = 0.25 * 0.000000010s") == .duration(nanoseconds: 3))
  }

  @Test func minMaxClampAbsOnDurations() {
    #expect(constantOfLet("a", in: "let a = min(2s, 500ms)") == .duration(nanoseconds: 500_000_000))
    #expect(constantOfLet("a", in: "let a = max(2s, 500ms)") == .duration(nanoseconds: 2_000_000_000))
    #expect(constantOfLet("a", in: "let a = clamp(3s, 0s, 1s)") == .duration(nanoseconds: 1_000_000_000))
    #expect(constantOfLet("a", in: "let a = abs(-250ms)") == .duration(nanoseconds: 250_000_000))
  }

  @Test func lerpDoesNotOverflowOnTheWay() {
    #expect(constantOfLet("a", in: "let a = lerp(-1e308, 1e308, 0.5)") == .number(0))
  }

  /// "An expression that overflows (1e308 * 10) is ... a check error when it is constant."
  @Test(arguments: [
    ("let a = 1e308 * 10", "1:9"),
    ("let a = -1e308 - 1e308", "1:9"),
    ("let a = 1e200 * 1e200 + 1", "1:9"),
    ("let a = (1e308, 0) * (10, 1)", "1:9"),
    ("let a = 1e308 * (10, 1)", "1:9"),
    ("let a = lerp(0, 1e308, 10)", "1:9"),
    ("let a = 9223372036s + 1s", "1:9"),
    ("let a = -9223372036s - 1s", "1:9"),
    ("let a = 9223372036s * 2", "1:9"),
    ("let a = 1s / 1e-10", "1:9"),
    ("let a = lerp(0s, 9223372036s, 2)", "1:9"),
    ("let big = 1e300\nlet a = big * big", "2:9"),
  ])
  func constantOverflowIsACheckError(_ script: String, _ place: String) {
    let (_, messages) = checked(script)
    #expect(messages.count == 1, "\(messages)")
    #expect(messages.first?.hasPrefix("\(place): error: overflow:") == true, "\(messages)")
  }

  /// A division by zero is still only a runtime error; an overflow in a live expression
  /// too (it is not known before running).
  @Test func liveOverflowIsNotACheckError() {
    #expect(checked("target t { x: 1e308 }\nlet a = t.x * 10").messages.isEmpty)
    #expect(
      checked("let a = 1e308 * 10 / 0").messages == [
        "1:9: error: overflow: the result is beyond the largest number (about 1.8e308)"
      ])
    #expect(checked("let a = sqrt(-1)").messages.isEmpty)
  }

  /// "a cubic's y within ±10⁶".
  @Test func cubicYIsWithinAMillion() {
    #expect(checked("curve c = cubic(0.5, 1000000, 0.5, -1000000)").messages.isEmpty)
    #expect(
      checked("curve c = cubic(0.5, 1000001, 0.5, 1)").messages
        == ["1:22: error: expected 'y1' of 'cubic' in -1000000...1000000, found 1000001"])
    #expect(
      checked("curve c = cubic(0.5, 0, 0.5, -1e300)").messages
        == ["1:30: error: expected 'y2' of 'cubic' in -1000000...1000000, found -1e+300"])
  }
}
