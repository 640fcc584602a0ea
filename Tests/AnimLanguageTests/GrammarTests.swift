import Foundation
import Testing

@testable import AnimLanguage

/// grammar.md stays equal to the code: its keyword lists are the `Keyword` and
/// `ContextualKeyword` enums, and every grammar rule commented above a parse function
/// appears in it word for word.
@Suite struct GrammarTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The words between `<!-- marker -->` and `<!-- /marker -->`.
  static func words(marked marker: String, in text: String) -> [String] {
    guard let start = text.range(of: "<!-- \(marker) -->"),
      let end = text.range(of: "<!-- /\(marker) -->", range: start.upperBound..<text.endIndex)
    else { return [] }
    return text[start.upperBound..<end.lowerBound]
      .split(whereSeparator: { $0 == " " || $0 == "\n" })
      .map(String.init)
      .filter { !$0.hasPrefix("```") }
  }

  @Test func keywordListIsTheKeywordEnum() throws {
    let grammar = try Self.read("grammar.md")
    let listed = Self.words(marked: "keywords", in: grammar)
    #expect(listed == Keyword.allCases.map(\.rawValue))
    #expect(Set(listed).count == listed.count)
  }

  @Test func contextualListIsTheContextualEnum() throws {
    let grammar = try Self.read("grammar.md")
    #expect(Self.words(marked: "contextual", in: grammar) == ContextualKeyword.allCases.map(\.rawValue))
  }

  @Test func keywordListMatchesLanguageBrief() {
    // The language brief's reserved words, in its order: every other word is contextual.
    let brief = """
      let curve target timeline animate keyframes from to over with at on emit print play
      pause resume reverse seek finish cancel now for in if else var and or not true false tween
      stagger
      """
    #expect(
      brief.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) == Keyword.allCases.map(\.rawValue))
  }

  /// Rule comments (`// name -> ...` and their continuation lines) in a source file,
  /// without trailing `(remarks)`, whitespace collapsed.
  static func ruleComments(in text: String) -> [String] {
    var rules: [String] = []
    var currentRule: String?
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      guard line.hasPrefix("//") else {
        if let rule = currentRule { rules.append(rule) }
        currentRule = nil
        continue
      }
      let body = String(line.dropFirst(2))
      let isRuleStart = body.range(of: #"^ \w+\s+->"#, options: .regularExpression) != nil
      if isRuleStart {
        if let rule = currentRule { rules.append(rule) }
        currentRule = body
      } else if currentRule != nil, body.range(of: #"^\s{3,}\S"#, options: .regularExpression) != nil {
        currentRule! += " " + body
      } else {
        if let rule = currentRule { rules.append(rule) }
        currentRule = nil
      }
    }
    if let rule = currentRule { rules.append(rule) }
    return rules.map { rule in
      var text = rule
      // Drop a trailing remark in parentheses preceded by two spaces or more.
      if let remark = text.range(of: #"\s{2,}\([^"]*\)$"#, options: .regularExpression) {
        text.removeSubrange(remark)
      }
      return collapse(text)
    }
  }

  static func collapse(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
  }

  @Test func everyRuleCommentIsInGrammar() throws {
    let grammar = Self.collapse(try Self.read("grammar.md"))
    var count = 0
    for file in ["Parser.swift", "Parser+Expressions.swift", "Lexer.swift"] {
      let source = try Self.read("Sources/AnimLanguage/Parsing/\(file)")
      for rule in Self.ruleComments(in: source) {
        count += 1
        // A rule showing one choice (`primary -> ... | string | ...`) matches when each
        // written fragment appears in the grammar.
        let fragments = rule.components(separatedBy: "...").map { $0.trimmingCharacters(in: .whitespaces) }
        for fragment in fragments where !fragment.isEmpty {
          #expect(grammar.contains(fragment), "\(file): \(rule)")
        }
      }
    }
    #expect(count > 30)
  }
}
