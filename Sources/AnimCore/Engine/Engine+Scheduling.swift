// Scheduling: each top-level node's one entry in the pending events, the engine time of
// the next event anywhere in its tree, computed exactly from its playback and timing (and
// its children's, mapped through the timeline's current pass). A change to a node changes
// its version, which makes its old entry stale, and schedules a new one. Callbacks
// scheduled on the engine have entries of their own.

extension AnimationEngine {
  /// The top-level node whose tree holds `index`. (Inlined: a non-mutating method that a
  /// mutating one calls, and that is not inlined, is handed a copy of the whole engine, 1,016
  /// bytes; `animate` asks this twice for every animation it adds.)
  @inline(__always)
  func topLevelAncestor(of index: Int32) -> Int32 {
    var cursor = index
    while nodes[Int(cursor)].parent >= 0 { cursor = nodes[Int(cursor)].parent }
    return cursor
  }

  /// Replaces the heap entry of top-level node `top` with its next event, if any.
  mutating func reschedule(_ top: Int32) {
    guard top >= 0, nodes[Int(top)].kind != .free else { return }
    // Whatever changed may be what its sampler copied (a standalone animation's).
    dropSampler(ofNode: top)
    let node = nodes[Int(top)]
    let direction = rate(of: node) < 0 ? -1 : 1
    guard let threshold = nextThreshold(of: top, direction: direction),
      let time = Self.parentThreshold(of: playback(of: node), reaching: threshold, parentForward: true)
    else {
      // No entry: any older one goes stale (a fresh sequence, which no entry has).
      versions[Int(top)] = nextPendingSequence()
      return
    }
    let sequence = nextPendingSequence()
    versions[Int(top)] = sequence
    pending.insert(PendingEventQueue.Entry(time: max(time, now), sequence: sequence, slot: top))
  }

  /// Whether a pending entry is still to be handed out: a callback, or the entry a
  /// top-level node was last given.
  @inline(__always) func isLive(_ entry: PendingEventQueue.Entry) -> Bool {
    let slot = entry.slot
    guard slot >= 0 else { return true }
    guard Int(slot) < nodes.count else { return false }
    return versions[Int(slot)] == entry.sequence && nodes[Int(slot)].kind != .free && nodes[Int(slot)].parent < 0
  }

  /// The sequence for a new pending entry: one more than the last, renumbering the live
  /// entries (in order) first when it would pass the queue's `sequenceLimit`.
  mutating func nextPendingSequence() -> UInt32 {
    if pending.needsRenumbering { renumberPending() }
    return pending.nextSequence()
  }

  /// Renumbers the live pending entries 1, 2, … in their order, dropping stale ones, and
  /// gives each node its entry's new sequence as its version.
  mutating func renumberPending() {
    let live = pending.entries.filter { isLive($0) }
    for entry in pending.renumber(live) where entry.slot >= 0 {
      versions[Int(entry.slot)] = entry.sequence
    }
  }

  /// A pending entry's slot for an engine callback with `key`: the key itself when small
  /// (no lookup when it fires), else a slot of `engineCallbackKeys`.
  mutating func engineCallbackSlot(for key: Int) -> Int32 {
    if key >= 0 && key < 1 << 30 { return ~Int32(truncatingIfNeeded: key << 1) }
    let slot: Int32
    if firstFreeEngineCallback >= 0 {
      slot = firstFreeEngineCallback
      firstFreeEngineCallback = Int32(truncatingIfNeeded: engineCallbackKeys[Int(slot)])
      engineCallbackKeys[Int(slot)] = key
    } else {
      slot = Int32(truncatingIfNeeded: engineCallbackKeys.count)
      engineCallbackKeys.append(key)
    }
    return ~(slot << 1 | 1)
  }

  /// The key of the engine callback a pending entry's `slot` holds, without freeing it.
  func engineCallbackKey(_ slot: Int32) -> Int {
    let payload = ~slot
    return payload & 1 == 0 ? Int(payload >> 1) : engineCallbackKeys[Int(payload >> 1)]
  }

  /// The key of the engine callback a pending entry's `slot` holds, freeing its slot of
  /// `engineCallbackKeys` if it has one.
  mutating func takeEngineCallback(_ slot: Int32) -> Int {
    let payload = ~slot
    guard payload & 1 != 0 else { return Int(payload >> 1) }
    let index = Int(payload >> 1)
    let key = engineCallbackKeys[index]
    engineCallbackKeys[index] = Int(firstFreeEngineCallback)
    firstFreeEngineCallback = Int32(truncatingIfNeeded: index)
    return key
  }

  /// The first threshold of node `index`'s local time, moving in `direction`, at which it or
  /// anything in it has an event. (Over the arrays it reads, as the functions of
  /// Engine+Time.swift are, and for the same reason: it recurses, and `reschedule` asks it
  /// for every animation added.)
  @inline(__always)
  func nextThreshold(of index: Int32, direction: Int) -> Nanoseconds? {
    Self.nextThreshold(of: index, direction: direction, nodes, nodeExtras, callbacks, timelines)
  }

  static func nextThreshold(
    of index: Int32, direction: Int, _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras],
    _ callbacks: [CallbackRecord], _ timelines: [TimelineRecord]
  ) -> Nanoseconds? {
    let node = nodes[Int(index)]
    let forward = direction > 0
    let a = node.lastLocal
    switch node.kind {
    case .free:
      return nil
    case .callback:
      if forward { return a < 0 ? 0 : nil }
      return callbacks[Int(node.payload)].firesBackwards && a > 0 ? 0 : nil
    case .effect, .timeline:
      let timing = timing(of: node, nodeExtras)
      let points = EventPoints(timing, hasStarted: node.hasStarted)
      // Turning back at a point it had just reached and crossed: that point comes first.
      if Int(node.turn) == -direction { return a }
      var best = points.nextThreshold(from: a, forward: forward)
      // Reversed before it started (in its delay), a standalone animation plays back to
      // where it was placed, its local time 0, and is done there.
      if best == nil && playsBackToPlacement(node, from: a, forward: forward, points: points) { return 0 }
      guard node.kind == .timeline, timing.iterationDuration > 0 else { return best }
      // Children move only while the timeline is inside its active interval.
      if !points.wraps {
        if forward && (a < points.start || (points.end.map { a >= $0 } ?? false)) { return best }
        if !forward && (a <= points.start || (points.end.map { a > $0 } ?? false)) { return best }
      }
      let local = timing.wrapped(a, hasStarted: node.hasStarted)
      let shift = Int128(local) - Int128(a)  // what wrapping added
      let pass = Self.pass(of: timing, at: local, forward: forward)
      let passForward = Self.isForwardPass(timing, pass)
      let iterationForward = forward == passForward
      let duration = Int128(timing.iterationDuration)
      let passStart = Int128(node.delay) + pass * duration
      for child in timelines[Int(node.payload)].children {
        let childNode = nodes[Int(child)]
        guard !childNode.isHeld, rate(of: childNode, nodeExtras) != 0 else { continue }
        let childDirection = (iterationForward ? 1 : -1) * (rate(of: childNode, nodeExtras) < 0 ? -1 : 1)
        guard
          let childThreshold = nextThreshold(
            of: child, direction: childDirection, nodes, nodeExtras, callbacks, timelines),
          let iteration = Self.parentThreshold(
            of: playback(of: childNode, nodeExtras), reaching: childThreshold, parentForward: iterationForward)
        else { continue }
        guard iteration >= 0, Int128(iteration) <= duration else { continue }
        let mapped = Int128(Self.localTime(timing, iteration: iteration, pass: pass)) - shift
        // Only within the current pass: its boundary is an event of the timeline's own.
        guard mapped >= passStart - shift, mapped <= passStart + duration - shift else { continue }
        let candidate = clampedToNanoseconds(mapped)
        // (A child due where the timeline stands, turning back at a point of its own that
        // it had just reached there, is due now: `cross` catches it up.)
        if forward ? candidate < a : candidate > a { continue }
        if let b = best { best = forward ? min(b, candidate) : max(b, candidate) } else { best = candidate }
      }
      return best
    }
  }

  /// Whether `node` is a standalone animation that has not started (waiting in its delay,
  /// or sought back there), moving backwards from a local time `a` inside that delay: it
  /// plays back to where it was placed, local time 0, and completes there (grammar.md §
  /// Control; Web Animations finishes it at 0). Not one placed part-way (a negative delay),
  /// whose start is its local 0.
  static func playsBackToPlacement(_ node: Node, from a: Nanoseconds, forward: Bool, points: EventPoints) -> Bool {
    node.kind == .effect && node.parent < 0 && !forward && !node.hasStarted && a > 0 && a <= points.start
  }
}
