// The engine: properties, animations, timelines and scheduled callbacks on one clock.
//
// Everything that moves is a node: a property animation (an effect), a timeline, or a
// callback placed in a timeline. A node has an effect timing (Web Animations) and a playback
// (start time, hold time, rate) against its parent's time: the engine's time for top-level
// nodes, the timeline's iteration time for its children. Nothing is accumulated: every local
// time is computed from the engine time down the chain of parents, so pausing, reversing and
// seeking are exact.
//
// The engine is a value. It calls nothing back: `advance(to:)` hands each event, at its exact
// time and in order, to a handler that may change the engine (`inout`), and callbacks are keys
// the embedder binds. So the whole state is `Codable`.

import HeapModule

/// A property in an engine.
public struct PropertyID: Sendable, Hashable, Codable, Comparable {
  public let kind: ValueKind
  @usableFromInline let index: Int32

  public static func < (lhs: PropertyID, rhs: PropertyID) -> Bool {
    (lhs.kind.order, lhs.index) < (rhs.kind.order, rhs.index)
  }
}

extension ValueKind {
  /// The kind whose `order` is `order`, if any.
  init?(order: Int) {
    switch order {
    case 0: self = .number
    case 1: self = .vec2
    case 2: self = .vec3
    case 3: self = .vec4
    case 4: self = .color
    default: return nil
    }
  }

  var order: Int {
    switch self {
    case .number: 0
    case .vec2: 1
    case .vec3: 2
    case .vec4: 3
    case .color: 4
    }
  }
}

/// An animation, timeline or placed callback in an engine. Stale after the node is removed.
public struct NodeID: Sendable, Hashable, Codable {
  let index: Int32
  let generation: UInt32
}

/// What an engine can refuse.
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The node was removed (or never existed).
  case unknownNode
  /// The property does not exist.
  case unknownProperty
  /// A value of the wrong type for the property.
  case typeMismatch(expected: ValueKind, found: ValueKind)
  /// A timeline was expected.
  case notATimeline
  /// `finish` on something that never ends.
  case finishesNever
  /// A chain of more than `AnimationEngine.eventLimitPerInstant` events at one instant:
  /// handlers that schedule each other without time passing.
  case tooManyEventsAtOneInstant(Nanoseconds)
  /// A keyframe track with no keyframes, or offsets outside 0...1 or out of order.
  case invalidKeyframes
  /// It would end after the end of time (`AnimationEngine.endOfTime`): a rate so slow, or a
  /// length so long, that its end has no clock time.
  case endsAfterEndOfTime

  public var description: String {
    switch self {
    case .unknownNode: "no such animation or timeline"
    case .unknownProperty: "no such property"
    case .typeMismatch(let expected, let found): "expected a \(expected) value, found a \(found)"
    case .notATimeline: "not a timeline"
    case .finishesNever: "it repeats forever, so it never finishes"
    case .tooManyEventsAtOneInstant(let t):
      "a chain of more than \(AnimationEngine.eventLimitPerInstant) events at \(seconds(t))s: handlers schedule each other without time passing"
    case .invalidKeyframes: "keyframe offsets must be in 0...1 and in order"
    case .endsAfterEndOfTime:
      "it would end after the end of time (2^62 ns, about 146 years): its length over its speed is too long"
    }
  }
}

/// Something that happened at an exact engine time.
public struct EngineEvent: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// A node or property started (a property: it left rest).
    case start
    /// A node crossed a boundary between passes.
    case `repeat`
    /// A node finished in its direction of travel; a property came to rest.
    case complete
    /// A callback's time came: the key given to `schedule` or `addCallback`.
    case callback(Int)
    /// An animation that resolves its values at start is starting: call `setValues` now.
    case needsValues
    /// The real clock skipped this much time (a suspension), which was treated as a pause.
    case clockGap(Nanoseconds)
  }

  /// What the event is about.
  public enum Subject: Sendable, Hashable {
    case node(NodeID)
    case property(PropertyID)
    case engine
  }

  public var kind: Kind
  public var subject: Subject
  /// The exact engine time of the event.
  public var time: Nanoseconds
  /// Whether it was crossed moving backwards.
  public var isReversed: Bool
}

/// The state of a node, for status displays.
public struct NodeStatus: Sendable, Hashable {
  public enum State: String, Sendable, Hashable { case playing, paused, finished, idle }
  public var state: State
  /// The playback rate (negative: reversed).
  public var rate: Double
  /// Local time now.
  public var localTime: Nanoseconds
  /// The end of the active interval; nil when it repeats forever.
  public var duration: Nanoseconds?
  /// Local time / duration, 0...1 (nil when infinite).
  public var progress: Double?
  /// Whether it is a timeline.
  public var isTimeline: Bool
  /// The pass it is in (1 for the first; before its start, 1; after its end, the last).
  public var pass: Int = 1
  /// How many passes it has (`.infinity` for `repeat forever`; may be fractional).
  public var passCount: Double = 1
}

/// The animation engine.
public struct AnimationEngine: Sendable {
  /// More events than this at one instant is an error, not a hang.
  public static let eventLimitPerInstant = 10_000

  /// The end of time: 2⁶² ns, about 146 years. Nothing may be due after it, so that a time
  /// plus a duration below it never overflows.
  public static let endOfTime: Nanoseconds = 1 << 62

  /// How many rounds of events one instant may have (each round's handlers scheduling the
  /// next at the same instant) before it is an error: `eventLimitPerInstant` unless the
  /// embedder counts chains its own way and sets a looser backstop (the language's runtime
  /// counts handler runs, which take more than one round each). Not part of a snapshot.
  public var roundLimitPerInstant = AnimationEngine.eventLimitPerInstant

  /// Storage per value type.
  public struct Stores: Sendable, Codable {
    @usableFromInline var numbers = ValueStore<Double>()
    var vec2s = ValueStore<Vec2>()
    var vec3s = ValueStore<Vec3>()
    var vec4s = ValueStore<Vec4>()
    var colors = ValueStore<Color>()
  }

  enum NodeKind: UInt8, Sendable, Codable {
    case free, effect, timeline, callback
  }

  /// A node, laid out small (56 bytes; a test pins it): its four times, its indices, and its
  /// flags in one 16-bit word. The playback rate and the iteration count are 1 for nearly
  /// every node; a node with others keeps them in `nodeExtras` (see `playback(of:)` and
  /// `timing(of:)`, which put the whole `Playback` and `EffectTiming` back together).
  struct Node: Sendable {
    /// The playback's start time while it runs, its hold time while it is held: Web
    /// Animations never needs both, since releasing a hold solves for a new start time.
    var time: Nanoseconds
    /// The timing's delay and iteration duration.
    var delay: Nanoseconds
    var duration: Nanoseconds
    /// Local time as of the last event processing (what has been crossed so far).
    var lastLocal: Nanoseconds {
      didSet { if lastLocal != oldValue { turn = 0 } }
    }
    /// The parent timeline's node, or -1 for the engine itself.
    var parent: Int32
    /// The effect, timeline or callback record.
    var payload: Int32
    var generation: UInt32
    /// A top-level node's place in the order nodes were made in, which orders their events
    /// at one instant (renumbered from 0, in order, before it would wrap). Unused for a node
    /// in a timeline.
    var order: UInt32 = 0
    /// Its rate, iteration count and end delay in `nodeExtras`, or -1 for the defaults
    /// (1, 1 and 0; a node's end delay is always 0 today).
    var extras: Int32 = -1
    /// kind (2 bits), value kind (3), started, cancelled, held, paused, direction (2), fill (2).
    private var bits: UInt16 = 0
    /// +1 (−1) when `lastLocal` is one of its own points (its start, a pass boundary; its
    /// end going backwards) that it reached and crossed moving forwards (backwards): turning
    /// back there crosses that point again at once, as a node that completes at its edge,
    /// recorded a nanosecond past it, does. 0 otherwise (any move clears it). (After `bits`,
    /// in their padding: a node stays 56 bytes.)
    var turn: Int8 = 0

    init(parent: Int32, payload: Int32, generation: UInt32, kind: NodeKind, valueKind: ValueKind) {
      time = 0
      delay = 0
      duration = 0
      lastLocal = 0
      self.parent = parent
      self.payload = payload
      self.generation = generation
      self.kind = kind
      self.valueKind = valueKind
    }

    @inline(__always) private func field(_ shift: UInt16, _ width: UInt16) -> UInt16 {
      bits >> shift & (1 << width - 1)
    }
    @inline(__always) private mutating func setField(_ shift: UInt16, _ width: UInt16, _ value: UInt16) {
      let mask: UInt16 = (1 << width - 1) << shift
      bits = bits & ~mask | (value << shift & mask)
    }

    var kind: NodeKind {
      get { NodeKind(rawValue: UInt8(field(0, 2))) ?? .free }
      set { setField(0, 2, UInt16(newValue.rawValue)) }
    }
    var valueKind: ValueKind {
      get { ValueKind(order: Int(field(2, 3))) ?? .number }
      set { setField(2, 3, UInt16(newValue.order)) }
    }
    /// Whether it has entered its active phase (an infinite node that has loops both ways).
    var hasStarted: Bool {
      get { field(5, 1) != 0 }
      set { setField(5, 1, newValue ? 1 : 0) }
    }
    /// An idle timeline, never played or cancelled: `play` starts it over, and `resume` leaves
    /// it idle.
    var isCancelled: Bool {
      get { field(6, 1) != 0 }
      set { setField(6, 1, newValue ? 1 : 0) }
    }
    /// Whether `time` is a hold time (the playback stands still).
    var isHeld: Bool {
      get { field(7, 1) != 0 }
      set { setField(7, 1, newValue ? 1 : 0) }
    }
    var isPaused: Bool {
      get { field(8, 1) != 0 }
      set { setField(8, 1, newValue ? 1 : 0) }
    }
    var direction: PlaybackDirection {
      get {
        switch field(9, 2) {
        case 0: .normal
        case 1: .reverse
        case 2: .alternate
        default: .alternateReverse
        }
      }
      set {
        switch newValue {
        case .normal: setField(9, 2, 0)
        case .reverse: setField(9, 2, 1)
        case .alternate: setField(9, 2, 2)
        case .alternateReverse: setField(9, 2, 3)
        }
      }
    }
    var fill: FillMode {
      get {
        switch field(11, 2) {
        case 0: .none
        case 1: .forwards
        case 2: .backwards
        default: .both
        }
      }
      set {
        switch newValue {
        case .none: setField(11, 2, 0)
        case .forwards: setField(11, 2, 1)
        case .backwards: setField(11, 2, 2)
        case .both: setField(11, 2, 3)
        }
      }
    }
  }

  /// A node's rarely set values (see `Node.extras`).
  struct NodeExtras: Sendable {
    var rate: Double
    var iterations: Double
    var endDelay: Nanoseconds
    /// A paused playback's `pausedOffset` (kept only at rates other than ±1, where the hold
    /// time does not give it back exactly).
    var pausedOffset: Nanoseconds? = nil
  }

  struct TimelineRecord: Sendable, Codable {
    var node: Int32
    var children: [Int32] = []
  }

  struct CallbackRecord: Sendable, Codable {
    var key: Int
    var firesBackwards: Bool
  }

  /// An entry of the pending-event queue, 16 bytes: the next event of a top-level node's
  /// tree, or a callback scheduled on the engine (its key in the entry when it is below
  /// 2^30, else in `engineCallbackKeys`).
  /// Ordered by time, then by sequence: at one instant, scheduling order.
  ///
  /// A node's entry is live while `versions[node]` is its sequence: rescheduling or
  /// removing the node changes that, and older entries are skipped when they come up.
  struct Pending: Comparable, Sendable {
    var time: Nanoseconds
    /// The sequence in the high half, the slot's bits in the low half.
    var tag: UInt64

    init(time: Nanoseconds, sequence: UInt32, slot: Int32) {
      self.time = time
      tag = UInt64(sequence) << 32 | UInt64(UInt32(bitPattern: slot))
    }

    var sequence: UInt32 {
      get { UInt32(truncatingIfNeeded: tag >> 32) }
      set { tag = UInt64(newValue) << 32 | (tag & 0xFFFF_FFFF) }
    }
    /// A top-level node (≥ 0), or an engine callback: `~(key << 1)` for a key in 0..<2^30,
    /// `~(s << 1 | 1)` for slot `s` of `engineCallbackKeys`.
    var slot: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: tag)) }

    /// One unsigned 128-bit comparison: the time with its sign bit flipped, then the tag.
    @inline(__always) var orderKey: UInt128 {
      UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(tag)
    }
    @inline(__always) static func < (a: Pending, b: Pending) -> Bool { a.orderKey < b.orderKey }
    @inline(__always) static func == (a: Pending, b: Pending) -> Bool { a.time == b.time && a.tag == b.tag }
  }

  /// The engine time of the last advance.
  public internal(set) var now: Nanoseconds = 0

  /// Pass boundaries of timelines crossed so far (a counter that only orders one instant's
  /// script events by when the playhead crossed them; not part of a snapshot).
  var passBoundariesCrossed = 0

  @usableFromInline var stores = Stores()
  var nodes = ChunkedArray<Node>()
  var freeNodes: [Int32] = []
  /// Per node: changed whenever its scheduled event may have changed; a top-level node's
  /// pending entry is live while this is the entry's sequence.
  var versions = ChunkedArray<UInt32>()
  var timelines: [TimelineRecord] = []
  var freeTimelines: [Int32] = []
  var callbacks: [CallbackRecord] = []
  var freeCallbacks: [Int32] = []
  /// Curves, shared by index.
  var curves: [TimingCurve] = []
  var curveIndex: [TimingCurve: Int32] = [:]
  /// Per curve: its kind and parameters' place, so that sampling reads no enum (CurveTables.swift).
  var curveEntries: [CurveEntry] = []
  var beziers: [CubicBezier] = []
  var springs: [SpringCurve] = []
  /// The rate and iteration count of the nodes that do not have both 1, by `Node.extras`.
  var nodeExtras: [NodeExtras] = []
  var freeNodeExtras: [Int32] = []
  /// The `order` the next top-level node gets.
  var nextOrder: UInt32 = 0
  /// Where orders are renumbered (lowered by tests, to reach it).
  var orderLimit: UInt32 = .max
  /// The pending events due up to `horizon`, in a heap; later ones wait unsorted in
  /// buckets by time, and the earliest bucket comes into the heap when it runs dry. A heap
  /// of everything (a million callbacks) would miss the cache at every level of every pop.
  var pending = Heap<Pending>()
  /// Every entry in `pending` is due at or before this; every one in a bucket after.
  var horizon: Nanoseconds = .max
  /// The buckets, the earliest last; each holds the entries due after the next one's
  /// bound (the horizon, for the last) and by its own bound. The first bound is `.max`.
  var laterBuckets: [ChunkedArray<Pending>] = []
  var laterBounds: [Nanoseconds] = []
  /// The size `pending` is kept near (lowered by tests, to reach it).
  var nearPendingLimit = AnimationEngine.defaultNearPendingLimit
  /// When `pending` grows to this, its later half moves out (see `splitPending`).
  var pendingSplitSize = AnimationEngine.defaultNearPendingLimit
  /// The last sequence given to a pending entry. When it would pass `sequenceLimit`, the
  /// live entries are renumbered from 1 in order, so scheduling order holds forever.
  var pendingSequence: UInt32 = 0
  /// Where sequences are renumbered (lowered by tests, to reach it).
  var sequenceLimit: UInt32 = .max
  /// The keys of callbacks scheduled on the engine, by slot; a free slot holds the next
  /// free slot (or -1), from `firstFreeEngineCallback`.
  var engineCallbackKeys: [Int] = []
  var firstFreeEngineCallback: Int32 = -1
  /// Properties that left rest, in order: their `start` is due at `now`, behind the
  /// animations' events due now. (Everything here is due now: advancing hands them out.)
  var propertiesLeavingRest = LeavingRestQueue()

  public init(startingAt time: Nanoseconds = 0) {
    now = time
  }

  // MARK: - Properties

  /// Adds a property with its initial (base) value.
  public mutating func addProperty(_ value: AnimationValue) -> PropertyID {
    switch value {
    case .number(let x): addProperty(x)
    case .vec2(let v): addProperty(v)
    case .vec3(let v): addProperty(v)
    case .vec4(let v): addProperty(v)
    case .color(let c): addProperty(c)
    }
  }

  mutating func addProperty<V: EngineValue>(_ value: V) -> PropertyID {
    stores[keyPath: V.store].properties.append(PropertySlot(base: value))
    stores[keyPath: V.store].currents.append(value)
    return PropertyID(kind: V.kind, index: Int32(stores[keyPath: V.store].properties.count - 1))
  }

  /// Whether the property is one of this engine's.
  public func contains(_ property: PropertyID) -> Bool {
    let count =
      switch property.kind {
      case .number: stores.numbers.properties.count
      case .vec2: stores.vec2s.properties.count
      case .vec3: stores.vec3s.properties.count
      case .vec4: stores.vec4s.properties.count
      case .color: stores.colors.properties.count
      }
    return property.index >= 0 && Int(property.index) < count
  }

  /// The property's value now (as of the last advance, or the event being handled).
  public func value(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: evaluate(Double.self, property.index, at: now).animationValue
    case .vec2: evaluate(Vec2.self, property.index, at: now).animationValue
    case .vec3: evaluate(Vec3.self, property.index, at: now).animationValue
    case .vec4: evaluate(Vec4.self, property.index, at: now).animationValue
    case .color: evaluate(Color.self, property.index, at: now).animationValue
    }
  }

  /// The property's value at engine time `time`, should nothing change until then.
  public func value(of property: PropertyID, at time: Nanoseconds) -> AnimationValue {
    switch property.kind {
    case .number: evaluate(Double.self, property.index, at: time).animationValue
    case .vec2: evaluate(Vec2.self, property.index, at: time).animationValue
    case .vec3: evaluate(Vec3.self, property.index, at: time).animationValue
    case .vec4: evaluate(Vec4.self, property.index, at: time).animationValue
    case .color: evaluate(Color.self, property.index, at: time).animationValue
    }
  }

  /// The value the property shows when no animation has output: its initial value, then
  /// the value each finished animation left, or the last `set`.
  public func baseValue(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: stores.numbers.properties[Int(property.index)].base.animationValue
    case .vec2: stores.vec2s.properties[Int(property.index)].base.animationValue
    case .vec3: stores.vec3s.properties[Int(property.index)].base.animationValue
    case .vec4: stores.vec4s.properties[Int(property.index)].base.animationValue
    case .color: stores.colors.properties[Int(property.index)].base.animationValue
    }
  }

  /// The property's rate of change now, in value units per second.
  public func velocity(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: velocity(Double.self, property.index).animationValue
    case .vec2: velocity(Vec2.self, property.index).animationValue
    case .vec3: velocity(Vec3.self, property.index).animationValue
    case .vec4: velocity(Vec4.self, property.index).animationValue
    case .color: velocity(Color.self, property.index).animationValue
    }
  }

  /// Whether any animation on the property has started and not completed.
  public func isAnimating(_ property: PropertyID) -> Bool {
    switch property.kind {
    case .number: stores.numbers.properties[Int(property.index)].animating > 0
    case .vec2: stores.vec2s.properties[Int(property.index)].animating > 0
    case .vec3: stores.vec3s.properties[Int(property.index)].animating > 0
    case .vec4: stores.vec4s.properties[Int(property.index)].animating > 0
    case .color: stores.colors.properties[Int(property.index)].animating > 0
    }
  }

  /// The property an animation animates; nil for a timeline or callback.
  public func property(of id: NodeID) -> PropertyID? {
    guard let index = try? resolve(id), nodes[Int(index)].kind == .effect else { return nil }
    return effectProperty(of: index)
  }

  /// The animations on the property, oldest first (by the order their top-level nodes were
  /// made in; a timeline's items in their order on the property).
  public func animations(on property: PropertyID) -> [NodeID] {
    func ids<V: EngineValue>(_ type: V.Type) -> [NodeID] {
      let store = stores[keyPath: V.store]
      // The property's list is in the order they took it (one leaving its delay moves to
      // the top), not the order they were made in.
      // (A timeline's `set` items are not animations.)
      let listed = store.effects(on: property.index).enumerated().filter { !store.effects[Int($0.element)].isSet }
        .map { position, effect in (node: store.effects[Int(effect)].node, position: position) }
      return listed.sorted {
        (nodes[Int(topLevelAncestor(of: $0.node))].order, $0.position)
          < (nodes[Int(topLevelAncestor(of: $1.node))].order, $1.position)
      }.map { id(of: $0.node) }
    }
    switch property.kind {
    case .number: return ids(Double.self)
    case .vec2: return ids(Vec2.self)
    case .vec3: return ids(Vec3.self)
    case .vec4: return ids(Vec4.self)
    case .color: return ids(Color.self)
    }
  }

  /// Sets the property's base value at once and ends its animations (timeline animations
  /// on it stop having output until they start again). Fires no event.
  public mutating func set(_ property: PropertyID, to value: AnimationValue) throws(EngineError) {
    guard contains(property) else { throw .unknownProperty }
    guard value.kind == property.kind else { throw .typeMismatch(expected: property.kind, found: value.kind) }
    switch value {
    case .number(let x): set(property.index, to: x)
    case .vec2(let v): set(property.index, to: v)
    case .vec3(let v): set(property.index, to: v)
    case .vec4(let v): set(property.index, to: v)
    case .color(let c): set(property.index, to: c)
    }
  }

  mutating func set<V: EngineValue>(_ property: Int32, to value: V) {
    for effect in stores[keyPath: V.store].effects(on: property) {
      end(V.self, effect, absorbing: false)
    }
    stores[keyPath: V.store].properties[Int(property)].base = value
    stores[keyPath: V.store].currents[Int(property)] = value
  }

  // MARK: - Nodes

  func id(of node: Int32) -> NodeID {
    NodeID(index: node, generation: nodes[Int(node)].generation)
  }

  @inline(__always)
  func resolve(_ id: NodeID) throws(EngineError) -> Int32 {
    guard id.index >= 0, Int(id.index) < nodes.count, nodes[Int(id.index)].kind != .free,
      nodes[Int(id.index)].generation == id.generation
    else { throw .unknownNode }
    return id.index
  }

  /// Whether the node still exists.
  @inline(__always)
  public func contains(_ id: NodeID) -> Bool {
    (try? resolve(id)) != nil
  }

  mutating func allocateNode(_ node: Node) -> Int32 {
    if let index = freeNodes.popLast() {
      var node = node
      node.generation = nodes[Int(index)].generation &+ 1
      nodes[Int(index)] = node
      versions[Int(index)] &+= 1
      return index
    }
    nodes.append(node)
    versions.append(0)
    return Int32(nodes.count - 1)
  }

  /// Where a new node goes.
  public enum Placement: Sendable, Hashable {
    /// On the engine, starting at engine time `time` (local time 0 then), playing.
    case engine(at: Nanoseconds)
    /// On the engine, created paused at local time 0: a timeline that waits for `play`.
    case engineIdle
    /// In a timeline, starting at `time` of the timeline's iteration time.
    case timeline(NodeID, at: Nanoseconds)
  }

  mutating func makeNode(
    kind: NodeKind, valueKind: ValueKind = .number, payload: Int32, timing: EffectTiming, rate: Double,
    placement: Placement
  ) throws(EngineError) -> Int32 {
    var timing = timing
    timing.endDelay = 0
    var parent: Int32 = -1
    let playback: Playback
    // Placed at parent time `time`: local time 0 there, so that its start time is `time`
    // exactly (rule 6: its point u is reached at time + round(u / rate)). Solving for the
    // start time from the rounded local time now would move it by a nanosecond.
    func placed(at time: Nanoseconds, parentTime: Nanoseconds) -> Playback {
      if rate != 0 && rate.isFinite { return Playback(startTime: time, rate: rate, holdTime: nil, isPaused: false) }
      return Playback(localTime: scaled(saturatingDifference(parentTime, time), by: rate), at: parentTime, rate: rate)
    }
    switch placement {
    case .engine(let time):
      playback = placed(at: time, parentTime: now)
    case .engineIdle:
      playback = Playback(localTime: 0, at: now, rate: rate, paused: true)
    case .timeline(let timeline, let time):
      parent = try resolve(timeline)
      guard nodes[Int(parent)].kind == .timeline else { throw .notATimeline }
      playback = placed(at: time, parentTime: childTime(of: parent, at: now).time)
    }
    let index = allocateNode(Node(parent: parent, payload: payload, generation: 0, kind: kind, valueKind: valueKind))
    // Waiting for `play`: idle, as a cancelled timeline is.
    if case .engineIdle = placement { nodes[Int(index)].isCancelled = true }
    setPlayback(playback, of: index)
    setTiming(timing, ofNode: index)
    if parent >= 0 {
      timelines[Int(nodes[Int(parent)].payload)].children.append(index)
    } else {
      appendTopLevel(index)
    }
    // Nothing has been crossed yet: a point at exactly this instant is still ahead.
    let state = localState(of: index, at: now)
    nodes[Int(index)].lastLocal = state.direction < 0 ? saturatingSum(state.local, 1) : saturatingSum(state.local, -1)
    return index
  }

  /// Adds a timeline: on the engine (`.engineIdle` waits for `play`), or inside another
  /// timeline as a group that plays with it.
  public mutating func addTimeline(
    timing: EffectTiming, rate: Double = 1, placement: Placement = .engineIdle
  ) throws(EngineError) -> NodeID {
    let record: Int32
    if let free = freeTimelines.popLast() {
      record = free
    } else {
      timelines.append(TimelineRecord(node: -1))
      record = Int32(timelines.count - 1)
    }
    let index: Int32
    do {
      index = try makeNode(kind: .timeline, payload: record, timing: timing, rate: rate, placement: placement)
    } catch {
      freeTimelines.append(record)
      throw error
    }
    timelines[Int(record)] = TimelineRecord(node: index)
    reschedule(topLevelAncestor(of: index))
    return id(of: index)
  }

  /// Changes a timeline's timing (its duration grows as items are added to it).
  public mutating func setTiming(_ timing: EffectTiming, of id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    var timing = timing
    timing.endDelay = 0
    setTiming(timing, ofNode: index)
    // What has been crossed stays crossed: a timeline still being built keeps its start
    // ahead of it.
    reschedule(topLevelAncestor(of: index))
  }

  /// Places a callback in a timeline: the event `.callback(key)` fires when the timeline's
  /// time crosses `time` forwards, and backwards too when `firesBackwards`.
  public mutating func addCallback(
    key: Int, to timeline: NodeID, at time: Nanoseconds, firesBackwards: Bool
  ) throws(EngineError) -> NodeID {
    let record: Int32
    if let free = freeCallbacks.popLast() {
      record = free
      callbacks[Int(free)] = CallbackRecord(key: key, firesBackwards: firesBackwards)
    } else {
      callbacks.append(CallbackRecord(key: key, firesBackwards: firesBackwards))
      record = Int32(callbacks.count - 1)
    }
    let index: Int32
    do {
      index = try makeNode(
        kind: .callback, payload: record, timing: EffectTiming(duration: 0), rate: 1,
        placement: .timeline(timeline, at: time))
    } catch {
      freeCallbacks.append(record)
      throw error
    }
    reschedule(topLevelAncestor(of: index))
    return id(of: index)
  }

  /// A snapshot's pending entry `node` for a property leaving rest (its `key` is the property).
  static let leavingRest: Int32 = -2

  /// Queues the property's `start` at this instant, behind the animations' events due now.
  mutating func scheduleLeavingRest(_ property: PropertyID) {
    propertiesLeavingRest.append(property)
  }

  /// The property a snapshot's leaving-rest entry names.
  func property(fromKey key: Int) -> PropertyID? {
    guard let kind = ValueKind(order: key >> 32) else { return nil }
    let property = PropertyID(kind: kind, index: Int32(truncatingIfNeeded: key & 0xFFFF_FFFF))
    return contains(property) ? property : nil
  }

  /// Schedules `.callback(key)` at engine time `time` (now, if earlier). Callbacks at one
  /// instant fire in the order they were scheduled, after the animations' events.
  public mutating func schedule(callback key: Int, at time: Nanoseconds) {
    let sequence = nextPendingSequence()
    insertPending(Pending(time: max(time, now), sequence: sequence, slot: engineCallbackSlot(for: key)))
  }

  /// Adds an animation of `property`: standalone on the engine (it goes away when it
  /// completes), or inside a timeline (it stays with the timeline).
  public mutating func animate(
    _ property: PropertyID, with animation: Animation, placement: Placement
  ) throws(EngineError) -> NodeID {
    guard contains(property) else { throw .unknownProperty }
    if let kind = animation.valueKind, kind != property.kind {
      throw .typeMismatch(expected: property.kind, found: kind)
    }
    switch property.kind {
    case .number: return try animate(Double.self, property.index, animation, placement)
    case .vec2: return try animate(Vec2.self, property.index, animation, placement)
    case .vec3: return try animate(Vec3.self, property.index, animation, placement)
    case .vec4: return try animate(Vec4.self, property.index, animation, placement)
    case .color: return try animate(Color.self, property.index, animation, placement)
    }
  }

  mutating func curveSlot(_ curve: TimingCurve) -> Int32 {
    if let index = curveIndex[curve] { return index }
    curves.append(curve)
    addCurveEntry(for: curve)
    let index = Int32(curves.count - 1)
    curveIndex[curve] = index
    return index
  }

  mutating func animate<V: EngineValue>(
    _ type: V.Type, _ property: Int32, _ animation: Animation, _ placement: Placement
  ) throws(EngineError) -> NodeID {
    let base = stores[keyPath: V.store].properties[Int(property)].base
    var effect: Effect<V>
    var frames: [TrackFrame<V>]?
    switch animation.shape {
    case .tween(let from, let to, let curve):
      effect = Effect(
        node: -1, property: property, curve: curveSlot(curve), from: from.flatMap(V.init) ?? base,
        to: V(to) ?? base, hasExplicitFrom: from != nil, hasValues: !animation.resolvesValuesAtStart,
        resolvesValuesAtStart: animation.resolvesValuesAtStart, composition: animation.composition)
    case .keyframes(let keyframes):
      guard !keyframes.isEmpty,
        keyframes.allSatisfy({ (0...1).contains($0.offset) }),
        zip(keyframes, keyframes.dropFirst()).allSatisfy({ $0.offset <= $1.offset })
      else { throw .invalidKeyframes }
      frames = keyframes.map {
        TrackFrame(offset: $0.offset, value: $0.value.flatMap(V.init), curve: curveSlot($0.curve))
      }
      let explicitFirst = keyframes[0].offset == 0 && keyframes[0].value != nil
      effect = Effect(
        node: -1, property: property, curve: -1, from: frames![0].value ?? base, to: frames!.last!.value ?? base,
        hasExplicitFrom: explicitFirst, hasValues: !animation.resolvesValuesAtStart,
        resolvesValuesAtStart: animation.resolvesValuesAtStart, composition: animation.composition)
    }
    effect.colorSpace = animation.colorSpace
    let index = stores[keyPath: V.store].allocateEffect(effect)
    if let frames { stores[keyPath: V.store].tracks[index] = frames }
    let node: Int32
    do {
      node = try makeNode(
        kind: .effect, valueKind: V.kind, payload: index, timing: animation.timing, rate: animation.rate,
        placement: placement)
    } catch {
      stores[keyPath: V.store].freeEffects.append(index)
      throw error
    }
    stores[keyPath: V.store].effects[Int(index)].node = node
    stores[keyPath: V.store].link(index)
    if nodes[Int(node)].parent < 0, let problem = endProblem(of: node) {
      removeSubtree(node)
      throw problem
    }
    // (A takeover where it is placed does not make the property leave rest again.)
    let wasAnimating = stores[keyPath: V.store].properties[Int(property)].animating > 0
    // Placed on the engine, or in a timeline already playing: a backwards fill shows now.
    let top = topLevelAncestor(of: node)
    if top == node || !nodes[Int(top)].isPaused { armBackwardsFill(in: node) }
    if nodes[Int(node)].parent < 0 {
      // A standalone animation holds its property from the moment it is added: a property
      // is animating while an animation on it is delayed or active.
      stores[keyPath: V.store].effects[Int(index)].counted = true
      stores[keyPath: V.store].properties[Int(property)].animating += 1
      if stores[keyPath: V.store].properties[Int(property)].animating == 1 && !wasAnimating {
        scheduleLeavingRest(PropertyID(kind: V.kind, index: property))
      }
    }
    reschedule(topLevelAncestor(of: node))
    return id(of: node)
  }

  /// Places a `set` item in a timeline at `time` of its time (GSAP's `tl.set`). Crossed
  /// forwards (or sought past), it records the property's value, sets the base value to
  /// `value`, ends the property's animations outside its timeline (as `set(_:to:)` does) and
  /// masks its own timeline's animations on the property that have started, while the
  /// playhead is past it; crossed backwards (or sought before), it puts the recorded value
  /// back and unmasks them. It fires no property event.
  ///
  /// With `resolvesValueWhenCrossed`, `value` is a placeholder: the first forward crossing
  /// asks for the value (`.needsValues`, answered by `setValues`), as an animation that
  /// resolves its values at its start does.
  public mutating func addSet(
    _ property: PropertyID, to value: AnimationValue, in timeline: NodeID, at time: Nanoseconds,
    resolvesValueWhenCrossed: Bool = false
  ) throws(EngineError) -> NodeID {
    guard contains(property) else { throw .unknownProperty }
    guard value.kind == property.kind else { throw .typeMismatch(expected: property.kind, found: value.kind) }
    var animation = Animation.tween(to: value, duration: 0, fill: .forwards)
    animation.resolvesValuesAtStart = resolvesValueWhenCrossed
    let id = try animate(property, with: animation, placement: .timeline(timeline, at: time))
    let node = nodes[Int(id.index)]
    switch property.kind {
    case .number: stores.numbers.effects[Int(node.payload)].isSet = true
    case .vec2: stores.vec2s.effects[Int(node.payload)].isSet = true
    case .vec3: stores.vec3s.effects[Int(node.payload)].isSet = true
    case .vec4: stores.vec4s.effects[Int(node.payload)].isSet = true
    case .color: stores.colors.effects[Int(node.payload)].isSet = true
    }
    return id
  }

  /// Supplies the values of an animation that resolves them at its start (answering
  /// `.needsValues`), or changes them before it starts: the tween's `from` (nil: the current
  /// value) and `to`, or the keyframes' values in order.
  public mutating func setValues(of id: NodeID, from: AnimationValue?, to values: [AnimationValue]) throws(EngineError)
  {
    let node = try resolve(id)
    guard nodes[Int(node)].kind == .effect else { throw .unknownNode }
    let kind = nodes[Int(node)].valueKind
    for value in values + (from.map { [$0] } ?? []) where value.kind != kind {
      throw .typeMismatch(expected: kind, found: value.kind)
    }
    switch kind {
    case .number: setValues(Double.self, nodes[Int(node)].payload, from, values)
    case .vec2: setValues(Vec2.self, nodes[Int(node)].payload, from, values)
    case .vec3: setValues(Vec3.self, nodes[Int(node)].payload, from, values)
    case .vec4: setValues(Vec4.self, nodes[Int(node)].payload, from, values)
    case .color: setValues(Color.self, nodes[Int(node)].payload, from, values)
    }
  }

  mutating func setValues<V: EngineValue>(
    _ type: V.Type, _ effect: Int32, _ from: AnimationValue?, _ values: [AnimationValue]
  ) {
    stores[keyPath: V.store].dropSampler(of: effect)
    let typed = values.compactMap(V.init)
    if var frames = stores[keyPath: V.store].tracks[effect] {
      // Keyframe values fill the keyframes in order; a missing first keyframe stays missing.
      var remaining = typed[...]
      for i in frames.indices where !(i == 0 && frames[0].value == nil && typed.count < frames.count) {
        if let next = remaining.popFirst() { frames[i].value = next }
      }
      stores[keyPath: V.store].tracks[effect] = frames
      if let first = frames.first?.value { stores[keyPath: V.store].effects[Int(effect)].from = first }
      if let last = frames.last?.value { stores[keyPath: V.store].effects[Int(effect)].to = last }
    } else if let to = typed.last {
      stores[keyPath: V.store].effects[Int(effect)].to = to
    }
    if let from = from.flatMap(V.init) {
      stores[keyPath: V.store].effects[Int(effect)].from = from
      stores[keyPath: V.store].effects[Int(effect)].hasExplicitFrom = true
    }
    stores[keyPath: V.store].effects[Int(effect)].hasValues = true
  }

  /// Removes a node and everything in it (a timeline's children). Its animations stop
  /// having output, and its callbacks will not fire. Fires no event.
  public mutating func remove(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    let top = topLevelAncestor(of: index)
    removeSubtree(index)
    if top != index { reschedule(top) }
  }

  mutating func removeSubtree(_ index: Int32) {
    let node = nodes[Int(index)]
    switch node.kind {
    case .free: return
    case .timeline:
      for child in timelines[Int(node.payload)].children { removeSubtree(child) }
      timelines[Int(node.payload)].children = []
      freeTimelines.append(node.payload)
    case .callback:
      freeCallbacks.append(node.payload)
    case .effect:
      switch node.valueKind {
      case .number: removeEffect(Double.self, node.payload)
      case .vec2: removeEffect(Vec2.self, node.payload)
      case .vec3: removeEffect(Vec3.self, node.payload)
      case .vec4: removeEffect(Vec4.self, node.payload)
      case .color: removeEffect(Color.self, node.payload)
      }
    }
    if node.parent >= 0 {
      let parentNode = nodes[Int(node.parent)]
      if parentNode.kind == .timeline {
        timelines[Int(parentNode.payload)].children.removeAll { $0 == index }
      }
    }
    freeExtras(of: index)
    nodes[Int(index)].kind = .free
    versions[Int(index)] &+= 1
    freeNodes.append(index)
  }

  /// Why a top-level node cannot play as it is: it would end after the end of time at its
  /// rate (nil when it ends in time, never ends, or stands still).
  func endProblem(of index: Int32, rate newRate: Double? = nil) -> EngineError? {
    let node = nodes[Int(index)]
    guard node.parent < 0, let end = EventPoints(timing(of: node), hasStarted: node.hasStarted).end else { return nil }
    let rate = newRate ?? rate(of: node)
    guard rate > 0, rate.isFinite else { return nil }
    let local = localTime(of: index, atParent: now)
    let remaining = Double(end) - Double(local)
    guard remaining > 0 else { return nil }
    return Double(now) + remaining / rate >= Double(Self.endOfTime) ? .endsAfterEndOfTime : nil
  }

  mutating func removeEffect<V: EngineValue>(_ type: V.Type, _ effect: Int32) {
    let slot = stores[keyPath: V.store].effects[Int(effect)]
    if slot.counted { stores[keyPath: V.store].properties[Int(slot.property)].animating -= 1 }
    stores[keyPath: V.store].freeEffect(effect)
    if slot.mayShow {
      // Its output goes now: the refreshes to come visit only effects that show one.
      stores[keyPath: V.store].currents[Int(slot.property)] = evaluate(V.self, slot.property, at: now)
    }
  }

  // MARK: - Status

  /// The state of a node now.
  public func status(of id: NodeID) throws(EngineError) -> NodeStatus {
    let index = try resolve(id)
    let node = nodes[Int(index)]
    let local = localState(of: index, at: now).local
    let points = EventPoints(timing(of: node), hasStarted: node.hasStarted)
    let end = points.end
    let state: NodeStatus.State
    if node.isCancelled {
      state = .idle
    } else if node.isPaused {
      state = .paused
    } else if let end, (rate(of: node) >= 0 && local >= end) || (rate(of: node) < 0 && local <= points.start) {
      state = .finished
    } else {
      state = .playing
    }
    let progress = end.map { end in end > 0 ? min(max(Double(local) / Double(end), 0), 1) : 1 }
    var status = NodeStatus(
      state: state, rate: rate(of: node), localTime: local, duration: end, progress: progress,
      isTimeline: node.kind == .timeline)
    var timing = timing(of: node)
    status.passCount = timing.iterations
    timing.fill = .both
    let computed = timing.computedTiming(localTime: timing.wrapped(local, hasStarted: node.hasStarted))
    if let iteration = computed.currentIteration, iteration.isFinite, iteration >= 0, iteration < Double(Int.max) {
      status.pass = Int(iteration) + 1
    }
    return status
  }

  /// The top-level nodes (animations and timelines on the engine), oldest first.
  public var topLevelNodes: [NodeID] { topLevel.map(id(of:)) }

  /// Whether anything will still move or fire: a node playing toward an edge it has not
  /// reached, or a pending callback. Paused nodes do not count.
  public var hasPendingWork: Bool {
    !propertiesLeavingRest.isEmpty || pending.unordered.contains { isLive($0) }
      || laterBuckets.contains { $0.contains { isLive($0) } }
  }

  /// Whether a callback scheduled on the engine is still to come (scripts schedule their
  /// later statements this way).
  public var hasPendingCallbacks: Bool {
    pending.unordered.contains { $0.slot < 0 } || laterBuckets.contains { $0.contains { $0.slot < 0 } }
  }

  /// Whether a top-level node that never ends is playing: with nothing else scheduled, the
  /// engine will never be idle.
  public var hasEndlessPlayback: Bool {
    nodes.contains { node in
      node.kind != .free && node.parent < 0 && timing(of: node).activeDuration == nil && !node.isHeld
        && rate(of: node) != 0
    }
  }

  /// The next time something is due, if anything is.
  public var nextEventTime: Nanoseconds? {
    if !propertiesLeavingRest.isEmpty { return now }
    // The heap's entries come before the buckets', and each bucket's before the next's.
    func earliestLive<Entries: Sequence<Pending>>(_ entries: Entries) -> Nanoseconds? {
      var next: Nanoseconds?
      for entry in entries where isLive(entry) { next = min(next ?? entry.time, entry.time) }
      return next
    }
    if let next = earliestLive(pending.unordered) { return next }
    for bucket in laterBuckets.reversed() {
      if let next = earliestLive(bucket) { return next }
    }
    return nil
  }
}
