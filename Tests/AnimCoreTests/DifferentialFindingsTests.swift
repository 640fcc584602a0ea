import Testing

@testable import AnimCore

/// Engine bugs found by the differential test (Tests/AnimDifferentialTests) against the
/// oracle. Each expected value is worked out by hand from the rules, in a comment.
@Suite("Engine: differential findings")
struct DifferentialFindingsTests {
  /// Every node event, as (time, kind, node), in the order handed out.
  struct Recorder {
    var events: [(Nanoseconds, EngineEvent.Kind, EngineEvent.Subject)] = []
    func nodeEvents(_ id: NodeID) -> [(Nanoseconds, EngineEvent.Kind)] {
      events.compactMap { if case .node(id) = $0.2 { ($0.0, $0.1) } else { nil } }
    }
  }

  /// Rule 6 for a timeline's child: a child at rate 3 reaches its end u = 2.5 ms at parent
  /// time round(2.5 ms / 3) = round(833 333.3) = 833 333 ns, although round(833 333 × 3) =
  /// 2 499 999 falls a nanosecond short of u. The group (no items, length 2.5 ms, speed 3)
  /// starts at 0 and completes at exactly 833 333 ns; the animation in it (to 100 over
  /// 2.5 ms, fill forwards) shows 100 there.
  @Test func childAtRateOtherThanOneCompletesWhereItsEndIsReached() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let root = try engine.addTimeline(timing: EffectTiming(duration: 10 * ms, fill: .forwards), placement: .engineIdle)
    let group = try engine.addTimeline(
      timing: EffectTiming(duration: 2_500_000, fill: .forwards), rate: 3, placement: .timeline(root, at: 0))
    let tween = try engine.animate(
      p, with: .tween(to: .number(100), duration: 2_500_000), placement: .timeline(group, at: 0))
    try engine.play(root)
    try engine.advance(to: 1 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(group).map(\.0) == [0, 833_333])
    #expect(recorder.nodeEvents(group).map(\.1) == [.start, .complete])
    #expect(recorder.nodeEvents(tween).map(\.0) == [0, 833_333])
    try engine.advance(to: 1 * ms)
    #expect(number(engine, p) == 100)
  }

  /// Rule 6: an item placed at parent time S = 3 000 001 ns with rate 0.5 reaches its start
  /// u = 0 at S + round(0 / 0.5) = 3 000 001 and its end u = 1 ms at S + round(1 ms / 0.5) =
  /// 5 000 001. (Its start time is S itself: solving it back from the rounded local time
  /// round(−3 000 001 × 0.5) = −1 500 001 would give 3 000 002.)
  @Test func itemAtRateOtherThanOneStartsExactlyWhereItIsPlaced() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let root = try engine.addTimeline(timing: EffectTiming(duration: 10 * ms, fill: .forwards), placement: .engineIdle)
    let tween = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * ms, rate: 0.5), placement: .timeline(root, at: 3_000_001))
    try engine.play(root)
    try engine.advance(to: 10 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(tween).map(\.0) == [3_000_001, 5_000_001])
    #expect(recorder.nodeEvents(tween).map(\.1) == [.start, .complete])
  }

  /// Rule 6, each nesting level rounding once: a root timeline at speed 0.3 holds a group at
  /// speed 3, which holds an animation at speed 3 with delay 84 ms and duration 100 ms. Its
  /// start u = 84 ms is reached at group time round(84 ms / 3) = 28 000 000, which the root
  /// reaches at round(28 000 000 / 3) = 9 333 333, which the engine reaches at
  /// round(9 333 333 / 0.3) = 31 111 110 ns. Its end u = 184 ms: round(184 ms / 3) =
  /// 61 333 333, round(61 333 333 / 3) = 20 444 444, round(20 444 444 / 0.3) = 68 148 147.
  /// (Down the tree the group's time there is round(9 333 333 × 3) = 27 999 999, short of
  /// 28 000 000: the start must fire anyway, where it is due.)
  @Test func grandchildEventsFireWhereTheyAreDueThroughTwoRoundedLevels() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let root = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, fill: .forwards), rate: 0.3, placement: .engineIdle)
    let group = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, fill: .forwards), rate: 3, placement: .timeline(root, at: 0))
    let tween = try engine.animate(
      p, with: .tween(to: .number(100), duration: 100 * ms, delay: 84 * ms, rate: 3), placement: .timeline(group, at: 0)
    )
    try engine.play(root)
    try engine.advance(to: 100 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(tween).map(\.0) == [31_111_110, 68_148_147])
    #expect(recorder.nodeEvents(tween).map(\.1) == [.start, .complete])
  }

  /// Rule 4 at the boundary of an alternating pass: a group G (1 ms, repeat 2, autoreverse)
  /// holds, at 1 ms, a group H of no length with an animation Z of no length in it. At 1 ms G
  /// reaches the end of its forward pass, where H and Z each start and complete; its second
  /// pass then runs back from 1 ms, crossing H and Z back: each starts and completes
  /// reversed. Each node's own start comes with its own complete, right after it, each way.
  @Test func aNodeThatComesAndGoesBothWaysAtOneInstantFiresEachPairTogether() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let root = try engine.addTimeline(timing: EffectTiming(duration: 2 * ms, fill: .forwards), placement: .engineIdle)
    let g = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * ms, iterations: 2, direction: .alternate, fill: .forwards),
      placement: .timeline(root, at: 0))
    let h = try engine.addTimeline(
      timing: EffectTiming(duration: 0, fill: .forwards), placement: .timeline(g, at: 1 * ms))
    let z = try engine.animate(
      p, with: .tween(from: .number(1), to: .number(2), duration: 0), placement: .timeline(h, at: 0))
    try engine.play(root)
    try engine.advance(to: 2 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    let pairs: [(EngineEvent.Kind, NodeID)] = recorder.events.compactMap {
      guard $0.0 == 1 * ms, case .node(let id) = $0.2, id == h || id == z else { return nil }
      return ($0.1, id)
    }
    #expect(pairs.count == 8)
    for i in stride(from: 0, to: pairs.count - 1, by: 2) {
      #expect(pairs[i].0 == .start && pairs[i + 1].0 == .complete && pairs[i].1 == pairs[i + 1].1, "at \(i)")
    }
  }

  /// finish on a timeline already finished at its end: Web Animations' finish() on a
  /// finished animation queues no second finish event. A timeline of 1 s played at 0
  /// completes at 1 s; finishing it at 2 s fires nothing.
  @Test func finishingAFinishedTimelineFiresNothing() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .engineIdle)
    try engine.play(t)
    try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.finish(t) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(t).map(\.0) == [0, 1 * s])
  }

  /// finish after a pause, a speed change while paused and a resume: a timeline of
  /// 8.9565 s played at 0, paused at 53 ms (local 53 ms), set to speed 7, resumed at 892 ms,
  /// reads 53 ms + (1.726 s − 892 ms) × 7 = 5.891 s at 1.726 s: not at its end. finish jumps
  /// there and fires its complete at 1.726 s.
  @Test func finishAtSpeedSevenFiresTheComplete() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 8_956_500_000, fill: .forwards), placement: .engineIdle)
    try engine.play(t)
    try engine.advance(to: 53 * ms)
    try engine.pause(t)
    try engine.advance(to: 414 * ms)
    try engine.setRate(7, of: t)
    try engine.advance(to: 892 * ms)
    try engine.resume(t)
    try engine.advance(to: 1_726 * ms)
    try engine.finish(t) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(t).map(\.0) == [1_726 * ms])
    #expect(recorder.nodeEvents(t).map(\.1) == [.complete])
  }

  /// A sequence handing its property to an animation of no length: A (0 to 10 over 1 s) and
  /// then Z (to 20 over 0 s) on p in one timeline. At 1 s A completes and Z starts and
  /// completes: p is handed from A to Z at that instant, so it does not come to rest in
  /// between: p starts at 0 and completes once, at 1 s, after Z's own complete.
  @Test func aPropertyHandedToAnAnimationOfNoLengthComesToRestOnce() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let root = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(p, with: .tween(to: .number(10), duration: 1 * s), placement: .timeline(root, at: 0))
    let z = try engine.animate(p, with: .tween(to: .number(20), duration: 0), placement: .timeline(root, at: 1 * s))
    try engine.play(root)
    try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    let propertyEvents = recorder.events.compactMap { e -> (Nanoseconds, EngineEvent.Kind)? in
      if case .property(p) = e.2 { (e.0, e.1) } else { nil }
    }
    #expect(propertyEvents.map(\.0) == [0, 1 * s])
    #expect(propertyEvents.map(\.1) == [.start, .complete])
    let last = recorder.events.lastIndex { if case .node(z) = $0.2 { true } else { false } }
    #expect(last.map { $0 + 1 } == recorder.events.count - 1)
    #expect(number(engine, p) == 20)
  }

  /// Rule 2's phases for a timeline's children: a timeline T (10 s) holds a group G at 1 s
  /// (1 s long) with A in it (0 to 100 over 1 s, fill forwards). T plays at 0, is reversed
  /// at 100 ms and sought (silently) to 3 s: G is after its end, and A in it stands at its
  /// end as G's last pass left it, filling 100, its property at rest. T's local time comes
  /// back to G's end (2 s) at 100 ms + 1 s = 1.1 s: G and A start reversed there and p leaves
  /// rest, reversed. At 1.6 s (T at 1.5 s, A at 0.5 s) p is 50.
  @Test func aChildOfATimelinePastItsEndIsNotActiveThere() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 10 * s, fill: .forwards), placement: .engineIdle)
    let g = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .timeline(t, at: 1 * s))
    let a = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .timeline(g, at: 0))
    try engine.play(t)
    try engine.advance(to: 100 * ms) { _, e in events.append(e) }
    try engine.reverse(t)
    try engine.seek(t, to: 3 * s)
    try engine.advance(to: 1 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
    #expect(!engine.isAnimating(p))
    try engine.advance(to: 1_600 * ms) { _, e in events.append(e) }
    let late = events.filter { $0.time > 100 * ms }
    #expect(late.map(\.time) == [1_100 * ms, 1_100 * ms, 1_100 * ms])
    #expect(late.allSatisfy { $0.kind == .start && $0.isReversed })
    #expect(Set(late.map(\.subject)) == [.node(g), .node(a), .property(p)])
    #expect(abs(number(engine, p) - 50) < 1e-9)
  }

  /// play on a cancelled timeline starts it over: T (5 s) holds A on p (to 100 over 2 s) at
  /// 0; played at 0, cancelled at 1 s (p keeps 50 as its base value and is at rest, nothing
  /// fires), played again at 2 s: T and A start at 2 s, and p leaves rest there.
  @Test func playAfterCancelStartsThePropertyAgain() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 5 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 2 * s), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 1 * s)
    try engine.cancel(t)
    #expect(number(engine, p) == 50)
    #expect(!engine.isAnimating(p))
    try engine.advance(to: 2 * s)
    try engine.play(t)
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .property(p) }.map(\.kind) == [.start])
    #expect(engine.isAnimating(p))
  }

  /// grammar.md § Control: a cancelled timeline, and one never played, waits for play ("play starts
  /// it over"); resume leaves it idle. T (1 s, A on p to 100 over 1 s): resumed at 1 s never
  /// played, nothing moves or fires; played at 2 s it starts there. Cancelled at 2.5 s (p
  /// keeps 50), resumed at 3 s: still idle, p stays 50 with no event; played at 4 s it
  /// starts over and completes at 5 s.
  @Test func resumeLeavesAnIdleTimelineIdle() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .timeline(t, at: 0))
    try engine.advance(to: 1 * s)
    try engine.resume(t)
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    #expect(events.isEmpty)
    #expect(try engine.status(of: t).state == .idle)
    try engine.play(t)
    try engine.advance(to: 2_500 * ms) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(t) }.map(\.time) == [2 * s])
    try engine.cancel(t)
    try engine.advance(to: 3 * s)
    try engine.resume(t)
    events = []
    try engine.advance(to: 4 * s) { _, e in events.append(e) }
    #expect(events.isEmpty)
    #expect(number(engine, p) == 50)
    try engine.play(t)
    try engine.advance(to: 6 * s) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(t) }.map(\.time) == [4 * s, 5 * s])
  }

  /// finish on a timeline never played makes it finished, not idle (Web Animations' finish()
  /// gives an idle animation a current time at its end): T (1 s) finished at 500 ms completes
  /// there; played at 2 s, a finished timeline plays again from its start: start at 2 s,
  /// complete at 3 s.
  @Test func finishOnAnIdleTimelineLeavesItFinished() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .engineIdle)
    try engine.advance(to: 500 * ms)
    try engine.finish(t) { _, e in events.append(e) }
    #expect(try engine.status(of: t).state == .finished)
    try engine.advance(to: 2 * s)
    try engine.play(t)
    try engine.advance(to: 4 * s) { _, e in events.append(e) }
    #expect(events.map(\.time) == [500 * ms, 2 * s, 3 * s])
    #expect(events.map(\.kind) == [.complete, .start, .complete])
  }

  /// animations(on:) lists oldest first, so that a property's `finish` acts on the newest
  /// (grammar.md § Retargeting): A (to 10 over 2 s, delay 500 ms) made at 0, B (to 20 over 2 s) made at
  /// 100 ms. A leaves its delay at 500 ms, after B started; still A is the older: the list
  /// is [A, B] at 1 s, and B is the newest.
  @Test func animationsOnAPropertyAreListedOldestFirst() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(10), duration: 2 * s, delay: 500 * ms), placement: .engine(at: 0))
    try engine.advance(to: 100 * ms)
    let b = try engine.animate(p, with: .tween(to: .number(20), duration: 2 * s), placement: .engine(at: 100 * ms))
    try engine.advance(to: 1 * s)
    #expect(engine.animations(on: p) == [a, b])
  }

  /// A point item at the end of an alternating pass: T (1 s, repeat 2, autoreverse) holds
  /// an emit at 1 s that fires both ways. At 1 s the first pass reaches it (fired forwards)
  /// and the second pass runs back from it, crossing it back at once (as an item ending at
  /// 1 s starts back there): fired reversed at 1 s too, and nothing more by 2 s.
  @Test func aPointAtTheTurnOfAnAlternatingPassIsCrossedBothWays() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards),
      placement: .engineIdle)
    let point = try engine.addCallback(key: 7, to: t, at: 1 * s, firesBackwards: true)
    try engine.play(t)
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    let fired = events.filter { $0.subject == .node(point) }
    #expect(fired.map(\.time) == [1 * s, 1 * s])
    #expect(Set(fired.map(\.isReversed)) == [false, true])
  }

  /// A timeline played from its end puts the playhead past its `set` items (sought past),
  /// and a set masks its timeline's items on the property that start before it, while the
  /// playhead is past it (grammar.md, Control), whether or not they have been reached yet.
  /// T (4 s) holds A (p from 10 to 20 over 2 s, at 1 s) and a set of p to 100 at 2 s; at
  /// speed -1 it is played at 0 from its end: p reads 100 at once. At 1 s the playhead
  /// (at 3 s) reaches A's end, still past the set: A is masked, so p does not leave rest and
  /// still reads 100 at 1.5 s. At 2 s the set is crossed back (p is 0 again, A shows): at
  /// 2.5 s (local 1.5 s, A a quarter through) p reads 12.5.
  @Test func aSetSoughtPastByPlayingFromTheEndMasksTheItemsBeforeIt() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 2 * s, fill: .none),
      placement: .timeline(t, at: 1 * s))
    _ = try engine.addSet(p, to: .number(100), in: t, at: 2 * s)
    try engine.setRate(-1, of: t)
    try engine.play(t)
    try engine.advance(to: 0) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
    try engine.advance(to: 1500 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
    #expect(!events.contains { $0.subject == .property(p) && $0.time < 2 * s })
    try engine.advance(to: 2500 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 12.5)
  }

  /// A set masks its timeline's earlier items only while the playhead is past it
  /// (grammar.md, Control): in the next pass of a repeating timeline the playhead is before
  /// it again. T (2 s, repeat 2) holds A (p from 10 to 20 over 2 s, at 0) and a set of p to
  /// 100 at 500 ms, played at 0. p reads 100 at 1 s (A masked). At 2 s the second pass starts
  /// A again, not masked: p leaves rest there and reads 11.25 at 2.25 s (A an eighth through);
  /// at 2.5 s the set is crossed again and masks A: 100 at 3 s.
  @Test func aSetMasksNothingInTheNextPassBeforeItIsCrossedAgain() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, iterations: 2, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 2 * s, fill: .none), placement: .timeline(t, at: 0))
    _ = try engine.addSet(p, to: .number(100), in: t, at: 500 * ms)
    try engine.play(t)
    try engine.advance(to: 1 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
    events = []
    try engine.advance(to: 2250 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 11.25)
    #expect(events.contains { $0.subject == .property(p) && $0.kind == .start && $0.time == 2 * s })
    try engine.advance(to: 3 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
  }

  /// A standalone animation holds its property from the moment it runs, through its delay
  /// (grammar.md, Events), so finishing it in its delay does not make the property leave
  /// rest again. A (p to 10 over 0 s, delay 500 ms, fill both) runs at 0: p starts there.
  /// Finished at 100 ms: A starts and completes, and p completes, with no second start.
  @Test func finishingAStandaloneAnimationInItsDelayDoesNotStartItsPropertyAgain() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(10), duration: 0, delay: 500 * ms, fill: .both), placement: .engine(at: 0))
    try engine.advance(to: 100 * ms) { _, e in events.append(e) }
    #expect(events.map(\.kind) == [.start])
    events = []
    try engine.finish(a) { _, e in events.append(e) }
    #expect(events.map(\.subject) == [.node(a), .node(a), .property(p)])
    #expect(events.map(\.kind) == [.start, .complete, .complete])
    #expect(number(engine, p) == 10)
  }

  /// `merge replace` drops the property's old animation (grammar.md, Retargeting), also one
  /// still in its delay showing its backwards fill (it is in the property's stack from its
  /// placement). A (p to 10 over 1 s, delay 1 s, fill backwards) placed at 0; B (p to 20 over
  /// 1 s, merge replace) at 500 ms, from 0: p reads 15 at 1.25 s and 20 at 2 s; A never starts,
  /// and p completes at 1.5 s with B.
  @Test func mergeReplaceDropsAnAnimationWaitingWithABackwardsFill() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(10), duration: 1 * s, delay: 1 * s, fill: .backwards), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    let b = try engine.animate(
      p, with: .tween(to: .number(20), duration: 1 * s, composition: .replace), placement: .engine(at: 500 * ms))
    try engine.advance(to: 1250 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 15)
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 20)
    #expect(!events.contains { $0.subject == .node(a) })
    #expect(events.filter { $0.subject == .property(p) }.map(\.time) == [1500 * ms])
    _ = b
  }

  /// An animation that ends keeps its final progress with fill forwards or both and drops
  /// out with none or backwards (grammar.md, Retargeting and Timing: after the end,
  /// `backwards` leaves the base value), also one reversed to its start (going backwards it
  /// completes there). p = 13; A (p from 187 to -6 over 1 s, fill backwards) placed at 0,
  /// reversed at 200 ms, completes at its start at 400 ms: p reads 13 at 500 ms.
  @Test func aBackwardsFillDropsOutWhenReversedToItsStart() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(13))
    let a = try engine.animate(
      p, with: .tween(from: .number(187), to: .number(-6), duration: 1 * s, fill: .backwards), placement: .engine(at: 0)
    )
    try engine.advance(to: 200 * ms)
    try engine.reverse(a)
    try engine.advance(to: 500 * ms)
    #expect(number(engine, p) == 13)
  }

  /// A set sought past masks the earlier items of its timeline also when one of them ran
  /// before and went back to its start (no fill left): grammar.md masks them while the
  /// playhead is past the set. T (4 s) holds A (p from 10 to 20 over 2 s, at 1 s, fill none)
  /// and a set of p to 100 at 2 s. Played at 0, reversed at 1.5 s: A completes at its start at
  /// 2 s, T at its start at 3 s. Played again at 3 s it runs from its end (rate -1), past the
  /// set: at 4 s it reaches A's end still past the set, so p stays at rest and reads 100 at
  /// 4.5 s; the set is crossed back at 5 s, and at 5.5 s (local 1.5 s) p reads 12.5.
  @Test func aSetSoughtPastMasksAnEarlierItemThatWentBackToItsStart() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 2 * s, fill: .none),
      placement: .timeline(t, at: 1 * s))
    _ = try engine.addSet(p, to: .number(100), in: t, at: 2 * s)
    try engine.play(t)
    try engine.advance(to: 1500 * ms)
    try engine.reverse(t)
    try engine.advance(to: 3 * s)
    try engine.play(t)
    try engine.advance(to: 4500 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 100)
    #expect(!events.contains { $0.subject == .property(p) })
    try engine.advance(to: 5500 * ms)
    #expect(number(engine, p) == 12.5)
  }

  /// Rule 6 at the very parent time a boundary falls at: an animation of 1 000 000 001 ns at
  /// rate 3 reaches its end at round(1 000 000 001 / 3) = 333 333 334 ns, where
  /// round(333 333 334 × 3) = 1 000 000 002 overshoots it. Its local time there is the
  /// boundary itself, 1 000 000 001, whichever way its parent moves.
  @Test func theLocalTimeWhereABoundaryFallsIsTheBoundary() {
    let timing = EffectTiming(duration: 1_000_000_001, fill: .forwards)
    let points = EventPoints(timing, hasStarted: true)
    let local = AnimationEngine.corrected(1_000_000_002, at: 333_333_334, start: 0, rate: 3, points: points)
    #expect(local == 1_000_000_001)
  }

  /// Rule 1 with a standalone animation waiting with a backwards fill: p = 9; A (to −139 over
  /// 100 ms, delay 600 ms, fill both) shows its `from`, 9, from 0. At 100 ms B (to 200 over
  /// 300 ms, delay −400 ms) is finished where it is placed: its change, 200 − (−139) = 339,
  /// stays (fill forwards) on A's term, which is 0 until A starts: 9 + 339 = 348. At 650 ms A
  /// is halfway: 9 − 148/2 + 339 = 274; at 700 ms it ends, and p rests at B's target, 200.
  @Test func aChangeLeftAboveAnAnimationWaitingWithABackwardsFillShows() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(9))
    _ = try engine.animate(
      p, with: .tween(to: .number(-139), duration: 100 * ms, delay: 600 * ms, fill: .both), placement: .engine(at: 0))
    try engine.advance(to: 100 * ms)
    #expect(number(engine, p) == 9)
    _ = try engine.animate(
      p, with: .tween(to: .number(200), duration: 300 * ms, delay: -400 * ms), placement: .engine(at: 100 * ms))
    try engine.advance(to: 100 * ms)
    #expect(number(engine, p) == 348)
    try engine.advance(to: 650 * ms)
    #expect(number(engine, p) == 274)
    try engine.advance(to: 800 * ms)
    #expect(number(engine, p) == 200)
  }

  /// An item that ends at its start (its timeline reversed) with fill backwards drops out
  /// (grammar.md: backwards leaves the base value after the end) and no longer shows its
  /// `from`: p = 46; T (5 s) holds A at 0 (−196 → −31 over 1 s, fill backwards). Played at 0
  /// and set to rate −1 at 500 ms, T is back at its start at 1 s: A ends reversed there, T
  /// completes, and p is 46.
  @Test func anItemEndedAtItsStartNoLongerShowsItsBackwardsFill() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(46))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 5 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(from: .number(-196), to: .number(-31), duration: 1 * s, fill: .backwards),
      placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 500 * ms)
    #expect(number(engine, p) == -113.5)
    try engine.setRate(-1, of: t)
    try engine.advance(to: 1500 * ms)
    #expect(number(engine, p) == 46)
  }

  /// A replacing animation (an explicit `from`) takes the property over each time it starts:
  /// p = 0; T (1 s, 2 passes, alternate) holds K at 0 (to 100 over 1 s, fill none) and Z at
  /// 1 s (−157 → −2 over 0 s). At T's turn (1 s), in time order (grammar.md § Events), K ends
  /// and Z is crossed forwards at the end of pass 1 (it takes p over, −2), then Z is crossed
  /// back at the start of pass 2 (ended at its start, its forwards fill leaves −157) and K
  /// starts back, alone in a stack of its own with the values it settled: 50 at 1.5 s. p
  /// completes at 2 s, where K ends at its start. (Before the turn went in time order, Z's
  /// forward crossing came last and p read −2.)
  @Test func aReplacingItemThatStartsAgainTakesThePropertyOverAgain() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, fill: .none), placement: .timeline(t, at: 0))
    _ = try engine.animate(
      p, with: .tween(from: .number(-157), to: .number(-2), duration: 0), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 1500 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 50)
    #expect(!events.contains { $0.subject == .property(p) && $0.kind == .complete })
    try engine.advance(to: 2500 * ms) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .property(p) && $0.kind == .complete }.map(\.time) == [2 * s])
  }

  /// Rule 1's previous target when a member dropped out: p = 0; A (to 100 over 4 s), B (to 150
  /// over 1 s, fill none: Δ 50) at 0, D (to 120 over 100 ms at 500 ms: Δ −30, kept). At 1 s B
  /// ends and its term drops out. At 2 s C (to 300 over 1 s) adds from where the stack is
  /// heading, 0 + 100 − 30 = 70 (B left out): Δ 230. At 2.5 s: 62.5 − 30 + 115 = 147.5; at 4 s
  /// p rests at C's target, 300.
  @Test func aNewAnimationAddsFromWhereTheStackIsHeadingWithoutADroppedMember() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 4 * s), placement: .engine(at: 0))
    _ = try engine.animate(p, with: .tween(to: .number(150), duration: 1 * s, fill: .none), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    _ = try engine.animate(p, with: .tween(to: .number(120), duration: 100 * ms), placement: .engine(at: 500 * ms))
    try engine.advance(to: 2 * s)
    _ = try engine.animate(p, with: .tween(to: .number(300), duration: 1 * s), placement: .engine(at: 2 * s))
    try engine.advance(to: 2500 * ms)
    #expect(abs(number(engine, p) - 147.5) < 1e-9)
    try engine.advance(to: 5 * s)
    #expect(number(engine, p) == 300)
  }

  /// A backwards fill with a negative delay that skips the whole animation: an item A at
  /// 500 ms in T (0 to 100 over 200 ms, delay −300 ms, fill both) waits for T to reach it.
  /// Web Animations' before-phase active time max(local − delay, 0) would be 250 ms at T's
  /// 450 ms, past A's 200 ms; it stops at the end, so A shows 100 there (as it will when
  /// placed, finished), and 50 at T's 250 ms (local −250 ms: 50 ms into it, a quarter).
  @Test func aNegativeDelayThatSkipsAnItemShowsItsEndWhileItWaits() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(from: .number(0), to: .number(100), duration: 200 * ms, delay: -300 * ms, fill: .both),
      placement: .timeline(t, at: 500 * ms))
    try engine.play(t)
    try engine.advance(to: 250 * ms)
    #expect(number(engine, p) == 25)
    try engine.advance(to: 450 * ms)
    #expect(number(engine, p) == 100)
  }

  /// Each new pass of a repeating timeline shows its items' backwards fills again, also when
  /// another item took the property over in the pass before: p = 16; T (1 s, 2 passes) holds
  /// A at 400 ms (30 → 90 over 200 ms, fill backwards) and B at 700 ms (to 77 over 100 ms).
  /// In pass 0 A shows 30 until 400 ms, runs, and drops out at 600 ms (backwards: 16); B
  /// takes p from 16 to 77. In pass 1 (from 1 s) A waits again: 30 at 1.2 s; at 1.9 s,
  /// after B again, 77.
  @Test func aNewPassShowsBackwardsFillsAgain() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(16))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(from: .number(30), to: .number(90), duration: 200 * ms, fill: .backwards),
      placement: .timeline(t, at: 400 * ms))
    _ = try engine.animate(p, with: .tween(to: .number(77), duration: 100 * ms), placement: .timeline(t, at: 700 * ms))
    try engine.play(t)
    try engine.advance(to: 200 * ms)
    #expect(number(engine, p) == 30)
    try engine.advance(to: 650 * ms)
    #expect(number(engine, p) == 16)
    try engine.advance(to: 900 * ms)
    #expect(number(engine, p) == 77)
    try engine.advance(to: 1200 * ms)
    #expect(number(engine, p) == 30)
    try engine.advance(to: 1900 * ms)
    #expect(number(engine, p) == 77)
  }

  /// `cancel` keeps what shows: p = 21; T (5 s) holds A at 500 ms (108 → 105, fill
  /// backwards), which shows 108 from T's play. Cancelled at 125 ms, p keeps 108.
  @Test func cancelKeepsTheValueABackwardsFillShows() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(21))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 5 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(from: .number(108), to: .number(105), duration: 800 * ms, fill: .backwards),
      placement: .timeline(t, at: 500 * ms))
    try engine.play(t)
    try engine.advance(to: 125 * ms)
    #expect(number(engine, p) == 108)
    try engine.cancel(t)
    try engine.advance(to: 200 * ms)
    #expect(number(engine, p) == 108)
  }

  /// An emit at the end of an alternating timeline's first pass is crossed forwards at the
  /// end of that pass and backwards at the start of the next, in that order (the order the
  /// playhead crossed them): T (1 s, 2 passes, alternate) with a callback at 1 s that fires
  /// both ways.
  @Test func aCallbackAtTheTurnFiresForwardsThenBackwards() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards))
    let c = try engine.addCallback(key: 7, to: t, at: 1 * s, firesBackwards: true)
    try engine.play(t)
    try engine.advance(to: 1500 * ms) { _, e in events.append(e) }
    let fired = events.filter { $0.subject == .node(c) }
    #expect(fired.map(\.time) == [1 * s, 1 * s])
    #expect(fired.map(\.isReversed) == [false, true])
  }

  /// At an alternating turn, in time order (grammar.md § Events): p = 29; T (1 s, 2 passes,
  /// alternate) holds A at 0 (77 → −66 over 1 s) and B at 1 s (to −133 over 0 s). At the
  /// turn (1 s) A ends forwards (its stack is over: −66) and B is crossed forwards (a stack
  /// of its own from −66, ending at −133); then, at the start of pass 2, B is crossed back
  /// (ended at its start, its forwards fill leaves its start value, −66) and A starts back,
  /// replacing by itself (an explicit `from`) with the values it settled. A runs back to its
  /// start and ends there reversed at 2 s, leaving its start value: 77. (Before the turn went
  /// in time order, B's forward crossing came last and added to A: 10.)
  @Test func anItemCrossedForwardsThenBackAtATurnLeavesItsStartValue() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(29))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(from: .number(77), to: .number(-66), duration: 1 * s), placement: .timeline(t, at: 0))
    _ = try engine.animate(p, with: .tween(to: .number(-133), duration: 0), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 2500 * ms)
    #expect(number(engine, p) == 77)
  }

  /// An item that ended shows no backwards fill when its timeline turns around while paused
  /// there: p = −23; T (678 ms, speed 1.5) holds Z at its end (−121 → −166 over 0 s, fill
  /// both). T ends at 452 ms, Z crossed there: −166. Paused at 1.206 s and set to rate −1 at
  /// 1.28 s, nothing moves: −166 (Z is not waiting for its start).
  @Test func anEndedItemShowsNoBackwardsFillWhenItsTimelineTurnsWhilePaused() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(-23))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 678 * ms, fill: .forwards), rate: 1.5)
    _ = try engine.animate(
      p, with: .tween(from: .number(-121), to: .number(-166), duration: 0, fill: .both),
      placement: .timeline(t, at: 678 * ms))
    try engine.play(t)
    try engine.advance(to: 1206 * ms)
    #expect(number(engine, p) == -166)
    try engine.pause(t)
    try engine.advance(to: 1280 * ms)
    try engine.setRate(-1, of: t)
    try engine.advance(to: 1300 * ms)
    #expect(number(engine, p) == -166)
  }

  /// `finish` on a standalone animation reversed before it started does nothing: p = −48;
  /// A (139 → 43 over 0 s, delay 173 ms, fill both, speed 0.5) placed at 182 ms shows 139
  /// while it waits; reversed at 383 ms (100.5 ms into its own time), it goes back toward
  /// where it began. Finished at 500 ms: nothing fires and p still shows 139. It gets back
  /// there at 383 ms + round(100.5 ms / 0.5) = 584 ms and completes (grammar.md § Control),
  /// leaving its `from` (fill both): 139.
  @Test func finishingAnAnimationReversedInItsDelayDoesNothing() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(-48))
    try engine.advance(to: 182 * ms)
    let a = try engine.animate(
      p, with: .tween(from: .number(139), to: .number(43), duration: 0, delay: 173 * ms, fill: .both, rate: 0.5),
      placement: .engine(at: 182 * ms))
    try engine.advance(to: 383 * ms)
    #expect(number(engine, p) == 139)
    try engine.reverse(a)
    try engine.advance(to: 500 * ms) { _, e in events.append(e) }
    try engine.finish(a) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(a) }.isEmpty)
    #expect(number(engine, p) == 139)
    try engine.advance(to: 1547 * ms) { _, e in events.append(e) }
    #expect(events.filter { $0.subject == .node(a) }.map(\.time) == [584 * ms])
    #expect(number(engine, p) == 139)
  }

  /// A set made ready again by a new pass still puts back what it recorded in the pass
  /// before: p = 32; T (1 s, 2 passes) holds `set p to 4` at 500 ms. Played at 0: 4 from
  /// 500 ms. Reversed at 1.2 s (pass 1 at 200 ms), T goes back into pass 0 at 1.4 s and
  /// crosses the set back at 1.9 s (pass 0 at 500 ms): 4 at 1.5 s, 32 at 2 s.
  @Test func aSetReadyAgainInANewPassPutsBackWhatItRecordedBefore() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(32))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    _ = try engine.addSet(p, to: .number(4), in: t, at: 500 * ms)
    try engine.play(t)
    try engine.advance(to: 1200 * ms)
    #expect(number(engine, p) == 4)
    try engine.reverse(t)
    try engine.advance(to: 1500 * ms)
    #expect(number(engine, p) == 4)
    try engine.advance(to: 2 * s)
    #expect(number(engine, p) == 32)
  }

  /// A set sought past masks an earlier item that had ended at its start: p = 0; T (1 s)
  /// holds A at 100 ms (0 → 100 over 600 ms) and `set p to 50` at 500 ms. Played at 0 and
  /// reversed at 200 ms, T is back at 0 at 400 ms (A ended reversed at 300 ms: 0). `play`
  /// at 500 ms plays it again from its end (rate −1): the set is sought past (50, recording
  /// 0) and masks A. A's end, crossed back at 800 ms, is silent (p does not leave rest);
  /// the set, crossed back at 1 s, puts 0 back and A shows again: at 1.1 s (T at 400 ms,
  /// A at half) 50.
  @Test func aSetSoughtPastMasksAnItemThatEndedAtItsStart() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 600 * ms), placement: .timeline(t, at: 100 * ms))
    _ = try engine.addSet(p, to: .number(50), in: t, at: 500 * ms)
    try engine.play(t)
    try engine.advance(to: 200 * ms)
    try engine.reverse(t)
    try engine.advance(to: 500 * ms)
    #expect(number(engine, p) == 0)
    try engine.play(t)
    try engine.advance(to: 900 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 50)
    #expect(!events.contains { $0.subject == .property(p) })
    try engine.advance(to: 1100 * ms) { _, e in events.append(e) }
    #expect(abs(number(engine, p) - 50) < 1e-9)
  }

  /// `play` on a paused timeline resumes it; only a start (or a start again) shows its items'
  /// backwards fills. p = 0; T (2 s) holds A at 0 (from 30 to 90 over 1 s, fill backwards).
  /// Played at 0 and reversed at 500 ms (A at 30 + 60 · 0.5 = 60), T is back at its start at 1 s: A ended at
  /// its start, and a backwards fill leaves nothing after the end (p 0). Paused at 1.5 s and
  /// played at 2 s, it goes on from where it stopped, at its start going backwards: nothing
  /// is crossed, A stays ended, p stays 0 (A's `from`, 30, would be the before phase of a
  /// pass being entered, and none is).
  @Test func playOnAPausedTimelineDoesNotShowBackwardsFillsAgain() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards))
    _ = try engine.animate(
      p,
      with: Animation(
        shape: .tween(from: .number(30), to: .number(90), curve: .linear),
        timing: EffectTiming(duration: 1 * s, fill: .backwards)), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 500 * ms)
    #expect(abs(number(engine, p) - 60) < 1e-9)
    try engine.reverse(t)
    try engine.advance(to: 1500 * ms)
    #expect(number(engine, p) == 0)
    try engine.pause(t)
    try engine.advance(to: 2 * s)
    try engine.play(t)
    try engine.advance(to: 2 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 0)
    #expect(events.isEmpty)
    try engine.advance(to: 3 * s) { _, e in events.append(e) }
    #expect(number(engine, p) == 0)
  }

  /// Rules 2 and 3: an animation that fills backwards, placed with a negative delay and paused
  /// at once, shows its value part-way although it has not started. p = 0; at 1 s `animate p
  /// to 100 over 2 s delay −500 ms fill backwards` (linear), paused at once: its from (0)
  /// resolves at placement and it stands 500 ms in: 0 + 100 · 0.25 = 25, at 1 s and still at
  /// 2 s. Resumed at 2 s, it is 1 s in at 2.5 s: 50.
  @Test func aNegativeDelayPausedAtPlacementShowsItsValuePartWay() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    try engine.advance(to: 1 * s)
    let a = try engine.animate(
      p,
      with: Animation(
        shape: .tween(from: nil, to: .number(100), curve: .linear),
        timing: EffectTiming(delay: -500 * ms, duration: 2 * s, fill: .backwards)), placement: .engine(at: 1 * s))
    try engine.pause(a)
    try engine.advance(to: 1 * s)
    #expect(abs(number(engine, p) - 25) < 1e-9)
    try engine.advance(to: 2 * s)
    #expect(abs(number(engine, p) - 25) < 1e-9)
    try engine.resume(a)
    try engine.advance(to: 2500 * ms)
    #expect(abs(number(engine, p) - 50) < 1e-9)
  }

  /// Turning back at a point just reached (grammar.md § Events: events fire when the playhead crosses
  /// them, in its direction of travel): a standalone animation reversed at the instant it
  /// starts is at its start going backwards, so it completes there at once. p = 0; at 500 ms
  /// `animate p to 100 over 1 s`, reversed at 500 ms: `start` then `complete` reversed, both
  /// at 500 ms; it is over (fill forwards, ended at its start: 0).
  @Test func reversedAtTheInstantItStartsItCompletesThereAtOnce() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    try engine.advance(to: 500 * ms)
    let a = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .engine(at: 500 * ms))
    try engine.advance(to: 500 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.reverse(a)
    try engine.advance(to: 600 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(a).map(\.0) == [500 * ms, 500 * ms])
    #expect(recorder.nodeEvents(a).map(\.1) == [.start, .complete])
    #expect(number(engine, p) == 0)
    #expect(engine.animations(on: p).isEmpty)
  }

  /// The same inside a timeline: T (2 s) holds A at 200 ms (to 100 over 1 s). Played at 0 and
  /// reversed at 500 ms, T is back at 200 ms at 800 ms: A completes reversed there (0).
  /// Reversed again at 800 ms, T goes forwards from A's start: A starts again at once, at
  /// 800 ms, and at 900 ms it is 100 ms in: 10.
  @Test func anItemTurnedBackAtItsStartStartsAgainAtOnce() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s), placement: .timeline(t, at: 200 * ms))
    try engine.play(t)
    try engine.advance(to: 500 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.reverse(t)
    try engine.advance(to: 800 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == 0)
    try engine.reverse(t)
    try engine.advance(to: 900 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(a).map(\.0) == [200 * ms, 800 * ms, 800 * ms])
    #expect(recorder.nodeEvents(a).map(\.1) == [.start, .complete, .start])
    #expect(abs(number(engine, p) - 10) < 1e-9)
  }

  /// Sought back from the instant a group and its item started: T (1 s) holds G at 200 ms, G
  /// holds A (from 87 to 10 over 300 ms). Played at 0, G and A start at 200 ms; `seek T to
  /// 100ms` there takes A back before its start, which leaves its start value, 87 (grammar.md:
  /// "sought back before an item, the item leaves its start value as reversing there does"),
  /// silently; at 250 ms (T at 150 ms) p is still 87, and at 400 ms (T at 300 ms, A 100 ms in)
  /// 87 − 77/3.
  @Test func aSeekBackFromTheInstantAGroupStartedTakesItsItemsBack() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards))
    let g = try engine.addTimeline(
      timing: EffectTiming(duration: 300 * ms, fill: .forwards), placement: .timeline(t, at: 200 * ms))
    _ = try engine.animate(
      p,
      with: Animation(
        shape: .tween(from: .number(87), to: .number(10), curve: .linear),
        timing: EffectTiming(duration: 300 * ms, fill: .forwards)), placement: .timeline(g, at: 0))
    try engine.play(t)
    try engine.advance(to: 200 * ms)
    try engine.seek(t, to: 100 * ms) { _, e in events.append(e) }
    try engine.advance(to: 250 * ms) { _, e in events.append(e) }
    #expect(number(engine, p) == 87)
    #expect(events.isEmpty)
    try engine.advance(to: 400 * ms)
    #expect(abs(number(engine, p) - (87 - 77.0 / 3)) < 1e-9)
  }

  /// A property's `start` and `complete` are its own rest: an animation placed and finished at
  /// one instant makes its property leave rest and come back to it there. p = 0; at 500 ms
  /// `animate p to 2 over 1.28 s` (fill forwards), `finish` at once: `complete` of the
  /// animation, then p's `start` and p's `complete`, all at 500 ms (a `complete` of p without
  /// its `start` was all it fired); p is 2.
  @Test func anAnimationFinishedWhereItIsPlacedFiresItsPropertysStartFirst() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    try engine.advance(to: 500 * ms)
    let a = try engine.animate(
      p, with: .tween(to: .number(2), duration: 1_280 * ms, fill: .forwards), placement: .engine(at: 500 * ms))
    try engine.finish(a) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.advance(to: 600 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.events.map(\.0) == [500 * ms, 500 * ms, 500 * ms])
    #expect(recorder.events.map(\.1) == [.complete, .start, .complete])
    #expect(recorder.events.map(\.2) == [.node(a), .property(p), .property(p)])
    #expect(number(engine, p) == 2)
  }

  /// A seek is silent, and where it lands the playhead stands as it plays on: T (13 s) holds A
  /// at 0 (to 100 over 2 s, fill forwards). Played at 0, A ends at 2 s; at 3 s, `seek T to 0s`
  /// (T playing forwards): T and A stand at their starts, already started, so nothing fires
  /// as T moves on; A's next event is its end, at 5 s. At 4 s A is 1 s in: 50 (from 0: its
  /// values are those it settled when it started).
  @Test func aSeekBackToAStartFiresNoStartAsItPlaysOn() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 13 * s, fill: .forwards))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 2 * s, fill: .forwards), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 3 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.seek(t, to: 0) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.advance(to: 4 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(abs(number(engine, p) - 50) < 1e-9)
    try engine.advance(to: 6 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(a).map(\.0) == [0, 2 * s, 5 * s])
    #expect(recorder.nodeEvents(a).map(\.1) == [.start, .complete, .complete])
    #expect(recorder.nodeEvents(t).map(\.0) == [0])
  }

  /// A seek settles what it passes as playing there would, in time order, through every pass
  /// between (grammar.md § Control). T (1 s, `repeat 2 autoreverse`) holds A (from 0 to 100
  /// over 1 s, linear, fill both). Played at 0, T ends at 2 s, A back at its start. At 3 s
  /// `seek T to 400ms` goes back through pass 2 (A forwards from its start to its end,
  /// completing there) and into pass 1 at its end (A entering backwards from its end): A is
  /// active, 400 ms in: 40. (Seed 2001787 found the oracle applying A's `complete` at the
  /// pass boundary after its `start` there, leaving the base value 100.)
  @Test func aSeekBackThroughTheTurnOfAnAlternatingTimelineLeavesItsItemActive() throws {
    var engine = AnimationEngine()
    var events: [EngineEvent] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, fill: .both), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 3 * s)
    #expect(number(engine, p) == 0)
    try engine.seek(t, to: 400 * ms) { _, e in events.append(e) }
    try engine.advance(to: 3 * s) { _, e in events.append(e) }
    #expect(events.isEmpty)
    #expect(abs(number(engine, p) - 40) < 1e-9)
  }

  /// An item past its end has no term with fill backwards (rule 1: it drops out), also when
  /// its timeline gets there going backwards. T (1 s, `repeat 2`) holds A at 500 ms (to 100
  /// over 200 ms, fill backwards) and B at 900 ms (to 50 over 100 ms, fill none); p = 0.
  /// Played at 0: in pass 2 A waits again, showing its `from`, 0. `reverse T` at 1.2 s takes
  /// T back over the pass boundary at 1.4 s into pass 1 from its end, where A is past its end
  /// and B enters from its end, alone on p: from 0, at 1.45 s half-way back, 25 (seed
  /// 2007869, where the oracle was wrong).
  @Test func anItemWaitingWithABackwardsFillDropsOutWhenItsTimelineGoesBackIntoThePassBefore() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(100), duration: 200 * ms, fill: .backwards), placement: .timeline(t, at: 500 * ms))
    _ = try engine.animate(
      p, with: .tween(to: .number(50), duration: 100 * ms, fill: .none), placement: .timeline(t, at: 900 * ms))
    try engine.play(t)
    try engine.advance(to: 1_100 * ms)
    #expect(number(engine, p) == 0)
    try engine.advance(to: 1_200 * ms)
    try engine.reverse(t)
    try engine.advance(to: 1_450 * ms)
    #expect(abs(number(engine, p) - 25) < 1e-9)
  }

  /// `cancel` keeps the current value as the base value (grammar.md § Control), however many
  /// animations of the timeline it stops are stacked on the property. T (2 s) holds A (to 100
  /// over 1 s) and B (to 50 over 2 s), both at 0, linear; p = 0. At 500 ms A has brought 100 ·
  /// 0.5 = 50 and B −50 · 0.25 = −12.5 (rule 1: Δ = 50 − 100): 37.5, which `cancel T` there
  /// keeps, also at 600 ms (seeds 2037532, 1024646, where the oracle was wrong).
  @Test func cancellingATimelineKeepsTheValueOfItsWholeStack() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .timeline(t, at: 0))
    _ = try engine.animate(p, with: .tween(to: .number(50), duration: 2 * s), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 500 * ms)
    #expect(abs(number(engine, p) - 37.5) < 1e-9)
    try engine.cancel(t)
    try engine.advance(to: 600 * ms)
    #expect(abs(number(engine, p) - 37.5) < 1e-9)
    #expect(engine.baseValue(of: p) == .number(number(engine, p)))
  }

  /// Rule 10: a percent position is the nanosecond round(p / 100 · duration), halves up. 35 %
  /// of 1 424 667 230 ns is 498 633 530.5 exactly, so the keyframe is at 498 633 531 (the
  /// Double 0.35 times the duration gives 498 633 530.49999994, which rounded down). Keyframes
  /// 0 % → 0, 35 % → 100, 100 % → 100, linear: at 498 633 530 ns the first segment is at
  /// 498 633 530 / 498 633 531 of its way, not at its end (seed 1016301).
  @Test func aPercentPositionThatIsAHalfNanosecondRoundsUp() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let frames = [
      Keyframe(offset: 0, value: .number(0)), Keyframe(offset: 0.35, value: .number(100)),
      Keyframe(offset: 1, value: .number(100)),
    ]
    _ = try engine.animate(
      p, with: Animation(shape: .keyframes(frames), timing: EffectTiming(duration: 1_424_667_230)),
      placement: .engine(at: 0))
    try engine.advance(to: 498_633_530)
    #expect(abs(number(engine, p) - 100 * 498_633_530 / 498_633_531) < 1e-12)
    try engine.advance(to: 498_633_531)
    #expect(number(engine, p) == 100)
  }

  /// A backwards pass is the mirror of a forwards one, to the nanosecond. Keyframes 0 % → 0,
  /// 100 % → 1 000 000 001 (the value is the pass's time in ns) over 1 000 000 001 ns, 1.5
  /// passes, autoreverse: the active duration is round(1 500 000 001.5) = 1 500 000 002 ns,
  /// so the last pass, backwards, ends 500 000 001 ns into itself, at its time
  /// 1 000 000 001 − 500 000 001 = 500 000 000 (rule 10: t a whole nanosecond): the value at
  /// the end and after it (fill forwards) is 500 000 000. (Rounding the mirrored progress 0.5
  /// gave 500 000 001; seeds 2006456, 2013069.)
  @Test func theEndOfAFractionalBackwardsPassIsTheMirrorOfItsTime() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let d: Nanoseconds = 1_000_000_001
    let frames = [Keyframe(offset: 0, value: .number(0)), Keyframe(offset: 1, value: .number(Double(d)))]
    let timing = EffectTiming(duration: d, iterations: 1.5, direction: .alternate, fill: .forwards)
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * d, fill: .forwards))
    _ = try engine.animate(
      p, with: Animation(shape: .keyframes(frames), timing: timing), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 1_500_000_002)
    #expect(number(engine, p) == 500_000_000)
    try engine.advance(to: 1_600_000_000)
    #expect(number(engine, p) == 500_000_000)
  }

  /// Going backwards, starts go in reversed item order, and what lies at a pass's start
  /// before what lies at the end of the pass before (grammar.md § Events: the order the
  /// playhead crosses them). T (1 s, `repeat 2`) holds A at 600 ms (over
  /// 400 ms, so it ends with the pass) and then B at 0 (over 0 s). Played at 0 and reversed
  /// at 1.5 s (pass 2, 500 ms in, before A), T is back on its pass boundary at 2 s: B, at
  /// the start of pass 2, starts and completes backwards; T repeats; A, at the end of pass 1,
  /// starts backwards. In order: T's repeat, then the starts, B (later in item order, with
  /// its own complete) before A. (Reversing the crossing order put A first; seed 2001302.)
  @Test func backwardsStartsAtAPassBoundaryGoInReversedItemOrder() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let q = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 400 * ms), placement: .timeline(t, at: 600 * ms))
    let b = try engine.animate(q, with: .tween(to: .number(100), duration: 0), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 1_500 * ms)
    try engine.reverse(t)
    try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    let nodeEvents = recorder.events.filter { if case .node = $0.2 { true } else { false } }
    #expect(nodeEvents.map(\.0) == [2 * s, 2 * s, 2 * s, 2 * s])
    #expect(nodeEvents.map(\.1) == [.repeat, .start, .complete, .start])
    #expect(nodeEvents.map(\.2) == [.node(t), .node(b), .node(b), .node(a)])
  }

  /// A seek settles what it passes as playing there would, through two levels of rates
  /// (rule 6). T (3 s) holds G at 561 ms (speed 3), G holds H at 703 333 333 ns (speed
  /// 0.5), H holds A at 0 (from 0 to 100 over 1 s, fill none); p = 50. `seek T to 1s` from
  /// its start: G is at (1 s − 561 ms) · 3 = 1 317 000 000, H at (1 317 000 000 −
  /// 703 333 333) · 0.5 = 306 833 333.5, rounded to a nanosecond either way: A active,
  /// 100 · 0.3068333335 ± 10⁻⁷ (seed 100213 found the oracle missing H's start on the way).
  @Test func aSeekPastAGrandchildsStartThroughTwoRatesStartsIt() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(50))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    let g = try engine.addTimeline(
      timing: EffectTiming(duration: 5 * s, fill: .forwards), rate: 3, placement: .timeline(t, at: 561 * ms))
    let h = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, fill: .forwards), rate: 0.5, placement: .timeline(g, at: 703_333_333))
    _ = try engine.animate(
      p,
      with: Animation(
        shape: .tween(from: .number(0), to: .number(100), curve: .linear),
        timing: EffectTiming(duration: 1 * s, fill: .none)), placement: .timeline(h, at: 0))
    try engine.advance(to: 10)
    try engine.seek(t, to: 1 * s)
    try engine.advance(to: 10)
    #expect(abs(number(engine, p) - 30.68333335) <= 1e-7 + 1e-12)
  }

  /// An item that ends at its start going backwards leaves its start value with a forwards
  /// fill (grammar.md: the value where it ended, in the direction of travel, becomes the base
  /// value), also when its timeline crosses a pass boundary there at the same instant. T (1
  /// s, `repeat 2`) holds A at 0 (from 66 to 37 over 100 ms); p = 0. Played at 0 and
  /// reversed at 1.5 s, A starts back at 1.9 s and ends at its start at 2 s, where T goes
  /// back into pass 1: p is 66, also at 2.1 s (seed 3004475, where the oracle was wrong).
  @Test func anItemEndingAtItsStartAsItsTimelineGoesBackAPassKeepsItsStartValue() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    _ = try engine.animate(
      p,
      with: Animation(
        shape: .tween(from: .number(66), to: .number(37), curve: .linear),
        timing: EffectTiming(duration: 100 * ms, fill: .forwards)), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 1_500 * ms)
    try engine.reverse(t)
    try engine.advance(to: 2 * s)
    #expect(number(engine, p) == 66)
    try engine.advance(to: 2_100 * ms)
    #expect(number(engine, p) == 66)
  }

  /// `cancel` keeps the current value as the base value, whatever order the animations it
  /// ends are ended in. p = 0. A is placed at 0 with a delay of 250 ms (to 0 over 1 s); B at
  /// 10 ms (`merge replace`, to 100 over 1 s) takes p over at once. At 250 ms A starts,
  /// adding to B: Δ = 0 − 100 (rule 1). At 510 ms B shows 100 · 0.5 = 50 and A adds −100 ·
  /// 0.26 = −26: 24. Cancelling A (the older) and then B keeps 24. (A's change went into
  /// the base value while B replaced it, and ending B then made the base B's value: 50; seed
  /// 3009423.)
  @Test func cancellingAnAdditiveAnimationAboveAReplacingOneKeepsItsChange() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(0), duration: 1 * s, delay: 250 * ms), placement: .engine(at: 0))
    try engine.advance(to: 10 * ms)
    var replace = Animation.tween(to: .number(100), duration: 1 * s)
    replace.composition = .replace
    let b = try engine.animate(p, with: replace, placement: .engine(at: 10 * ms))
    try engine.advance(to: 510 * ms)
    #expect(abs(number(engine, p) - 24) < 1e-9)
    try engine.cancel(a)
    try engine.cancel(b)
    try engine.advance(to: 600 * ms)
    #expect(abs(number(engine, p) - 24) < 1e-9)
    #expect(engine.animations(on: p).isEmpty)
  }

  /// A property that leaves rest by an operation fires its `start` behind the node events of
  /// its instant, the starts of animations due then included, even when an operation at that
  /// instant fires events of its own first. p = 0, T an empty timeline (1 s), never played.
  /// At 500 ms `animate p to 1 over 1s` (A), then `finish T`: `complete T` at once, then A's
  /// `start` and then p's (seed 3026879, where the oracle was wrong).
  @Test func aPropertyLeavingRestStartsBehindTheAnimationsOfItsInstantAfterAFinish() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards))
    try engine.advance(to: 500 * ms)
    let a = try engine.animate(p, with: .tween(to: .number(1), duration: 1 * s), placement: .engine(at: 500 * ms))
    try engine.finish(t) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    try engine.advance(to: 500 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.events.map(\.0) == [500 * ms, 500 * ms, 500 * ms])
    #expect(recorder.events.map(\.1) == [.complete, .start, .start])
    #expect(recorder.events.map(\.2) == [.node(t), .node(a), .property(p)])
  }

  /// `from` is settled once (when its timeline is played, for an item that fills
  /// backwards), and a replay reuses it (grammar.md § Declarations and animations). p = 0;
  /// T (5 s) holds A at 1 s: to 100 over 1 s, delay −500 ms, fill backwards. Played at 0, A
  /// waits showing the value max(local − delay, 0) into it: at 600 ms its local time is
  /// −400 ms, 100 ms in, 10 (from 0). `cancel T` there keeps 10 as p's base value; `play T`
  /// at 700 ms starts T over: A, 0 ms in, shows its `from`, still 0 (not the 10 p holds
  /// now); at 1.9 s (T at 1.2 s, A 700 ms in) 70. (Seed 4015403: a replay settled `from`
  /// again from the base value the cancel left.)
  @Test func aReplayedTimelineKeepsTheFromItsWaitingItemSettledFirst() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 5 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, delay: -500 * ms, fill: .backwards),
      placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 600 * ms)
    #expect(abs(number(engine, p) - 10) < 1e-9)
    try engine.cancel(t)
    try engine.advance(to: 700 * ms)
    #expect(abs(number(engine, p) - 10) < 1e-9)
    try engine.play(t)
    try engine.advance(to: 700 * ms)
    #expect(number(engine, p) == 0)
    try engine.advance(to: 1_900 * ms)
    #expect(abs(number(engine, p) - 70) < 1e-9)
  }

  /// A `set` masks its timeline's earlier items on its property for as long as the playhead
  /// is past it (grammar.md § Control), also when the playhead gets there going back over a
  /// pass boundary into the pass before, from its end. p = 0; T (1 s, `repeat 2`) holds A at
  /// 400 ms (to 100 over 200 ms, linear, fill both) and `set p to -11` at 500 ms. Played at
  /// 0: in pass 1 A starts at 400 ms and the `set`, at 500 ms, records 50 and masks A (−11).
  /// `reverse T` at 1.2 s takes T back over the boundary at 1.4 s into pass 1 from its end:
  /// at 1.5 s (900 ms into it) the playhead is past the `set`, so A is masked, as it was there
  /// going forwards: −11; at 1.8 s A is entered from its end, silent (p does not leave rest);
  /// at 1.9 s the `set` is crossed back, 50 goes back and A shows again: at 1.95 s (450 ms
  /// into the pass) 25. (Seed 4001872: A, unmasked by the new pass, fired p's `start` at
  /// 1.8 s.)
  @Test func aSetMasksAgainWhenItsTimelineGoesBackIntoThePassBefore() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 200 * ms, fill: .both), placement: .timeline(t, at: 400 * ms))
    _ = try engine.addSet(p, to: .number(-11), in: t, at: 500 * ms)
    try engine.play(t)
    try engine.advance(to: 900 * ms)
    #expect(number(engine, p) == -11)
    try engine.advance(to: 1_200 * ms)
    try engine.reverse(t)
    try engine.advance(to: 1_500 * ms)
    #expect(number(engine, p) == -11)
    try engine.advance(to: 1_850 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(a).map(\.0) == [1_800 * ms])
    #expect(!recorder.events.contains { $0.2 == .property(p) })
    #expect(number(engine, p) == -11)
    try engine.advance(to: 1_950 * ms)
    #expect(abs(number(engine, p) - 25) < 1e-9)
  }

  /// Played again from its end (its rate negative), a timeline is sought past its `set`
  /// items afresh (grammar.md § Control): each puts back what it recorded, then records the
  /// value now and applies. p = 27; T (6 s) holds `set p to 10` at 100 ms and A at 200 ms (to
  /// −178 over 200 ms, linear). Played at 0: at 100 ms the `set` records 27 and sets 10; A
  /// runs from 10 and leaves −178. `reverse T` at 1 s, `cancel T` at 1.5 s (T at 500 ms,
  /// past A's end) keeps −178. `play T` at 2 s starts T over from its end: the `set` puts 27
  /// back and applies again, 10; A, past its end, has not run and shows nothing: 10. (Seed
  /// 4001562: the `set`, still applied from the first run, was not applied again: −178.)
  @Test func aTimelinePlayedAgainFromItsEndAppliesItsSetsAfresh() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(27))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 6 * s, fill: .forwards))
    _ = try engine.addSet(p, to: .number(10), in: t, at: 100 * ms)
    _ = try engine.animate(
      p, with: .tween(to: .number(-178), duration: 200 * ms), placement: .timeline(t, at: 200 * ms))
    try engine.play(t)
    try engine.advance(to: 1 * s)
    #expect(number(engine, p) == -178)
    try engine.reverse(t)
    try engine.advance(to: 1_500 * ms)
    try engine.cancel(t)
    try engine.advance(to: 2 * s)
    #expect(number(engine, p) == -178)
    try engine.play(t)
    try engine.advance(to: 2 * s)
    #expect(number(engine, p) == 10)
    try engine.advance(to: 2_500 * ms)
    #expect(number(engine, p) == 10)
  }

  /// A takeover drops only what was placed before it (grammar.md § Retargeting): animations
  /// placed at one instant join their property's stack in the order placed, and one placed
  /// after a `merge replace`, waiting with a backwards fill to add to what runs, stays above
  /// it, its change measured from where the stack heads once the replacing one has taken
  /// over. p = −7. At 0, A (`merge replace`, to 169 over 287 ms) and then B (to 37 over 1 s,
  /// fill both), both linear. A takes p over from −7; B adds Δ = 37 − 169 = −132 (rule 1).
  /// At 143.5 ms: A −7 + 176 · 0.5 = 81, B −132 · 0.1435 = −18.942: 62.058; at 287 ms A rests
  /// at 169, B −37.884: 131.116; at 1 s, 37. Events at 0: A's start, B's, then p's. (Seeds
  /// 3053050, 3029953, 4050977: A, starting, dropped B, which had joined when placed.)
  @Test func aTakeoverAtOneInstantKeepsTheAnimationPlacedAfterIt() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(-7))
    let a = try engine.animate(
      p, with: .tween(to: .number(169), duration: 287 * ms, composition: .replace), placement: .engine(at: 0))
    let b = try engine.animate(
      p, with: .tween(to: .number(37), duration: 1 * s, fill: .both), placement: .engine(at: 0))
    try engine.advance(to: 0) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.events.map(\.1) == [.start, .start, .start])
    #expect(recorder.events.map(\.2) == [.node(a), .node(b), .property(p)])
    #expect(number(engine, p) == -7)
    try engine.advance(to: 143_500_000)
    #expect(abs(number(engine, p) - 62.058) < 1e-9)
    try engine.advance(to: 287 * ms)
    #expect(abs(number(engine, p) - 131.116) < 1e-9)
    try engine.advance(to: 1 * s)
    #expect(number(engine, p) == 37)
    // B with a delay of 100 ms waits showing nothing of its own, then adds the same Δ: at
    // 143.5 ms 81 − 132 · 0.0435 = 75.258; at 1.1 s, 37.
    var delayed = AnimationEngine()
    let q = delayed.addProperty(.number(-7))
    _ = try delayed.animate(
      q, with: .tween(to: .number(169), duration: 287 * ms, composition: .replace), placement: .engine(at: 0))
    _ = try delayed.animate(
      q, with: .tween(to: .number(37), duration: 1 * s, delay: 100 * ms, fill: .both), placement: .engine(at: 0))
    try delayed.advance(to: 0)
    #expect(number(delayed, q) == -7)
    try delayed.advance(to: 143_500_000)
    #expect(abs(number(delayed, q) - 75.258) < 1e-9)
    try delayed.advance(to: 1_100 * ms)
    #expect(number(delayed, q) == 37)
  }

  /// Standing still exactly at its start, an animation shows the side it has crossed to
  /// (grammar.md § Timing). p = 0; A (to 100 over 1 s, linear) from 0. At 500 ms, B (to 200
  /// over 1 s, steps(2, jumpBoth), fill backwards) is placed and paused at once: it has not
  /// started, so it shows its before phase, progress 0 with the before flag: no step yet, a
  /// change of 0; p is A's 50 (not 50 + (200 − 100) / 3, B's first step in its active
  /// phase; seeds 4075698, 4084426).
  @Test func anAnimationPlacedAndPausedAtOnceShowsItsBeforePhase() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    let b = try engine.animate(
      p,
      with: .tween(
        to: .number(200), duration: 1 * s, curve: .steps(try Steps(count: 2, position: .jumpBoth)), fill: .backwards),
      placement: .engine(at: 500 * ms))
    try engine.pause(b)
    try engine.advance(to: 500 * ms)
    #expect(abs(number(engine, p) - 50) < 1e-9)
  }

  /// And one that started there and is turned back while it stands shows its active phase
  /// until it moves. p = −32; T (5 s) holds C at 1 s (from −153 to 167 over 1.5 s, linear).
  /// Played at 0, C starts at 1 s (−153) and T is paused there; `speed T -1` at 1.3 s keeps
  /// −153 (not the base value, −32, Web Animations' before phase going backwards: a speed
  /// change does not jump). Resumed at 1.5 s, C completes backwards at once, leaving its start
  /// value: −153 at 1.6 s (seed 4061932).
  @Test func anAnimationTurnedBackWhileItStandsAtItsStartKeepsShowingIt() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(-32))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 5 * s, fill: .forwards))
    let c = try engine.animate(
      p, with: .tween(from: .number(-153), to: .number(167), duration: 1_500 * ms), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 1 * s)
    try engine.pause(t)
    #expect(number(engine, p) == -153)
    try engine.advance(to: 1_300 * ms)
    try engine.setRate(-1, of: t)
    try engine.advance(to: 1_300 * ms)
    #expect(number(engine, p) == -153)
    try engine.advance(to: 1_500 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == -153)
    try engine.resume(t)
    try engine.advance(to: 1_600 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(recorder.nodeEvents(c).map(\.0) == [1_500 * ms])
    #expect(recorder.nodeEvents(c).map(\.1) == [.complete])
    #expect(number(engine, p) == -153)
  }

  /// A seek settles what it passes through every pass between (grammar.md § Control), also
  /// when it sets out from a timeline's delay and goes far past its end. T (delay 425 ms,
  /// 4 ms, never played) holds A at 4 ms: from 182 to 98 over 2.272 s, `repeat 2`, delay
  /// −100 ms, linear. `seek T to 994ms` passes T's delay and its one pass: at T's end A is
  /// 0 ms in its time, 100 ms into its first pass (its delay −100 ms): 182 + (98 − 182) ·
  /// 100 / 2272. (Seeds 5000414, 4116429: a jump of more than four passes skipped two periods
  /// at a time from where it stood, in T's delay, over the whole active interval: 17, p's
  /// base value.)
  @Test func aLongSeekFromATimelinesDelaySettlesWhatItsPassesHold() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(17))
    let t = try engine.addTimeline(
      timing: EffectTiming(delay: 425 * ms, duration: 4 * ms, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p,
      with: .tween(
        from: .number(182), to: .number(98), duration: 2_272 * ms, delay: -100 * ms, iterations: 2),
      placement: .timeline(t, at: 4 * ms))
    try engine.advance(to: 209 * ms)
    try engine.seek(t, to: 994 * ms)
    try engine.advance(to: 209 * ms)
    #expect(abs(number(engine, p) - (182 + (98 - 182) * 100.0 / 2272)) < 1e-9)
  }

  /// One of no length placed and paused at once has not started either (grammar.md §
  /// Timing, Standing at a start): it shows its backwards fill, its first keyframe. p = −15;
  /// at 751 ms a keyframe track over 0s (0%: −132, 81%: −15, 100%: −143), fill both, placed
  /// and paused at once: −132, not the base value (seed 5027832).
  @Test func aZeroLengthTrackPlacedAndPausedAtOnceShowsItsBackwardsFill() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(-15))
    try engine.advance(to: 751 * ms)
    let track = try engine.animate(
      p,
      with: Animation(
        shape: .keyframes([
          Keyframe(offset: 0, value: .number(-132), curve: .linear),
          Keyframe(offset: 0.81, value: .number(-15), curve: .linear),
          Keyframe(offset: 1, value: .number(-143), curve: .linear),
        ]),
        timing: EffectTiming(duration: 0, fill: .both)),
      placement: .engine(at: 751 * ms))
    try engine.pause(track)
    try engine.advance(to: 751 * ms)
    #expect(number(engine, p) == -132)
  }

  /// Additive retargeting (grammar.md § Retargeting): value = V₀ + Σ Δᵢ·pᵢ. `timeline intro {
  /// animate a.x to 100 over 1s; animate a.x to 0 over 1s }` places the second item at the
  /// first's end, 1 s (appended, § Placement). At 1 s the first has ended, keeping p₁ = 1
  /// (fill forwards), and the second stands at its start, p₂ = 0: 0 + 100·1 + (0 − 100)·0 =
  /// 100. Seeking to exactly 1 s there (paused, or playing) moves nothing, so it still reads
  /// 100; resumed at 1.5 s, 50 at 2 s and 0 at 2.5 s, where it completes. Playing on
  /// instead, 50 at 1.5 s and 0 at 2 s. (It read 200, resting at 100: the first item, left
  /// just past the end it completed at, was crossed back over it by the seek that stood
  /// still, and added its change a second time.)
  @Test func aSeekToWhereAnAdditiveItemStartsCountsItOnce() throws {
    for pausing in [true, false] {
      var engine = AnimationEngine()
      var recorder = Recorder()
      let p = engine.addProperty(.number(0))
      let intro = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards), placement: .engineIdle)
      _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .timeline(intro, at: 0))
      _ = try engine.animate(p, with: .tween(to: .number(0), duration: 1 * s), placement: .timeline(intro, at: 1 * s))
      try engine.play(intro)
      try engine.advance(to: 1 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
      if pausing { try engine.pause(intro) }
      try engine.seek(intro, to: 1 * s)
      try engine.advance(to: 1 * s)
      #expect(number(engine, p) == 100)
      if pausing {
        try engine.advance(to: 1_500 * ms)
        #expect(number(engine, p) == 100)
        try engine.resume(intro)
      }
      let shift = pausing ? 500 * ms : 0
      try engine.advance(to: 1_500 * ms + shift) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
      #expect(number(engine, p) == 50)
      try engine.advance(to: 3 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
      #expect(number(engine, p) == 0)
      #expect(recorder.nodeEvents(intro).map(\.0) == [0, 2 * s + shift])
      #expect(recorder.nodeEvents(intro).map(\.1) == [.start, .complete])
    }
  }

  /// Rule 6, each level rounding once, for what a timeline holds: T (2 s) holds A at 0 (from
  /// −19 to 160 over 808 ms, `repeat 2`, linear). Played at 0, paused at 808 ms, exactly at
  /// A's pass boundary; `speed T 7` at 927 ms while paused; resumed at 1.41 s: T's start
  /// becomes 1.41 s − round(808 ms / 7) = 1 294 571 429, and A's boundary u = 808 ms is
  /// reached at exactly that start + round(808 ms / 7) = 1.41 s. A boundary belongs to the
  /// pass it starts: A shows pass 2's start, −19 (not the end of pass 1, 160, which T's own
  /// rounded time there, round(115 428 571 · 7) = 807 999 997, would give). At 1.417 s, between
  /// boundaries, T's time is round(122 428 571 · 7) = 856 999 997: A is 48 999 997 ns into
  /// pass 2, −19 + 179 · 48 999 997 / 808 000 000. (Seed 6010899.)
  @Test func resumedAtSpeedSevenExactlyAtAnItemsPassBoundaryItShowsTheNextPass() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(-19))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(to: .number(160), duration: 808 * ms, iterations: 2), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 808 * ms)
    try engine.pause(t)
    try engine.advance(to: 927 * ms)
    try engine.setRate(7, of: t)
    try engine.advance(to: 1_410 * ms)
    try engine.resume(t)
    try engine.advance(to: 1_410 * ms)
    #expect(number(engine, p) == -19)
    try engine.advance(to: 1_417 * ms)
    #expect(abs(number(engine, p) - (-19 + 179.0 * 48_999_997 / 808_000_000)) < 1e-9)
  }

  /// Rule 6 again, paused exactly where an item's start is reached through a rate: T (delay
  /// 318 ms, 5.142 s, speed 0.25) holds A at 196 ms (to 82 over 2.416 s). Played at 0; at
  /// 112 ms (T at 28 ms) `speed T 3`: start 112 ms − round(28 ms / 3) = 102 666 667. A's start
  /// is T's 318 + 196 = 514 ms, reached at 102 666 667 + round(514 ms / 3) = 274 ms, where T
  /// is paused: A starts there, and T holds at 514 ms (its own rounded time is 513 999 999).
  /// `speed T 0.25` at 709 ms and `resume T` at 782 ms: T's start is 782 ms − 514 ms / 0.25 =
  /// −1.274 s, and A, started already, fires nothing there; its end, T's 2.93 s, comes at
  /// −1.274 s + 11.72 s = 10.446 s. (The engine held short of A's start and started A a second
  /// time, at 782 000 004 ns; seed 3079174.)
  @Test func pausedWhereAnItemStartsThroughARateItDoesNotStartItAgainOnResuming() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(-15))
    let t = try engine.addTimeline(
      timing: EffectTiming(delay: 318 * ms, duration: 5_142 * ms, fill: .forwards), rate: 0.25,
      placement: .engineIdle)
    let a = try engine.animate(
      p, with: .tween(to: .number(82), duration: 2_416 * ms), placement: .timeline(t, at: 196 * ms))
    let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
    }
    try engine.play(t)
    try engine.advance(to: 112 * ms, log)
    try engine.setRate(3, of: t)
    try engine.advance(to: 274 * ms, log)
    try engine.pause(t)
    try engine.advance(to: 709 * ms, log)
    try engine.setRate(0.25, of: t)
    try engine.advance(to: 782 * ms, log)
    try engine.resume(t)
    try engine.advance(to: 11 * s, log)
    #expect(recorder.nodeEvents(a).map(\.0) == [274 * ms, 10_446 * ms])
    #expect(recorder.nodeEvents(a).map(\.1) == [.start, .complete])
    #expect(number(engine, p) == 82)
  }

  /// Standing at an end (grammar.md § Timing, Standing at a start, and its mirror): what an
  /// animation shows changes only when it moves, so a speed change never makes the value
  /// jump. T (3 s) holds A at 0 (from 0 to 100 over 1 s, fill none). Played at 0, reversed at
  /// 2 s: T comes back to A's end at 3 s, where A starts reversed (active: 100). Paused there,
  /// then `speed T 7` (forwards) while paused: A still stands at its end as it came into it,
  /// 100, not its after phase (the base value 0, by the direction alone). (Seed 6195821.)
  @Test func anAnimationComeBackToItsEndKeepsShowingItWhenSpedForwardsWhilePaused() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(0), to: .number(100), duration: 1 * s, fill: .none), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.advance(to: 2 * s)
    try engine.reverse(t)
    try engine.advance(to: 3 * s)
    #expect(number(engine, p) == 100)
    try engine.pause(t)
    try engine.setRate(7, of: t)
    try engine.advance(to: 3_500 * ms)
    #expect(number(engine, p) == 100)
  }

  /// A pass boundary belongs to the pass it starts, also reached going backwards (grammar.md
  /// § Timing). T (1 s, `repeat 2`) holds A at 0 (from 164 to −162 over 0s, fill none: an
  /// explicit `from`, so it takes the property over) and, at 500 ms, a group G (500 ms)
  /// holding B at 0 (to 91 over 500 ms); p = 10. (Before its start G gives B its first pass's
  /// start, B's start.) Played at 0: B ends pass 1 at 91, which becomes the base value; A in pass 2
  /// leaves nothing (fill none). `reverse T` at 1.2 s: at 1.4 s T is back on the boundary,
  /// where A, crossed back first (at pass 2's start), takes the property over, and then B
  /// comes back into pass 1 from its end (grammar.md § Events: in time order, what lies at a
  /// pass's start before what lies at the end of the pass before). The value there is pass
  /// 2's start, where B has not started: 91, and A's takeover keeps that; A ends with fill
  /// none. Then B plays back through pass 1: at 1.6 s it is 300 ms into its 500 ms, from
  /// 10 (the base value when it started) to 91: 10 + 81 × 0.6 = 58.6. (Read at its start
  /// there, as if it stood at its own start having started, B showed 10, which the takeover
  /// kept: seeds 6073866, 6064393. Delivered before A's takeover, in reversed item order
  /// whichever pass each lay in, B was dropped by it and p stayed 91.)
  @Test func aTakeoverAtAPassBoundaryReachedBackwardsKeepsTheValueOfTheNextPass() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(10))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(164), to: .number(-162), duration: 0, fill: .none), placement: .timeline(t, at: 0))
    let g = try engine.addTimeline(
      timing: EffectTiming(duration: 500 * ms, fill: .forwards), placement: .timeline(t, at: 500 * ms))
    _ = try engine.animate(p, with: .tween(to: .number(91), duration: 500 * ms), placement: .timeline(g, at: 0))
    try engine.play(t)
    try engine.advance(to: 1_200 * ms)
    #expect(number(engine, p) == 91)
    try engine.reverse(t)
    try engine.advance(to: 1_400 * ms)
    #expect(number(engine, p) == 91)
    try engine.advance(to: 1_600 * ms)
    #expect(abs(number(engine, p) - 58.6) < 1e-9)
  }

  /// Rule 6 when a timeline is held, each level rounding once (the engine's side of the
  /// oracle's `aGrandchildOfAHeldTimelineStartsWhereItsStartIsReachedThroughTwoRates`): T
  /// (3 s, never played) holds G at 561 ms (speed 3), G holds H at 703 333 333 ns (speed
  /// 0.5), H holds A at 0 (from 0 to 100 over 1 s, fill none); p = 50. H's start is reached
  /// at G's time 703 333 333, which G reaches at T's 561 000 000 + round(703 333 333 / 3) =
  /// 795 444 444: `seek T to 795444444ns` puts A at its start, active: 0 (G's time rounded
  /// from T's, round(234 444 444 · 3) = 703 333 332, is one short). A nanosecond earlier, H
  /// has not started: 50.
  @Test func aGrandchildOfAHeldTimelineShowsItsStartWhereItIsReachedThroughTwoRates() throws {
    for (seek, expected) in [(Nanoseconds(795_444_444), 0.0), (795_444_443, 50)] {
      var engine = AnimationEngine()
      let p = engine.addProperty(.number(50))
      let t = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards), placement: .engineIdle)
      let g = try engine.addTimeline(
        timing: EffectTiming(duration: 5 * s, fill: .forwards), rate: 3, placement: .timeline(t, at: 561 * ms))
      let h = try engine.addTimeline(
        timing: EffectTiming(duration: 2 * s, fill: .forwards), rate: 0.5, placement: .timeline(g, at: 703_333_333))
      _ = try engine.animate(
        p, with: .tween(from: .number(0), to: .number(100), duration: 1 * s, fill: .none),
        placement: .timeline(h, at: 0))
      try engine.advance(to: 10)
      try engine.seek(t, to: seek)
      try engine.advance(to: 10)
      #expect(number(engine, p) == expected, "sought to \(seek)")
    }
  }

  /// An animation that repeats for ever and has started loops both ways (grammar.md §
  /// Timing), also below local time 0, where a negative delay puts part of its first pass.
  /// A (p: 0 to 100 over 1 s, linear, delay −250 ms, repeat forever, fill none) placed at 0,
  /// reversed at 1 s (1.25 s into its passes): at 2 s it is back at local time 0, 250 ms into
  /// its first pass, 25; at 2.1 s 150 ms in, 15; at 2.5 s 250 ms before its first pass began,
  /// 750 ms into the pass before, 75. The engine read those below 0 as its before phase (Web
  /// Animations' before phase begins at 0 with a negative delay) and showed the base value,
  /// 0 (seeds 10045114, 10092114).
  @Test func aStartedEndlessAnimationWithANegativeDelayLoopsBackBelowLocalTimeZero() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1_000 * ms, delay: -250 * ms, iterations: .infinity, fill: .none),
      placement: .engine(at: 0))
    try engine.advance(to: 1_000 * ms)
    try engine.reverse(a)
    for (time, expected) in [(2_000 * ms, 25.0), (2_100 * ms, 15.0), (2_500 * ms, 75.0), (3_700 * ms, 55.0)] {
      try engine.advance(to: time)
      #expect(abs(number(engine, p) - expected) < 1e-9, "at \(time) ns")
    }
  }

  /// A timeline turned forwards again exactly on a pass boundary it has just reached going
  /// back: its item, just entered from its end, completes there, then the pass begins
  /// (grammar.md § Events: completes, repeats, starts). T (590 ms, `repeat 2`) holds A at
  /// 125 ms (to 100 over 465 ms: it ends where the pass does). Played at 0, T completes at
  /// 1.18 s; reversed at 2.264 s it reaches its pass boundary at 2.854 s, where A starts
  /// (reversed) from its end; `reverse` there: A completes, p comes to rest, T repeats, and
  /// A starts again at 2.979 s; all complete at 3.444 s. Bringing the tree's record up to
  /// the turn read A where sampling does, at the next pass's start, so A fired a `start`
  /// and a `complete` after T's `repeat` (seed 10063457, paused there and resumed at speed 2).
  @Test func aTimelineTurnedOnAPassBoundaryItReachedGoingBackCompletesTheItemThatEndsThere() throws {
    for pausedAndSpedUp in [false, true] {
      var engine = AnimationEngine()
      var recorder = Recorder()
      let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
        recorder.events.append((e.time, e.kind, e.subject))
      }
      let p = engine.addProperty(.number(0))
      let t = try engine.addTimeline(
        timing: EffectTiming(duration: 590 * ms, iterations: 2, fill: .forwards), placement: .engineIdle)
      let a = try engine.animate(
        p, with: .tween(to: .number(100), duration: 465 * ms), placement: .timeline(t, at: 125 * ms))
      try engine.play(t)
      try engine.advance(to: 2_264 * ms, log)
      try engine.reverse(t)
      try engine.advance(to: 2_854 * ms, log)
      recorder.events = []
      var turn = 2_854 * ms
      if pausedAndSpedUp {
        try engine.pause(t)
        try engine.advance(to: 3_100 * ms, log)
        try engine.setRate(1, of: t)
        try engine.advance(to: 3_585 * ms, log)
        try engine.resume(t)
        turn = 3_585 * ms
      } else {
        try engine.reverse(t)
      }
      try engine.advance(to: turn + 1_000 * ms, log)
      let expected: [(Nanoseconds, EngineEvent.Kind, EngineEvent.Subject)] = [
        (turn, .complete, .node(a)), (turn, .complete, .property(p)), (turn, .repeat, .node(t)),
        (turn + 125 * ms, .start, .node(a)), (turn + 125 * ms, .start, .property(p)),
        (turn + 590 * ms, .complete, .node(t)), (turn + 590 * ms, .complete, .node(a)),
        (turn + 590 * ms, .complete, .property(p)),
      ]
      #expect(recorder.events.map(\.0) == expected.map(\.0), "paused and sped up: \(pausedAndSpedUp)")
      #expect(recorder.events.map(\.1) == expected.map(\.1), "paused and sped up: \(pausedAndSpedUp)")
      #expect(recorder.events.map(\.2) == expected.map(\.2), "paused and sped up: \(pausedAndSpedUp)")
    }
  }

  /// A timeline played again from its end (its rate negative) is sought past its `set` items
  /// afresh (grammar.md § Control): first each puts back what it recorded, the latest first,
  /// as a jump back before them all; then each records the value now and applies, in item
  /// order. T (3 s) holds S1 (`set p to 10`) at 500 ms, A (p from 50 to 150 over 1 s, fill
  /// none) at 1 s and S2 (`set p to 20`) at 1.5 s; p = 0. Played at 0, S2 records A's value
  /// there, 100. Reversed at 2.5 s and cancelled at 2.6 s (p keeps 20), played again at 3 s
  /// from its end: S2 puts back 100, S1 puts back 0; S1 records 0 and applies 10, S2 records
  /// 10 (A, which has not run, shows nothing) and applies 20. Going back, S2 is crossed at
  /// 4.5 s (p back to 10, and A, 500 ms from its end, shows: 90 at 4.6 s); A completes at its
  /// start at 5 s (fill none: 10 at 5.2 s); S1 is crossed at 5.5 s (0 at 5.6 s). The engine
  /// put back and applied each in turn, so S2 put back 100 over S1's 10 and recorded it:
  /// 100 at 5.2 s (seeds 9000475, 10074003).
  @Test func aTimelinePlayedAgainFromItsEndPutsBackItsSetsLatestFirstBeforeApplyingThem() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 3_000 * ms, fill: .forwards), placement: .engineIdle)
    _ = try engine.addSet(p, to: .number(10), in: t, at: 500 * ms)
    _ = try engine.animate(
      p, with: .tween(from: .number(50), to: .number(150), duration: 1_000 * ms, fill: .none),
      placement: .timeline(t, at: 1_000 * ms))
    _ = try engine.addSet(p, to: .number(20), in: t, at: 1_500 * ms)
    try engine.play(t)
    try engine.advance(to: 2_500 * ms)
    try engine.reverse(t)
    try engine.advance(to: 2_600 * ms)
    try engine.cancel(t)
    #expect(number(engine, p) == 20)
    try engine.advance(to: 3_000 * ms)
    try engine.play(t)
    for (time, expected) in [(3_100 * ms, 20.0), (4_600 * ms, 90.0), (5_200 * ms, 10.0), (5_600 * ms, 0.0)] {
      try engine.advance(to: time)
      #expect(abs(number(engine, p) - expected) < 1e-9, "at \(time) ns")
    }
  }

  /// A property's `complete` goes the way of the crossing that brought it to rest, also when
  /// a hand-over at that instant falls through (grammar.md § Events). T (2 s, rate −1) holds
  /// A (p from 80 to −40 over 500 ms) at 100 ms, `set p to 25` at 300 ms and B (p to 160
  /// over 1 s, fill none) at 600 ms, where A ends. Played at 0 from its end, it reaches 600 ms
  /// at 1.4 s: B completes (reversed) at its start and A enters from its end, but the `set`
  /// the playhead is past masks A: p comes to rest there after all, reversed. The engine's
  /// was forwards (seed 10074003).
  @Test func aPropertysCompleteGoesTheWayOfTheCrossingThatBroughtItToRest() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
    }
    var reversed: [Bool] = []
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 2_000 * ms, fill: .forwards), rate: -1, placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(80), to: .number(-40), duration: 500 * ms), placement: .timeline(t, at: 100 * ms))
    _ = try engine.addSet(p, to: .number(25), in: t, at: 300 * ms)
    _ = try engine.animate(
      p, with: .tween(to: .number(160), duration: 1_000 * ms, fill: .none), placement: .timeline(t, at: 600 * ms))
    try engine.play(t)
    try engine.advance(to: 1_500 * ms) { engine, e in
      log(&engine, e)
      if case .property = e.subject, e.kind == .complete { reversed.append(e.isReversed) }
    }
    let completes = recorder.events.filter { if case .property = $0.2, $0.1 == .complete { true } else { false } }
    #expect(completes.map(\.0) == [1_400 * ms])
    #expect(reversed == [true])
  }

  // MARK: A standalone animation sought back before its start (grammar.md § Control)

  /// `seek` jumps to a local time and the animation plays on from there; only completing the
  /// way it plays ends a standalone animation. p = 0; A (p to 100 over 2 s) placed at 0 and
  /// sought to 0 at 1 s plays again from its start: 25 at 1.5 s (0.5 s of 2 s), 100 and
  /// p's `complete` at 3 s, and nothing between (the property never came to rest). Both sides
  /// took it away at the seek, leaving 0 and no `complete` (seed 10041979).
  @Test func anAnimationSoughtToItsStartPlaysOnFromThere() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
    }
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(p, with: .tween(to: .number(100), duration: 2 * s), placement: .engine(at: 0))
    try engine.advance(to: 1 * s, log)
    try engine.seek(a, to: 0)
    try engine.advance(to: 1500 * ms, log)
    #expect(number(engine, p) == 25)
    try engine.advance(to: 4 * s, log)
    #expect(number(engine, p) == 100)
    let property = recorder.events.filter { $0.2 == .property(p) }
    #expect(property.map(\.0) == [0, 3 * s])
    #expect(property.map(\.1) == [.start, .complete])
  }

  /// Sought into its delay, it waits out the rest of it and starts again. p = 0; A (p to 100
  /// over 2 s, delay 500 ms, fill backwards from 20) placed at 0, sought to 250 ms at 1 s:
  /// it waits until 1.25 s showing its `from`, 20; at 1.5 s it is 0.25 s in, 20 + 80/8 = 30;
  /// its node starts again at 1.25 s and completes at 3.25 s.
  @Test func anAnimationSoughtIntoItsDelayWaitsAndStartsAgain() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
    }
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(from: .number(20), to: .number(100), duration: 2 * s, delay: 500 * ms, fill: .both),
      placement: .engine(at: 0))
    try engine.advance(to: 1 * s, log)
    try engine.seek(a, to: 250 * ms)
    try engine.advance(to: 1 * s, log)
    #expect(number(engine, p) == 20)
    try engine.advance(to: 1200 * ms, log)
    #expect(number(engine, p) == 20)
    try engine.advance(to: 1500 * ms, log)
    #expect(number(engine, p) == 30)
    try engine.advance(to: 4 * s, log)
    #expect(number(engine, p) == 100)
    #expect(recorder.nodeEvents(a).map(\.0) == [500 * ms, 1250 * ms, 3250 * ms])
    #expect(recorder.nodeEvents(a).map(\.1) == [.start, .start, .complete])
  }

  /// Waiting again, it keeps its place in the stack, so what is placed after it adds to it
  /// (grammar.md § Retargeting). p = 0; A (p to 100 over 1 s, delay 1 s, fill backwards)
  /// placed at 0, at 1.5 s (50) sought to 500 ms: it waits until 2 s showing its `from`, 0.
  /// B (p to 200 over 1 s) placed at 1.6 s adds to A: its change runs from A's target, 100,
  /// to 200. At 1.8 s: A shows 0, B is 0.2 in, +20: 20. At 2.1 s: A 0.1 in (10), B 0.5 in
  /// (+50): 60. At 3 s both have ended: B's +100 stays, A's backwards fill leaves the base
  /// value, 0: 100. (The engine put A back on top of B when it started again, and B measured
  /// its change from the base: seed 11020483.)
  @Test func anAnimationSoughtIntoItsDelayKeepsItsPlaceInTheStack() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, delay: 1 * s, fill: .backwards), placement: .engine(at: 0))
    try engine.advance(to: 1500 * ms)
    #expect(number(engine, p) == 50)
    try engine.seek(a, to: 500 * ms)
    try engine.advance(to: 1600 * ms)
    #expect(number(engine, p) == 0)
    _ = try engine.animate(p, with: .tween(to: .number(200), duration: 1 * s), placement: .engine(at: 1600 * ms))
    try engine.advance(to: 1800 * ms)
    #expect(abs(number(engine, p) - 20) < 1e-9)
    try engine.advance(to: 2100 * ms)
    #expect(abs(number(engine, p) - 60) < 1e-9)
    try engine.advance(to: 3 * s)
    #expect(number(engine, p) == 100)
  }

  /// What completed above it stays while it waits showing nothing. p = 0; A (p to 10 over
  /// 4 s, delay 1 s, fill forwards) placed at 0; B (p to 50 over 1 s) at 1.5 s, while A runs,
  /// adds to A (its change from A's target 10 to 50: +40) and completes at 2.5 s, its +40
  /// kept. Sought to 500 ms at 3 s, A waits until 3.5 s showing nothing: 0 + 40 = 40. At
  /// 3.9 s it is 0.4 s in, 10 · 0.1 = 1: 41. (The engine dropped B's change with A's output:
  /// seed 12008149.)
  @Test func whatCompletedAboveAnAnimationWaitingAgainStays() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(10), duration: 4 * s, delay: 1 * s), placement: .engine(at: 0))
    try engine.advance(to: 1500 * ms)
    _ = try engine.animate(p, with: .tween(to: .number(50), duration: 1 * s), placement: .engine(at: 1500 * ms))
    try engine.advance(to: 3 * s)
    try engine.seek(a, to: 500 * ms)
    try engine.advance(to: 3 * s)
    #expect(abs(number(engine, p) - 40) < 1e-9)
    try engine.advance(to: 3900 * ms)
    #expect(abs(number(engine, p) - 41) < 1e-9)
  }

  /// The same through the engine: going back over a pass boundary into the pass before, the
  /// property shows what that pass left at its end. T (1 s, repeat 2) holds K (p from 10 to
  /// 20 over 0 s at 400 ms, fill both) and N (p to 100 over 300 ms at 400 ms), p = 0: 10 at
  /// 1.1 s (K waiting again in pass 2); reversed at 1.2 s, at 1.5 s 100 (seed 11047046).
  @Test func backInThePassBeforeAPropertyShowsWhatThatPassLeftAtItsEnd() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 0, fill: .both),
      placement: .timeline(t, at: 400 * ms))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 300 * ms), placement: .timeline(t, at: 400 * ms))
    try engine.play(t)
    try engine.advance(to: 1100 * ms)
    #expect(number(engine, p) == 10)
    try engine.advance(to: 1200 * ms)
    try engine.reverse(t)
    try engine.advance(to: 1500 * ms)
    #expect(abs(number(engine, p) - 100) < 1e-9)
  }

  /// An item come back to its start from its active side ends there and no longer shows its
  /// backwards fill (grammar.md § Timing), also while that instant's events are delivered.
  /// T (2 s, rate −1) holds K (p from 50 to 60 over 0 s at 1 s, fill backwards) and N (p to
  /// 10 over 0 s at 1 s, after K), p = 0; played at 0 from its end, it reaches 1 s at 1 s:
  /// N, crossed first going back, starts (reversed) from the value then, 0 (K, not yet
  /// crossed, is on its after side and shows nothing), and ends at its start leaving 0; K
  /// ends at its start. p reads 0 at 1.5 s. The engine read K's fill, 50, as N's `from`
  /// (seed 13030580).
  @Test func anItemReachedBackAtItsStartShowsNoFillWhileTheInstantIsDelivered() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, fill: .forwards), rate: -1, placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(50), to: .number(60), duration: 0, fill: .backwards),
      placement: .timeline(t, at: 1 * s))
    _ = try engine.animate(p, with: .tween(to: .number(10), duration: 0), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    try engine.advance(to: 500 * ms)
    #expect(number(engine, p) == 0)
    try engine.advance(to: 1500 * ms)
    #expect(number(engine, p) == 0)
  }

  /// The same at a pass boundary reached going back, where an item reads the next pass's
  /// start: T (1.073 s, repeat 2, speed 1.5) holds A (p to −140 over 601 ms, delay −650 ms,
  /// fill backwards: finished where it is placed, at 0), B (p from −55 to 134 over 0 s,
  /// fill none, in a group of no length at 0) and C (keyframes to −141 over 2.146 s in a
  /// group at speed 2), p = −7. T ends at 1.43 s; sped to −1 at 3.679 s it plays back and
  /// reaches its pass boundary at 4.752 s. There A and B, at pass 2's start, are crossed
  /// back before C comes back into pass 1 from its end (grammar.md § Events: in time order):
  /// B takes p over and ends at its start. A there is on its after side until it is
  /// crossed, and then ended at its start: its backwards fill (its end, −140, through its
  /// negative delay) never shows. Then C plays back from its end: at 4.783 s T's time is
  /// 1.073 s − round(30 874 534 × 1.5) into pass 1, C's 2.0534 s of 2.146 s (95.7 %), in the
  /// last of its four steps: its keyframe, −141. The engine kept A's fill as the value B
  /// took over, −140 (seed 14086525); delivered in reversed item order whichever pass each
  /// lay in, C was dropped by B's takeover and p read −7.
  @Test func aTakeoverAtAPassBoundaryReachedBackDoesNotKeepAnUncrossedItemsFill() throws {
    var engine = AnimationEngine()
    try engine.advance(to: 0)
    let p0 = engine.addProperty(.number(-7))
    let n0 = try engine.addTimeline(
      timing: EffectTiming(duration: 1_073_000_000, iterations: 2, fill: .forwards), rate: 1.5,
      placement: .engineIdle)
    _ = try engine.animate(
      p0,
      with: Animation(
        shape: .tween(from: nil, to: .number(-140), curve: .steps(try Steps(count: 2, position: .jumpNone))),
        timing: EffectTiming(delay: -650_024_164, duration: 601_000_000, fill: .backwards), rate: 1),
      placement: .timeline(n0, at: 0))
    let n2 = try engine.addTimeline(timing: EffectTiming(duration: 0, fill: .forwards), placement: .timeline(n0, at: 0))
    _ = try engine.animate(
      p0,
      with: Animation(
        shape: .tween(from: .number(-55), to: .number(134), curve: .linear),
        timing: EffectTiming(duration: 0, iterations: 0.5, fill: .none), rate: 1),
      placement: .timeline(n2, at: 0))
    let n4 = try engine.addTimeline(
      timing: EffectTiming(duration: 2_146_000_000, direction: .alternate, fill: .forwards), rate: 2,
      placement: .timeline(n0, at: 0))
    _ = try engine.animate(
      p0,
      with: Animation(
        shape: .keyframes([
          Keyframe(offset: 1, value: .number(-141), curve: .steps(try Steps(count: 4, position: .jumpNone)))
        ]),
        timing: EffectTiming(duration: 2_146_000_000, direction: .alternate, fill: .forwards), rate: 1),
      placement: .timeline(n4, at: 0))
    try engine.play(n0)
    try engine.advance(to: 3_679_125_466)
    try engine.setRate(-1, of: n0)
    try engine.advance(to: 4_783_000_000)
    #expect(number(engine, p0) == -141)
  }

  /// A property's stack is over when nothing on it shows a value, an item armed to fill
  /// backwards counting only while it shows that fill. T (3.122 s, repeat 2, played at
  /// 1.538 s, sped to 3 at 3.201 s) holds A (p to −5 over 418 ms, delay −466 ms, fill
  /// backwards: finished where it is placed) and a group G (169 ms, repeat 2, autoreverse,
  /// at 996 ms) holding K (keyframes 9, −13 at 84 %, −192, over 169 ms) and B (p from 141
  /// to 105 over 0 s, fill none, at 169 ms). At G's turn in T's second pass (4.0758 s), in
  /// time order (grammar.md § Events): K ends forwards and B is crossed forwards (it takes p
  /// over and ends), then B is crossed back (it ends at its start, fill none) and K enters
  /// again backwards, replacing by itself (its first keyframe has a value), and plays back
  /// through G's second pass. So p reads exactly what K alone in G reads: the same timeline
  /// without A and B. The engine once counted A, armed but past its start, as showing, so
  /// that the stack did not end when B ended (seed 13001429).
  @Test func anItemArmedToFillBackwardsButPastItsStartDoesNotKeepAStackGoing() throws {
    func run(withOthers: Bool) throws -> [Double] {
      var engine = AnimationEngine()
      try engine.advance(to: 0)
      let p0 = engine.addProperty(.number(15))
      let n0 = try engine.addTimeline(
        timing: EffectTiming(duration: 3_122_290_959, iterations: 2, fill: .forwards), placement: .engineIdle)
      if withOthers {
        _ = try engine.animate(
          p0,
          with: Animation(
            shape: .tween(from: nil, to: .number(-5), curve: .cubicBezier(try CubicBezier(0.42, 0, 0.58, 1))),
            timing: EffectTiming(delay: -465_672_993, duration: 418_000_000, fill: .backwards), rate: 1),
          placement: .timeline(n0, at: 0))
      }
      let n2 = try engine.addTimeline(
        timing: EffectTiming(duration: 169_000_000, iterations: 2, direction: .alternate, fill: .forwards),
        placement: .timeline(n0, at: 996_000_000))
      _ = try engine.animate(
        p0,
        with: Animation(
          shape: .keyframes([
            Keyframe(offset: 0, value: .number(9), curve: .linear),
            Keyframe(offset: 0.84, value: .number(-13), curve: .cubicBezier(try CubicBezier(0.67, 0.26, 0.86, 0.06))),
            Keyframe(offset: 1, value: .number(-192), curve: .cubicBezier(try CubicBezier(0.92, -0.35, 0.81, 1.28))),
          ]),
          timing: EffectTiming(duration: 169_000_000, fill: .forwards), rate: 1),
        placement: .timeline(n2, at: 0))
      if withOthers {
        let n4 = try engine.addTimeline(
          timing: EffectTiming(duration: 0, fill: .forwards), rate: 1.5, placement: .timeline(n2, at: 169_000_000))
        _ = try engine.animate(
          p0,
          with: Animation(
            shape: .tween(
              from: .number(141), to: .number(105), curve: .cubicBezier(try CubicBezier(0.25, 0.1, 0.25, 1))),
            timing: EffectTiming(duration: 0, iterations: 0.5, fill: .none), rate: 1),
          placement: .timeline(n4, at: 0))
      }
      try engine.advance(to: 1_538_000_000)
      try engine.play(n0)
      try engine.advance(to: 3_201_000_000)
      try engine.setRate(3, of: n0)
      var values: [Double] = []
      for time: Nanoseconds in [4_076_000_000, 4_093_000_000, 4_150_000_000] {
        try engine.advance(to: time)
        values.append(number(engine, p0))
      }
      return values
    }
    let alone = try run(withOthers: false)
    #expect(try run(withOthers: true) == alone)
    // (K moves: it is not held by a takeover.)
    #expect(alone[0] != alone[1])
  }

  /// Waiting again in its delay, it is as before it started: reversed there, it has nothing
  /// to finish (as one reversed before it ever started). A (p to 100 over 2 s, delay 500 ms)
  /// placed at 0 on p = 0 starts at 500 ms; sought to 250 ms at 1 s, reversed at 1.1 s,
  /// `finish` at 1.15 s fires nothing and p stays 0. (The engine completed it, reversed, at
  /// the finish: seed 16009957.)
  @Test func anAnimationWaitingAgainInItsDelayHasNothingToFinishReversed() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
    }
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 2 * s, delay: 500 * ms), placement: .engine(at: 0))
    try engine.advance(to: 1 * s, log)
    try engine.seek(a, to: 250 * ms)
    try engine.advance(to: 1100 * ms, log)
    try engine.reverse(a)
    try engine.advance(to: 1150 * ms, log)
    try engine.finish(a, log)
    try engine.advance(to: 1200 * ms, log)
    #expect(recorder.nodeEvents(a).map(\.0) == [500 * ms])
    #expect(number(engine, p) == 0)
  }

  /// A timeline `set` masks its own timeline's items that start before it, at any depth
  /// (grammar.md § Control), also again when the timeline goes back over a pass boundary into
  /// a pass where the set recorded a value. An item in a group at speed 2 starts where rule 6
  /// maps it up (the group's start + round(c / 2)); the engine mapped only chains at rate 1,
  /// so a `set` never masked what a faster or slower group held (seed 19108594, and ten
  /// more seeds of its class). So a group at speed 2 holding `animate p from 10 to 20 over
  /// 0s` reads exactly as that item placed directly: timeline t (2 s, repeat 2, on p = 0)
  /// with it at 0, `animate p to 64 over 500ms` at 0 and `set p to 50` at 1 s, played at 0
  /// and reversed at 2.25 s, reads the same values and the same events of p both ways. By
  /// the rules: back on pass 2's start at 2.5 s, the `to 64` item ends at its start (its
  /// `from`, the jump's 20) and the zero-length item there ends at its start too; going on
  /// into pass 1, the set that recorded 64 there masks it again, so p rests at 20 until the
  /// set is crossed back at 3.5 s and puts back 64. Unmasked, the item in the group showed
  /// its `from`, 10, from 2.5 s.
  @Test func aSetMasksAnItemInAGroupAtAnotherSpeedAsItMasksOnePlacedDirectly() throws {
    func run(grouped: Bool) throws -> (values: [Double], events: [(Nanoseconds, EngineEvent.Kind, Bool)]) {
      var engine = AnimationEngine()
      var events: [(Nanoseconds, EngineEvent.Kind, Bool)] = []
      let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
        if case .property = e.subject { events.append((e.time, e.kind, e.isReversed)) }
      }
      let p = engine.addProperty(.number(0))
      let t = try engine.addTimeline(
        timing: EffectTiming(duration: 2 * s, iterations: 2, fill: .forwards), placement: .engineIdle)
      let jump = Animation(
        shape: .tween(from: .number(10), to: .number(20), curve: .linear),
        timing: EffectTiming(duration: 0, fill: .forwards), rate: 1)
      if grouped {
        let group = try engine.addTimeline(
          timing: EffectTiming(duration: 0, fill: .forwards), rate: 2, placement: .timeline(t, at: 0))
        _ = try engine.animate(p, with: jump, placement: .timeline(group, at: 0))
      } else {
        _ = try engine.animate(p, with: jump, placement: .timeline(t, at: 0))
      }
      _ = try engine.animate(p, with: .tween(to: .number(64), duration: 500 * ms), placement: .timeline(t, at: 0))
      _ = try engine.addSet(p, to: .number(50), in: t, at: 1 * s)
      try engine.play(t)
      var values: [Double] = []
      for time in stride(from: Nanoseconds(250 * ms), through: 2250 * ms, by: Int(250 * ms)) {
        try engine.advance(to: time, log)
        values.append(number(engine, p))
      }
      try engine.reverse(t)
      for time in stride(from: Nanoseconds(2500 * ms), through: 5000 * ms, by: Int(250 * ms)) {
        try engine.advance(to: time, log)
        values.append(number(engine, p))
      }
      return (values, events)
    }
    let direct = try run(grouped: false)
    let grouped = try run(grouped: true)
    #expect(direct.values[9...12] == [20, 20, 20, 20])
    #expect(grouped.values == direct.values)
    #expect(grouped.events.map(\.0) == direct.events.map(\.0))
    #expect(grouped.events.map(\.1) == direct.events.map(\.1))
    #expect(grouped.events.map(\.2) == direct.events.map(\.2))
  }

  /// Going back over a pass boundary, what lies at the later pass's start is crossed before
  /// what lies at the end of the pass before, and its events come first (grammar.md § Events:
  /// in time order). T (1 s, `repeat 2`) holds A (p from 0 to 10 over 0s, fill none) and B
  /// (p from 100 to 200 over 1 s, fill none), both at 0; p = 36. Played at 0 and reversed at
  /// 1.5 s, T is back on its boundary at 2 s: B completes (reversed) at pass 2's start, A
  /// starts and completes there, T repeats, and B starts (reversed) from its end in pass 1.
  /// Then B plays back through pass 1: 175 at 2.25 s, 150 at 2.5 s. Sought instead from
  /// 1.5 s to 500 ms, the same crossings settle silently: 150 at 1.5 s, 160 at 1.6 s. A,
  /// delivered last in reversed item order whichever pass each lay in, took the property
  /// over from B and ended, so p fell to its base value and stayed there, 36 (seeds 7027170,
  /// 17183274).
  @Test func goingBackOverAPassBoundaryTheLaterPassIsCrossedFirst() throws {
    func timeline(_ engine: inout AnimationEngine) throws -> (t: NodeID, a: NodeID, b: NodeID, p: PropertyID) {
      let p = engine.addProperty(.number(36))
      let t = try engine.addTimeline(
        timing: EffectTiming(duration: 1 * s, iterations: 2, fill: .forwards), placement: .engineIdle)
      let a = try engine.animate(
        p, with: .tween(from: .number(0), to: .number(10), duration: 0, fill: .none), placement: .timeline(t, at: 0))
      let b = try engine.animate(
        p, with: .tween(from: .number(100), to: .number(200), duration: 1 * s, fill: .none),
        placement: .timeline(t, at: 0))
      return (t, a, b, p)
    }
    var engine = AnimationEngine()
    var recorder = Recorder()
    let (t, a, b, p) = try timeline(&engine)
    try engine.play(t)
    try engine.advance(to: 1500 * ms)
    try engine.reverse(t)
    try engine.advance(to: 2 * s) { _, e in
      if e.time == 2 * s { recorder.events.append((e.time, e.kind, e.subject)) }
    }
    let order = recorder.events.compactMap { event -> String? in
      guard case .node(let id) = event.2 else { return nil }
      return "\(id == t ? "T" : id == a ? "A" : id == b ? "B" : "?") \(event.1)"
    }
    #expect(order == ["B complete", "T repeat", "A start", "A complete", "B start"])
    try engine.advance(to: 2250 * ms)
    #expect(number(engine, p) == 175)
    try engine.advance(to: 2500 * ms)
    #expect(number(engine, p) == 150)

    var sought = AnimationEngine()
    let second = try timeline(&sought)
    try sought.play(second.t)
    try sought.advance(to: 1500 * ms)
    try sought.seek(second.t, to: 500 * ms)
    try sought.advance(to: 1500 * ms)
    #expect(number(sought, second.p) == 150)
    try sought.advance(to: 1600 * ms)
    #expect(number(sought, second.p) == 160)
  }

  /// A standalone animation reversed before it started plays back to where it was placed,
  /// its local time 0, and completes there, reversed, its property coming to rest (grammar.md
  /// § Control; Web Animations finishes it at 0). A (p from 40 to 100 over 1 s, delay 1 s)
  /// placed at 0 on p = 0, reversed at 500 ms, is back at 0 at 1 s: `complete` of A and of p,
  /// both reversed, at exactly 1 s. It never started, so it leaves what its fill says of its
  /// start: `fill both` keeps its `from`, 40; `fill backwards` drops out, 0. Paused at 700 ms
  /// (300 ms of its delay left to play back) and resumed at 1.7 s, it completes at 2 s; at
  /// `speed -2` from 500 ms, at 750 ms. (It stayed in its delay for ever, p animating: `on
  /// complete` never ran.)
  @Test func aStandaloneAnimationReversedInItsDelayCompletesWhereItWasPlaced() throws {
    for (fill, rests) in [(FillMode.both, 40.0), (.backwards, 0)] {
      var engine = AnimationEngine()
      var recorder = Recorder()
      let p = engine.addProperty(.number(0))
      let a = try engine.animate(
        p, with: .tween(from: .number(40), to: .number(100), duration: 1 * s, delay: 1 * s, fill: fill),
        placement: .engine(at: 0))
      try engine.advance(to: 500 * ms)
      try engine.reverse(a)
      try engine.advance(to: 999_999_999)
      #expect(number(engine, p) == 40)
      try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
      #expect(recorder.events.map(\.0) == [1 * s, 1 * s])
      #expect(recorder.events.map(\.1) == [.complete, .complete])
      #expect(recorder.events.map(\.2) == [.node(a), .property(p)])
      #expect(number(engine, p) == rests)
      #expect(!engine.contains(a))
    }
    for (pausedFrom, resumedAt, speed, completes) in [
      (Optional(700 * ms), Optional(1700 * ms), -1.0, 2 * s), (nil, nil, -2, 750 * ms),
    ] {
      var engine = AnimationEngine()
      var times: [Nanoseconds] = []
      let p = engine.addProperty(.number(0))
      let a = try engine.animate(
        p, with: .tween(to: .number(100), duration: 1 * s, delay: 1 * s), placement: .engine(at: 0))
      try engine.advance(to: 500 * ms)
      try engine.setRate(speed, of: a)
      if let pausedFrom, let resumedAt {
        try engine.advance(to: pausedFrom)
        try engine.pause(a)
        try engine.advance(to: resumedAt)
        try engine.resume(a)
      }
      try engine.advance(to: 3 * s) { _, e in if case .property = e.subject { times.append(e.time) } }
      #expect(times == [completes])
    }
  }

  /// A callback's point is reached as rule 6 reaches any boundary, and a timeline turned back
  /// exactly there crosses it again at once (grammar.md § Events: `emit` fires when crossed
  /// either way). T (delay 49 ms, 3.163 s, speed 7) holds a callback at 1.651 s: its own time
  /// 1.7 s, reached at round(1.7 s / 7) = 242 857 143 ns. T ends at round(3.212 s / 7) =
  /// 458 857 143 ns; reversed at 2.748 s its start time becomes 2 748 000 000 + round(3.212 s
  /// / 7) = 3 206 857 143, so the callback is reached back at 3 206 857 143 − 242 857 143 =
  /// 2 964 000 000 ns, where T is reversed again: it fires backwards and then forwards there.
  /// T's time there, round((2 964 000 000 − 3 206 857 143) · −7), is 1 ns past the point,
  /// and the callback, left out of the descendants' boundaries that correct it, stood where
  /// turning back did not cross it (seed 17011259). At speed 1 the same (reached back at
  /// 5.012 s) held already.
  @Test func aTimelineTurnedBackExactlyAtACallbackFiresItAgainAtOnce() throws {
    for (rate, reversedAt, reached) in [
      (7.0, Nanoseconds(2_748_000_000), Nanoseconds(2_964_000_000)), (1, 3_500 * ms, 5_012 * ms),
    ] {
      var engine = AnimationEngine()
      var fired: [(Nanoseconds, Bool)] = []
      let t = try engine.addTimeline(
        timing: EffectTiming(delay: 49 * ms, duration: 3_163 * ms, fill: .forwards), rate: rate, placement: .engineIdle)
      let callback = try engine.addCallback(key: 7, to: t, at: 1_651 * ms, firesBackwards: true)
      let log: (inout AnimationEngine, EngineEvent) -> Void = { _, e in
        if e.subject == .node(callback) { fired.append((e.time, e.isReversed)) }
      }
      try engine.play(t)
      try engine.advance(to: reversedAt, log)
      try engine.reverse(t)
      try engine.advance(to: reached, log)
      try engine.reverse(t)
      try engine.advance(to: reached + 100 * ms, log)
      #expect(fired.map(\.0).suffix(2) == [reached, reached], "at speed \(rate)")
      #expect(fired.map(\.1).suffix(2) == [true, false], "at speed \(rate)")
    }
  }

  /// Played back to where it was placed, a standalone animation that never started leaves
  /// what completed above it while it waited (rule 1: an ended member keeps its final
  /// progress with a forwards fill). p = 0; A (to 100 over 1 s, delay 1 s, fill backwards)
  /// placed at 0 and reversed at 200 ms; B (to 50 over 1 s, delay −2 s: finished where it is
  /// placed) placed at 300 ms adds toward 50 from A's target, Δ = −50, and ends at its final
  /// progress, 1: −50 from 300 ms. A is back where it was placed at 400 ms and completes,
  /// its own term (0: it never started) dropping out: p stays −50. (The engine let B's
  /// change, kept with A while A waited, go with A: 0; seeds 21029537 and seven more classes
  /// of a run on c3cd430.)
  @Test func anAnimationPlayedBackToWhereItWasPlacedLeavesWhatCompletedAboveIt() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let a = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, delay: 1 * s, fill: .backwards), placement: .engine(at: 0))
    try engine.advance(to: 200 * ms)
    try engine.reverse(a)
    try engine.advance(to: 300 * ms)
    _ = try engine.animate(
      p, with: .tween(to: .number(50), duration: 1 * s, delay: -2 * s), placement: .engine(at: 300 * ms))
    try engine.advance(to: 350 * ms)
    #expect(number(engine, p) == -50)
    try engine.advance(to: 500 * ms)
    #expect(!engine.contains(a))
    #expect(number(engine, p) == -50)
  }

  /// At the turn of an alternating pass, what the playhead crosses forwards at the end of one
  /// pass goes before what it crosses backwards at the start of the next (grammar.md §
  /// Events: in time order). T (1 s, `repeat 2 autoreverse`) holds A at 1 s (p from 10 to 20
  /// over 0s, fill forwards); p = 0. Played at 0, T turns at 1 s: it repeats, A starts and
  /// completes forwards (20), then, pass 2 running back from 1 s, starts and completes
  /// backwards, ended at its start: its forwards fill leaves its start value, 10, through
  /// pass 2. (Delivered backwards first, A's forward crossing came last and p read 20: seed
  /// 17116021 and 2 of the 150 sample seeds once the oracle followed the rule.)
  @Test func atTheTurnOfAnAlternatingPassTheForwardCrossingGoesFirst() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let t = try engine.addTimeline(
      timing: EffectTiming(duration: 1 * s, iterations: 2, direction: .alternate, fill: .forwards),
      placement: .engineIdle)
    let a = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 0), placement: .timeline(t, at: 1 * s))
    try engine.play(t)
    var reversed: [Bool] = []
    try engine.advance(to: 1 * s) { _, e in
      recorder.events.append((e.time, e.kind, e.subject))
      if e.subject == .node(a) { reversed.append(e.isReversed) }
    }
    let order = recorder.events.compactMap { event -> String? in
      guard event.0 == 1 * s, case .node(let id) = event.2 else { return nil }
      return "\(id == t ? "T" : id == a ? "A" : "?") \(event.1)"
    }
    #expect(order == ["T repeat", "A start", "A complete", "A start", "A complete"])
    #expect(reversed == [false, false, true, true])
    try engine.advance(to: 1_500 * ms)
    #expect(number(engine, p) == 10)
  }

  /// Of two `merge replace` animations placed at one instant, the second shows, whatever
  /// their fills (grammar.md § Retargeting). p = 0; A (to 100 over 1 s) runs from 0. At
  /// 500 ms (p = 50), B (to 200 over 1 s, `merge replace`) and then C (to −100 over 1 s,
  /// `merge replace`, fill both). C takes p over where it is placed, from 50; B, placed
  /// before it, is dropped as it starts (its `start` fires, nothing more). At 1 s, C at
  /// half way: 50 + (−100 − 50) · 0.5 = −25; at 1.5 s C completes at −100 and B does not.
  /// (B's start dropped C, waiting with its backwards fill, and C never started: 125 at 1 s;
  /// seeds 7057648, 16054118.)
  @Test func ofTwoTakeoversPlacedAtOneInstantTheSecondShowsWhateverItsFill() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1 * s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    let b = try engine.animate(
      p, with: .tween(to: .number(200), duration: 1 * s, composition: .replace), placement: .engine(at: 500 * ms))
    let c = try engine.animate(
      p, with: .tween(to: .number(-100), duration: 1 * s, fill: .both, composition: .replace),
      placement: .engine(at: 500 * ms))
    try engine.advance(to: 1 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == -25)
    try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == -100)
    #expect(recorder.nodeEvents(b).map(\.1) == [.start])
    #expect(recorder.nodeEvents(c).map(\.0) == [500 * ms, 1_500 * ms])
    #expect(recorder.nodeEvents(c).map(\.1) == [.start, .complete])
  }

  /// A takeover that fills backwards took its property over where it was placed, also from
  /// an animation placed before it that waits in its delay: that one is dropped as it starts
  /// (grammar.md § Retargeting). p = 0. X (to 100 over 1 s, delay 1 s, `merge replace`)
  /// placed at 0; T (to 50 over 1 s, delay 1 s, fill both, `merge replace`) at 500 ms shows
  /// its `from`, 0, from then. X starts at 1 s and is dropped: p stays 0 until T starts at
  /// 1.5 s, and reads 25 at 2 s, where X's `complete` would have been. (X took p over as it
  /// started, dropping T: 20 at 1.2 s; seeds 13011264, 12151420, 12081364.)
  @Test func anAnimationPlacedBeforeAWaitingTakeoverIsDroppedAsItStarts() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let x = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, delay: 1 * s, composition: .replace),
      placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    let t = try engine.animate(
      p, with: .tween(to: .number(50), duration: 1 * s, delay: 1 * s, fill: .both, composition: .replace),
      placement: .engine(at: 500 * ms))
    try engine.advance(to: 1_200 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == 0)
    try engine.advance(to: 2 * s) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == 25)
    #expect(recorder.nodeEvents(x).map(\.0) == [1 * s])
    #expect(recorder.nodeEvents(x).map(\.1) == [.start])
    #expect(recorder.nodeEvents(t).map(\.1) == [.start])
  }

  /// A takeover drops what was placed before it, in the order the animations were placed,
  /// not the order of the property's list (grammar.md § Retargeting). p = 0. A (to 100 over
  /// 1 s, delay 500 ms, `merge replace`) at 0; B (to 200 over 1 s, delay 1.5 s, fill
  /// backwards) at 100 ms waits to add; C (to −100 over 1 s, delay 1 s, `merge replace`) at
  /// 200 ms. A starts at 500 ms and spares B, placed after it. C starts at 1.2 s, from A's
  /// 70, and drops B, placed before it: B never starts. At 1.7 s, C at half way: 70 + (−100
  /// − 70) · 0.5 = −15. (A's sparing put B at the top of the list, above C, and C spared it
  /// in turn: B started at 1.6 s; seed 23018059.)
  @Test func aTakeoverDropsWhatWasPlacedBeforeItWhereverItStandsInTheList() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(
      p, with: .tween(to: .number(100), duration: 1 * s, delay: 500 * ms, composition: .replace),
      placement: .engine(at: 0))
    try engine.advance(to: 100 * ms)
    let b = try engine.animate(
      p, with: .tween(to: .number(200), duration: 1 * s, delay: 1_500 * ms, fill: .backwards),
      placement: .engine(at: 100 * ms))
    try engine.advance(to: 200 * ms)
    _ = try engine.animate(
      p, with: .tween(to: .number(-100), duration: 1 * s, delay: 1 * s, composition: .replace),
      placement: .engine(at: 200 * ms))
    try engine.advance(to: 1_700 * ms) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(abs(number(engine, p) - -15) < 1e-9)
    #expect(recorder.nodeEvents(b).isEmpty)
    #expect(!engine.contains(b))
  }

  /// A timeline played again from its end applies its `set` items in item order (grammar.md §
  /// Control), whatever its record of where it stood before: each puts back what it
  /// recorded, the latest first, then each records the value now and applies, the earliest
  /// first. p = 13; T (1 s) holds S1 (`set p to −17`) at 200 ms and S2 (`set p to −61`) at
  /// 600 ms. Played at 0: S1 records 13 and sets −17, S2 records −17 and sets −61; T
  /// completes at 1 s. Paused at 1.2 s and resumed at 1.4 s (a finished timeline: nothing
  /// moves), cancelled at 1.5 s (p keeps −61), sped to −1 at 1.6 s and played at 2 s from its
  /// end: S2 puts back −17, S1 puts back 13; S1 records 13 and sets −17, S2 records −17 and
  /// sets −61: −61 at 2 s. Going back, S2 is crossed at 2.4 s (T at 600 ms): −17 at 2.5 s; S1
  /// at 2.8 s: 13 at 2.9 s. (Seed 23003779: the pause and resume past its end had left T's
  /// record of its time past its end, so `play` took the jump to its end for a jump back
  /// and applied S2 before S1: −17 at 2 s.)
  @Test func aTimelinePlayedAgainFromItsEndAppliesItsSetsInItemOrderAfterAPausePastItsEnd() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(13))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 1 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.addSet(p, to: .number(-17), in: t, at: 200 * ms)
    _ = try engine.addSet(p, to: .number(-61), in: t, at: 600 * ms)
    try engine.play(t)
    try engine.advance(to: 1_200 * ms)
    #expect(number(engine, p) == -61)
    try engine.pause(t)
    try engine.advance(to: 1_400 * ms)
    try engine.resume(t)
    try engine.advance(to: 1_500 * ms)
    try engine.cancel(t)
    #expect(number(engine, p) == -61)
    try engine.advance(to: 1_600 * ms)
    try engine.setRate(-1, of: t)
    try engine.advance(to: 2 * s)
    try engine.play(t)
    for (time, expected) in [(2 * s, -61.0), (2_300 * ms, -61.0), (2_500 * ms, -17.0), (2_900 * ms, 13.0)] {
      try engine.advance(to: time)
      #expect(number(engine, p) == expected, "at \(time) ns")
    }
  }

  /// Standing at a start (grammar.md § Timing): an item whose timeline is played and paused
  /// at once has not started and shows its before phase, also one whose start is its end.
  /// T (3 s) holds A at 0 (p from 10 to 20 over 500 ms, delay −600 ms, fill backwards: its
  /// negative delay skips it all, so it starts and ends at T's 0) and B at 0 (q from 5 to 7
  /// over 0s, fill backwards). Played and paused at 0: A shows max(0 − (−600 ms), 0) into
  /// it, at most its end: 20; B its `from`, 5; nothing fires. (Both read their base values,
  /// 0 and 0: by Web Animations' phases they are past their ends there, and the engine did
  /// not know they had not crossed their starts; seed 24139644.)
  @Test func anItemWhoseStartIsItsEndShowsItsBeforePhaseWhenItsTimelineIsPlayedAndPausedAtOnce() throws {
    var engine = AnimationEngine()
    var recorder = Recorder()
    let p = engine.addProperty(.number(0))
    let q = engine.addProperty(.number(0))
    let t = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards), placement: .engineIdle)
    _ = try engine.animate(
      p, with: .tween(from: .number(10), to: .number(20), duration: 500 * ms, delay: -600 * ms, fill: .backwards),
      placement: .timeline(t, at: 0))
    _ = try engine.animate(
      q, with: .tween(from: .number(5), to: .number(7), duration: 0, fill: .backwards), placement: .timeline(t, at: 0))
    try engine.play(t)
    try engine.pause(t)
    try engine.advance(to: 0) { _, e in recorder.events.append((e.time, e.kind, e.subject)) }
    #expect(number(engine, p) == 20)
    #expect(number(engine, q) == 5)
    #expect(recorder.events.isEmpty)
  }
}
