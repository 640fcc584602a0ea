// ValueStore: the engine's contiguous storage for the properties and animations of one value
// type. Sampling walks these arrays with no existential, no class and no allocation.

/// One animated property: its base value and the head of the list of animations on it (in
/// the order they started). Its value at the last refresh is kept apart, in the store's
/// `currents`, so that a host reading every property each frame reads a dense array.
struct PropertySlot<V: EngineValue>: Sendable, Codable {
  var base: V
  /// The first effect on the property, or -1.
  var firstEffect: Int32 = -1
  /// The last effect on the property, or -1: an effect that starts is appended here, without
  /// walking the list (a script of many `animate`s on one property made every start walk all
  /// the earlier ones). Not written in snapshots: it follows from the list
  /// (`ValueStore.relinkLastEffects()`). It fits in the slot's padding.
  var lastEffect: Int32 = -1
  /// How many of its effects are active (started and not yet complete).
  var animating: Int32 = 0
  /// The refresh that last computed its current value (a property with several showing
  /// effects is computed once per refresh).
  var refreshed: UInt32 = 0

  init(base: V) {
    self.base = base
  }

  private enum CodingKeys: String, CodingKey {
    case base, firstEffect, animating, refreshed
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

/// The bits of `Effect.flags`.
private enum EffectFlag {
  static let mode: UInt16 = 0b11
  static let oklab: UInt16 = 1 << 2
  static let replaces: UInt16 = 1 << 3
  static let hasExplicitFrom: UInt16 = 1 << 4
  static let hasValues: UInt16 = 1 << 5
  static let resolvesValuesAtStart: UInt16 = 1 << 6
  static let counted: UInt16 = 1 << 7
  static let muted: UInt16 = 1 << 8
  /// `committedAtEnd`: whether it is set, and its value.
  static let committed: UInt16 = 1 << 9
  static let committedAtEnd: UInt16 = 1 << 10
  static let hasVelocity: UInt16 = 1 << 11
  static let hasShift: UInt16 = 1 << 12
  static let fillsBefore: UInt16 = 1 << 13
  static let isSet: UInt16 = 1 << 14
  static let masked: UInt16 = 1 << 15
}

/// The bits of `Effect.moreFlags`.
private enum MoreEffectFlag {
  static let inStack: UInt8 = 1
  static let settledFrom: UInt8 = 1 << 1
}

/// One property animation in the engine. 40 bytes for a number (a test pins it): its
/// one-byte members share `flags`, and a spring's initial velocity, zero but for a spring
/// that took over a moving property or has an initial velocity, is kept in the store's
/// `springVelocities`.
struct Effect<V: EngineValue>: Sendable {
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
  /// Its sampler in the store's `samplers`, or -1 (see Sampler.swift).
  var sampler: Int32 = -1
  /// The members below, a few bits each (`EffectFlag`).
  private var flags: UInt16 = 0
  /// More of them (`MoreEffectFlag`; in the struct's padding).
  private var moreFlags: UInt8 = 0

  init(
    node: Int32, property: Int32, curve: Int32, from: V, to: V, hasExplicitFrom: Bool, hasValues: Bool,
    resolvesValuesAtStart: Bool, composition: Composition
  ) {
    self.node = node
    self.property = property
    self.curve = curve
    self.from = from
    self.to = to
    self.hasExplicitFrom = hasExplicitFrom
    self.hasValues = hasValues
    self.resolvesValuesAtStart = resolvesValuesAtStart
    self.composition = composition
  }

  @inline(__always)
  private func flag(_ bit: UInt16) -> Bool { flags & bit != 0 }

  @inline(__always)
  private mutating func setFlag(_ bit: UInt16, _ value: Bool) {
    flags = value ? flags | bit : flags & ~bit
  }

  var mode: EffectMode {
    get { EffectMode(rawValue: UInt8(truncatingIfNeeded: flags & EffectFlag.mode))! }
    set { flags = flags & ~EffectFlag.mode | UInt16(newValue.rawValue) }
  }
  /// Where colors interpolate.
  var colorSpace: ColorSpace {
    get { flag(EffectFlag.oklab) ? .oklab : .sRGB }
    set { setFlag(EffectFlag.oklab, newValue == .oklab) }
  }
  /// Whether `from` was given (otherwise it is the property's value at the start).
  var hasExplicitFrom: Bool {
    get { flag(EffectFlag.hasExplicitFrom) }
    set { setFlag(EffectFlag.hasExplicitFrom, newValue) }
  }
  /// Whether `to` (and keyframe values) are known; false until the embedder resolves them.
  var hasValues: Bool {
    get { flag(EffectFlag.hasValues) }
    set { setFlag(EffectFlag.hasValues, newValue) }
  }
  /// Whether the embedder asked to supply the values when the effect starts.
  var resolvesValuesAtStart: Bool {
    get { flag(EffectFlag.resolvesValuesAtStart) }
    set { setFlag(EffectFlag.resolvesValuesAtStart, newValue) }
  }
  var composition: Composition {
    get { flag(EffectFlag.replaces) ? .replace : .automatic }
    set { setFlag(EffectFlag.replaces, newValue == .replace) }
  }
  /// Whether it counts toward its property's `animating`.
  var counted: Bool {
    get { flag(EffectFlag.counted) }
    set { setFlag(EffectFlag.counted, newValue) }
  }
  /// Whether its output is switched off: it completed and its value went into the base
  /// value, or a newer animation took its property over. A new start switches it back on.
  var muted: Bool {
    get { flag(EffectFlag.muted) }
    set { setFlag(EffectFlag.muted, newValue) }
  }
  /// For a muted additive effect whose change went into the base value: the edge it
  /// completed at (true: its end), so that starting again can take the change back out.
  var committedAtEnd: Bool? {
    get { flag(EffectFlag.committed) ? flag(EffectFlag.committedAtEnd) : nil }
    set {
      setFlag(EffectFlag.committed, newValue != nil)
      setFlag(EffectFlag.committedAtEnd, newValue == true)
    }
  }
  /// Whether its spring velocity is other than `.zero` and in the store's `springVelocities`:
  /// set only through `ValueStore.setVelocity`.
  var hasVelocity: Bool {
    get { flag(EffectFlag.hasVelocity) }
    set { setFlag(EffectFlag.hasVelocity, newValue) }
  }

  /// Whether a replacing effect carries a shift in the store's `shifts`: the changes of the
  /// additive effects above it that completed while it still ran (set only through
  /// `ValueStore.setShift`).
  var hasShift: Bool {
    get { flag(EffectFlag.hasShift) }
    set { setFlag(EffectFlag.hasShift, newValue) }
  }

  /// Whether it shows its first value before its active phase, whenever it is in it: set
  /// when it is placed (on the engine, or in a timeline that plays) with a fill that covers
  /// that side and its values known, so its `from` is settled; cleared when it is ended.
  var fillsBefore: Bool {
    get { flag(EffectFlag.fillsBefore) }
    set { setFlag(EffectFlag.fillsBefore, newValue) }
  }

  /// Whether it is a timeline's `set` item: crossed forwards it records the property's value
  /// in `from`, sets the base value to `to`, ends the animations of other trees on the
  /// property and masks the earlier ones of its own; crossed backwards it puts the recorded
  /// value back and unmasks them. Applied while its mode is not `unresolved`; never shows a
  /// value of its own (the base value holds it).
  var isSet: Bool {
    get { flag(EffectFlag.isSet) }
    set { setFlag(EffectFlag.isSet, newValue) }
  }
  /// Whether a timeline `set` crossed forwards hides it (the store's `maskedBy` says which):
  /// it stays muted, and starting does not bring it back, until that `set` is crossed
  /// backwards.
  var masked: Bool {
    get { flag(EffectFlag.masked) }
    set { setFlag(EffectFlag.masked, newValue) }
  }

  /// Whether it is a member of its property's current stack: set when it starts, cleared
  /// when a replacing one takes the property over or the stack ends (nothing on the
  /// property shows a value any more). A replacing one that starts again outside the stack
  /// takes the property over again (as it did when it first started).
  var inStack: Bool {
    get { moreFlags & MoreEffectFlag.inStack != 0 }
    set { moreFlags = newValue ? moreFlags | MoreEffectFlag.inStack : moreFlags & ~MoreEffectFlag.inStack }
  }

  /// Whether its `from` was settled before it started (armed with a backwards fill: the
  /// property's value where it was placed or its timeline played), so that a later arming
  /// (its timeline played again, after a `cancel` or from a finished state) reuses it:
  /// values are evaluated once, and replays reuse them.
  var settledFrom: Bool {
    get { moreFlags & MoreEffectFlag.settledFrom != 0 }
    set {
      moreFlags = newValue ? moreFlags | MoreEffectFlag.settledFrom : moreFlags & ~MoreEffectFlag.settledFrom
    }
  }

  /// Whether it has started and shows a value (not muted, values settled).
  var isShowing: Bool { !muted && mode != .unresolved }

  /// Whether a refresh must compute its property: it shows a value, or may show its first
  /// one before its active phase.
  var mayShow: Bool { isShowing || fillsBefore }
}

/// An effect as a snapshot writes it: its members, with the spring velocity the store keeps
/// apart, under the keys of the synthesized coding of the effect that held it (format 2).
struct EffectRecord<V: EngineValue>: Codable {
  var effect: Effect<V>
  var velocity: V
  /// The shift of a replacing effect (see `Effect.hasShift`); written only when it has one.
  var shift: V?
  /// The `set` that masks it, if any.
  var maskedBy: Int32?

  init(_ effect: Effect<V>, velocity: V, shift: V?, maskedBy: Int32?) {
    self.effect = effect
    self.velocity = velocity
    self.shift = shift
    self.maskedBy = maskedBy
  }

  private enum CodingKeys: String, CodingKey {
    case node, property, next, curve, from, to, mode, colorSpace, hasExplicitFrom, hasValues
    case resolvesValuesAtStart, composition, counted, velocity, sampler, muted, committedAtEnd, shift, fillsBefore
    case isSet, maskedBy, inStack, settledFrom
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    effect = Effect(
      node: try c.decode(Int32.self, forKey: .node), property: try c.decode(Int32.self, forKey: .property),
      curve: try c.decode(Int32.self, forKey: .curve), from: try c.decode(V.self, forKey: .from),
      to: try c.decode(V.self, forKey: .to), hasExplicitFrom: try c.decode(Bool.self, forKey: .hasExplicitFrom),
      hasValues: try c.decode(Bool.self, forKey: .hasValues),
      resolvesValuesAtStart: try c.decode(Bool.self, forKey: .resolvesValuesAtStart),
      composition: try c.decode(Composition.self, forKey: .composition))
    effect.next = try c.decode(Int32.self, forKey: .next)
    effect.mode = try c.decode(EffectMode.self, forKey: .mode)
    effect.colorSpace = try c.decode(ColorSpace.self, forKey: .colorSpace)
    effect.counted = try c.decode(Bool.self, forKey: .counted)
    velocity = try c.decode(V.self, forKey: .velocity)
    effect.sampler = try c.decode(Int32.self, forKey: .sampler)
    effect.muted = try c.decode(Bool.self, forKey: .muted)
    effect.committedAtEnd = try c.decodeIfPresent(Bool.self, forKey: .committedAtEnd)
    shift = try c.decodeIfPresent(V.self, forKey: .shift)
    effect.fillsBefore = try c.decodeIfPresent(Bool.self, forKey: .fillsBefore) ?? false
    effect.isSet = try c.decodeIfPresent(Bool.self, forKey: .isSet) ?? false
    maskedBy = try c.decodeIfPresent(Int32.self, forKey: .maskedBy)
    // (Written by earlier versions without it: a showing effect is in its stack.)
    effect.inStack = try c.decodeIfPresent(Bool.self, forKey: .inStack) ?? effect.isShowing
    effect.settledFrom = try c.decodeIfPresent(Bool.self, forKey: .settledFrom) ?? false
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(effect.node, forKey: .node)
    try c.encode(effect.property, forKey: .property)
    try c.encode(effect.next, forKey: .next)
    try c.encode(effect.curve, forKey: .curve)
    try c.encode(effect.from, forKey: .from)
    try c.encode(effect.to, forKey: .to)
    try c.encode(effect.mode, forKey: .mode)
    try c.encode(effect.colorSpace, forKey: .colorSpace)
    try c.encode(effect.hasExplicitFrom, forKey: .hasExplicitFrom)
    try c.encode(effect.hasValues, forKey: .hasValues)
    try c.encode(effect.resolvesValuesAtStart, forKey: .resolvesValuesAtStart)
    try c.encode(effect.composition, forKey: .composition)
    try c.encode(effect.counted, forKey: .counted)
    try c.encode(velocity, forKey: .velocity)
    try c.encode(effect.sampler, forKey: .sampler)
    try c.encode(effect.muted, forKey: .muted)
    try c.encodeIfPresent(effect.committedAtEnd, forKey: .committedAtEnd)
    try c.encodeIfPresent(shift, forKey: .shift)
    if effect.fillsBefore { try c.encode(true, forKey: .fillsBefore) }
    if effect.isSet { try c.encode(true, forKey: .isSet) }
    try c.encodeIfPresent(maskedBy, forKey: .maskedBy)
    if effect.inStack { try c.encode(true, forKey: .inStack) }
    if effect.settledFrom { try c.encode(true, forKey: .settledFrom) }
  }
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
  var properties: [PropertySlot<V>] = [] {
    didSet { generation &+= 1 }
  }
  /// Each property's value at the last refresh (after an advance), by property index.
  @usableFromInline var currents: [V] = []
  var effects = ChunkedArray<Effect<V>>() {
    didSet { generation &+= 1 }
  }
  /// The effect before each on its property's list, or -1 (first, or not on a list), by
  /// effect index: an effect is taken off its list without walking it (each of many starts
  /// on one property moved it to the top by a walk from the first: issue 14's front.run).
  /// Not written in snapshots: it follows from the lists (`relinkLastEffects()`).
  var previous = ChunkedArray<Int32>()
  /// Moves on at every write to what `AnimationEngine.target` reads (`properties`,
  /// `effects`, `shifts`, `hasHadEffectsFillingBefore`): the generation `headings` holds for.
  /// (A `didSet` that does not read the old value leaves the write in place.)
  private(set) var generation: UInt64 = 0
  /// Where the properties are heading, as of one generation (Headings.swift).
  var headings = Headings<V>()
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
  /// Whether an effect has ever waited to start with a backwards fill, its values settled
  /// where it was placed (set, never cleared; worked out again when a snapshot is read).
  /// Until one has, no start needs to look for a takeover placed after it that waits so
  /// (`hasNewerWaitingTakeover`), a walk of its property's list at every start.
  var hasHadEffectsFillingBefore = false {
    didSet { generation &+= 1 }
  }
  /// The showing effects of the usual shape, computed by a refresh without reading their
  /// effects or nodes (Sampler.swift). An effect with a sampler has no showing bit.
  var samplers: [Sampler<V>] = []
  /// The initial velocities other than `.zero` of spring effects (value units per second), by
  /// effect index: a spring that took over a moving property, or one given an initial velocity.
  /// An effect has an entry exactly when its `hasVelocity` is set.
  var springVelocities: [Int32: V] = [:]
  /// The shifts of replacing effects (see `Effect.hasShift`), by effect index: an effect has
  /// an entry exactly when its `hasShift` is set.
  var shifts: [Int32: V] = [:] {
    didSet { generation &+= 1 }
  }
  /// For each masked effect (see `Effect.masked`), the `set` effect that masks it.
  var maskedBy: [Int32: Int32] = [:]

  public init() {}

  /// Masks effect `index` under `set` (nil: unmasks it).
  mutating func setMask(_ set: Int32?, ofEffect index: Int32) {
    maskedBy[index] = set
    effects[Int(index)].masked = set != nil
  }

  /// A replacing effect's shift: what the additive effects above it that completed left.
  @inline(__always)
  func shift(ofEffect index: Int32) -> V {
    effects[Int(index)].hasShift ? shifts[index] ?? .zero : .zero
  }

  /// Sets a replacing effect's shift (`nil` or zero removes it).
  mutating func setShift(_ shift: V?, ofEffect index: Int32) {
    shifts[index] = shift
    effects[Int(index)].hasShift = shift != nil
  }

  /// A spring effect's initial velocity (value units per second); zero for other modes.
  @inline(__always)
  func velocity(ofEffect index: Int32) -> V {
    effects[Int(index)].hasVelocity ? springVelocities[index] ?? .zero : .zero
  }

  /// Sets a spring effect's initial velocity: only one other than `.zero` takes an entry.
  /// Compared bit for bit (values are plain), so that a velocity with a −0 is kept as it is.
  mutating func setVelocity(_ velocity: V, ofEffect index: Int32) {
    let keeps = withUnsafeBytes(of: velocity) { v in withUnsafeBytes(of: V.zero) { !v.elementsEqual($0) } }
    if keeps || effects[Int(index)].hasVelocity { springVelocities[index] = keeps ? velocity : nil }
    effects[Int(index)].hasVelocity = keeps
  }

  /// Marks effect `index` as possibly showing a value.
  mutating func markShowing(_ index: Int32) {
    let word = Int(index) >> 6
    if word >= showing.count { showing.append(contentsOf: repeatElement(0, count: word + 1 - showing.count)) }
    showing[word] |= 1 << UInt64(Int(index) & 63)
  }

  /// Sets the showing bits from the effects (after decoding).
  mutating func markAllShowing() {
    showing = []
    for (index, effect) in effects.enumerated() where effect.mayShow {
      markShowing(Int32(index))
    }
  }

  mutating func allocateEffect(_ effect: Effect<V>) -> Int32 {
    if let index = freeEffects.popLast() {
      if effects[Int(index)].hasVelocity { springVelocities[index] = nil }
      if effects[Int(index)].hasShift { shifts[index] = nil }
      if effects[Int(index)].masked { maskedBy[index] = nil }
      effects[Int(index)] = effect
      return index
    }
    effects.append(effect)
    previous.append(-1)
    return Int32(effects.count - 1)
  }

  /// Appends `effect` to the end of its property's list.
  mutating func link(_ index: Int32) {
    let property = Int(effects[Int(index)].property)
    effects[Int(index)].next = -1
    let last = properties[property].lastEffect
    if last < 0 {
      // (Its `previous` is -1 already, as every effect's off a list: the usual property, with
      // one effect, never reads `previous`.)
      properties[property].firstEffect = index
    } else {
      effects[Int(last)].next = index
      previous[Int(index)] = last
    }
    properties[property].lastEffect = index
  }

  /// Removes `effect` from its property's list (nothing, when it is on none).
  mutating func unlink(_ index: Int32) {
    let property = Int(effects[Int(index)].property)
    let after = effects[Int(index)].next
    let before: Int32
    if properties[property].firstEffect == index {
      before = -1
      properties[property].firstEffect = after
    } else {
      before = previous[Int(index)]
      guard before >= 0 else {
        effects[Int(index)].next = -1
        return
      }
      effects[Int(before)].next = after
      previous[Int(index)] = -1
    }
    if after >= 0 {
      previous[Int(after)] = before
    } else {
      properties[property].lastEffect = before
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
    setVelocity(.zero, ofEffect: index)
    setShift(nil, ofEffect: index)
    effects[Int(index)].fillsBefore = false
    setMask(nil, ofEffect: index)
    // What it masked (a `set` removed with its timeline) is free again.
    for (masked, set) in maskedBy where set == index { setMask(nil, ofEffect: masked) }
    effects[Int(index)].mode = .unresolved
    effects[Int(index)].muted = true
    freeEffects.append(index)
  }

  /// The effects on `property`, in order.
  /// Whether some effect on the property other than `excluded` satisfies `test` (without
  /// building the list).
  func containsEffect(on property: Int32, except excluded: Int32 = -1, where test: (Effect<V>) -> Bool) -> Bool {
    var cursor = properties[Int(property)].firstEffect
    while cursor >= 0 {
      if cursor != excluded && test(effects[Int(cursor)]) { return true }
      cursor = effects[Int(cursor)].next
    }
    return false
  }

  /// Takes every effect on the property out of its stack (the stack is over).
  mutating func endStack(on property: Int32) {
    var cursor = properties[Int(property)].firstEffect
    while cursor >= 0 {
      effects[Int(cursor)].inStack = false
      cursor = effects[Int(cursor)].next
    }
  }

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
    // The refresh count starts over (it is not written): a stamp left from before would
    // make a refresh to come skip its property.
    for i in properties.indices { properties[i].refreshed = 0 }
    currents = try container.decode([V].self, forKey: .currents)
    let records = try container.decode([EffectRecord<V>].self, forKey: .effects)
    effects = ChunkedArray(records.map(\.effect))
    for (index, record) in records.enumerated() {
      setVelocity(record.velocity, ofEffect: Int32(index))
      setShift(record.shift, ofEffect: Int32(index))
      setMask(record.maskedBy, ofEffect: Int32(index))
    }
    freeEffects = try container.decode([Int32].self, forKey: .freeEffects)
    tracks = try container.decode([Int32: [TrackFrame<V>]].self, forKey: .tracks)
    // Samplers are a cache, not written out: every showing effect starts on the general path.
    for index in effects.indices { effects[index].sampler = -1 }
    relinkLastEffects()
    markAllShowing()
    hasHadEffectsFillingBefore = effects.contains { $0.fillsBefore }
  }

  /// Sets each property's `lastEffect` and each effect's `previous` from the lists (after
  /// reading a snapshot, which does not hold them). A list that leads out of the effects or
  /// loops (a damaged file, which validation then refuses) is followed no further than
  /// there are effects.
  mutating func relinkLastEffects() {
    previous = ChunkedArray(repeatElement(-1, count: effects.count))
    for p in properties.indices {
      var cursor = properties[p].firstEffect
      var last: Int32 = -1
      var steps = 0
      while cursor >= 0 && Int(cursor) < effects.count && steps <= effects.count {
        previous[Int(cursor)] = last
        last = cursor
        cursor = effects[Int(cursor)].next
        steps += 1
      }
      properties[p].lastEffect = last
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(properties, forKey: .properties)
    try container.encode(currents, forKey: .currents)
    try container.encode(
      effects.indices.map {
        EffectRecord(
          effects[$0], velocity: velocity(ofEffect: Int32($0)),
          shift: effects[$0].hasShift ? shift(ofEffect: Int32($0)) : nil, maskedBy: maskedBy[Int32($0)])
      }, forKey: .effects)
    try container.encode(freeEffects, forKey: .freeEffects)
    try container.encode(tracks, forKey: .tracks)
  }
}
