import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// A number property's gauge: its base value and every `from`, `to` and keyframe value of
/// the animations started on it so far (what `anim run`'s bars span).
@Suite struct GaugeTests {
  func runtime(_ script: String, until time: Nanoseconds) throws -> Runtime {
    let source = SourceText(name: "gauge.anim", contents: script)
    var environment = Environment()
    let result = parseAndCheck(source, in: &environment, mode: .script)
    let program = try #require(result.program)
    let runtime = Runtime()
    runtime.tracksGauges = true
    _ = runtime.run(program, of: source, at: 0)
    _ = runtime.advance(to: time)
    return runtime
  }

  static let script = """
    target b { x: 10, tint: #ff0000 }
    animate b.x from 20 to 50 over 1s
    at 2s keyframes b.x over 1s {
      40%: -5
      100%: 30
    }
    at 5s animate b.x to 200 with spring(response: 0.5, dampingFraction: 0.2)
    """

  @Test func theGaugeGrowsWithEachAnimationStarted() throws {
    // At 0.5 s: the base 10, from 20, to 50.
    #expect(try runtime(Self.script, until: 500 * ms).gauge(of: "b.x") == Gauge(low: 10, high: 50))
    // At 2.5 s the track has started: -5 and 30 join (and 50, its start, the base by then).
    #expect(try runtime(Self.script, until: 2500 * ms).gauge(of: "b.x") == Gauge(low: -5, high: 50))
    // The spring's target; its overshoot past 200 is the value's, not the gauge's.
    let springing = try runtime(Self.script, until: 5300 * ms)
    #expect(springing.gauge(of: "b.x") == Gauge(low: -5, high: 200))
    guard case .number(let x) = springing.engine.value(of: springing.properties["b.x"]!) else { return }
    #expect(x > 200)
    // Not a number: no gauge. Never animated: its base value.
    #expect(try runtime(Self.script, until: 0).gauge(of: "b.tint") == nil)
    #expect(try runtime("target c { y: 4 }", until: 0).gauge(of: "c.y") == Gauge(low: 4, high: 4))
  }

  /// A runtime that does not track gauges (a trace, the REPL) spends nothing on them: the
  /// gauge is the base value alone.
  @Test func withoutTrackingTheGaugeIsTheBaseValue() throws {
    let source = SourceText(name: "gauge.anim", contents: Self.script)
    var environment = Environment()
    let program = try #require(parseAndCheck(source, in: &environment, mode: .script).program)
    let runtime = Runtime()
    _ = runtime.run(program, of: source, at: 0)
    _ = runtime.advance(to: 500 * ms)
    #expect(runtime.gauge(of: "b.x") == Gauge(low: 10, high: 10))
  }

  @Test func pausedAndReversedAreMarkedThroughTheirTimelines() throws {
    let script = """
      target b { x: 0, y: 0 }
      timeline t { animate b.x to 10 over 4s }
      play t
      animate b.y to 10 over 4s
      at 1s pause t
      at 2s reverse b.y
      """
    let runtime = try runtime(script, until: 2500 * ms)
    #expect(runtime.playbackMarks(of: "b.x") == (paused: true, reversed: false))
    #expect(runtime.playbackMarks(of: "b.y") == (paused: false, reversed: true))
  }
}
