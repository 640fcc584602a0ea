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

/// Issue 12, rule 7: a statement that fails at run time has no effect (no animation, no
/// event); in a handler it abandons the rest of that handler; at top level or as a
/// timeline item, the script or timeline goes on. Each is reported with its place and time.
@Suite struct FailingStatementTests {
  /// The case: `animate a.x to 1 / zero over 1s` in a handler ran a phantom
  /// animation and the handler went on; one that restarts itself this way ran for ever.
  @Test func aFailingAnimateInAHandlerHasNoEffectAndStopsTheHandler() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      let zero = 0
      on "go" {
        print "before"
        animate a.x to 1 / zero over 1s
        print "after"
        emit "go"
      }
      emit "go"
      """, TraceOptions(fps: 1))
    #expect(traced.prints.map(\.1) == ["before"])
    #expect(traced.times("start", "a.x").isEmpty)
    #expect(traced.times("complete", "a.x").isEmpty)
    #expect(traced.times("go", nil) == [0])
    #expect(traced.errors.map(\.message) == ["division by zero"])
    #expect(traced.errors.first?.time == 0)
    #expect(traced.sampleTimes == [])  // (idle at 0: a trace without --until samples nothing)
  }

  @Test func atTopLevelTheScriptGoesOn() throws {
    let traced = try trace(
      """
      target a { x: 0, y: 0 }
      let zero = 0
      animate a.x to 1 / zero over 1s
      keyframes a.y over 1s { 50%: 1 / zero }
      at 1s print "goes on"
      """, TraceOptions(fps: 1))
    #expect(traced.errors.map(\.message) == ["division by zero", "division by zero"])
    #expect(traced.times("start", "a.x").isEmpty && traced.times("start", "a.y").isEmpty)
    #expect(traced.prints.map(\.0) == [1 * s])
    #expect(traced.number("a.x", at: 1 * s) == 0)
  }

  /// A failing placement in a handler is the statement failing: the rest is abandoned.
  @Test func aFailingPlacementInAHandlerAbandonsTheRest() throws {
    let traced = try trace(
      """
      let zero = 0
      on "go" {
        at 1s / zero print "never"
        at 2s print "never either"
      }
      emit "go"
      at 3s print "top level goes on"
      """, TraceOptions(fps: 1))
    #expect(traced.prints.map(\.1) == ["top level goes on"])
    #expect(traced.errors.count == 1)
  }

  /// An animation that leaves its delay and cannot evaluate its values is dropped there:
  /// it never shows a value, and fires nothing more.
  @Test func aDelayedAnimationWhoseValuesFailIsDropped() throws {
    let traced = try trace(
      """
      target a { x: 0, d: 1 }
      animate a.x to 5 / a.d over 1s delay 1s
      at 500ms set a.d to 0
      """, TraceOptions(fps: 2))
    #expect(traced.errors.map(\.message) == ["division by zero"])
    #expect(traced.errors.first?.time == 1 * s)
    #expect(traced.times("complete", "a.x").isEmpty)
    #expect(traced.number("a.x", at: 1 * s) == 0)
  }

  /// As a timeline item: the item has no effect and the timeline goes on.
  @Test func aFailingTimelineItemLetsTheTimelineGoOn() throws {
    let traced = try trace(
      """
      target a { x: 0, y: 0 }
      let zero = 0
      timeline t {
        animate a.x to 1 / zero over 1s
        print "{1 / zero}"
        animate a.y to 1 over 1s
      }
      play t
      """, TraceOptions(fps: 1))
    #expect(traced.errors.map(\.message) == ["division by zero", "division by zero"])
    #expect(traced.prints.isEmpty)
    #expect(traced.times("complete", "t") == [2 * s])
    #expect(traced.number("a.y", at: 2 * s) == 1)
    #expect(traced.number("a.x", at: 2 * s) == 0)
  }

  /// A `play` whose timeline cannot be built (an item's offset fails) builds nothing.
  @Test func aFailingPlayBuildsNothing() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      let zero = 0
      timeline t {
        animate a.x to 1 over 1s
        at 1s / zero print "x"
      }
      play t
      """, TraceOptions(fps: 1))
    #expect(traced.errors.map(\.message) == ["division by zero"])
    #expect(traced.times("start", "t").isEmpty && traced.times("start", "a.x").isEmpty)
    #expect(traced.sampleTimes == [])
  }
}

/// Issue 12, rule 12 (the runtime's half): more than 10,000 handler runs at one instant is
/// an error, located, and the run stops the chain at once.
@Suite struct ChainLimitTests {
  @Test func aChainThatDoublesStopsQuickly() throws {
    let clock = ContinuousClock()
    var traced = Traced()
    let elapsed = try clock.measure {
      traced = try trace(
        "on \"a\" { emit \"a\"; emit \"a\" }\nemit \"a\"\nat 1s print \"goes on\"\n", TraceOptions(fps: 1))
    }
    #expect(elapsed < .seconds(10))
    #expect(traced.errors.count == 1)
    #expect(traced.errors.first?.message.hasPrefix("more than 10000 handler runs at one instant") == true)
    #expect(traced.errors.first?.span.start == 0)  // the `on` statement, line 1
    #expect(traced.errors.first?.time == 0)
    // 10,000 handler runs, each after its own "a", then the "a" whose run is the 10,001st.
    #expect(traced.times("a", nil).count == 10_001)
    #expect(traced.prints.map(\.1) == ["goes on"])
  }

  /// A chain that does not branch (`on "a" { emit "a" }`) takes more than one round of
  /// engine events per handler run: it too stops at the 10,001st run, with the same error.
  @Test func aChainThatDoesNotBranchStopsAtTheSameCount() throws {
    let traced = try trace("on \"a\" { emit \"a\" }\nemit \"a\"\n", TraceOptions(fps: 1))
    #expect(traced.errors.count == 1)
    #expect(traced.errors.first?.message.hasPrefix("more than 10000 handler runs at one instant") == true)
    #expect(traced.times("a", nil).count == 10_001)
  }

  @Test func tenThousandRunsAreAllowed() throws {
    // 100 emits at top level, each starting a handler that emits 99 more ("b"): 10,000
    // handler runs in all, none over the limit.
    let emits = Array(repeating: "emit \"b\"", count: 99).joined(separator: "; ")
    let starts = Array(repeating: "emit \"a\"", count: 100).joined(separator: "\n")
    let traced = try trace("on \"a\" { \(emits) }\non \"b\" { }\n\(starts)\n", TraceOptions(fps: 1))
    #expect(traced.errors.isEmpty)
    #expect(traced.times("b", nil).count == 9_900)
  }
}

/// Issue 12, rule 8 (the engine's half): an animation whose end lies beyond the end of time
/// (2⁶² ns) is an error at its statement, not an idle animation.
@Suite struct EndOfTimeTests {
  @Test(arguments: [
    ("target a { x: 0 }\nanimate a.x to 1 over 1s speed 1e-10\n", 2),
    ("target a { x: 0 }\nanimate a.x to 1 over 1s\nspeed a.x 1e-10\n", 3),
    ("target a { x: 0 }\ntimeline t speed 1e-10 { animate a.x to 1 over 1s }\nplay t\n", 3),
    ("target a { x: 0 }\ntimeline t { animate a.x to 1 over 1s speed 1e-10 }\nplay t\n", 2),
  ])
  func aSlowAnimationThatWouldEndAfterTheEndOfTimeIsAnError(script: String, line: Int) throws {
    let traced = try trace(script + "print \"goes on\"\n", TraceOptions(fps: 1))
    #expect(traced.errors.count == 1)
    #expect(traced.errors.first?.message.contains("after the end of time") == true)
    let lineStart = script.split(separator: "\n", omittingEmptySubsequences: false).prefix(line - 1)
      .reduce(0) { $0 + $1.utf8.count + 1 }
    #expect(traced.errors.first.map { $0.span.start >= lineStart } == true)
    #expect(traced.prints.map(\.1) == ["goes on"])
  }
}
