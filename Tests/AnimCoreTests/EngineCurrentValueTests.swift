import AnimTestSupport
import Foundation
import Testing

@testable import AnimCore

/// The fast reads (`currentValue(of:)`, `currentNumber(of:)`) give what `value(of:)`
/// computes, after every advance, whatever was done to the engine in between.
///
/// The engine refreshes only the properties some animation is showing a value on, so
/// these tests drive every way an animation starts and stops showing one: starts and
/// completes in both directions, fills, timelines, retargets, control, removal, `set`,
/// snapshot and restore.
@Suite("Engine: current values")
struct EngineCurrentValueTests {
  /// Checks every property's fast reads against the full evaluation now.
  func expectCurrentValues(_ engine: AnimationEngine, _ properties: [PropertyID], _ step: String) {
    for property in properties {
      let exact = engine.value(of: property)
      let current = engine.currentValue(of: property)
      #expect(current == exact, "\(step): property \(property)")
      if case .number(let x) = exact {
        #expect(engine.currentNumber(of: property) == x, "\(step): property \(property)")
      } else {
        #expect(engine.currentNumber(of: property) == nil)
      }
    }
  }

  func randomCurve(_ random: inout SeededRandom) throws -> TimingCurve {
    func unit() -> Double { Double(random.next() % 1_000_000) / 1_000_000 }
    switch random.next() % 6 {
    case 0: return .linear
    case 1: return .easeInOut
    case 2: return .cubicBezier(try CubicBezier(unit(), unit() * 2 - 0.5, unit(), unit() * 2 - 0.5))
    case 3: return .steps(try Steps(count: 3, position: .jumpEnd))
    default:
      return .spring(try SpringCurve(spring: Spring(response: 0.2 + unit(), dampingFraction: 0.3 + unit() * 0.7)))
    }
  }

  /// A random walk of operations over a few properties of every value type.
  @Test(arguments: 0..<12)
  func fastReadsMatchTheFullEvaluationThroughRandomOperations(seed: UInt64) throws {
    var random = SeededRandom(seed: 1000 + seed)
    func unit() -> Double { Double(random.next() % 1_000_000) / 1_000_000 }
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    var engine = AnimationEngine()
    // Half the runs renumber the pending events' sequences often (node versions start over).
    if seed % 2 == 1 { engine.pending.sequenceLimit = 40 }
    var properties: [PropertyID] = (0..<6).map { _ in engine.addProperty(.number(0)) }
    properties.append(engine.addProperty(.vec2(Vec2(1, 2))))
    properties.append(engine.addProperty(.color(Color(red: 1, green: 0, blue: 0))))
    func randomValue(for property: PropertyID) -> AnimationValue {
      switch property.kind {
      case .number: .number(unit() * 200 - 100)
      case .vec2: .vec2(Vec2(unit() * 50, unit() * -50))
      case .vec3: .vec3(Vec3(unit(), unit(), unit()))
      case .vec4: .vec4(Vec4(unit(), unit(), unit(), unit()))
      case .color: .color(Color(red: unit(), green: unit(), blue: unit(), alpha: 0.5 + unit() / 2))
      }
    }
    var nodes: [NodeID] = []
    var timelines: [NodeID] = []
    for step in 0..<300 {
      let live = nodes.filter(engine.contains)
      let choice = random.next() % 16
      switch choice {
      case 0...4:
        // A standalone animation: any curve, delay, repeats, direction, fill, composition.
        let property = pick(properties)
        let curve = try randomCurve(&random)
        let animation = Animation.tween(
          from: random.next() % 4 == 0 ? randomValue(for: property) : nil, to: randomValue(for: property),
          duration: curve.isSpring ? nil : Nanoseconds(50 + random.next() % 900) * ms, curve: curve,
          delay: Nanoseconds(random.next() % 300) * ms, iterations: pick([1, 2, 1.5, .infinity]),
          direction: pick([.normal, .alternate, .reverse]), fill: pick([.forwards, .none, .both, .backwards]),
          composition: pick([.automatic, .replace]))
        nodes.append(try engine.animate(property, with: animation, placement: .engine(at: engine.now)))
      case 5:
        // A timeline with an animation or two in it, played.
        let timeline = try engine.addTimeline(
          timing: EffectTiming(
            duration: Nanoseconds(300 + random.next() % 700) * ms, iterations: pick([1, 2, .infinity]),
            direction: pick([.normal, .alternate]), fill: pick([.forwards, .none])))
        for _ in 0..<(1 + random.next() % 2) {
          let property = pick(properties)
          nodes.append(
            try engine.animate(
              property,
              with: .tween(
                to: randomValue(for: property), duration: Nanoseconds(100 + random.next() % 400) * ms,
                curve: try randomCurve(&random), fill: .forwards),
              placement: .timeline(timeline, at: Nanoseconds(random.next() % 300) * ms)))
        }
        try engine.play(timeline)
        timelines.append(timeline)
        nodes.append(timeline)
      case 6 where !live.isEmpty: try engine.pause(pick(live))
      case 7 where !live.isEmpty: try engine.resume(pick(live))
      case 8 where !live.isEmpty: try engine.reverse(pick(live))
      case 9 where !live.isEmpty: try engine.setRate(pick([0.5, 2, -1, 0]), of: pick(live))
      case 10 where !live.isEmpty: try engine.seek(pick(live), to: Nanoseconds(random.next() % 1500) * ms)
      case 11 where !live.isEmpty: try? engine.finish(pick(live))
      case 12 where !live.isEmpty: try engine.cancel(pick(live))
      case 13 where !live.isEmpty: try engine.remove(pick(live))
      case 14 where random.next() % 2 == 0:
        let property = pick(properties)
        let track = Animation(
          shape: .keyframes([
            Keyframe(offset: 0.3, value: randomValue(for: property), curve: .easeIn),
            Keyframe(offset: 1, value: randomValue(for: property), curve: try randomCurve(&random)),
          ]),
          timing: EffectTiming(duration: Nanoseconds(100 + random.next() % 600) * ms, fill: .forwards))
        nodes.append(try engine.animate(property, with: track, placement: .engine(at: engine.now)))
      case 14:
        let property = pick(properties)
        try engine.set(property, to: randomValue(for: property))
      default:
        if random.next() % 10 == 0 {
          // Through a snapshot: the restored engine reads the same.
          let limit = engine.pending.sequenceLimit
          engine = try JSONDecoder().decode(AnimationEngine.self, from: JSONEncoder().encode(engine))
          engine.pending.sequenceLimit = limit
          expectCurrentValues(engine, properties, "step \(step), restored")
        }
      }
      try engine.advance(to: engine.now + Nanoseconds(random.next() % 120) * ms)
      expectCurrentValues(engine, properties, "step \(step), op \(choice)")
    }
    properties.removeAll()
  }

  @Test func aCompletedAnimationLeavesItsFinalValueAndStopsBeingRefreshed() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(p, with: .tween(to: .number(10), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    #expect(engine.currentNumber(of: p) == engine.value(of: p).number)
    try engine.advance(to: 2 * s)
    #expect(engine.currentNumber(of: p) == 10)
    #expect(engine.stores.numbers.showing.allSatisfy { $0 == 0 })
  }

  /// Regression: a replacing animation that took its property over wrote back its own
  /// list link from before the takeover, leaving a removed animation in the property's
  /// list; when that slot was reused by an animation of another property, the first
  /// property showed the other's values.
  @Test func aTakeoverLeavesThePropertysAnimationListIntact() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let q = engine.addProperty(.number(0))
    _ = try engine.animate(p, with: .tween(to: .number(10), duration: s), placement: .engine(at: 0))
    _ = try engine.animate(p, with: .tween(to: .number(20), duration: s), placement: .engine(at: 100 * ms))
    let takeover = try engine.animate(
      p, with: .tween(to: .number(-5), duration: s, composition: .replace), placement: .engine(at: 200 * ms))
    try engine.advance(to: 300 * ms)
    #expect(engine.animations(on: p) == [takeover])
    _ = try engine.animate(q, with: .tween(to: .number(1000), duration: s), placement: .engine(at: 300 * ms))
    _ = try engine.animate(q, with: .tween(to: .number(2000), duration: s), placement: .engine(at: 300 * ms))
    try engine.advance(to: 700 * ms)
    #expect(engine.animations(on: p) == [takeover])
    let value = try #require(engine.value(of: p).number)
    #expect(value <= 0 && value >= -5)
    #expect(engine.currentNumber(of: p) == value)
  }

  /// Near the ends of the clock's range the sampler's time since its active start
  /// overflows where the general path saturates: both must give the same values. (Nothing
  /// may end after the end of time, 2⁶² ns, so the top of the range is just below it.)
  @Test(arguments: [AnimationEngine.endOfTime - 3 * s, Nanoseconds.min + s])
  func fastReadsMatchAtTheEndsOfTheClock(start: Nanoseconds) throws {
    var engine = AnimationEngine(startingAt: start)
    let p = engine.addProperty(.number(1))
    let q = engine.addProperty(.number(2))
    _ = try engine.animate(p, with: .tween(to: .number(5), duration: s, fill: .both), placement: .engine(at: start))
    _ = try engine.animate(
      q, with: .tween(to: .number(9), duration: s, curve: .easeIn, delay: 500 * ms, fill: .none),
      placement: .engine(at: start + 100 * ms))
    for k in 1...40 {
      try engine.advance(to: start + Nanoseconds(k) * 70 * ms)
      #expect(engine.currentNumber(of: p) == engine.value(of: p).number)
      #expect(engine.currentNumber(of: q) == engine.value(of: q).number)
    }
  }

  @Test func aRemovedAnimationStopsShowingAtOnce() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(3))
    let node = try engine.animate(p, with: .tween(to: .number(10), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    #expect(engine.currentNumber(of: p) != 3)
    try engine.remove(node)
    try engine.advance(to: 600 * ms)
    #expect(engine.currentNumber(of: p) == 3)
  }
}

extension AnimationValue {
  var number: Double? {
    if case .number(let x) = self { return x }
    return nil
  }
}

@Suite("Engine: memory layout")
struct EngineLayoutTests {
  /// A sampler is read for every showing animation on every frame: 56 bytes for a number.
  @Test func aNumberSamplerIsFiftySixBytes() {
    #expect(MemoryLayout<Sampler<Double>>.stride == 56)
  }

  /// Sizes the engine's per-animation memory depends on (engine.memory): a field added in
  /// the wrong place grows every node by 8 or 16 bytes.
  @Test func aNodeStaysFiftySixBytes() {
    #expect(MemoryLayout<AnimationEngine.Node>.stride == 56)
  }

  /// An effect keeps its one-byte members in a bitfield and a spring's velocity aside.
  @Test func aNumberEffectIsFortyBytes() {
    #expect(MemoryLayout<Effect<Double>>.stride == 40)
  }
}

/// A property's id in four bytes (`PropertyID.packed`), as the runtime's table keeps it.
@Test func aPropertyIDPacksInFourBytes() {
  for kind in ValueKind.allCases {
    for index: Int32 in [0, 1, 4_095, (1 << 29) - 1] {
      let id = PropertyID(kind: kind, index: index)
      #expect(id.packed.map(PropertyID.init(packed:)) == id)
    }
    #expect(PropertyID(kind: kind, index: 1 << 29).packed == nil)
    #expect(PropertyID(kind: kind, index: -1).packed == nil)
  }
}
