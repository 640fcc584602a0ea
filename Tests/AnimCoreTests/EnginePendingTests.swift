import AnimTestSupport
import Foundation
import Testing

@testable import AnimCore

/// The pending-event queue in the engine: 32-bit sequences renumbered before they wrap, a
/// heap kept small with later entries waiting outside it, properties leaving rest queued
/// apart, and all of it written to and read from snapshots. (The queue on its own:
/// `PendingEventQueueTests`.)
@Suite("Engine: the pending-event queue")
struct EnginePendingTests {
  /// Callbacks recorded as (time, key), and node events as (time, kind, node).
  struct Fired {
    var callbacks: [(time: Nanoseconds, key: Int)] = []
    var nodes: [(time: Nanoseconds, kind: EngineEvent.Kind, node: NodeID)] = []

    mutating func record(_ e: EngineEvent) {
      switch (e.kind, e.subject) {
      case (.callback(let key), .engine): callbacks.append((e.time, key))
      case (_, .node(let node)): nodes.append((e.time, e.kind, node))
      default: break
      }
    }

    func times(_ kind: EngineEvent.Kind, _ node: NodeID) -> [Nanoseconds] {
      nodes.filter { $0.kind == kind && $0.node == node }.map(\.time)
    }
  }

  @Test func sameInstantOrderSurvivesRenumberingTheSequences() throws {
    var engine = AnimationEngine()
    engine.pending.sequenceLimit = 64
    var random = SeededRandom(seed: 7)
    var scheduled: [(time: Nanoseconds, key: Int)] = []
    var fired = Fired()
    var animations: [(node: NodeID, start: Nanoseconds, end: Nanoseconds)] = []
    let properties = (0..<5).map { _ in engine.addProperty(.number(0)) }
    // Rescheduled every round (a pause and a play), so its entry is renumbered many times.
    let long = try engine.animate(
      engine.addProperty(.number(0)), with: .tween(to: .number(1), duration: 300 * ms), placement: .engine(at: 0))
    for round in 0..<40 {
      let base = Nanoseconds(round) * 10 * ms
      for _ in 0..<20 {
        // Four instants a round: many callbacks share one.
        let time = base + Nanoseconds(random.next() % 4) * ms
        engine.schedule(callback: scheduled.count, at: time)
        scheduled.append((time, scheduled.count))
      }
      let node = try engine.animate(
        properties[round % 5], with: .tween(to: .number(Double(round)), duration: 5 * ms), placement: .engine(at: base))
      animations.append((node, base, base + 5 * ms))
      if engine.contains(long) {
        try engine.pause(long)
        try engine.play(long)
      }
      try engine.advance(to: base + 10 * ms - 1) { _, e in fired.record(e) }
      #expect(engine.pending.lastSequence <= engine.pending.sequenceLimit)
    }
    // 800 callbacks and more node entries than that went through 64 sequences.
    let expected = scheduled.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
    #expect(fired.callbacks.map(\.key) == expected.map(\.element.key))
    #expect(fired.callbacks.map(\.time) == expected.map(\.element.time))
    for (node, start, end) in animations {
      #expect(fired.times(.start, node) == [start])
      #expect(fired.times(.complete, node) == [end])
    }
    #expect(fired.times(.complete, long) == [300 * ms])
  }

  @Test func propertiesLeaveRestBehindTheAnimationsEventsAndBeforeCallbacks() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(0))
    // Added now, starting now: the node's start, then the property's, then the callback
    // (scheduled before either).
    engine.schedule(callback: 1, at: 0)
    let a = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 0, log: &log)
    #expect(
      log.entries.map { "\($0.kind) \($0.subject)" }
        == [
          "\(EngineEvent.Kind.start) \(EngineEvent.Subject.node(a))", "start \(EngineEvent.Subject.property(x))",
          "callback(1) engine",
        ])
    // At 1 s: `a` completes and x comes to rest; the handler starts an animation on y at
    // that instant. The callback due then comes first; y's animation starts in the next
    // round at the same instant, its node ahead of its property.
    engine.schedule(callback: 2, at: s)
    var b: NodeID?
    var order: [String] = []
    try engine.advance(to: 2 * s) { engine, e in
      order.append("\(e.kind) \(e.subject) \(e.time)")
      if e.kind == .complete, e.subject == .node(a) {
        b = try? engine.animate(y, with: .tween(to: .number(1), duration: s), placement: .engine(at: engine.now))
      }
    }
    let bNode = try #require(b)
    #expect(
      order == [
        "complete \(EngineEvent.Subject.node(a)) \(s)", "complete \(EngineEvent.Subject.property(x)) \(s)",
        "callback(2) engine \(s)", "start \(EngineEvent.Subject.node(bNode)) \(s)",
        "start \(EngineEvent.Subject.property(y)) \(s)", "complete \(EngineEvent.Subject.node(bNode)) \(2 * s)",
        "complete \(EngineEvent.Subject.property(y)) \(2 * s)",
      ])
  }

  @Test func aDelayedAnimationTakesItsPropertyAtOnceButStartsLater() throws {
    var engine = AnimationEngine(startingAt: 5 * s)
    let x = engine.addProperty(.number(0))
    let a = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .engine(at: 6 * s))
    #expect(engine.nextEventTime == 5 * s)
    #expect(engine.hasPendingWork)
    var log = Log()
    try advance(&engine, to: 7 * s, log: &log)
    #expect(log.times(of: .start, .property(x)) == [5 * s])
    #expect(log.times(of: .start, .node(a)) == [6 * s])
    #expect(log.times(of: .complete, .property(x)) == [7 * s])
    #expect(!engine.hasPendingWork)
    #expect(engine.nextEventTime == nil)
  }

  @Test func theLeavingRestQueueKeepsEveryPropertyInOrder() {
    let kinds: [ValueKind] = [.number, .vec2, .vec3, .vec4, .color]
    var queue = LeavingRestQueue()
    var expected: [PropertyID] = []
    for (i, index) in [0, 1, (1 << 29) - 1, 1 << 29, Int(Int32.max), 7, 1 << 30, 3].enumerated() {
      let property = PropertyID(kind: kinds[i % kinds.count], index: Int32(index))
      queue.append(property)
      expected.append(property)
    }
    #expect(queue.properties == expected)
    var list = [PropertyID(kind: .color, index: 9)]
    queue.drain(into: &list)
    #expect(list == [PropertyID(kind: .color, index: 9)] + expected)
    #expect(queue.isEmpty)
    queue.append(expected[3])
    queue.append(expected[0])
    #expect(queue.properties == [expected[3], expected[0]])
  }

  @Test func callbackKeysOfAnySizeComeBackExactly() throws {
    var engine = AnimationEngine()
    let keys = [0, 1, (1 << 30) - 1, 1 << 30, Int.max, -1, Int.min, 42, Int(Int32.max), -(1 << 40)]
    for (i, key) in keys.enumerated() { engine.schedule(callback: key, at: Nanoseconds(i % 3) * ms) }
    var fired: [Int] = []
    try engine.advance(to: s) { _, e in if case .callback(let key) = e.kind { fired.append(key) } }
    let expected = keys.enumerated().sorted { ($0.offset % 3, $0.offset) < ($1.offset % 3, $1.offset) }.map(\.element)
    #expect(fired == expected)
    // Freed slots are used again, and still give the right keys.
    for key in keys.reversed() { engine.schedule(callback: key, at: 2 * s) }
    fired = []
    try engine.advance(to: 3 * s) { _, e in if case .callback(let key) = e.kind { fired.append(key) } }
    #expect(fired == keys.reversed())
  }

  /// Against a plain model: every callback at its time, in (time, scheduling order), with
  /// handlers scheduling more, and every animation's start and complete at its exact time,
  /// however small the heap is kept.
  @Test(arguments: [1, 2, 3, 8, 64, PendingEventQueue.defaultNearLimit], [UInt32.max, 2_200])
  func aSmallHeapHandsOutEverythingInOrder(nearLimit: Int, sequenceLimit: UInt32) throws {
    var engine = AnimationEngine()
    engine.pending.nearLimit = nearLimit
    engine.pending.splitSize = nearLimit
    // 2,200: the sequences are renumbered while later entries wait in buckets.
    engine.pending.sequenceLimit = sequenceLimit
    var random = SeededRandom(seed: UInt64(nearLimit))
    var scheduled: [(time: Nanoseconds, key: Int)] = []
    for _ in 0..<2_000 {
      let time = Nanoseconds(random.next() % 200) * ms
      engine.schedule(callback: scheduled.count, at: time)
      scheduled.append((time, scheduled.count))
    }
    var animations: [(node: NodeID, start: Nanoseconds, end: Nanoseconds)] = []
    for _ in 0..<100 {
      let start = Nanoseconds(random.next() % 150) * ms
      let duration = Nanoseconds(1 + random.next() % 50) * ms
      let node = try engine.animate(
        engine.addProperty(.number(0)), with: .tween(to: .number(1), duration: duration), placement: .engine(at: start))
      animations.append((node, start, start + duration))
    }
    #expect(engine.nextEventTime == 0)
    #expect(engine.hasPendingCallbacks)
    var fired = Fired()
    var now: Nanoseconds = 0
    while now < 260 * ms {
      now += Nanoseconds(random.next() % 20) * ms + Nanoseconds(random.next() % 3)
      try engine.advance(to: now) { engine, e in
        fired.record(e)
        // Every tenth callback schedules another, now or a little later.
        if case .callback(let key) = e.kind, key % 10 == 0 {
          let time = engine.now + Nanoseconds(key % 3) * ms
          engine.schedule(callback: scheduled.count, at: time)
          scheduled.append((time, scheduled.count))
        }
      }
    }
    let expected = scheduled.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
    #expect(fired.callbacks.count == scheduled.count)
    #expect(fired.callbacks.map(\.key) == expected.map(\.element.key))
    #expect(fired.callbacks.map(\.time) == expected.map(\.element.time))
    for (node, start, end) in animations {
      #expect(fired.times(.start, node) == [start])
      #expect(fired.times(.complete, node) == [end])
    }
    #expect(!engine.hasPendingWork)
    #expect(!engine.hasPendingCallbacks)
    #expect(engine.nextEventTime == nil)
    if sequenceLimit < .max {
      // Renumbered: fewer sequences in use than callbacks were scheduled.
      #expect(engine.pending.lastSequence < UInt32(scheduled.count))
    }
  }

  @Test func renumberingWhileTheHeapHoldsEverythingLeavesRoomForLaterEntries() throws {
    var engine = AnimationEngine()
    engine.pending.nearLimit = 2
    engine.pending.splitSize = 2
    engine.pending.sequenceLimit = 2
    engine.schedule(callback: 1, at: 1 * ms)
    engine.schedule(callback: 2, at: 2 * ms)  // the heap splits: its horizon is 2 ms now
    engine.schedule(callback: 3, at: 5 * ms)  // renumbered first, then due after the horizon
    engine.schedule(callback: 4, at: 2 * ms)
    var fired: [Int] = []
    try engine.advance(to: 10 * ms) { _, e in if case .callback(let k) = e.kind { fired.append(k) } }
    #expect(fired == [1, 2, 4, 3])
  }

  @Test func aLongChainAtOneInstantIsStillAnErrorWithASmallHeap() throws {
    var engine = AnimationEngine()
    engine.pending.nearLimit = 2
    engine.pending.splitSize = 2
    for k in 0..<10 { engine.schedule(callback: 100 + k, at: Nanoseconds(k) * s) }
    #expect(throws: EngineError.tooManyEventsAtOneInstant(0)) {
      try engine.advance(to: s / 2) { engine, _ in engine.schedule(callback: 0, at: engine.now) }
    }
    var fired: [Int] = []
    try engine.advance(to: 20 * s) { _, e in if case .callback(let k) = e.kind { fired.append(k) } }
    #expect(fired == Array(101..<110))
  }

  /// An engine with pending callbacks (small keys and large, some waiting outside the
  /// heap), node entries and a property leaving rest.
  func busyEngine() throws -> (AnimationEngine, [PropertyID]) {
    var engine = AnimationEngine()
    engine.pending.nearLimit = 4
    engine.pending.splitSize = 4
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(5))
    _ = try engine.animate(x, with: .tween(to: .number(10), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 100 * ms)
    for k in 0..<60 {
      engine.schedule(callback: k % 7 == 0 ? Int.min + k : k, at: 100 * ms + Nanoseconds(k % 9) * 50 * ms)
    }
    // Added and not yet advanced: y's leaving rest is pending.
    _ = try engine.animate(y, with: .tween(to: .number(0), duration: s), placement: .engine(at: 300 * ms))
    #expect(!engine.pending.laterBuckets.isEmpty)
    #expect(!engine.propertiesLeavingRest.isEmpty)
    return (engine, [x, y])
  }

  func run(_ engine: inout AnimationEngine, _ properties: [PropertyID]) throws -> [String] {
    var events: [String] = []
    for k in 0...90 {
      try engine.advance(to: 100 * ms + frameTime(Int64(k), fps: 60)) { _, e in events.append("\(e)") }
      events += properties.map { "\(engine.value(of: $0))" }
    }
    return events
  }

  @Test func aSnapshotKeepsPendingCallbacksAndTheirOrder() throws {
    var (engine, properties) = try busyEngine()
    let json = try JSONEncoder().encode(engine)
    var restored = try JSONDecoder().decode(AnimationEngine.self, from: json)
    // The order comes from the sequences written, not from where the entries are.
    var object = try JSONSerialization.jsonObject(with: json) as! [String: Any]
    let saved = object["pending"] as! [[String: Any]]
    #expect(saved.count == 60 + 1 + 1 + 1)  // callbacks, two nodes, a property leaving rest
    #expect(saved.allSatisfy { Set($0.keys) == ["time", "sequence", "node", "version", "key"] })
    object["pending"] = Array(saved.reversed())
    var shuffled = try JSONDecoder().decode(
      AnimationEngine.self, from: JSONSerialization.data(withJSONObject: object))
    let original = try run(&engine, properties)
    #expect(try run(&restored, properties) == original)
    #expect(try run(&shuffled, properties) == original)
    #expect(original.filter { $0.contains("callback") }.count == 60)
    #expect(original.contains { $0.contains("start") && $0.contains("property") })
  }

  @Test func aSnapshotWithBadPendingEntriesIsRefused() throws {
    let (engine, _) = try busyEngine()
    let json = try JSONEncoder().encode(engine)
    for bad in [["node": 99], ["node": -2, "key": 7 << 32], ["node": -3]] as [[String: Any]] {
      var object = try JSONSerialization.jsonObject(with: json) as! [String: Any]
      var saved = object["pending"] as! [[String: Any]]
      saved[0].merge(bad) { _, new in new }
      object["pending"] = saved
      let data = try JSONSerialization.data(withJSONObject: object)
      #expect(throws: (any Error).self) { try JSONDecoder().decode(AnimationEngine.self, from: data) }
    }
  }
}
