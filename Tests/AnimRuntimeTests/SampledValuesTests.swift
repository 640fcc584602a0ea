import AnimCore
import AnimLanguage
import Foundation
import Testing

@testable import AnimRuntime

/// The trace and `sample()` read the values the engine's advance computed (its current
/// values) instead of evaluating every property again: on every example, at every frame,
/// they are exactly what a full evaluation gives.
@Suite struct SampledValuesTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")

  @Test func sampledValuesAreTheFullEvaluationOnEveryExampleAtEveryFrame() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter { $0.hasSuffix(".anim") }
    #expect(names.count >= 10)
    for name in names.sorted() {
      let source = SourceText(
        name: name, contents: try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8))
      var environment = Environment()
      let result = parseAndCheck(source, in: &environment, mode: .script)
      let program = try #require(result.program)
      let runtime = Runtime()
      _ = runtime.run(program, of: source, at: 0)
      for frame in 0...600 as ClosedRange<Int64> {
        _ = runtime.advance(to: frame * 1_000_000_000 / 60)
        for value in runtime.sample() {
          let id = try #require(runtime.propertyID(named: value.name))
          #expect(value.value == runtime.engine.value(of: id), "\(name) \(value.name) at frame \(frame)")
        }
      }
    }
  }
}
