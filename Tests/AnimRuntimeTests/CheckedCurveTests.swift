import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// The runtime takes the curves the checker made (the engine's, validated once) and the
/// references it resolved; what it makes itself is a curve of live values.
@Suite("Runtime: the checker's curves and references")
struct CheckedCurveTests {
  /// One declared spring, two animations: each stretches it by its own `over`, and without
  /// one it keeps its own length, the spring's settling time.
  @Test func aDeclaredSpringIsStretchedByEachAnimation() throws {
    let traced = try trace(
      """
      curve soft = spring(duration: 0.5, bounce: 0.2)
      target a { x: 0 }
      target b { x: 0 }
      animate a.x to 100 over 2s with soft
      animate b.x to 100 with soft
      """, TraceOptions(times: [s], until: 3 * s))
    let spring = try Spring(duration: 0.5, bounce: 0.2)
    let stretched = try SpringCurve(spring: spring, stretchedDuration: 2 * s)
    #expect(close(traced.number("a.x", at: s), 100 * stretched.progress(at: 0.5)))
    #expect(traced.times("complete", "a.x") == [2 * s])
    #expect(traced.times("complete", "b.x") == [try SpringCurve(spring: spring).settlingTime])
  }

  /// A curve of live values is made when it runs; values the engine refuses are a runtime
  /// error at the call, in the engine's words, and the statement has no effect.
  @Test func aLiveCurveTheEngineRefusesIsARuntimeError() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      animate b.x to 100 over 1s with cubic(a.x, 0, 1, 1)
      at 1s set a.x to 2
      at 1s animate b.x to 0 over 1s with cubic(a.x, 0, 1, 1)
      """, TraceOptions(times: [s, 2 * s]))
    #expect(traced.errors.map(\.message) == ["'x1' must be in 0...1, not 2"])
    #expect(traced.errors.first?.time == s)
    #expect(traced.number("b.x", at: 2 * s) == 100)
  }

  /// A handler on `T.p` runs on that property's events: the runtime keys it by the name the
  /// checker put together.
  @Test func aHandlerOnAPropertyRunsOnItsEvents() throws {
    let traced = try trace(
      """
      target card { x: 0 }
      on complete card.x { print "done" }
      animate card.x to 1 over 1s
      """)
    #expect(traced.prints.map(\.0) == [s])
  }
}
