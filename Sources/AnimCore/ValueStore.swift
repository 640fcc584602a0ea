// ValueStore: the engine's contiguous storage for the properties and animations of one value
// type. Sampling walks these arrays with no existential, no class and no allocation.

/// One animated property: its base value and the head of the list of animations on it (in
/// the order they started). Its value at the last refresh is kept apart, in the store's
/// `currents`, so that a host reading every property each frame reads a dense array.
struct PropertySlot<V: EngineValue>: Sendable, Codable {
  var base: V
  /// The first effect on the property, or -1.
  var firstEffect: Int32 = -1
  /// How many of its effects are active (started and not yet complete).
  var animating: Int32 = 0
  /// The refresh that last computed its current value (a property with several showing
  /// effects is computed once per refresh).
  var refreshed: UInt32 = 0

  init(base: V) {
    self.base = base
  }
}

/// How an effect's output combines with the property's value.
enum EffectMode: UInt8, Sendable, Codable {
  /// Not yet started: its values are not settled.
  case unresolved
  /// Its value replaces what is below it.
  case replace
  /// It adds its change (its value minus its start) to what is below it.
  case additive
  /// A spring from `from` toward `to` with an initial velocity; replaces what is below it.
  case spring
}

/// One property animation in the engine.
struct Effect<V: EngineValue>: Sendable, Codable {
  /// Its node (timing and playback).
  var node: Int32
  /// Its property, in the same store.
  var property: Int32
  /// The next effect on the same property, or -1.
  var next: Int32 = -1
  /// Its curve in the engine's curve table, or -1 for a keyframe track.
  var curve: Int32
  var from: V
  var to: V
  var mode: EffectMode = .unresolved
  /// Where colors interpolate.
  var colorSpace: ColorSpace = .sRGB
  /// Whether `from` was given (otherwise it is the property's value at the start).
  var hasExplicitFrom: Bool
  /// Whether `to` (and keyframe values) are known; false until the embedder resolves them.
  var hasValues: Bool
  /// Whether the embedder asked to supply the values when the effect starts.
  var resolvesValuesAtStart: Bool
  var composition: Composition
  /// Whether it counts toward its property's `animating`.
  var counted = false
  /// A spring's initial velocity (value units per second); zero for other modes.
  var velocity: V = .zero
  /// Its sampler in the store's `samplers`, or -1 (see Sampler.swift).
  var sampler: Int32 = -1
  /// Whether its output is switched off: it completed and its value went into the base
  /// value, or a newer animation took its property over. A new start switches it back on.
  var muted = false
  /// For a muted additive effect whose change went into the base value: the edge it
  /// completed at (true: its end), so that starting again can take the change back out.
  var committedAtEnd: Bool?

  /// Whether it has started and shows a value (not muted, values settled).
  var isShowing: Bool { !muted && mode != .unresolved }
}

/// A keyframe of a track, with its value resolved.
struct TrackFrame<V: EngineValue>: Sendable, Codable {
  var offset: Double
  /// nil until resolved (a missing first keyframe takes the effect's `from`).
  var value: V?
  var curve: Int32
}

/// The properties and effects of one value type.
public struct ValueStore<V: EngineValue>: Sendable {
  var properties: [PropertySlot<V>] = []
  /// Each property's value at the last refresh (after an advance), by property index.
  @usableFromInline var currents: [V] = []
  var effects = ChunkedArray<Effect<V>>()
  var freeEffects: [Int32] = []
  /// Keyframe tracks, by effect index.
  var tracks: [Int32: [TrackFrame<V>]] = [:]
  /// A bit per effect index, set when the effect may be showing a value (it has started and
  /// is not muted): the effects a refresh visits, in index order. Set when an effect
  /// starts; cleared by the refresh that finds it no longer showing, which then computes
  /// its property once more. So a refresh costs nothing for the many effects that wait in
  /// their delay or have completed.
  var showing: [UInt64] = []
  /// Which refresh this is (see `PropertySlot.refreshed`).
  var refreshCount: UInt32 = 0
  /// The showing effects of the usual shape, computed by a refresh without reading their
  /// effects or nodes (Sampler.swift). An effect with a sampler has no showing bit.
  var samplers: [Sampler<V>] = []
  /// Where each curve kind's run of `samplers` starts (see `samplerRange`).
  var samplerStarts = [0, 0, 0, 0]

  public init() {}

  /// Marks effect `index` as possibly showing a value.
  mutating func markShowing(_ index: Int32) {
    let word = Int(index) >> 6
    if word >= showing.count { showing.append(contentsOf: repeatElement(0, count: word + 1 - showing.count)) }
    showing[word] |= 1 << UInt64(Int(index) & 63)
  }

  /// Sets the showing bits from the effects (after decoding).
  mutating func markAllShowing() {
    showing = []
    for (index, effect) in effects.enumerated() where effect.isShowing {
      markShowing(Int32(index))
    }
  }

  mutating func allocateEffect(_ effect: Effect<V>) -> Int32 {
    if let index = freeEffects.popLast() {
      effects[Int(index)] = effect
      return index
    }
    effects.append(effect)
    return Int32(effects.count - 1)
  }

  /// Appends `effect` to the end of its property's list.
  mutating func link(_ index: Int32) {
    let property = Int(effects[Int(index)].property)
    effects[Int(index)].next = -1
    var cursor = properties[property].firstEffect
    if cursor < 0 {
      properties[property].firstEffect = index
      return
    }
    while effects[Int(cursor)].next >= 0 { cursor = effects[Int(cursor)].next }
    effects[Int(cursor)].next = index
  }

  /// Removes `effect` from its property's list.
  mutating func unlink(_ index: Int32) {
    let property = Int(effects[Int(index)].property)
    var cursor = properties[property].firstEffect
    if cursor == index {
      properties[property].firstEffect = effects[Int(index)].next
    } else {
      while cursor >= 0 {
        let next = effects[Int(cursor)].next
        if next == index {
          effects[Int(cursor)].next = effects[Int(index)].next
          break
        }
        cursor = next
      }
    }
    effects[Int(index)].next = -1
  }

  /// Moves `effect` to the end of its property's list: it started last.
  mutating func moveToTop(_ index: Int32) {
    unlink(index)
    link(index)
  }

  mutating func freeEffect(_ index: Int32) {
    dropSampler(of: index)
    unlink(index)
    tracks[index] = nil
    effects[Int(index)].mode = .unresolved
    effects[Int(index)].muted = true
    freeEffects.append(index)
  }

  /// The effects on `property`, in order.
  func effects(on property: Int32) -> [Int32] {
    var result: [Int32] = []
    var cursor = properties[Int(property)].firstEffect
    while cursor >= 0 {
      result.append(cursor)
      cursor = effects[Int(cursor)].next
    }
    return result
  }
}

extension ValueStore: Codable {
  private enum CodingKeys: String, CodingKey {
    case properties, currents, effects, freeEffects, tracks
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    properties = try container.decode([PropertySlot<V>].self, forKey: .properties)
    currents = try container.decode([V].self, forKey: .currents)
    effects = try container.decode(ChunkedArray<Effect<V>>.self, forKey: .effects)
    freeEffects = try container.decode([Int32].self, forKey: .freeEffects)
    tracks = try container.decode([Int32: [TrackFrame<V>]].self, forKey: .tracks)
    // Samplers are a cache, not written out: every showing effect starts on the general path.
    for index in effects.indices { effects[index].sampler = -1 }
    markAllShowing()
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(properties, forKey: .properties)
    try container.encode(currents, forKey: .currents)
    try container.encode(effects, forKey: .effects)
    try container.encode(freeEffects, forKey: .freeEffects)
    try container.encode(tracks, forKey: .tracks)
  }
}
