// Events: finding when the next one is due, crossing them in order, and handing them out.
//
// Each top-level node has one entry in the pending-event heap: the engine time of the next
// event anywhere in its tree, computed exactly from its playback and timing (and its
// children's, mapped through the timeline's current pass). Callbacks scheduled on the
// engine have entries of their own. Advancing pops every entry due at the earliest instant,
// walks the trees that are due from where they were to that instant, collecting the points
// crossed, orders them (completes, repeats, starts, then callbacks; reversed item order when
// going backwards) and hands them to the handler, which may change anything. Then the next
// instant, until the target time. A change to a node changes its version, which makes its old
// heap entry stale, and schedules a new one. Properties leaving rest wait in a queue of their
// own, due at once, handed out behind the animations' events of their instant.

import HeapModule

extension AnimationEngine {
  /// One event found while crossing, before ordering.
  struct Crossed {
    var node: NodeID
    var kind: NodeEventKind?
    /// For callbacks: the key.
    var key: Int
    var forward: Bool
    var sequence: Int
    /// For callbacks: how many pass boundaries of timelines the crossing had gone through
    /// when it was crossed (`passBoundariesCrossed`): script events go in the order the
    /// playhead crossed them, one at the end of a pass before one at the next's start, also
    /// at the turn of an alternating pass.
    var segment: Int = 0
  }

  // MARK: - Scheduling

  /// The top-level node whose tree holds `index`.
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
    insertPending(Pending(time: max(time, now), sequence: sequence, slot: top))
  }

  /// Whether a pending entry is still to be handed out: a callback, or the entry a
  /// top-level node was last given.
  @inline(__always) func isLive(_ entry: Pending) -> Bool {
    let slot = entry.slot
    guard slot >= 0 else { return true }
    guard Int(slot) < nodes.count else { return false }
    return versions[Int(slot)] == entry.sequence && nodes[Int(slot)].kind != .free && nodes[Int(slot)].parent < 0
  }

  /// The sequence for a new pending entry: one more than the last, renumbering the live
  /// entries (in order) first when it would pass `sequenceLimit`.
  mutating func nextPendingSequence() -> UInt32 {
    if pendingSequence >= sequenceLimit { renumberPending() }
    pendingSequence &+= 1
    return pendingSequence
  }

  /// Renumbers the live pending entries 1, 2, … in their order (the order of their
  /// sequences, all given since the last renumbering), dropping stale ones.
  mutating func renumberPending() {
    var live = pending.unordered.filter { isLive($0) }
    for bucket in laterBuckets { live += bucket.array.filter { isLive($0) } }
    live.sort { $0.sequence < $1.sequence }
    for i in live.indices {
      let sequence = UInt32(truncatingIfNeeded: i + 1)
      live[i].sequence = sequence
      if live[i].slot >= 0 { versions[Int(live[i].slot)] = sequence }
    }
    pendingSequence = UInt32(truncatingIfNeeded: live.count)
    // The later ones in one bucket to the end of time (split again when it comes up).
    let later = live.filter { $0.time > horizon }
    laterBuckets = horizon == .max ? [] : [ChunkedArray(later)]
    laterBounds = horizon == .max ? [] : [.max]
    pending = Heap(live.filter { $0.time <= horizon })
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
  /// anything in it has an event.
  func nextThreshold(of index: Int32, direction: Int) -> Nanoseconds? {
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
      let timing = timing(of: node)
      let points = EventPoints(timing, hasStarted: node.hasStarted)
      // Turning back at a point it had just reached and crossed: that point comes first.
      if Int(node.turn) == -direction { return a }
      var best = points.nextThreshold(from: a, forward: forward)
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
        guard !childNode.isHeld, rate(of: childNode) != 0 else { continue }
        let childDirection = (iterationForward ? 1 : -1) * (rate(of: childNode) < 0 ? -1 : 1)
        guard let childThreshold = nextThreshold(of: child, direction: childDirection),
          let iteration = Self.parentThreshold(
            of: playback(of: childNode), reaching: childThreshold, parentForward: iterationForward)
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

  // MARK: - The pending queue in two parts

  /// The size the heap of pending events is kept near: 256 kB, well within a core's cache.
  static let defaultNearPendingLimit = 16_384

  /// Adds an entry to the pending events: into the heap when it is due by the horizon,
  /// else into the bucket of its time.
  @inline(__always) mutating func insertPending(_ entry: Pending) {
    if entry.time <= horizon || laterBuckets.isEmpty {
      // (No buckets with a horizon short of the end of time is never expected; everything
      // is in the heap then, so the horizon can be the end of time.)
      if laterBuckets.isEmpty { horizon = .max }
      pending.insert(entry)
      if pending.count >= pendingSplitSize { splitPending() }
    } else {
      laterBuckets[laterBucket(of: entry.time)].append(entry)
    }
  }

  /// The bucket for an entry due after the horizon: the earliest whose bound is at or
  /// after its time (bounds fall from the first bucket, whose bound is the end of time, to
  /// the last, the earliest).
  func laterBucket(of time: Nanoseconds) -> Int {
    var low = 0  // laterBounds[low] >= time
    var high = laterBounds.count  // the first index whose bound is below time
    while high - low > 1 {
      let middle = (low + high) / 2
      if laterBounds[middle] >= time { low = middle } else { high = middle }
    }
    return low
  }

  /// The earliest pending entry (stale or not), if any; when the heap has run dry, the
  /// earliest bucket of later ones comes into it first.
  @inline(__always) mutating func firstPending() -> Pending? {
    if let first = pending.min { return first }
    if laterBuckets.isEmpty { return nil }
    refillPending()
    return pending.min
  }

  /// Up to about `size` of `entries`' times, evenly spread over them, sorted.
  static func sampleTimes(of entries: [Pending], size: Int = 256) -> [Nanoseconds] {
    let stride = max(1, entries.count / size)
    var times: [Nanoseconds] = []
    times.reserveCapacity(entries.count / stride + 1)
    var i = 0
    while i < entries.count {
      times.append(entries[i].time)
      i += stride
    }
    times.sort()
    return times
  }

  /// Moves the later half (about) of the heap out, into a new earliest bucket, lowering
  /// the horizon.
  mutating func splitPending() {
    let entries = Array(pending.unordered)
    let times = Self.sampleTimes(of: entries)
    let cut = times[times.count / 2]
    if cut < horizon {
      var near: [Pending] = []
      var later: [Pending] = []
      near.reserveCapacity(entries.count / 2 + entries.count / 8)
      later.reserveCapacity(entries.count / 2 + entries.count / 8)
      for entry in entries {
        if entry.time <= cut { near.append(entry) } else { later.append(entry) }
      }
      laterBuckets.append(ChunkedArray(later))
      laterBounds.append(horizon)
      horizon = cut
      pending = Heap(near)
    }
    // Not again before it has doubled: entries that all share one time cannot be split.
    pendingSplitSize = max(nearPendingLimit, 2 * pending.count)
  }

  /// Brings the earliest bucket of later entries into the empty heap, raising the horizon
  /// to its bound; a bucket of more than a sixteenth of the heap's size limit is first
  /// split into buckets by time (the smaller the heap, the cheaper each event it hands out).
  /// Stale entries are dropped on the way.
  mutating func refillPending() {
    while pending.isEmpty, let chunked = laterBuckets.popLast() {
      var bucket = chunked.array
      let bound = laterBounds.removeLast()
      // (A plain loop: `versions` in a closure would copy the engine for each entry.)
      var kept = 0
      for i in bucket.indices {
        let entry = bucket[i]
        if entry.slot < 0 || (Int(entry.slot) < versions.count && versions[Int(entry.slot)] == entry.sequence) {
          bucket[kept] = entry
          kept += 1
        }
      }
      bucket.removeLast(bucket.count - kept)
      if bucket.count > max(1, nearPendingLimit / 16), pushSplit(bucket, below: bound) { continue }
      horizon = bound
      pending = Heap(bucket)
    }
    pendingSplitSize = max(nearPendingLimit, 2 * pending.count)
  }

  /// Splits `entries` (all due after the horizon, by `bound`) into buckets of about a 64th
  /// of the heap's size limit (at most 256 buckets), by times sampled from them, and pushes
  /// them, the earliest last. False, pushing nothing, when their times are too alike.
  mutating func pushSplit(_ entries: [Pending], below bound: Nanoseconds) -> Bool {
    let wanted = min(256, max(2, entries.count / max(1, nearPendingLimit / 64)))
    let times = Self.sampleTimes(of: entries, size: 8 * wanted)
    // Ascending cuts, each the bound of a bucket; the last bucket's bound is `bound`.
    var cuts: [Nanoseconds] = []
    for k in 1..<wanted {
      let cut = times[times.count * k / wanted]
      if cut < bound, cut != cuts.last { cuts.append(cut) }
    }
    guard !cuts.isEmpty else { return false }
    // Padded to 256 with the end of time, for a search without branches: a bucket's index
    // is the number of cuts before the entry's time.
    let padded = cuts + repeatElement(Nanoseconds.max, count: 256 - cuts.count)
    let bucketCount = cuts.count + 1
    var indices = [UInt8](repeating: 0, count: entries.count)
    var counts = [Int](repeating: 0, count: bucketCount)
    padded.withUnsafeBufferPointer { padded in
      for i in entries.indices {
        let time = entries[i].time
        var low = 0
        var step = 128
        while step > 0 {
          // (A multiply, not a branch: which way it goes is a coin toss.)
          let below = unsafeBitCast(padded[low &+ step &- 1] < time, to: UInt8.self)
          low &+= step &* Int(below)
          step >>= 1
        }
        indices[i] = UInt8(truncatingIfNeeded: low)
        counts[low] += 1
      }
    }
    // Scattered in bucket order into one array, then cut into the buckets.
    var next = [Int](repeating: 0, count: bucketCount)
    for b in 1..<bucketCount { next[b] = next[b - 1] + counts[b - 1] }
    let starts = next
    let count = entries.count
    let sorted = [Pending](unsafeUninitializedCapacity: count) { buffer, initialized in
      for i in 0..<count {
        let b = Int(indices[i])
        (buffer.baseAddress! + next[b]).initialize(to: entries[i])
        next[b] += 1
      }
      initialized = count
    }
    for b in (0..<bucketCount).reversed() {
      laterBuckets.append(ChunkedArray(sorted[starts[b]..<(starts[b] + counts[b])]))
      laterBounds.append(b == cuts.count ? bound : cuts[b])
    }
    return true
  }

  // MARK: - Advancing

  /// Moves the engine to time `time` (never backwards), handing every event due up to and
  /// including it to `handle`, at its exact time and in order. The handler may change the
  /// engine; what it schedules at the same instant is handed out in the same call.
  ///
  /// - Throws: `tooManyEventsAtOneInstant` when a chain of events at one instant (handlers
  ///   scheduling more at the same instant) is longer than `eventLimitPerInstant`; the engine
  ///   stays at that instant with the rest dropped.
  public mutating func advance(
    to time: Nanoseconds, _ handle: (inout AnimationEngine, EngineEvent) -> Void = { _, _ in }
  ) throws(EngineError) {
    _ = try advance(to: time, stoppingWhen: { false }, handle)
  }

  /// Moves the engine toward time `time` as `advance(to:_:)` does, but asks `shouldStop`
  /// before each new instant that has something due (after every event of the instant
  /// before it has been handed out). When it says yes, the engine stays at the last
  /// instant it finished, exactly as if it had been advanced to that instant, and the
  /// rest is left for a later advance. So long work (a tick of a year over a timeline that
  /// replays itself every millisecond) can be cut into pieces, and abandoned part-way,
  /// without ever leaving the engine between the events of one instant.
  ///
  /// - Returns: whether it reached `time` (false: it stopped at `now`, before `time`).
  /// - Throws: as `advance(to:_:)`.
  public mutating func advance(
    to time: Nanoseconds, stoppingWhen shouldStop: () -> Bool,
    _ handle: (inout AnimationEngine, EngineEvent) -> Void = { _, _ in }
  ) throws(EngineError) -> Bool {
    guard time >= now else { return true }
    var instant = now
    // A chain at one instant is a round of events whose handlers schedule the next round
    // at the same instant. Any number of independent events may share an instant (ten
    // thousand animations starting together); a chain longer than the limit is an error,
    // and so, as a guard against handlers that multiply their events, is a vast total.
    var roundsAtInstant = 0
    var countAtInstant = 0
    // Pass boundaries crossed by each top-level tree in this advance (see
    // `repeatLimitPerAdvance`).
    var repeatsThisAdvance: [Int32: Int] = [:]
    // One set of buffers for every instant, emptied keeping their storage: most instants
    // have one or two events, and allocating (and sorting, which makes an empty array
    // unique by allocating) these arrays for each cost more than handing the events out.
    // (The first `dueCount` and `callbacksDueCount` of these are this instant's.)
    var due: [Int32] = []
    var dueCount = 0
    var callbacksDue: [Int] = []
    var callbacksDueCount = 0
    var crossed: [Crossed] = []
    var leavingRest: [PropertyID] = []
    while true {
      // What is due next: properties leaving rest are due now; the heap holds nothing earlier.
      let t: Nanoseconds
      if !propertiesLeavingRest.isEmpty {
        t = now
      } else if let first = firstPending(), first.time <= time {
        t = first.time
      } else {
        break
      }
      if t != instant {
        // Between two instants: the one place an advance may stop.
        if shouldStop() {
          stopPartWay(skipped: repeatsThisAdvance)
          return false
        }
        instant = t
        roundsAtInstant = 0
        countAtInstant = 0
      }
      roundsAtInstant += 1
      now = t
      dueCount = 0
      callbacksDueCount = 0
      if !crossed.isEmpty { crossed.removeAll(keepingCapacity: true) }
      if !leavingRest.isEmpty { leavingRest.removeAll(keepingCapacity: true) }
      // The ones that leave rest from now on are the next round's.
      if !propertiesLeavingRest.isEmpty { propertiesLeavingRest.drain(into: &leavingRest) }
      while let entry = firstPending(), entry.time == t {
        pending.removeMin()
        let slot = entry.slot
        if slot < 0 {
          let key = takeEngineCallback(slot)
          if callbacksDueCount < callbacksDue.count {
            callbacksDue[callbacksDueCount] = key
          } else {
            callbacksDue.append(key)
          }
          callbacksDueCount += 1
        } else if isLive(entry) {
          if dueCount < due.count { due[dueCount] = slot } else { due.append(slot) }
          dueCount += 1
        }
      }
      if dueCount > 1 { due[..<dueCount].sort { nodes[Int($0)].order < nodes[Int($1)].order } }
      for top in due[..<dueCount] {
        let local = reachedLocal(
          of: top, atParent: t, direction: rate(of: nodes[Int(top)]) >= 0 ? 1 : -1, parentForward: true)
        let before = crossed.count
        cross(top, to: local, direction: rate(of: nodes[Int(top)]) >= 0 ? 1 : -1, into: &crossed)
        if crossed.count > before {
          var repeats = 0
          for event in crossed[before...] where event.kind == .repeat { repeats += 1 }
          if repeats > 0 {
            let total = repeatsThisAdvance[top, default: 0] + repeats
            repeatsThisAdvance[top] = total
            // Past the budget, the passes up to the advance's end go by in one step.
            if total >= Self.repeatLimitPerAdvance { skipPasses(of: top, toward: time) }
          }
        }
      }
      if crossed.count > 1 { Self.order(&crossed) }
      countAtInstant += crossed.count + callbacksDueCount + leavingRest.count
      for top in due[..<dueCount] { reschedule(top) }
      if roundsAtInstant > roundLimitPerInstant || countAtInstant > 1_000 * Self.eventLimitPerInstant {
        dropPending(at: t)
        throw .tooManyEventsAtOneInstant(t)
      }
      if !crossed.isEmpty { deliver(crossed, handle, leavingRest: &leavingRest) }  // (not for callbacks only)
      for property in leavingRest where isAnimating(property) {
        handle(&self, EngineEvent(kind: .start, subject: .property(property), time: now, isReversed: false))
      }
      for key in callbacksDue[..<callbacksDueCount] {
        handle(&self, EngineEvent(kind: .callback(key), subject: .engine, time: now, isReversed: false))
      }
    }
    now = time
    refreshCurrentValues()
    return true
  }

  /// Leaves an advance at `now`, the last instant it finished. A tree that used up its
  /// repeat budget was moved toward the advance's end (`skipPasses`), past `now`: it is put
  /// back where it is at `now`, its passes up to here gone by without events (as the skip
  /// meant them to), and due again at its next boundary after `now`.
  mutating func stopPartWay(skipped repeats: [Int32: Int]) {
    for (top, count) in repeats where count >= Self.repeatLimitPerAdvance {
      let node = nodes[Int(top)]
      guard node.kind == .effect || node.kind == .timeline, node.parent < 0, !node.isHeld else { continue }
      let local = localTime(of: top, atParent: now)
      let rate = rate(of: node)
      guard (rate > 0 && node.lastLocal > local) || (rate < 0 && node.lastLocal < local) else { continue }
      nodes[Int(top)].lastLocal = local
      if node.kind == .timeline {
        for child in timelines[Int(node.payload)].children { resyncSubtree(child) }
      }
      reschedule(top)
    }
    refreshCurrentValues()
  }

  /// How many pass boundaries of one animation (a top-level tree) one advance crosses with
  /// a `repeat` event each. Beyond that the passes up to the advance's end go by with one
  /// more `repeat` (as CSS fires one `animationiteration` per frame), so the work of an
  /// advance grows with the number of animations, not with their passes (`over 1ns repeat
  /// forever`).
  public static let repeatLimitPerAdvance = 1_000

  /// Moves a top-level node that has used its repeat budget to just before its last pass
  /// boundary before the advance's end `time` (its end, when that comes first, stays ahead:
  /// it fires at its time), so that it crosses one more boundary, and whatever follows.
  mutating func skipPasses(of top: Int32, toward time: Nanoseconds) {
    let node = nodes[Int(top)]
    let rate = rate(of: node)
    guard node.kind == .effect || node.kind == .timeline, !node.isHeld, rate != 0 else { return }
    let timing = timing(of: node)
    let duration = Int128(timing.iterationDuration)
    guard duration > 0 else { return }
    let points = EventPoints(timing, hasStarted: node.hasStarted)
    let target = Int128(localTime(of: top, atParent: time))
    let delay = Int128(timing.delay)
    if rate > 0 {
      var limit = target
      if let end = points.end { limit = min(limit, Int128(end) - 1) }
      let boundary = delay + floorDivide(limit - delay, duration) * duration
      guard boundary - 1 > Int128(node.lastLocal), boundary > Int128(points.start) else { return }
      nodes[Int(top)].lastLocal = clampedToNanoseconds(boundary - 1)
    } else {
      var limit = target
      if !points.wraps { limit = max(limit, Int128(points.start) + 1) }
      let boundary = delay + ceilDivide(limit - delay, duration) * duration
      guard boundary + 1 < Int128(node.lastLocal), points.end.map({ boundary < Int128($0) }) ?? true else { return }
      nodes[Int(top)].lastLocal = clampedToNanoseconds(boundary + 1)
    }
    if node.kind == .timeline {
      // Its items sit where that pass has them, crossed nothing.
      for child in timelines[Int(node.payload)].children { resyncSubtree(child) }
    }
  }

  /// Drops everything due at `t` (the rest of a chain that went on too long).
  mutating func dropPending(at t: Nanoseconds) {
    // All of them are in the heap: `t` is at or before the horizon.
    var kept: [Pending] = []
    for entry in pending.unordered {
      if entry.time != t {
        kept.append(entry)
      } else if entry.slot < 0 {
        _ = takeEngineCallback(entry.slot)
      }
    }
    pending = Heap(kept)
    propertiesLeavingRest.removeAll()
  }

  /// Reads `clock` once and advances to its time; a gap it reports (a suspension) becomes a
  /// `.clockGap` event first.
  public mutating func tick<Clock: AnimationClock>(
    _ clock: inout Clock, _ handle: (inout AnimationEngine, EngineEvent) -> Void = { _, _ in }
  ) throws(EngineError) {
    let reading = clock.read()
    if reading.gap > 0 {
      handle(&self, EngineEvent(kind: .clockGap(reading.gap), subject: .engine, time: now, isReversed: false))
    }
    try advance(to: reading.time, handle)
  }

  // MARK: - Crossing

  /// The local time node `index` crosses to at parent time `parent` (its parent moving
  /// forwards or not; the node moving in `direction`): its local time, or the next point it
  /// or anything in it has an event at, when the parent time has reached the moment that
  /// point is due. (A point u of a child is due at its parent's time S + round(u / rate),
  /// mapped up level by level, each level rounding once; the local time, rounded once more
  /// at each level, can fall a nanosecond short of it.)
  func reachedLocal(of index: Int32, atParent parent: Nanoseconds, direction: Int, parentForward: Bool) -> Nanoseconds {
    let local = localTime(of: index, atParent: parent)
    let node = nodes[Int(index)]
    // (At rate ±1 local time is exact: nothing falls short.)
    guard rate(of: node) != 1, rate(of: node) != -1,
      let threshold = nextThreshold(of: index, direction: direction),
      let due = Self.parentThreshold(of: playback(of: node), reaching: threshold, parentForward: parentForward),
      parentForward ? due <= parent : due >= parent
    else { return local }
    return direction > 0 ? max(local, threshold) : min(local, threshold)
  }

  /// Moves node `index` from its last local time to `local`, collecting what it crosses;
  /// a timeline moves its children through its passes.
  mutating func cross(_ index: Int32, to local: Nanoseconds, direction: Int = 0, into crossed: inout [Crossed]) {
    let node = nodes[Int(index)]
    var a = node.lastLocal
    // Turning back (`direction`: the way it moves now) at a point it had just reached and
    // crossed: it moves as if recorded just past that point, so the point is crossed again.
    if direction != 0 && Int(node.turn) == -direction { a = saturatingSum(a, Int64(node.turn)) }
    guard a != local else {
      // Standing where it was: what is in it may still turn back at a point of its own that
      // it had just reached here.
      if direction != 0 && node.kind == .timeline {
        crossChildren(of: index, from: a, to: a, direction: direction, wrapping: node.hasStarted, into: &crossed)
      }
      return
    }
    let forward = local > a
    let id = id(of: index)
    switch node.kind {
    case .free:
      return
    case .callback:
      let record = callbacks[Int(node.payload)]
      var landed = local
      if (forward && a < 0 && local >= 0) || (!forward && record.firesBackwards && a > 0 && local <= 0) {
        crossed.append(
          Crossed(
            node: id, kind: nil, key: record.key, forward: forward, sequence: crossed.count,
            segment: passBoundariesCrossed))
        // Fired on reaching its point: just past it, so that turning back there (the end of
        // an alternating pass) crosses it back at once, as a node that completes there starts
        // back at once.
        if local == 0 { landed = forward ? 1 : -1 }
      }
      nodes[Int(index)].lastLocal = landed
    case .effect, .timeline:
      let points = EventPoints(timing(of: node), hasStarted: node.hasStarted)
      var landed = local
      var completedAt: Nanoseconds?
      var lastPoint: Nanoseconds?
      points.forEachCrossing(from: a, to: local) { kind, threshold in
        crossed.append(Crossed(node: id, kind: kind, key: 0, forward: forward, sequence: crossed.count))
        lastPoint = threshold
        if kind == .start { nodes[Int(index)].hasStarted = true }
        if kind == .complete {
          completedAt = threshold
          if node.parent < 0 {
            // A top-level node stops at its edge, as Web Animations' finished state.
            landed = threshold
            changePlayback(of: index) { $0.hold(at: threshold) }
          }
        }
      }
      if node.kind == .timeline {
        crossChildren(
          of: index, from: a, to: landed, direction: forward ? 1 : -1, wrapping: node.hasStarted, into: &crossed)
      }
      // Just past an edge it completed at, so that turning back crosses it again at once.
      if let completedAt, landed == completedAt {
        landed = saturatingSum(landed, forward ? 1 : -1)
      }
      nodes[Int(index)].lastLocal = landed
      // Landed on a point it crossed (a start, a pass boundary): turning back crosses it again.
      nodes[Int(index)].turn = landed == lastPoint ? (forward ? 1 : -1) : 0
    }
  }

  /// Moves a timeline's children as its local time goes from `a` to `b`, pass by pass.
  ///
  /// `wrapping`: whether the timeline had started before this move (an infinite one that
  /// has loops both ways; one that starts now enters at its start).
  mutating func crossChildren(
    of index: Int32, from a: Nanoseconds, to b: Nanoseconds, direction moving: Int, wrapping: Bool,
    into crossed: inout [Crossed]
  ) {
    let node = nodes[Int(index)]
    let timing = timing(of: node)
    // (From a to a: it stands, moving as `moving` says; its children catch up where it is.)
    let forward = b != a ? b > a : moving >= 0
    let direction = forward ? 1 : -1
    let duration = Int128(timing.iterationDuration)
    let children = timelines[Int(node.payload)].children
    let alternates = timing.direction == .alternate || timing.direction == .alternateReverse
    let points = EventPoints(timing, hasStarted: wrapping)
    let low = points.wraps ? Int128(Int64.min) : Int128(points.start)
    let high = points.end.map { Int128($0) } ?? Int128(Int64.max)
    var position = Int128(a)
    let target = Int128(b)
    var reset = false

    func move(from start: Int128, to stop: Int128, pass: Int128, reset: Bool, crossed: inout [Crossed]) {
      let passForward = Self.isForwardPass(timing, pass)
      let iterationA = Self.iterationTime(timing, clampedToNanoseconds(start), pass: pass)
      let iterationB = Self.iterationTime(timing, clampedToNanoseconds(stop), pass: pass)
      for child in children where nodes[Int(child)].kind != .free {
        // Its local time as sampling reads it (rule 6: kept on the side of each of its
        // boundaries that the parent time is of the moment that boundary is reached).
        let childDirection = direction * (passForward ? 1 : -1) * (rate(of: nodes[Int(child)]) < 0 ? -1 : 1)
        if reset {
          nodes[Int(child)].lastLocal = saturatingSum(
            localTime(of: child, atParent: iterationA), -Int64(childDirection))
        }
        let local = reachedLocal(
          of: child, atParent: iterationB, direction: childDirection,
          parentForward: direction * (passForward ? 1 : -1) > 0)
        cross(child, to: local, direction: childDirection, into: &crossed)
      }
    }

    if duration == 0 {
      // A timeline of no length: its children sit at time 0; they are crossed on entering.
      let entering = forward ? (Int128(a) < low && target >= low) : (Int128(a) > high && target <= high)
      if entering { move(from: 0, to: 0, pass: 0, reset: true, crossed: &crossed) }
      return
    }
    if forward {
      if position >= high { return }
      if position < low {
        if target < low { return }
        position = low
        reset = true
      }
      let stop = min(target, high)
      var pass =
        points.wraps
        ? floorDivide(position - Int128(timing.delay), duration)
        : Self.pass(of: timing, at: clampedToNanoseconds(position), forward: true)
      for _ in 0..<AnimationEngine.eventLimitPerInstant {
        let passEnd = Int128(timing.delay) + (pass + 1) * duration
        let segmentEnd = min(stop, passEnd)
        move(from: position, to: segmentEnd, pass: pass, reset: reset, crossed: &crossed)
        // Stopped inside the pass, or at the end of the last one.
        if segmentEnd < passEnd || passEnd >= high { break }
        // On a boundary: the next pass begins here.
        position = passEnd
        pass += 1
        passBoundariesCrossed += 1
        reset = !alternates
      }
    } else {
      if position <= low { return }
      if position > high {
        if target > high { return }
        position = high
        reset = true
      }
      let stop = max(target, low)
      var pass =
        points.wraps
        ? ceilDivide(position - Int128(timing.delay), duration) - 1
        : Self.pass(of: timing, at: clampedToNanoseconds(position), forward: false)
      for _ in 0..<AnimationEngine.eventLimitPerInstant {
        let passStart = Int128(timing.delay) + pass * duration
        let segmentEnd = max(stop, passStart)
        move(from: position, to: segmentEnd, pass: pass, reset: reset, crossed: &crossed)
        if segmentEnd > passStart || passStart <= low { break }
        position = passStart
        pass -= 1
        passBoundariesCrossed += 1
        reset = !alternates
      }
    }
  }

  // MARK: - Delivering

  /// Orders the events of one instant: completes, repeats, starts, then callbacks, each in
  /// item order (reversed for those crossed backwards). A node that starts and completes at
  /// the one instant (a zero duration, or a negative delay that skips it all) fires its own
  /// start and then its own complete, together, where its start goes.
  static func order(_ crossed: inout [Crossed]) {
    let paired = comingAndGoing(crossed)
    func key(_ event: Crossed) -> (rank: Int, segment: Int, sequence: Int, after: Int) {
      if event.kind == .complete, let start = paired[Passage(node: event.node, forward: event.forward)] {
        return (NodeEventKind.start.rank, 0, event.forward ? start : -start, 1)
      }
      return (event.kind?.rank ?? 3, event.segment, event.forward ? event.sequence : -event.sequence, 0)
    }
    crossed.sort { key($0) < key($1) }
  }

  /// A node crossed one way.
  struct Passage: Hashable {
    var node: NodeID
    var forward: Bool
  }

  /// The nodes that start and then complete, crossed the same way, among one instant's
  /// events (in crossing order), with their start's sequence, for each way. (Not a node that
  /// completes and then starts again: a timeline's child at its pass boundary, or one
  /// turning back. One that comes and goes both ways at one instant, at the boundary of an
  /// alternating pass, is paired each way.)
  static func comingAndGoing(_ crossed: [Crossed]) -> [Passage: Int] {
    var starts: [Passage: Int] = [:]
    var paired: [Passage: Int] = [:]
    for event in crossed {
      let passage = Passage(node: event.node, forward: event.forward)
      if event.kind == .start {
        starts[passage] = event.sequence
      } else if event.kind == .complete, let start = starts[passage] {
        paired[passage] = start
      }
    }
    return paired
  }

  /// Hands out the events of one instant, in order. A property that one animation leaves
  /// and another takes later at the same instant (a sequence handing over, also to an
  /// animation of no length) does not come to rest: its complete and start are not fired.
  mutating func deliver(
    _ events: [Crossed], _ handle: (inout AnimationEngine, EngineEvent) -> Void, leavingRest: inout [PropertyID]
  ) {
    // Only an instant with both a start and a complete can hand a property over.
    var hasStart = false
    var hasComplete = false
    for event in events {
      if event.kind == .start { hasStart = true } else if event.kind == .complete { hasComplete = true }
    }
    // For each property, where the last start of an animation on it comes.
    var starting: [PropertyID: Int] = [:]
    if hasStart && hasComplete {
      for (position, event) in events.enumerated() where event.kind == .start {
        if let index = try? resolve(event.node), nodes[Int(index)].kind == .effect {
          starting[effectProperty(of: index)] = position
        }
      }
    }
    var handedOver = Set<PropertyID>()
    for (position, event) in events.enumerated() {
      deliver(
        event, handle, handsOver: { starting.isEmpty ? false : (starting[$0].map { $0 > position } ?? false) },
        handedOver: &handedOver, leavingRest: &leavingRest)
    }
    for property in handedOver.sorted() where !isAnimating(property) {
      handle(&self, EngineEvent(kind: .complete, subject: .property(property), time: now, isReversed: false))
    }
    armBackwardsFillsOfNewPasses(events)
  }

  /// Applies what an event means to the engine (an animation taking its property, a value
  /// left as the base value), then hands it, and any property event it causes, to `handle`.
  mutating func deliver(
    _ event: Crossed, _ handle: (inout AnimationEngine, EngineEvent) -> Void, handsOver: (PropertyID) -> Bool,
    handedOver: inout Set<PropertyID>, leavingRest: inout [PropertyID]
  ) {
    guard let index = try? resolve(event.node) else { return }
    let reversed = !event.forward
    guard let kind = event.kind else {
      handle(
        &self, EngineEvent(kind: .callback(event.key), subject: .node(event.node), time: now, isReversed: reversed))
      return
    }
    let node = nodes[Int(index)]
    var propertyEvent: (EngineEvent.Kind, PropertyID)?
    if node.kind == .effect {
      let property = effectProperty(of: index)
      switch kind {
      case .start:
        if needsValues(index) {
          handle(&self, EngineEvent(kind: .needsValues, subject: .node(event.node), time: now, isReversed: reversed))
          guard contains(event.node) else { return }
        }
        if activate(index, forward: event.forward) {
          // (The empty sets of the usual instant are not asked: asking hashes.)
          if handedOver.isEmpty || handedOver.remove(property) == nil { propertyEvent = (.start, property) }
        }
      case .complete:
        if complete(index, forward: event.forward) {
          if handsOver(property) {
            handedOver.insert(property)
          } else {
            propertyEvent = (.complete, property)
          }
        }
      case .repeat:
        break
      }
    } else if node.kind == .timeline, kind == .repeat, event.forward {
      let direction = timing(of: node).direction
      if direction != .alternate && direction != .alternateReverse { rearmSets(in: index) }
    }
    let nodeKind: EngineEvent.Kind =
      switch kind {
      case .start: .start
      case .repeat: .repeat
      case .complete: .complete
      }
    handle(&self, EngineEvent(kind: nodeKind, subject: .node(event.node), time: now, isReversed: reversed))
    if let (kind, property) = propertyEvent {
      // A property that left rest at this instant and comes back to it (an animation of no
      // length): its start, still queued behind this instant's events, comes first.
      if kind == .complete, !leavingRest.isEmpty, let queued = leavingRest.firstIndex(of: property) {
        leavingRest.remove(at: queued)
        handle(&self, EngineEvent(kind: .start, subject: .property(property), time: now, isReversed: false))
      }
      handle(&self, EngineEvent(kind: kind, subject: .property(property), time: now, isReversed: reversed))
    }
    // A standalone animation that completed has done its work: its value is the base value.
    if kind == .complete, node.kind == .effect, node.parent < 0, let index = try? resolve(event.node) {
      let top = index
      removeSubtree(top)
    }
  }
}

/// Properties leaving rest, in order, 4 bytes each: the kind's order in the top 3 bits and
/// the index below (an index of 2^29 or more, never seen in practice, is kept whole aside,
/// its place marked).
struct LeavingRestQueue: Sendable {
  private var packed: [UInt32] = []
  private var wide: [PropertyID] = []
  private static let marker: UInt32 = .max

  var isEmpty: Bool { packed.isEmpty }

  mutating func append(_ property: PropertyID) {
    if property.index >= 0 && property.index < 1 << 29 {
      packed.append(UInt32(property.kind.order) << 29 | UInt32(property.index))
    } else {
      packed.append(Self.marker)
      wide.append(property)
    }
  }

  /// The properties, in order.
  var properties: [PropertyID] {
    var result: [PropertyID] = []
    result.reserveCapacity(packed.count)
    var nextWide = 0
    for p in packed {
      if p == Self.marker {
        result.append(wide[nextWide])
        nextWide += 1
      } else if let kind = ValueKind(order: Int(p >> 29)) {  // (only orders 0...4 are packed)
        result.append(PropertyID(kind: kind, index: Int32(p & 0x1FFF_FFFF)))
      }
    }
    return result
  }

  /// Appends the properties to `list` in order, and empties the queue.
  mutating func drain(into list: inout [PropertyID]) {
    list += properties
    // A big burst (thousands of animations added at once) does not keep its storage.
    if packed.capacity > 1024 { packed = [] } else { packed.removeAll(keepingCapacity: true) }
    wide = []
  }

  mutating func removeAll() {
    packed = []
    wide = []
  }
}
