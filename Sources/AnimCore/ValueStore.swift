// ValueStore: the engine's contiguous storage for the properties and animations of one value
// type. Sampling walks these arrays with no existential, no class and no allocation.

/// One animated property: its base value, its value at the last sample, and the head of
/// the list of animations on it (in the order they started).
@usableFromInline
struct PropertySlot<V: EngineValue>: Sendable, Codable {
  var base: V
  @usableFromInline var current: V
  /// The first effect on the property, or -1.
  var firstEffect: Int32 = -1
  /// How many of its effects are active (started and not yet complete).
  var animating: Int32 = 0
  /// Its position in the engine's list of properties that have effects, or -1.
  var listed: Int32 = -1
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
  /// Whether its output is switched off: it completed and its value went into the base
  /// value, or a newer animation took its property over. A new start switches it back on.
  var muted = false
  /// For a muted additive effect whose change went into the base value: the edge it
  /// completed at (true: its end), so that starting again can take the change back out.
  var committedAtEnd: Bool?
}

/// A keyframe of a track, with its value resolved.
struct TrackFrame<V: EngineValue>: Sendable, Codable {
  var offset: Double
  /// nil until resolved (a missing first keyframe takes the effect's `from`).
  var value: V?
  var curve: Int32
}

/// The properties and effects of one value type.
public struct ValueStore<V: EngineValue>: Sendable, Codable {
  @usableFromInline var properties: [PropertySlot<V>] = []
  var effects: [Effect<V>] = []
  var freeEffects: [Int32] = []
  /// Keyframe tracks, by effect index.
  var tracks: [Int32: [TrackFrame<V>]] = [:]
  /// Spring initial velocities (value units per second), by effect index.
  var springVelocities: [Int32: V] = [:]

  public init() {}

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
    unlink(index)
    tracks[index] = nil
    springVelocities[index] = nil
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
