// Statements a script started statement by statement holds for later (`at`-placed ones,
// held as their span: `Runtime.Action.reread`) and timelines (held as the span of their
// declaration: `DeclaredTimeline`) are read again from the source when they run: they run
// as the whole reading's tree does, and their runtime errors point into the source.

import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

struct HeldStatementTests {
  /// The offset of the first `text` in `script`.
  private func offset(of text: String, in script: String) throws -> Int {
    let range = try #require(script.range(of: text))
    return script.utf8.distance(from: script.startIndex, to: range.lowerBound)
  }

  /// "An expression that overflows (1e308 * 10) is a runtime error" at the expression, at
  /// the time the held statement runs.
  @Test func aHeldStatementsRuntimeErrorPointsAtItsExpression() throws {
    let script = """
      target t { x: 1e308 }
      at 1s print "one"
      at 2s print "{t.x * 10}"
      at 3s print "three"
      """
    #expect(Runtime().runStatementByStatement(SourceText(name: "held.anim", contents: script)) != nil)
    let traced = try trace(script, TraceOptions(until: 4 * s))
    #expect(traced.prints.map(\.0) == [1 * s, 3 * s])
    #expect(traced.prints.map(\.1) == ["one", "three"])
    #expect(traced.errors.count == 1)
    let error = try #require(traced.errors.first)
    #expect(error.message.hasPrefix("overflow: "), "\(error.message)")
    #expect(error.time == 2 * s)
    #expect(error.span.start == (try offset(of: "t.x * 10", in: script)))
  }

  /// A held `animate` starts at its time with its values (linear, to 1 over 250 ms from 0: halfway
  /// at 125 ms in), and a later one on the same property takes over from there.
  @Test func heldAnimatesRunAtTheirTimes() throws {
    let script = """
      target t { y: 0 }
      at 1s animate t.y to 1 over 250ms with linear
      at 2s animate t.y to 3 over 1s with linear
      """
    let traced = try trace(script, TraceOptions(times: [1 * s + s / 8, 2 * s + s / 2, 3 * s]))
    #expect(traced.errors.isEmpty)
    #expect(traced.number("t.y", at: 1 * s + s / 8) == 0.5)
    #expect(traced.number("t.y", at: 2 * s + s / 2) == 2)
    #expect(traced.number("t.y", at: 3 * s) == 3)
  }

  /// A timeline built when played reads its declaration again: its items run at their
  /// times in it, and an item's runtime error points at the item's expression.
  @Test func aTimelinesItemErrorPointsAtItsExpression() throws {
    let script = """
      target t { x: 1e308 }
      timeline tl {
        print "first"
        at 500ms print "{t.x * 10}"
        at 750ms print "last"
      }
      at 1s play tl
      """
    #expect(Runtime().runStatementByStatement(SourceText(name: "timeline.anim", contents: script)) != nil)
    let traced = try trace(script, TraceOptions(until: 2 * s))
    #expect(traced.prints.map(\.0) == [1 * s, 1 * s + 3 * s / 4])
    #expect(traced.prints.map(\.1) == ["first", "last"])
    let error = try #require(traced.errors.first)
    #expect(traced.errors.count == 1)
    #expect(error.message.hasPrefix("overflow: "), "\(error.message)")
    #expect(error.time == 1 * s + s / 2)
    #expect(error.span.start == (try offset(of: "t.x * 10", in: script)))
  }
}
