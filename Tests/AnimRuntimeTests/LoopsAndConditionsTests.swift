import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// grammar.md § Loops, conditions and variables, traced: loops lay their bodies out as if
/// written out, conditions and bounds are read when their turn comes, and variables keep
/// their type and live where they are declared.
@Suite("Runtime: loops, conditions and variables")
struct LoopsAndConditionsTests {
  @Test func aTopLevelLoopIsAsIfWrittenOut() throws {
    // Three passes of `print; wait 1s`, then the statement after the loop: at 0, 1, 2 and 3 s.
    let traced = try trace(
      """
      for i in 0..<3 {
        print "tick {i}"
        wait 1s
      }
      print "done"
      """)
    #expect(traced.prints.map(\.0) == [0, s, 2 * s, 3 * s])
    #expect(traced.prints.map(\.1) == ["tick 0", "tick 1", "tick 2", "done"])
    #expect(traced.errors.isEmpty)
  }

  @Test func rangesIncludeTheirUpperBoundOnlyWhenClosed() throws {
    let traced = try trace(
      """
      for i in 1...3 { print "a{i}" }
      for i in 1..<3 { print "b{i}" }
      for i in 3..<3 { print "never" }
      for i in 3...2 { print "never" }
      for i in -2...-2 { print "c{i}" }
      """)
    #expect(traced.prints.map(\.1) == ["a1", "a2", "a3", "b1", "b2", "c-2"])
  }

  @Test func aLoopPlacesItemsInATimelineAsIfWrittenOut() throws {
    // `at +100ms` inside the loop staggers: the end so far grows by each 200 ms animation
    // plus 100 ms, so item k starts at k × 300 ms + 100 ms.
    let traced = try trace(
      """
      target a { x: 0 }
      target b { x: 0 }
      timeline t {
        for k in 0..<3 {
          at +100ms animate a.x to (k + 1) * 10 over 200ms
        }
        animate b.x to 1 over 100ms
      }
      play t
      """, TraceOptions(fps: 20))
    // (a.x rests in the 100 ms between the items.)
    #expect(traced.times("start", "a.x") == [100 * ms, 400 * ms, 700 * ms])
    #expect(traced.number("a.x", at: 300 * ms) == 10)
    #expect(traced.number("a.x", at: 600 * ms) == 20)
    #expect(traced.number("a.x", at: 900 * ms) == 30)
    #expect(traced.times("start", "b.x") == [900 * ms])
    #expect(traced.times("complete", "t") == [s])
  }

  @Test func aConditionInATimelineIsReadWhenItIsPlayed() throws {
    // Read when `play` builds the timeline (as its durations are), not when it is declared.
    let traced = try trace(
      """
      target a { x: 0 }
      var far = false
      timeline t {
        if far { animate a.x to 100 over 1s } else { animate a.x to 10 over 1s }
      }
      at 1s far = true
      at 2s play t
      """, TraceOptions(fps: 4))
    #expect(traced.number("a.x", at: 3 * s) == 100)
  }

  @Test func aConditionIsReadWhenItsTurnComes() throws {
    // The `if` after `wait 1s` reads a.x at 1 s, where the animation has arrived.
    let traced = try trace(
      """
      target a { x: 0 }
      animate a.x to 100 over 1s
      wait 1s
      if a.x == 100 { print "arrived" } else { print "not yet" }
      """)
    #expect(traced.prints.map(\.1) == ["arrived"])
    #expect(traced.prints.map(\.0) == [s])
  }

  @Test func theLanguageBriefsCounterPlaysThreeTimes() throws {
    let traced = try trace(
      """
      target a { x: 0 }
      var count = 0
      timeline t { animate a.x to 10 over 1s }
      on complete t {
        count = count + 1
        if count < 3 { play t }
      }
      play t
      """)
    #expect(traced.times("complete", "t") == [s, 2 * s, 3 * s])
    #expect(traced.times("start", "t") == [0, s, 2 * s])
  }

  @Test func elseIfPicksTheFirstBranchThatHolds() throws {
    let traced = try trace(
      """
      for n in 0..<4 {
        if n == 0 { print "zero" } else if n < 2 { print "small" } else if n >= 3 { print "big" } else {
          print "two"
        }
      }
      """)
    #expect(traced.prints.map(\.1) == ["zero", "small", "two", "big"])
  }

  @Test func logicLooksAtItsRightSideOnlyWhenItMust() throws {
    // `1 / x` would be a division by zero; `and` and `or` never evaluate it here.
    let traced = try trace(
      """
      let x = 0
      var b = false
      if x != 0 and 1 / x > 1 { print "no" } else { print "and stops" }
      if x == 0 or 1 / x > 1 { print "or stops" }
      b = not (x < 1)
      print "{b} {1 < 2} {2s >= 2000ms} {(1, 2) == (1, 2)} {#fff != #ffffff}"
      """)
    #expect(traced.prints.map(\.1) == ["and stops", "or stops", "false true true true false"])
    #expect(traced.errors.isEmpty)
  }

  @Test func localsAreNewOnEachPassAndInEachHandlerRun() throws {
    let traced = try trace(
      """
      var total = 0
      for i in 0..<3 {
        var twice = i * 2
        twice = twice + 1
        total = total + twice
        print "{twice}"
      }
      print "total {total}"
      on "e" {
        var n = 0
        n = n + 1
        print "n {n}"
      }
      emit "e"
      at 1s emit "e"
      """)
    #expect(traced.prints.map(\.1) == ["1", "3", "5", "total 9", "n 1", "n 1"])
  }

  @Test func aLoopVariableIsCapturedByWhatItSchedulesForLater() throws {
    let traced = try trace(
      """
      for i in 0..<3 {
        at i * 100ms print "{i}"
      }
      """)
    #expect(traced.prints.map(\.0) == [0, 100 * ms, 200 * ms])
    #expect(traced.prints.map(\.1) == ["0", "1", "2"])
  }

  @Test func tooManyPassesIsARuntimeErrorThatNamesTheLoop() throws {
    let traced = try trace(
      """
      let n = 100001
      for k in 0..<n { print "x" }
      print "after"
      """)
    #expect(traced.prints.map(\.1) == ["after"])
    #expect(
      traced.errors.map(\.message) == [
        "the loop 'for k' at line 2 would run 100001 times: a loop runs at most 100000 times in one run"
      ])
  }

  @Test func aNonIntegerBoundIsARuntimeErrorWhenNotConstant() throws {
    let traced = try trace(
      """
      target a { x: 0.5 }
      for k in 0..<a.x { print "x" }
      """)
    #expect(traced.prints.isEmpty)
    #expect(traced.errors.map(\.message) == ["expected an integer as a loop bound, found 0.5"])
  }

  @Test func anErrorInAHandlersLoopAbandonsTheRun() throws {
    let traced = try trace(
      """
      target a { x: 0.5 }
      on "go" {
        print "before"
        for k in 0..<a.x { print "x" }
        print "never"
      }
      emit "go"
      """)
    #expect(traced.prints.map(\.1) == ["before"])
    #expect(traced.errors.count == 1)
  }

  @Test func anAssignmentItemRunsWhenCrossedForwards() throws {
    let traced = try trace(
      """
      var hits = 0
      timeline t {
        at 500ms hits = hits + 1
        wait 1s
      }
      play t
      at 2s reverse t
      at 3s print "{hits}"
      """)
    #expect(traced.prints.map(\.1) == ["1"])
  }

  @Test func traceAndTheWholeProgramPathAgree() throws {
    let script = """
      target a { x: 0 }
      var n = 0
      for i in 0..<2 { n = n + 1; wait 500ms }
      if n == 2 { animate a.x to 1 over 1s }
      """
    let streamed = try trace(script, TraceOptions(fps: 4))
    let whole = try traceWhole(script, TraceOptions(fps: 4))
    #expect(streamed.records == whole.records)
    #expect(streamed.times("start", "a.x") == [s])
  }
}
