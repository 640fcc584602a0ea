// Advancing: moving the engine to a time, handing out every event due on the way.
//
// Each top-level node has one entry in the pending events (`PendingEventQueue`): the engine
// time of the next event anywhere in its tree (Engine+Scheduling.swift). Callbacks scheduled
// on the engine have entries of their own. Advancing pops every entry due at the earliest
// instant, walks the trees that are due from where they were to that instant, collecting the
// points crossed (Engine+Crossing.swift), orders them (completes, repeats, starts, then
// callbacks; reversed item order when going backwards) and hands them to the handler, which
// may change anything (Engine+Delivering.swift). Then the next instant, until the target
// time. Properties leaving rest wait in a queue of their own (LeavingRestQueue.swift), due
// at once, handed out behind the animations' events of their instant.

extension AnimationEngine {
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
    // How many more moves and points crossed with events tweened playheads have in this
    // advance (Engine+Tweening.swift).
    var tweenBudget = Self.repeatLimitPerAdvance
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
      // A tweened playhead's next point (Engine+Tweening.swift) is due like a pending entry.
      // Past their budget of points in one advance, tweened playheads make one more move, at
      // the advance's end (as passes past `repeatLimitPerAdvance` go by in one step).
      let tweenDue =
        playheadTweens.isEmpty
        ? nil
        : nextPlayheadTweenInstant().flatMap { next in
          next > time ? nil : tweenBudget > 0 ? next : time
        }
      if !propertiesLeavingRest.isEmpty {
        t = now
      } else if let first = firstPending(), first.time <= time {
        t = min(first.time, tweenDue ?? first.time)
      } else if let tweenDue {
        t = tweenDue
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
        pending.removeFirst()
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
        // (The direction read first: an argument that reads the engine, in a call of one of
        // its methods, made the call copy the whole engine, a retain of every array, at each
        // node due.)
        let direction = rate(of: nodes[Int(top)]) >= 0 ? 1 : -1
        let local = reachedLocal(of: top, atParent: t, direction: direction, parentForward: true)
        let before = crossed.count
        cross(top, to: local, direction: direction, into: &crossed)
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
      var tweened: [Int32] = []
      if tweenDue == t {
        tweenBudget -= 1
        tweened = movePlayheads(at: t, into: &crossed, budget: &tweenBudget, handle)
      }
      if crossed.count > 1 { order(&crossed) }
      if !passBoundaryLog.isEmpty { passBoundaryLog.removeAll(keepingCapacity: true) }
      countAtInstant += crossed.count + callbacksDueCount + leavingRest.count
      for top in due[..<dueCount] { reschedule(top) }
      for top in tweened { reschedule(top) }
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
    if !playheadTweens.isEmpty { placePlayheads() }
    refreshCurrentValues()
    return true
  }

  /// The earliest pending entry (stale or not), if any; stale node entries of a bucket
  /// that comes into the heap are dropped on the way.
  @inline(__always) mutating func firstPending() -> PendingEventQueue.Entry? {
    pending.first(versions: versions)
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
    for entry in pending.removeAll(at: t) where entry.slot < 0 {
      _ = takeEngineCallback(entry.slot)
    }
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
}
