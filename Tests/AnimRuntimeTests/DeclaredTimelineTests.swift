// `Runtime.DeclaredTimeline`: its node and labels, kept in a box once built, read and
// written as plain values: a copy changed does not change the original.

import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

@Suite struct DeclaredTimelineTests {
  private func declared() -> Runtime.DeclaredTimeline {
    let source = SourceText(name: "t.anim", contents: "timeline t { wait 1s }\n")
    let program = Runtime.ProgramContext(facts: ResolvedFacts(), source: source, entry: 0)
    return Runtime.DeclaredTimeline(span: SourceSpan(start: 0, end: 22), program: program)
  }

  private func node() throws -> NodeID {
    var engine = AnimationEngine()
    return try engine.addTimeline(timing: EffectTiming(duration: 0))
  }

  @Test func aTimelineNotBuiltHasNoNodeAndNoLabels() {
    let timeline = declared()
    #expect(timeline.node == nil)
    #expect(timeline.labels.isEmpty)
  }

  @Test func theNodeAndTheLabelsAreKeptEachApart() throws {
    var timeline = declared()
    let node = try node()
    timeline.node = node
    #expect(timeline.node == node && timeline.labels.isEmpty)
    timeline.labels = ["mark": 1_000]
    #expect(timeline.node == node && timeline.labels == ["mark": 1_000])
    timeline.node = nil
    #expect(timeline.node == nil && timeline.labels == ["mark": 1_000])
    timeline.labels = [:]
    #expect(timeline.node == nil && timeline.labels.isEmpty)
  }

  @Test func aCopyChangedLeavesTheOriginal() throws {
    let node = try node()
    let original = Runtime.DeclaredTimeline(
      span: declared().span, program: declared().program, node: node, labels: ["a": 5])
    var copy = original
    copy.labels["b"] = 7
    copy.node = nil
    #expect(original.node == node && original.labels == ["a": 5])
    #expect(copy.node == nil && copy.labels == ["a": 5, "b": 7])
  }

  /// The declaration is read again from the program's source at the span.
  @Test func itsDeclarationIsReadAgain() {
    #expect(declared().declaration.name.text == "t")
    #expect(declared().declaration.body.statements.count == 1)
  }
}
