import Foundation
import Testing

@testable import AnimLanguage

/// The golden files: `.anim` scripts with their expected diagnostics inline (see
/// Golden/README.md for the convention), run by one parameterised test.
@Suite struct GoldenTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  static func fileNames() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".anim") }.sorted()
  }

  /// `error: L:C: message` and `warning: L:C: message` comments, found textually.
  static func expectations(in bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var found: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      for severity in ["error", "warning"] {
        if let range = line.range(of: "// \(severity): ") {
          found.append("\(severity): " + line[range.upperBound...])
        }
      }
    }
    return found
  }

  @Test func thereAreEnoughSyntaxCases() {
    #expect(Self.fileNames().filter { $0.hasPrefix("syntax-") }.count >= 25)
  }

  @Test(arguments: fileNames())
  func goldenFile(_ name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let bytes = [UInt8](data)
    let source = SourceText(name: name, bytes: bytes)
    let actual = diagnose(source).map { diagnostic in
      let location = source.location(of: diagnostic.span.start)
      return "\(diagnostic.severity.rawValue): \(location.line):\(location.column): \(diagnostic.message)"
    }
    let expected = Self.expectations(in: bytes)
    // Compared as multisets in position order: the order of discovery is not the contract.
    #expect(sortedByPosition(actual) == sortedByPosition(expected), "in \(name)")
  }

  private func sortedByPosition(_ lines: [String]) -> [String] {
    func key(_ line: String) -> (Int, Int, String) {
      let afterSeverity = line.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
      let numbers = afterSeverity.split(separator: ":", maxSplits: 2)
      let lineNumber = numbers.count > 0 ? Int(numbers[0]) ?? 0 : 0
      let column = numbers.count > 1 ? Int(numbers[1]) ?? 0 : 0
      return (lineNumber, column, line)
    }
    return lines.sorted { key($0) < key($1) }
  }
}

/// The checker's golden files test the checker: each parses cleanly (so no expectation is
/// a syntax error's) and expects at least one diagnostic.
@Suite struct CheckerGoldenFileTests {
  static func checkFileNames() -> [String] {
    GoldenTests.fileNames().filter { $0.hasPrefix("check-") }
  }

  @Test func thereAreEnoughCheckerCases() {
    #expect(Self.checkFileNames().count >= 40)
  }

  @Test(arguments: checkFileNames())
  func parsesCleanlyAndExpectsADiagnostic(_ name: String) throws {
    let data = try Data(contentsOf: GoldenTests.directory.appendingPathComponent(name))
    let bytes = [UInt8](data)
    #expect(parse(SourceText(name: name, bytes: bytes)).diagnostics.isEmpty, "in \(name)")
    #expect(!GoldenTests.expectations(in: bytes).isEmpty, "in \(name)")
  }
}
