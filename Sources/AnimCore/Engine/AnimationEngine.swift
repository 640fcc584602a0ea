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

  /// See `childTimes`.
  final class ChildTimeMemo: @unchecked Sendable {
    let time: Nanoseconds
    var entries: [Int32: (time: Nanoseconds, direction: Int)] = [:]
    init(time: Nanoseconds) { self.time = time }
  }

  struct TimelineRecord: Sendable, Codable {
    var node: Int32
    var children: [Int32] = []
  }

  struct CallbackRecord: Sendable, Codable {
    var key: Int
    var firesBackwards: Bool
  }

  /// The engine time of the last advance.
  public internal(set) var now: Nanoseconds = 0 {
    didSet { if now != oldValue { revision &+= 1 } }
  }

  /// Pass boundaries of timelines crossed so far (a counter that only orders one instant's
  /// script events by when the playhead crossed them; not part of a snapshot).
  var passBoundariesCrossed = 0
  /// Which timeline each pass boundary crossed since the last ordering belonged to, with
  /// `passBoundariesCrossed` just after it: ordering the events of nodes crossed backwards
  /// reads from it in which pass of each timeline above them they lay. Emptied as each
  /// instant's events are ordered (kept short: one entry a boundary).
  var passBoundaryLog: [(count: Int, timeline: Int32)] = []

  @usableFromInline var stores = Stores() {
    didSet { revision &+= 1 }
  }
  var nodes = ChunkedArray<Node>() {
    didSet { revision &+= 1 }
  }
  var freeNodes: [Int32] = []
  /// Per node: changed whenever its scheduled event may have changed; a top-level node's
  /// pending entry is live while this is the entry's sequence.
  var versions = ChunkedArray<UInt32>()
  var timelines: [TimelineRecord] = [] {
    didSet { revision &+= 1 }
  }
  var freeTimelines: [Int32] = []
  var callbacks: [CallbackRecord] = []
  var freeCallbacks: [Int32] = []
  /// Curves, shared by index.
  var curves: [TimingCurve] = [] {
    didSet { revision &+= 1 }
  }
  var curveIndex: [TimingCurve: Int32] = [:]
  /// The slot `curveSlot` gave last, which the next animation most often asks for again (a
  /// script's animations share a few curves): compared, where a look-up in `curveIndex`
  /// hashed the whole curve. -1: none yet (not part of a snapshot).
  var lastCurveSlot: Int32 = -1
  /// Per curve: its kind and parameters' place, so that sampling reads no enum (CurveTables.swift).
  var curveEntries: [CurveEntry] = [] {
    didSet { revision &+= 1 }
  }
  var beziers: [CubicBezier] = [] {
    didSet { revision &+= 1 }
  }
  var springs: [SpringCurve] = [] {
    didSet { revision &+= 1 }
  }
  /// The rate and iteration count of the nodes that do not have both 1, by `Node.extras`.
  var nodeExtras: [NodeExtras] = [] {
    didSet { revision &+= 1 }
  }
  var freeNodeExtras: [Int32] = []
  /// The `order` the next top-level node gets.
  var nextOrder: UInt32 = 0
  /// Where orders are renumbered (lowered by tests, to reach it).
  var orderLimit: UInt32 = .max
  /// The pending events: each top-level node's next event, and the callbacks scheduled on
  /// the engine.
  var pending = PendingEventQueue()
  /// The keys of callbacks scheduled on the engine, by slot; a free slot holds the next
  /// free slot (or -1), from `firstFreeEngineCallback`.
  var engineCallbackKeys: [Int] = []
  var firstFreeEngineCallback: Int32 = -1
  /// Properties that left rest, in order: their `start` is due at `now`, behind the
  /// animations' events due now. (Everything here is due now: advancing hands them out.)
  var propertiesLeavingRest = LeavingRestQueue()
  /// The paused nodes whose playheads are being carried over engine time
  /// (Engine+Tweening.swift); few, so a plain list.
  var playheadTweens: [PlayheadTween] = []
  /// While the current values are refreshed (and only then), each timeline's time at `now`
  /// as worked out for its first effect (Engine+Time.swift). Nothing changes times during a
  /// refresh; not part of a snapshot, and nil in every copy made outside one.
  var childTimes: ChildTimeMemo?
  /// Counts the changes to what the current values are computed from: the time and every
  /// store, node, timing, timeline and curve table (each of these counts its every write,
  /// whether or not it changed anything, so a change is never missed). A refresh at the
  /// revision of the last one would compute the same values again: it is skipped
  /// (`refreshCurrentValues`). Not part of a snapshot; a decoded engine refreshes anew.
  var revision: UInt64 = 1
  /// The revision at the end of the last refresh (0: none yet, or one made stale).
  var refreshedRevision: UInt64 = 0

  public init(startingAt time: Nanoseconds = 0) {
    now = time
  }
}
