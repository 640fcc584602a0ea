import Foundation
import Testing

/// ARCHITECTURE.md names the files where things happen: every file or folder it names
/// exists, so a file that moves or goes takes its mention with it (as grammar.md's paths
/// move with the parser's files, GrammarTests).
@Suite struct ArchitectureDocTests {
  /// The inline code spans of a Markdown text, outside fenced blocks.
  static func codeSpans(in text: String) -> [String] {
    var spans: [String] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if inFence { continue }
      let parts = line.split(separator: "`", omittingEmptySubsequences: false)
      spans += stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }
    return spans
  }

  /// Whether a code span names a file or folder of the repository: a path under one of its
  /// folders, or a file name with one of its extensions (globs such as `check-*.anim` and
  /// elided names such as `…TraceTests.swift` are not names).
  static func namesAFile(_ span: String) -> Bool {
    let plain = span.allSatisfy { $0.isLetter || $0.isNumber || "_+./-".contains($0) }
    guard plain, let first = span.first, first.isLetter || first.isNumber else { return false }
    let folders = ["Sources/", "Tests/", "Benchmarks/", "fuzz/", "examples/"]
    let extensions = [".swift", ".md", ".anim", ".dict", ".sh"]
    return folders.contains { span.hasPrefix($0) } || extensions.contains { span.hasSuffix($0) }
  }

  /// Every file's name under the folders that hold code, tests and tools.
  static func fileNames() -> Set<String> {
    var names: Set<String> = []
    for folder in ["Sources", "Tests", "Benchmarks", "fuzz"] {
      let url = GrammarTests.root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
      for case let file as URL in walker where !file.path.contains("/.build") {
        names.insert(file.lastPathComponent)
      }
    }
    return names
  }

  @Test func everyFileItNamesExists() throws {
    let spans = Self.codeSpans(in: try GrammarTests.read("ARCHITECTURE.md")).filter(Self.namesAFile)
    #expect(spans.count > 50, "ARCHITECTURE.md names the files of each step")
    let names = Self.fileNames()
    for span in spans {
      // (Computed first, so that a failure shows the name, not the whole set of names.)
      if span.contains("/") {
        let exists = FileManager.default.fileExists(atPath: GrammarTests.root.appendingPathComponent(span).path)
        #expect(exists, "ARCHITECTURE.md names \(span), which is not there")
      } else {
        let exists = names.contains(span)
        #expect(exists, "ARCHITECTURE.md names \(span), which is in no folder of the repository")
      }
    }
  }
}
