import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

@Suite("Runtime: scripts play on the engine")
struct RuntimeTests {
  @Test func aLabelRotatingPausedAndResumed() throws {
    // 0 → 360 over 6 s, paused from 2 s to 5 s: 180 at 6 s, complete at 9 s.
    let traced = try trace(
      """
      target sign { angle: 0 }
      animate sign.angle to 360 over 6s
      at 2s pause sign.angle
      at 5s resume sign.angle
      """, TraceOptions(fps: 10))
    #expect(traced.number("sign.angle", at: 2 * s) == 120)
    #expect(traced.number("sign.angle", at: 4 * s) == 120)
    #expect(traced.number("sign.angle", at: 6 * s) == 180)
    #expect(traced.times("complete", "sign.angle") == [9 * s])
    #expect(traced.sampleTimes.last == 9 * s)
    #expect(traced.errors.isEmpty)
  }

  @Test func placementForms() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      target c { x: 0 }
      target d { x: 0 }
      timeline t {
        animate a.x to 1 over 1s
        at -500ms animate b.x to 1 over 1s
        with previous animate c.x to 1 over 2s
        label mark
        at mark + 250ms animate d.x to 1 over 1s
        at 100ms print "p"
      }
      play t
      """, TraceOptions(fps: 4, until: 4 * s))
    // b starts 500 ms before the end of a (at 0.5 s); c with b; the end so far is then 2.5 s.
    #expect(traced.times("start", "b.x") == [500 * ms])
    #expect(traced.times("start", "c.x") == [500 * ms])
    #expect(traced.times("start", "d.x") == [2_750 * ms])
    #expect(traced.times("complete", "t") == [3_750 * ms])
    #expect(traced.prints.map(\.0) == [100 * ms])
    #expect(traced.number("b.x", at: s) == 0.5)
  }

  @Test func groupsNestAndRatesMultiply() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      timeline t speed 2 {
        sequence {
          animate a.x to 10 over 1s
          animate b.x to 10 over 1s
        }
        parallel speed 0.5 {
          animate a.x to 20 over 1s
        }
      }
      play t
      """, TraceOptions(fps: 8))
    // Timeline at double speed: the sequence takes 2 s of timeline time, 1 s of real time;
    // the parallel group at half speed takes 2 s of timeline time, 1 s more.
    #expect(traced.times("complete", "b.x") == [s])
    #expect(traced.number("a.x", at: 250 * ms) == 5)
    #expect(traced.times("complete", "t") == [2 * s])
    #expect(traced.number("a.x", at: 1_500 * ms) == 15)
  }

  @Test func handlersRunAtTheExactTimeAndEmitQueues() throws {
    let traced = try trace(
      """
      target card { opacity: 0 }
      timeline intro {
        animate card.opacity to 1 over 300ms
      }
      on complete intro { emit "intro-done" }
      on "intro-done" { print "done at {now}, opacity {card.opacity}" }
      play intro
      """, TraceOptions(fps: 7))
    #expect(traced.times("complete", "intro") == [300 * ms])
    #expect(traced.times("intro-done", nil) == [300 * ms])
    #expect(traced.prints.map(\.1) == ["done at 0.3s, opacity 1"])
    #expect(traced.prints.map(\.0) == [300 * ms])
  }

  @Test func aRuntimeErrorInAHandlerIsReportedAndTheRunGoesOn() throws {
    let traced = try trace(
      """
      target b { x: 0 }
      let zero = 0
      animate b.x to 10 over 1s
      on complete b.x {
        print "before"
        print "{1 / zero}"
        print "never"
      }
      at 2s print "later"
      """, TraceOptions(fps: 2))
    #expect(traced.errors.count == 1)
    #expect(traced.errors.first?.message == "division by zero")
    #expect(traced.errors.first?.time == s)
    #expect(traced.prints.map(\.1) == ["before", "later"])
  }

  @Test func theCardFlipOfTheLanguageBrief() throws {
    let traced = try trace(
      """
      let duration = 600ms
      let accent   = #ff8800
      curve snap   = cubic(0.2, 0.9, 0.1, 1)
      curve wobble = spring(response: 0.5, dampingFraction: 0.45)
      target card  { angle: 0, opacity: 0, position: (0, 0), tint: #000000 }
      target badge { scale: 0 }
      timeline intro {
        animate card.opacity to 1 over 300ms with easeIn
        at 100ms animate card.angle to 180 over duration with snap
        animate card.tint to accent over 200ms
        with previous animate badge.scale to 1 with wobble
        label landed
        at landed + 250ms print "landed at {now}, angle {card.angle}"
      }
      on complete intro { emit "intro-done" }
      on "intro-done" { print "done" }
      play intro
      at 400ms pause intro
      at 1s    resume intro
      wait 1.2s
      reverse intro
      """, TraceOptions(times: [200 * ms, 400 * ms, 900 * ms, 1_100 * ms], until: 10 * s))
    let easeIn = CubicBezier.easeIn.progress(at: 200.0 / 300.0)
    #expect(close(traced.number("card.opacity", at: 200 * ms), easeIn))
    // Paused at 0.4 s until 1 s: the angle holds.
    #expect(traced.number("card.angle", at: 400 * ms) == traced.number("card.angle", at: 900 * ms))
    let snap = try CubicBezier(0.2, 0.9, 0.1, 1)
    #expect(close(traced.number("card.angle", at: 1_100 * ms), 180 * snap.progress(at: 400.0 / 600.0)))
    // Reversed at 1.2 s after 600 ms of play: back at the start 600 ms later, complete.
    #expect(traced.times("complete", "intro") == [1_800 * ms])
    #expect(traced.prints.map(\.1) == ["done"])
  }

  @Test func aStopwatchLoopsAndCountsDownWhenReversed() throws {
    let traced = try trace(
      """
      target watch { count: 0 }
      animate watch.count to 100 over 10s repeat forever
      at 25s pause watch.count
      at 26s reverse watch.count
      at 27s resume watch.count
      """, TraceOptions(times: [25 * s, 27 * s, 30 * s, 37 * s], until: 40 * s))
    #expect(traced.number("watch.count", at: 25 * s) == 50)
    #expect(traced.number("watch.count", at: 27 * s) == 50)
    #expect(close(traced.number("watch.count", at: 30 * s), 20))
    // Down through 0 at 32 s, wrapping to 100 and on: 5 s later it reads 50.
    #expect(close(traced.number("watch.count", at: 37 * s), 50))
    #expect(traced.times("repeat", "watch.count").contains(32 * s))
  }

  @Test func retargetingAdditiveSpringAndReplace() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      target c { x: 0 }
      animate a.x to 100 over 1s
      animate b.x to 100 with smooth
      animate c.x to 100 over 1s
      at 500ms animate a.x to 0 over 1s
      at 500ms animate b.x to 0 with smooth
      at 500ms animate c.x to 0 over 1s merge replace
      """, TraceOptions(times: [500 * ms, 1_000 * ms, 3 * s]))
    // Additive: newest target 0 minus the remaining changes: 100·0 + (−100)·0.5 → 50 − 50.
    #expect(close(traced.number("a.x", at: s), 100 - 100 * 0.5 - 0))
    // Replace: from 50 toward 0, half-way.
    #expect(close(traced.number("c.x", at: s), 25))
    #expect(traced.number("b.x", at: 3 * s) == 0)
  }

  @Test func aScriptThatNeverEndsNeedsUntil() throws {
    #expect(throws: TraceError.self) {
      try trace("target a { x: 0 }\nanimate a.x to 1 over 1s repeat forever\n")
    }
    let bounded = try trace(
      "target a { x: 0 }\nanimate a.x to 1 over 1s repeat forever\n", TraceOptions(fps: 1, until: 3 * s))
    #expect(bounded.sampleTimes == [0, s, 2 * s, 3 * s])
  }
}

@Suite("Runtime: sampling")
struct RuntimeSamplingTests {
  func run(_ runtime: Runtime, _ text: String, in environment: inout Environment, at time: Nanoseconds) throws {
    let source = SourceText(name: "entry", contents: text)
    let result = parseAndCheck(source, in: &environment, mode: .session)
    let program = try #require(result.isRunnable ? result.program : nil, "\(result.parse.diagnostics)")
    _ = runtime.run(program, of: source, at: time)
  }

  /// `sample()` keeps the properties' ids between calls: a property added later, or a target
  /// declared again with another kind of value (a new id under the same name), shows.
  @Test func sampleFollowsNewAndRedeclaredProperties() throws {
    let runtime = Runtime()
    var environment = Environment()
    try run(runtime, "target box { x: 1 }", in: &environment, at: 0)
    #expect(runtime.sample() == [NamedValue(name: "box.x", value: .number(1))])
    try run(runtime, "target dot { y: 2 }", in: &environment, at: 10 * ms)
    #expect(runtime.sample().map(\.name) == ["box.x", "dot.y"])
    try run(runtime, "target box { x: (3, 4) }", in: &environment, at: 20 * ms)
    #expect(
      runtime.sample() == [
        NamedValue(name: "box.x", value: .vec2(Vec2(3, 4))), NamedValue(name: "dot.y", value: .number(2)),
      ])
    try run(runtime, "animate dot.y to 12 over 1s", in: &environment, at: 30 * ms)
    _ = runtime.advance(to: 530 * ms)
    #expect(runtime.sample()[1] == NamedValue(name: "dot.y", value: .number(7)))
  }
}
