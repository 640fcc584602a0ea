import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// grammar.md § Nested timelines, traced: a timeline's name inside another places it there;
/// its local time follows its parent's (rates multiply), seeking or reversing the parent
/// carries it, and its own events fire as the playhead crosses it.
@Suite("Runtime: nested timelines")
struct NestedTimelineTests {
  @Test func aChildAtSpeed3InsideAParentAtSpeedAQuarter() throws {
    // flip lasts 3 s of its own time at rate 3: 1 s of main's time, which at rate 0.25 is
    // 4 s of root time. It starts after b.x's 1 s (4 s of root time): a.x = 30 · (t − 4 s) / 4 s.
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      timeline flip speed 3 { animate a.x to 30 over 3s }
      timeline main speed 0.25 {
        animate b.x to 1 over 1s
        flip
      }
      play main
      """, TraceOptions(times: [2 * s, 4 * s, 5 * s, 6 * s, 7 * s, 8 * s]))
    #expect(traced.number("b.x", at: 2 * s) == 0.5)
    #expect([4, 5, 6, 7, 8].map { traced.number("a.x", at: Nanoseconds($0) * s) } == [0, 7.5, 15, 22.5, 30])
    #expect(traced.times("start", "flip") == [4 * s])
    #expect(traced.times("complete", "flip") == [8 * s])
    #expect(traced.times("complete", "main") == [8 * s])
  }

  @Test func itemOptionsApplyOnTopAndRepeatTheWholeChild() throws {
    // flip: a.x 0 → 10 over 1 s; placed at 1 s with `repeat 2 autoreverse`: 0 → 10 over
    // [1 s, 2 s], back to 0 over [2 s, 3 s]; main lasts 3 s.
    let traced = try trace(
      """
      target a { x: 0 }
      timeline flip { animate a.x to 10 over 1s }
      timeline main {
        at 1s flip repeat 2 autoreverse
      }
      play main
      """, TraceOptions(times: [1_500 * ms, 2 * s, 2_500 * ms, 3 * s]))
    #expect(traced.number("a.x", at: 1_500 * ms) == 5)
    #expect(traced.number("a.x", at: 2 * s) == 10)
    #expect(traced.number("a.x", at: 2_500 * ms) == 5)
    #expect(traced.number("a.x", at: 3 * s) == 0)
    #expect(traced.times("complete", "main") == [3 * s])
  }

  @Test func reversingAndSeekingTheParentCarriesTheChild() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      timeline inner { animate a.x to 10 over 1s }
      timeline outer {
        at 1s inner
      }
      play outer
      at 1500ms reverse outer
      at 3s seek outer to 1750ms
      at 3s pause outer
      """, TraceOptions(times: [1_500 * ms, 1_750 * ms, 2 * s, 2_500 * ms, 3 * s]))
    #expect(traced.number("a.x", at: 1_500 * ms) == 5)
    #expect(traced.number("a.x", at: 1_750 * ms) == 2.5)
    #expect(traced.number("a.x", at: 2 * s) == 0)
    #expect(traced.times("complete", "inner") == [2 * s])
    // Sought to 1.75 s of outer's time: inner's local time 0.75 s.
    #expect(traced.number("a.x", at: 3 * s) == 7.5)
  }

  /// (The parent runs on while the child is paused: its time flows into the child again when
  /// it resumes.)
  @Test func controlStatementsOnTheChildActOnItAsAChild() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      timeline inner { animate a.x to 10 over 2s }
      timeline outer {
        inner
        wait 5s
      }
      play outer
      at 1s pause inner
      at 2s resume inner
      """, TraceOptions(times: [1 * s, 2 * s, 3 * s]))
    #expect(traced.number("a.x", at: 1 * s) == 5)
    #expect(traced.number("a.x", at: 2 * s) == 5)
    #expect(traced.number("a.x", at: 3 * s) == 10)
  }
}
