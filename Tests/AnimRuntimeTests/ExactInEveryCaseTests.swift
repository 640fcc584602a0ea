import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// Issue 12 ("Exact in every case"), the runtime's side: what `check` accepts, `run` accepts
/// and computes as the checker would (rule 11), no value is ever NaN or infinite (rule 8).
@Suite struct RuntimeBuiltinTests {
  /// One call per function of the table, on live values (so the runtime computes it, not the
  /// checker), and what it must print, worked out by hand.
  static let calls: [(BuiltinFunction, String, String)] = [
    (.min, "min(2 * t.one, 3)", "2"),
    (.min, "min(1s * t.one, 500ms)", "0.5s"),
    (.max, "max(2 * t.one, 3)", "3"),
    (.max, "max(1s * t.one, 500ms)", "1s"),
    (.clamp, "clamp(5 * t.one, 0, 1)", "1"),
    (.clamp, "clamp(3s * t.one, 0s, 1s)", "1s"),
    (.abs, "abs(-2.5 * t.one)", "2.5"),
    (.abs, "abs(-1s * t.one)", "1s"),
    (.sqrt, "sqrt(4 * t.one)", "2"),
    (.sin, "sin(0 * t.one)", "0"),
    (.cos, "cos(0 * t.one)", "1"),
    (.lerp, "lerp(1s * t.one, 3s, 0.5)", "2s"),
    (.lerp, "lerp(0s, 0.000000001s * t.one, 0.5)", "1e-9s"),  // 0.5ns rounds away from zero
    (.lerp, "lerp(10 * t.one, 20, 0.25)", "12.5"),
    (.lerp, "lerp((0, 10) * t.one, (10, 20), 0.5)", "(5, 15)"),
    (.rgb, "rgb(255 * t.one, 0, 0)", "#ff0000ff"),
    (.rgba, "rgba(0, 0, 255 * t.one, 0.5)", "#0000ff80"),
  ]

  @Test func everyFunctionRunsAsTheTableSays() throws {
    #expect(Set(Self.calls.map(\.0)) == Set(BuiltinFunction.allCases))
    for (_, call, expected) in Self.calls {
      let traced = try trace("target t { one: 1 }\nprint \"{\(call)}\"\n")
      #expect(traced.errors.map(\.message) == [], "\(call)")
      #expect(traced.prints.map(\.1) == [expected], "\(call)")
    }
  }

  /// "lerp(1s, 3s, 0.5) passes anim check (rightly) and fails at run time": it is 2s, also
  /// where it decides a length at run time.
  @Test func lerpOfDurationsIsALength() throws {
    let traced = try trace(
      "target t { one: 1, x: 0 }\nanimate t.x to 1 over lerp(1s * t.one, 3s, 0.5)\n", TraceOptions(fps: 1))
    #expect(traced.errors.isEmpty)
    #expect(traced.times("complete", "t.x") == [2 * s])
  }

  /// "An expression that overflows (1e308 * 10) is a runtime error like 1 / 0".
  @Test(arguments: [
    ("target t { x: 1e308 }\nprint \"{t.x * 10}\"\n", "2:9"),
    ("target t { x: 1e308 }\nprint \"{-t.x - t.x}\"\n", "2:9"),
    ("target t { x: 1e308 }\nprint \"{(t.x, 1) * 10}\"\n", "2:9"),
    ("target t { x: 1 }\nprint \"{9223372036s * t.x + 1s}\"\n", "2:9"),
    ("target t { x: 2 }\nprint \"{9223372036s * t.x}\"\n", "2:9"),
    ("target t { x: 1e-300 }\nprint \"{1s / t.x}\"\n", "2:9"),
    ("target t { x: 1e308 }\nprint \"{lerp(0, t.x, 10)}\"\n", "2:9"),
  ])
  func overflowIsARuntimeError(_ script: String, _ place: String) throws {
    let source = SourceText(name: "test.anim", contents: script)
    let traced = try trace(script)
    #expect(traced.prints.isEmpty, "a failed print prints nothing")
    #expect(traced.errors.count == 1)
    guard let error = traced.errors.first else { return }
    #expect(error.message.hasPrefix("overflow: "), "\(error.message)")
    let location = source.location(of: error.span.start)
    #expect("\(location.line):\(location.column)" == place)
    #expect(error.time == 0)
  }

  /// A color channel out of range at run time is refused, as `check` refuses a constant one.
  @Test func aLiveChannelOutOfRangeIsAnError() throws {
    let traced = try trace("target t { x: 2 }\nprint \"{rgb(255 * t.x, 0, 0)}\"\n")
    #expect(traced.prints.isEmpty)
    #expect(traced.errors.map(\.message) == ["expected the red channel of 'rgb' in 0...255, found 510"])
  }
}
