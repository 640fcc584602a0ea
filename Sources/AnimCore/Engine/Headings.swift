// Headings: where each property of a store is heading (`AnimationEngine.target`: its base
// value with every animation on it run to its end), kept so that many additive starts on
// one property at one instant do not each walk its whole list of effects.
//
// A heading is a cache, never the truth, and it is kept exactly: an entry holds for the
// store as it was at one `ValueStore.generation`, which every write to what `target` reads
// (the properties, the effects, the shifts, `hasHadEffectsFillingBefore`) moves on. So any
// write makes every entry stale, and `target` walks again, unless the writer knows what
// its writes did to the headings and says so: an additive start, which appends its change
// to the top of its property's stack and changes no other heading (`carry`), and an
// animation placed that shows nothing before it starts, which changes none (`keep`).

/// The headings of one store's properties, as of one generation of the store.
struct Headings<V: EngineValue>: Sendable {
  /// A heading and the epoch it was recorded in, side by side: one array, so that a copy of
  /// the store (a whole engine is copied at each advance) retains one reference for them.
  private struct Entry: Sendable {
    var value: V
    var stamp: UInt32
  }
  private var entries: [Entry] = []
  /// The epoch whose entries hold; an entry holds only when recorded in it.
  private var epoch: UInt32 = 1
  /// The store's generation the current epoch's entries hold for.
  private var validAt: UInt64 = 0

  /// The heading of `property` when the store is at `generation`, if one is known.
  @inline(__always)
  func heading(of property: Int32, at generation: UInt64) -> V? {
    guard generation == validAt, Int(property) < entries.count, entries[Int(property)].stamp == epoch else {
      return nil
    }
    return entries[Int(property)].value
  }

  /// Records `value` as the heading of `property` with the store at `generation` (a new
  /// generation makes every other entry stale).
  mutating func record(_ value: V, of property: Int32, at generation: UInt64) {
    if generation != validAt { startEpoch(at: generation) }
    set(value, of: property)
  }

  /// The store went from generation `before` to `after` by writes that changed no heading
  /// but `property`'s, which is now `value`: the other entries recorded at `before` still
  /// hold.
  mutating func carry(_ value: V, of property: Int32, from before: UInt64, to after: UInt64) {
    keep(from: before, to: after)
    set(value, of: property)
  }

  /// The store went from generation `before` to `after` by writes that changed no heading
  /// (an animation placed that shows nothing before it starts): the entries recorded at
  /// `before` still hold.
  mutating func keep(from before: UInt64, to after: UInt64) {
    if before != validAt { startEpoch(at: after) }
    validAt = after
  }

  private mutating func startEpoch(at generation: UInt64) {
    validAt = generation
    if epoch == .max {
      for i in entries.indices { entries[i].stamp = 0 }
      epoch = 1
    } else {
      epoch += 1
    }
  }

  private mutating func set(_ value: V, of property: Int32) {
    let p = Int(property)
    if p >= entries.count {
      entries.append(contentsOf: repeatElement(Entry(value: value, stamp: 0), count: p + 1 - entries.count))
    }
    entries[p] = Entry(value: value, stamp: epoch)
  }
}
