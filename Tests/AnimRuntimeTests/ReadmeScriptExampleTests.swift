import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation
import Testing

/// README's "Running scripts from Swift", kept compiling (with the public API alone: no
/// `@testable` import here) and true.
@Suite("README: running scripts from Swift")
struct ReadmeScriptExampleTests {
  @Test func theScriptExampleRunsAsTheReadmeSays() throws {
    // --- README example begins ---
    let source = SourceText(name: "slide.anim", contents: "target card { x: 0 }\nanimate card.x to 100 over 1s\n")
    var environment = Environment()
    let checked = parseAndCheck(source, in: &environment, mode: .script)
    guard checked.isRunnable, let program = checked.program else {
      for diagnostic in checked.diagnostics { print(diagnostic.message, diagnostic.span) }
      Issue.record("the script has errors")
      return
    }
    let runtime = Runtime()
    _ = runtime.run(program, of: source, at: 0)  // events, prints and runtime errors, if any
    _ = runtime.advance(to: 250_000_000)
    let values = runtime.sample()  // [NamedValue(name: "card.x", value: .number(25))]
    // --- README example ends ---
    // Linear over 1 s: a quarter of the way at 0.25 s.
    #expect(values == [NamedValue(name: "card.x", value: .number(25))])
  }

  /// The lines between the markers are the README's, word for word (but the README stops
  /// with `fatalError` where a test records an issue).
  @Test func theReadmeShowsTheseLines() throws {
    // Tests/AnimRuntimeTests/this file → the repository's root.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let begin = test.range(of: "// --- README example begins ---\n")!.upperBound
    let end = test.range(of: "    // --- README example ends ---")!.lowerBound
    for line in test[begin..<end].split(separator: "\n") {
      let code = line.trimmingCharacters(in: .whitespaces)
      guard !code.hasPrefix("Issue.record"), code != "return" else { continue }
      #expect(readme.contains(code), "README lacks: \(code)")
    }
  }
}
