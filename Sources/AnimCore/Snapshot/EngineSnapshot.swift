// Snapshot and restore: the whole engine as Codable, so a session can be written out and
// continued later, in this process or another, exactly where it was.
//
// Every part of the state is a plain value. Callbacks are the embedder's integer keys, which
// it binds again after restoring; infinite iteration counts are written as "forever"
// (EffectTiming's own coding), since JSON has no infinity. The pending events are written as
// entries of one shape (`SavedPending`: time, sequence, node, version, key), whatever the
// engine keeps them in, and rebuilt on reading, renumbered in the same order.

extension AnimationEngine: Codable {
  /// The format of the encoded engine; any other is refused on decoding. 2: current values
  /// kept apart from the property slots, spring velocities inside their animations.
  public static let snapshotVersion = 2

  /// A pending event as written: the next event of top-level node `node` (live while
  /// `version` is the node's), a callback on the engine (`node` -1, `key`), or a property
  /// leaving rest (`node` -2, `key` the property). Sequences give the order at one instant.
  struct SavedPending: Codable {
    var time: Nanoseconds
    var sequence: UInt64
    var node: Int32
    var version: UInt32
    var key: Int
  }

  /// A node as a snapshot writes it: whole, with its playback and timing.
  struct SavedNode: Codable {
    var playback: Playback
    var kind: NodeKind
    var valueKind: ValueKind
    var hasStarted: Bool
    var isCancelled: Bool
    var timing: EffectTiming
    var parent: Int32
    var payload: Int32
    var generation: UInt32
    var lastLocal: Nanoseconds
    var order: UInt64
    /// The node's `turn`, when not 0.
    var turn: Int8?
  }

  private enum CodingKeys: String, CodingKey {
    case version, now, stores, nodes, freeNodes, versions, timelines, freeTimelines, callbacks, freeCallbacks
    case curves, topLevel, pending, playheadTweens
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version <= Self.snapshotVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription: "engine snapshot version \(version) is newer than this engine's (\(Self.snapshotVersion))")
    }
    guard version == Self.snapshotVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription:
          "engine snapshot version \(version) is older than this engine's (\(Self.snapshotVersion)) and can no longer be read"
      )
    }
    now = try container.decode(Nanoseconds.self, forKey: .now)
    stores = try container.decode(Stores.self, forKey: .stores)
    for saved in try container.decode([SavedNode].self, forKey: .nodes) { appendNode(saved) }
    freeNodes = try container.decode([Int32].self, forKey: .freeNodes)
    versions = try container.decode(ChunkedArray<UInt32>.self, forKey: .versions)
    timelines = try container.decode([TimelineRecord].self, forKey: .timelines)
    freeTimelines = try container.decode([Int32].self, forKey: .freeTimelines)
    callbacks = try container.decode([CallbackRecord].self, forKey: .callbacks)
    freeCallbacks = try container.decode([Int32].self, forKey: .freeCallbacks)
    curves = try container.decode([TimingCurve].self, forKey: .curves)
    rebuildCurveTables()
    let topLevel = try container.decode([Int32].self, forKey: .topLevel)
    // Exactly the nodes on the engine, each once: their order is the list's.
    let onEngine = nodes.indices.filter { nodes[$0].kind != .free && nodes[$0].parent < 0 }
    guard topLevel.map(Int.init).sorted() == onEngine else {
      throw EngineSnapshotError("the list of top-level nodes is wrong")
    }
    self.topLevel = topLevel
    let saved = try container.decode([SavedPending].self, forKey: .pending)
    curveIndex = Dictionary(curves.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
    guard versions.count == nodes.count else {
      throw EngineSnapshotError("the node tables disagree in length")
    }
    try restorePending(saved)
    // (Absent before playhead tweens: none.)
    playheadTweens = try container.decodeIfPresent([PlayheadTween].self, forKey: .playheadTweens) ?? []
    try validate()
    try validatePlayheadTweens()
  }

  /// A node as written: whole, as the engine's nodes were written before they were packed.
  private func savedNode(_ node: Node) -> SavedNode {
    SavedNode(
      playback: playback(of: node), kind: node.kind, valueKind: node.valueKind, hasStarted: node.hasStarted,
      isCancelled: node.isCancelled, timing: timing(of: node), parent: node.parent, payload: node.payload,
      generation: node.generation, lastLocal: node.lastLocal, order: UInt64(node.order),
      turn: node.turn == 0 ? nil : node.turn)
  }

  /// Appends a node as read. (Its order comes from the top-level list, read after it.)
  private mutating func appendNode(_ saved: SavedNode) {
    var node = Node(
      parent: saved.parent, payload: saved.payload, generation: saved.generation, kind: saved.kind,
      valueKind: saved.valueKind)
    node.hasStarted = saved.hasStarted
    node.isCancelled = saved.isCancelled
    node.lastLocal = saved.lastLocal
    node.turn = saved.turn ?? 0
    nodes.append(node)
    let index = Int32(nodes.count - 1)
    // A free node keeps no extras: its values are never read.
    guard saved.kind != .free else { return }
    setPlayback(saved.playback, of: index)
    setTiming(saved.timing, ofNode: index)
  }

  /// Rebuilds the pending events from their written form, in the order of their sequences.
  private mutating func restorePending(_ saved: [SavedPending]) throws {
    var entries: [PendingEventQueue.Entry] = []
    var sequence: UInt32 = 0
    for entry in saved.sorted(by: { $0.sequence < $1.sequence }) {
      switch entry.node {
      case Self.leavingRest:
        guard let property = property(fromKey: entry.key) else {
          throw EngineSnapshotError("a pending event is for something that is not there")
        }
        propertiesLeavingRest.append(property)
      case -1:
        sequence &+= 1
        entries.append(
          PendingEventQueue.Entry(time: entry.time, sequence: sequence, slot: engineCallbackSlot(for: entry.key)))
      default:
        guard entry.node >= 0, Int(entry.node) < nodes.count else {
          throw EngineSnapshotError("a pending event is for something that is not there")
        }
        // Only the node's live entry (a stale one would be skipped anyway).
        guard entry.version == versions[Int(entry.node)], nodes[Int(entry.node)].kind != .free else { continue }
        sequence &+= 1
        versions[Int(entry.node)] = sequence
        entries.append(PendingEventQueue.Entry(time: entry.time, sequence: sequence, slot: entry.node))
      }
    }
    pending.restore(entries, lastSequence: sequence)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.snapshotVersion, forKey: .version)
    try container.encode(now, forKey: .now)
    try container.encode(stores, forKey: .stores)
    try container.encode(nodes.map(savedNode), forKey: .nodes)
    try container.encode(freeNodes, forKey: .freeNodes)
    try container.encode(versions, forKey: .versions)
    try container.encode(timelines, forKey: .timelines)
    try container.encode(freeTimelines, forKey: .freeTimelines)
    try container.encode(callbacks, forKey: .callbacks)
    try container.encode(freeCallbacks, forKey: .freeCallbacks)
    try container.encode(curves, forKey: .curves)
    try container.encode(topLevel, forKey: .topLevel)
    // Only live entries: stale ones would be skipped anyway.
    var saved: [SavedPending] = []
    for entry in pending.entries where isLive(entry) {
      let slot = entry.slot
      saved.append(
        slot < 0
          ? SavedPending(
            time: entry.time, sequence: UInt64(entry.sequence), node: -1, version: 0,
            key: engineCallbackKey(slot))
          : SavedPending(
            time: entry.time, sequence: UInt64(entry.sequence), node: slot, version: versions[Int(slot)], key: 0))
    }
    // Properties leaving rest are due now, after the entries above in sequence.
    for (i, property) in propertiesLeavingRest.properties.enumerated() {
      saved.append(
        SavedPending(
          time: now, sequence: UInt64(pending.lastSequence) + 1 + UInt64(i), node: Self.leavingRest, version: 0,
          key: property.kind.order << 32 | Int(property.index)))
    }
    try container.encode(saved, forKey: .pending)
    if !playheadTweens.isEmpty { try container.encode(playheadTweens, forKey: .playheadTweens) }
  }
}
