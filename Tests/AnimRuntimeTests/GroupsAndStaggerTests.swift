import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// grammar.md § Groups and stagger, traced: a group's members are targets of their own, a
/// statement on the whole group runs per member with its `index` and `count`, and a stagger
/// delays member k by round((d_k − d_min) × step).
@Suite("Runtime: groups and stagger")
struct GroupsAndStaggerTests {
  /// The start times of `G[k].p` for k in 0..<count.
  func starts(_ traced: Traced, _ group: String, _ property: String, count: Int) -> [Nanoseconds] {
    (0..<count).map { traced.times("start", "\(group)[\($0)].\(property)").first ?? -1 }
  }

  /// The extra delays a stagger gives to the members of `animate dots.y to 1 over 10s`
  /// (linear): its value at 2 s is (2 s − delay) / 10 s, so delay = 2 s − value · 10 s, to
  /// the nanosecond.
  func delays(_ script: String, count: Int) throws -> [Nanoseconds] {
    let probe = 2 * s
    let traced = try trace(script, TraceOptions(times: [probe]))
    #expect(traced.errors.isEmpty, "\(traced.errors.map(\.message))")
    return (0..<count).map { k in
      let value = traced.number("dots[\(k)].y", at: probe) ?? .nan
      return probe - Nanoseconds(seconds: value * 10)
    }
  }

  @Test func aGroupDeclaresItsMembersWithTheirIndexAndCount() throws {
    let traced = try trace(
      """
      target dots[12] { y: 0, x: index * 40, last: count - 1 - index, tint: #ffffff }
      print "{dots[0].x} {dots[11].x} {dots[3].last}"
      """, TraceOptions(times: [0]))
    #expect(traced.prints.map(\.1) == ["0 440 8"])
    #expect(traced.number("dots[5].x", at: 0) == 200)
    #expect(traced.value("dots[11].tint", at: 0) != nil)
    #expect(traced.value("dots[12].x", at: 0) == nil)
  }

  @Test func aStatementOnTheGroupRunsPerMember() throws {
    let traced = try trace(
      """
      target dots[4] { y: 0 }
      animate dots.y to index * 10 over 1s
      at 2s set dots.y to count * 100 + index
      """, TraceOptions(times: [500 * ms, s, 3 * s]))
    #expect((0..<4).map { traced.number("dots[\($0)].y", at: 500 * ms) } == [0, 5, 10, 15])
    #expect((0..<4).map { traced.number("dots[\($0)].y", at: s) } == [0, 10, 20, 30])
    #expect((0..<4).map { traced.number("dots[\($0)].y", at: 3 * s) } == [400, 401, 402, 403])
  }

  @Test func oneMembersPropertyByAnIndexEvaluatedWhenTheStatementRuns() throws {
    let traced = try trace(
      """
      target dots[5] { y: 0 }
      for i in 0..<5 {
        if i == 0 or i == 2 { set dots[i].y to i }
      }
      var k = 4
      animate dots[k].y to 40 over 1s
      """, TraceOptions(times: [s]))
    #expect((0..<5).map { traced.number("dots[\($0)].y", at: s) } == [0, 0, 2, 0, 40])
  }

  @Test func anIndexOutOfRangeAtRunTimeIsAnErrorAtTheIndex() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0 }
      var k = 3
      set dots[k].y to 1
      print "after"
      """)
    #expect(traced.errors.map(\.message) == ["index 3 is out of range: 'dots' has members 0 to 2"])
    #expect(traced.prints.map(\.1) == ["after"])
  }

  // MARK: Stagger origins (the issue's worked examples)

  @Test func sevenMembersFromTheCenter() throws {
    let delays = try delays(
      """
      target dots[7] { y: 0 }
      animate dots.y to 1 over 10s stagger 40ms from center
      """, count: 7)
    #expect(delays == [120, 80, 40, 0, 40, 80, 120].map { $0 * ms })
  }

  @Test func twelveMembersFromEachOrigin() throws {
    func script(_ origin: String) -> String {
      """
      target dots[12] { y: 0 }
      animate dots.y to 1 over 10s stagger 50ms \(origin)
      """
    }
    #expect(
      try delays(script("from center"), count: 12)
        == [250, 200, 150, 100, 50, 0, 0, 50, 100, 150, 200, 250].map { $0 * ms })
    #expect(try delays(script(""), count: 12) == (0..<12).map { Nanoseconds($0) * 50 * ms })
    #expect(try delays(script("from start"), count: 12) == (0..<12).map { Nanoseconds($0) * 50 * ms })
    #expect(try delays(script("from end"), count: 12) == (0..<12).map { Nanoseconds(11 - $0) * 50 * ms })
    #expect(try delays(script("from edges"), count: 12) == (0..<12).map { Nanoseconds(min($0, 11 - $0)) * 50 * ms })
    #expect(try delays(script("from 4"), count: 12) == (0..<12).map { Nanoseconds(abs($0 - 4)) * 50 * ms })
  }

  @Test func aTotalSetsTheStep() throws {
    let delays = try delays(
      """
      target dots[6] { y: 0 }
      animate dots.y to 1 over 10s stagger total 1s
      """, count: 6)
    #expect(delays == [0, 200, 400, 600, 800, 1_000].map { $0 * ms })
  }

  @Test func aGridFromItsCenterAndItsCorners() throws {
    let center = try delays(
      """
      target dots[12] { y: 0 }
      animate dots.y to 1 over 10s stagger 100ms from center grid (4, 3)
      """, count: 12)
    #expect(center[5] == 0 && center[6] == 0)
    for cell in [1, 2, 9, 10] { #expect(center[cell] == 61_803_399, "cell \(cell)") }
    for cell in [4, 7] { #expect(center[cell] == 100 * ms, "cell \(cell)") }
    for cell in [0, 3, 8, 11] { #expect(center[cell] == 130_277_564, "cell \(cell)") }
    let corner = try delays(
      """
      target dots[12] { y: 0 }
      animate dots.y to 1 over 10s stagger 100ms from end grid (4, 3)
      """, count: 12)
    // From cell (3, 2): cell k at (k mod 4, ⌊k / 4⌋), distance √((3 − c)² + (2 − r)²).
    for k in 0..<12 {
      let dc = Double(3 - k % 4)
      let dr = Double(2 - k / 4)
      let expected = Nanoseconds(((dc * dc + dr * dr).squareRoot() * 1e8 + 0.5).rounded(.down))
      #expect(corner[k] == expected, "cell \(k)")
    }
  }

  @Test func aCurveDistributesTheDelays() throws {
    // easeIn over the spread of 3 × 100 ms: member k at easeIn(k / 3) × 300 ms.
    let delays = try delays(
      """
      target dots[4] { y: 0 }
      animate dots.y to 1 over 10s stagger 100ms with easeIn
      """, count: 4)
    let easeIn = TimingCurve.cubicBezier(try CubicBezier(0.42, 0, 1, 1))
    for k in 0..<4 {
      let expected = easeIn.progress(at: Double(k) / 3) * 3e8
      #expect(abs(Double(delays[k]) - expected) <= 1, "member \(k)")
    }
  }

  @Test func aSeededRandomOrder() throws {
    let delays = try delays(
      """
      target dots[8] { y: 0 }
      animate dots.y to 1 over 10s stagger 10ms from random(42)
      """, count: 8)
    #expect(delays == Stagger.shuffledRanks(count: 8, seed: 42).map { Nanoseconds($0) * 10 * ms })
    #expect(Set(delays).count == 8)
  }

  @Test func staggeredKeyframes() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0 }
      keyframes dots.y over 1s stagger 250ms { 0%: 0, 50%: 10, 100%: 0 }
      """, TraceOptions(times: [500 * ms, 750 * ms, s]))
    // Member k's track starts at k × 250 ms: at 500 ms member 0 is at its peak, member 2 at 0.
    #expect((0..<3).map { traced.number("dots[\($0)].y", at: 500 * ms) } == [10, 5, 0])
    #expect((0..<3).map { traced.number("dots[\($0)].y", at: s) } == [0, 5, 10])
  }

  // MARK: Events

  @Test func theGroupStartsWithItsFirstMemberAndCompletesWithItsLast() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0 }
      on start dots.y { print "start {now}" }
      on complete dots.y { print "complete {now}" }
      on repeat dots.y { print "repeat {now}" }
      on complete dots[1].y { print "one {now}" }
      animate dots.y to 1 over 200ms repeat 2 stagger 100ms
      """)
    // A staggered member is animating from the statement's start (its offset is its delay),
    // so all three leave rest at 0; they end at 400, 500 and 600 ms.
    #expect(starts(traced, "dots", "y", count: 3) == [0, 0, 0])
    #expect(
      traced.prints.map(\.1) == [
        "start 0s", "repeat 0.2s", "repeat 0.3s", "repeat 0.4s", "one 0.5s", "complete 0.6s",
      ])
    // The trace names members only.
    #expect(traced.times("start", "dots.y").isEmpty)
  }

  @Test func aStaggerInATimelineIsOneItem() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0 }
      target after { x: 0 }
      target beside { x: 0 }
      timeline t {
        animate dots.y to 1 over 100ms stagger 100ms
        with previous animate beside.x to 1 over 100ms
        animate after.x to 1 over 100ms
      }
      play t
      """)
    // The stagger item ends with its last member, at 300 ms; `with previous` starts with it.
    #expect(traced.times("start", "beside.x") == [0])
    #expect(traced.times("start", "after.x") == [300 * ms])
    #expect(traced.times("complete", "t") == [400 * ms])
  }

  @Test func controlStatementsOnTheGroupActOnEveryMember() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0 }
      animate dots.y to 10 over 1s
      at 500ms pause dots.y
      at 1s resume dots[2].y
      """, TraceOptions(times: [1_500 * ms], until: 2 * s))
    #expect((0..<3).map { traced.number("dots[\($0)].y", at: 1_500 * ms) } == [5, 5, 10])
  }

  @Test func watchingTheGroupWatchesEveryMember() throws {
    let traced = try trace(
      """
      target dots[3] { y: 0, x: 1 }
      """, TraceOptions(times: [0], watch: ["dots.x"]))
    guard case .sample(_, let values)? = traced.records.first(where: { if case .sample = $0 { true } else { false } })
    else {
      Issue.record("no sample")
      return
    }
    #expect(values.map(\.name) == ["dots[0].x", "dots[1].x", "dots[2].x"])
  }

  @Test func uiNounsNameTargets() throws {
    let traced = try trace(
      """
      target label { angle: 0 }
      target set { x: 0 }
      animate label.angle to 90 over 1s
      set set.x to 3
      """, TraceOptions(times: [500 * ms]))
    #expect(traced.number("label.angle", at: 500 * ms) == 45)
    #expect(traced.number("set.x", at: 500 * ms) == 3)
  }
}
