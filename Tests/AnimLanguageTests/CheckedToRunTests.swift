import Foundation
import Testing

@testable import AnimLanguage

/// A script checked only to be run (`parseAndCheck(_:in:mode:recordingTypes: false)`, what
/// `Runtime.start` does when it reads a script whole) has the same diagnostics,
/// declarations and facts as one checked for tools, and no table of types.
@Suite struct CheckedToRunTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")

  static func sources() throws -> [SourceText] {
    let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".anim") }
    var sources = try names.sorted().map { name in
      SourceText(name: name, contents: try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8))
    }
    // And one with errors, whose program still has facts.
    sources.append(
      SourceText(name: "errors.anim", contents: "target b { x: 0 }\nanimate b.y to 1 over 1s\nlet a = 1 + #fff\n"))
    return sources
  }

  @Test func theFactsAreTheSameWithoutTheTypes() throws {
    let sources = try Self.sources()
    #expect(sources.count >= 11)
    for source in sources {
      var forTools = Environment()
      var toRun = Environment()
      let full = parseAndCheck(source, in: &forTools, mode: .script)
      let lean = parseAndCheck(source, in: &toRun, mode: .script, recordingTypes: false)
      #expect(full.diagnostics.map(\.message) == lean.diagnostics.map(\.message), "\(source.name)")
      #expect(forTools == toRun, "\(source.name)")
      let program = try #require(full.program)
      let leanProgram = try #require(lean.program)
      #expect(program.types.count > 0 && leanProgram.types.count == 0, "\(source.name)")
      #expect(program.constants.count == leanProgram.constants.count, "\(source.name)")
      #expect(program.references.count == leanProgram.references.count, "\(source.name)")
      #expect(program.placements.count == leanProgram.placements.count, "\(source.name)")
    }
  }
}
