// How engine time becomes each node's local time, down the tree of timelines.
//
// A top-level node's parent time is the engine time. A timeline passes its children its
// iteration time: the time within its current pass, run backwards in a reversed pass, and
// clamped to the pass before and after its active interval. Every step is integer
// arithmetic, with one rounding per rate conversion.
//
// The functions that walk the tree (a node's local time, a timeline's time for its children,
// the boundaries of a timeline's descendants) are static, over the arrays they read (`nodes`,
// `nodeExtras`, `timelines` and the memo `childTimes`), and the methods of the same names
// hand them those arrays, inlined. A non-mutating method that a mutating one calls, and that
// is not inlined, is handed a copy of the whole engine (about a kilobyte; see
// `topLevelAncestor` in Engine+Scheduling.swift), and these recurse, so they cannot all be
// inlined: `makeNode` asks a new node's local state and `animate` asks whether it ends in
// time (`endProblem`), for every animation added, and each made that copy, even where the
// part that recurses was never reached.

extension AnimationEngine {
  /// A node's local time at engine time `time`, and the direction it moves in there (+1 or
  /// −1: the product of the rates' signs and of the passes' directions above it).
  @inline(__always)  // (see the top of this file)
  func localState(of index: Int32, at time: Nanoseconds) -> (local: Nanoseconds, direction: Int) {
    Self.localState(of: index, at: time, nodes, nodeExtras, timelines, childTimes)
  }

  @inline(__always)
  static func localState(
    of index: Int32, at time: Nanoseconds, _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras],
    _ timelines: [TimelineRecord], _ childTimes: ChildTimeMemo?
  ) -> (local: Nanoseconds, direction: Int) {
    let node = nodes[Int(index)]
    let parent =
      node.parent < 0
      ? (time: time, direction: 1) : childTime(of: node.parent, at: time, nodes, nodeExtras, timelines, childTimes)
    let local = localTime(of: index, atParent: parent.time, nodes, nodeExtras, timelines)
    return (local, rate(of: node, nodeExtras) < 0 ? -parent.direction : parent.direction)
  }

  /// A node's local time at its parent's time `parent`: (parent − start) × rate, rounded, but
  /// never on the other side of one of its own boundaries (the end of its delay, a pass
  /// boundary, its end) than the parent time is of the time that boundary is reached, which
  /// is start + round(boundary / rate). So at a rate other than ±1 events fall on exactly
  /// those parent times, and between them local time stays inside the current pass.
  @inline(__always)
  func localTime(of index: Int32, atParent parent: Nanoseconds) -> Nanoseconds {
    Self.localTime(of: index, atParent: parent, nodes, nodeExtras, timelines)
  }

  @inline(__always)
  static func localTime(
    of index: Int32, atParent parent: Nanoseconds, _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras],
    _ timelines: [TimelineRecord]
  ) -> Nanoseconds {
    let node = nodes[Int(index)]
    let rate = rate(of: node, nodeExtras)
    if node.isHeld { return node.time }
    if rate == 1 { return saturatingDifference(parent, node.time) }
    let raw = scaled(saturatingDifference(parent, node.time), by: rate)
    if rate == -1 || rate == 0 || !rate.isFinite { return raw }
    let local = Self.corrected(
      raw, at: parent, start: node.time, rate: rate,
      points: EventPoints(timing(of: node, nodeExtras), hasStarted: node.hasStarted))
    guard node.kind == .timeline else { return local }
    return correctedForDescendants(
      of: index, local, at: parent, start: node.time, rate: rate, nodes, nodeExtras, timelines)
  }

  /// `local`, a timeline's local time at parent time `parent`, moved to the right side of
  /// each boundary of what it holds near it (rule 6, each level rounding once): a
  /// descendant's boundary u is reached where its mapping up, level by level (start +
  /// round(u / rate) at each), says, and the timeline's own time there, round((t − S) · r),
  /// can miss that boundary mapped into it by a few nanoseconds. Resumed at speed 7 exactly
  /// at an item's pass boundary (808 ms), its time is 807 999 997: without this the item
  /// would read the pass before; paused there, it would hold short of it and start the item
  /// a second time on resuming. (The oracle's `reach`, the same mapping.)
  static func correctedForDescendants(
    of index: Int32, _ local: Nanoseconds, at parent: Nanoseconds, start: Nanoseconds, rate: Double,
    _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras], _ timelines: [TimelineRecord]
  ) -> Nanoseconds {
    let margin = Nanoseconds(min(rate.magnitude.rounded(.up), 1e12)) + 2
    var result = local
    forEachDescendantBoundary(of: index, near: local, margin: margin, nodes, nodeExtras, timelines) { b in
      guard b >= saturatingSum(local, -margin - 1), b <= saturatingSum(local, margin) else { return }
      result = Self.sided(result, of: b, at: parent, start: start, rate: rate)
    }
    return result
  }

  /// `local` moved to the side of boundary `b` that parent time `parent` is on: `b` is reached
  /// at parent time start + round(b / rate) exactly (rule 6: whichever way the parent moves,
  /// the local time then is the boundary itself), so before it local time stays short of
  /// `b`, and from it on it is at least `b` (mirrored at a negative rate).
  @inline(__always)
  static func sided(
    _ local: Nanoseconds, of b: Nanoseconds, at parent: Nanoseconds, start: Nanoseconds, rate: Double
  ) -> Nanoseconds {
    let reached = saturatingSum(start, unscaled(b, by: rate))
    if parent == reached { return b }
    if rate > 0 {
      if parent >= reached && local < b { return b }
      if parent < reached && local >= b { return saturatingSum(b, -1) }
    } else {
      if parent >= reached && local > b { return b }
      if parent < reached && local <= b { return saturatingSum(b, 1) }
    }
    return local
  }

  /// Calls `body` with each boundary (start of its active interval, pass boundary, end) of
  /// the animations and timelines in timeline `index`, at any depth, that lies within about
  /// `margin` of its local time `local` in its current pass, mapped up to its local time
  /// level by level (a child's u at its parent's start + round(u / rate)). Held children
  /// keep their own time, and are left out.
  static func forEachDescendantBoundary(
    of index: Int32, near local: Nanoseconds, margin: Nanoseconds, depth: Int = 0, _ nodes: ChunkedArray<Node>,
    _ nodeExtras: [NodeExtras], _ timelines: [TimelineRecord], _ body: (Nanoseconds) -> Void
  ) {
    let node = nodes[Int(index)]
    let timing = timing(of: node, nodeExtras)
    let duration = Int128(timing.iterationDuration)
    guard duration > 0, depth < 16 else { return }
    let wrapped = timing.wrapped(local, hasStarted: node.hasStarted)
    let shift = Int128(wrapped) - Int128(local)
    let pass = Self.pass(of: timing, at: wrapped, forward: true)
    let forwards = Self.isForwardPass(timing, pass)
    let iteration = Self.iterationTime(timing, wrapped, pass: pass)
    let passStart = Int128(timing.delay) + pass * duration
    // A margin in this timeline's time is the same in its iteration time.
    func mapped(_ x: Nanoseconds) -> Nanoseconds? {
      guard x >= 0, Int128(x) <= duration else { return nil }
      return clampedToNanoseconds(passStart + (forwards ? Int128(x) : duration - Int128(x)) - shift)
    }
    for child in timelines[Int(node.payload)].children {
      let childNode = nodes[Int(child)]
      if childNode.kind == .callback {
        // A callback's point is its place (rule 6 reaches it as any boundary): turned back
        // exactly there, a timeline at another rate fires it again at once.
        let distance = Int128(iteration) - Int128(childNode.time)
        if distance.magnitude <= UInt128(margin) + 1, let x = mapped(childNode.time) { body(x) }
        continue
      }
      guard childNode.kind == .effect || childNode.kind == .timeline, !childNode.isHeld else { continue }
      let childRate = rate(of: childNode, nodeExtras)
      guard childRate != 0, childRate.isFinite else { continue }
      let childLocal = scaled(saturatingDifference(iteration, childNode.time), by: childRate)
      let childMargin = Nanoseconds(min((Double(margin) * childRate.magnitude).rounded(.up), 1e12)) + 2
      let points = EventPoints(Self.timing(of: childNode, nodeExtras), hasStarted: childNode.hasStarted)
      var u = points.nextThreshold(from: saturatingSum(childLocal, -childMargin - 1), forward: true)
      var checked = 0
      while let b = u, b <= saturatingSum(childLocal, childMargin), checked < 8 {
        if let x = mapped(saturatingSum(childNode.time, unscaled(b, by: childRate))) { body(x) }
        u = points.nextThreshold(from: b, forward: true)
        checked += 1
      }
      if childNode.kind == .timeline {
        forEachDescendantBoundary(
          of: child, near: childLocal, margin: childMargin, depth: depth + 1, nodes, nodeExtras, timelines
        ) { b in
          if let x = mapped(saturatingSum(childNode.time, unscaled(b, by: childRate))) { body(x) }
        }
      }
    }
  }

  /// `raw`, the local time at parent time `parent`, moved to the right side of each boundary
  /// of `points` near it (within the rounding of a rate conversion either way).
  static func corrected(
    _ raw: Nanoseconds, at parent: Nanoseconds, start: Nanoseconds, rate: Double, points: EventPoints
  ) -> Nanoseconds {
    let margin = Nanoseconds(min(rate.magnitude.rounded(.up), 1e12)) + 2
    var local = raw
    var boundary = points.nextThreshold(from: saturatingSum(raw, -margin - 1), forward: true)
    var checked = 0
    while let b = boundary, b <= saturatingSum(raw, margin), checked < 8 {
      local = sided(local, of: b, at: parent, start: start, rate: rate)
      boundary = points.nextThreshold(from: b, forward: true)
      checked += 1
    }
    return local
  }

  /// The time a timeline gives its children at engine time `time`, and their parent
  /// direction.
  @inline(__always)  // (see the top of this file)
  func childTime(of timeline: Int32, at time: Nanoseconds) -> (time: Nanoseconds, direction: Int) {
    Self.childTime(of: timeline, at: time, nodes, nodeExtras, timelines, childTimes)
  }

  static func childTime(
    of timeline: Int32, at time: Nanoseconds, _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras],
    _ timelines: [TimelineRecord], _ childTimes: ChildTimeMemo?
  ) -> (time: Nanoseconds, direction: Int) {
    // At a rate other than ±1 a timeline's time looks at its descendants' boundaries, so a
    // refresh, which reads it for each of its effects, reads it once (`childTimes`).
    let memo = childTimes.flatMap {
      $0.time == time && !Self.isPlainRate(rate(of: nodes[Int(timeline)], nodeExtras)) ? $0 : nil
    }
    if let memo, let known = memo.entries[timeline] { return known }
    let result = uncachedChildTime(of: timeline, at: time, nodes, nodeExtras, timelines, childTimes)
    memo?.entries[timeline] = result
    return result
  }

  /// Whether a rate needs no correction at boundaries (`localTime(of:atParent:)`).
  @inline(__always) static func isPlainRate(_ rate: Double) -> Bool {
    rate == 1 || rate == -1 || rate == 0 || !rate.isFinite
  }

  static func uncachedChildTime(
    of timeline: Int32, at time: Nanoseconds, _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras],
    _ timelines: [TimelineRecord], _ childTimes: ChildTimeMemo?
  ) -> (time: Nanoseconds, direction: Int) {
    let state = localState(of: timeline, at: time, nodes, nodeExtras, timelines, childTimes)
    let node = nodes[Int(timeline)]
    let timing = timing(of: node, nodeExtras)
    let local = timing.wrapped(state.local, hasStarted: node.hasStarted)
    // Values follow Web Animations: an exact pass boundary belongs to the next pass, in
    // either direction (crossing events decide passes by direction, in Engine+Crossing).
    let pass = Self.pass(of: timing, at: local, forward: true)
    let forwards = Self.isForwardPass(timing, pass)
    let iteration = Self.iterationTime(timing, local, pass: pass)
    // Outside its active interval the children stand at the edge of its first or last pass,
    // as crossing it left them, whichever way the timeline moves now: before its start, as
    // time that came back to the first pass's start; after its end, as time that reached the
    // last pass's end (Web Animations' before and after phases, at the boundaries too).
    let points = EventPoints(timing, hasStarted: node.hasStarted)
    if !points.wraps && (local < points.start || (local == points.start && state.direction < 0)) {
      return (iteration, forwards ? -1 : 1)
    }
    if let end = points.end, local > end || (local == end && state.direction > 0) {
      return (iteration, forwards ? 1 : -1)
    }
    return (iteration, forwards ? state.direction : -state.direction)
  }

  /// The pass that local time `local` falls in, clamped to the active interval. A boundary
  /// belongs to the pass being entered: the next one moving forwards, the previous one moving
  /// backwards (crossing a boundary either way is a repeat).
  static func pass(of timing: EffectTiming, at local: Nanoseconds, forward: Bool) -> Int128 {
    let duration = Int128(timing.iterationDuration)
    guard duration > 0 else { return 0 }
    let count = timing.iterationCount
    let sinceDelay = max(Int128(local) - Int128(timing.delay), 0)
    var pass = forward ? sinceDelay / duration : max(ceilDivide(sinceDelay, duration) - 1, 0)
    if !count.isInfinite {
      let last = max(Int128(count.rounded(.up)) - 1, 0)
      pass = min(pass, last)
    }
    return pass
  }

  /// Whether pass `pass` runs forwards.
  static func isForwardPass(_ timing: EffectTiming, _ pass: Int128) -> Bool {
    let even = ((pass % 2) + 2) % 2 == 0
    return EffectTiming.isForwards(timing.direction, iterationIsEven: even, isInfinite: false)
  }

  /// The iteration time at local time `local` within pass `pass`, clamped to the pass.
  static func iterationTime(_ timing: EffectTiming, _ local: Nanoseconds, pass: Int128) -> Nanoseconds {
    let duration = Int128(timing.iterationDuration)
    guard duration > 0 else { return 0 }
    let passStart = Int128(timing.delay) + pass * duration
    var within = Int128(local) - passStart
    if let active = timing.activeDuration {
      // A fractional last pass ends part-way.
      within = min(within, Int128(timing.delay) + Int128(active) - passStart)
    }
    within = min(max(within, 0), duration)
    return Int64(isForwardPass(timing, pass) ? within : duration - within)
  }

  /// The local time at which pass `pass` shows iteration time `iteration` (the inverse of
  /// `iterationTime` inside the pass).
  static func localTime(_ timing: EffectTiming, iteration: Nanoseconds, pass: Int128) -> Nanoseconds {
    let duration = Int128(timing.iterationDuration)
    let passStart = Int128(timing.delay) + pass * duration
    let local = isForwardPass(timing, pass) ? passStart + Int128(iteration) : passStart + duration - Int128(iteration)
    return clampedToNanoseconds(local)
  }

  /// The first parent time, moving in direction `parentForward` from anywhere, at which a
  /// child's local time reaches `threshold` (≥ when the child moves forwards, ≤ backwards).
  /// nil when it never moves.
  static func parentThreshold(
    of playback: Playback, reaching threshold: Nanoseconds, parentForward: Bool
  ) -> Nanoseconds? {
    guard !playback.isHeld, playback.rate != 0, playback.rate.isFinite else { return nil }
    // A time u of its own is reached at parent time start + round(u / rate), exactly (see
    // `localTime(of:atParent:)`, which keeps local time on the matching side of it).
    _ = parentForward
    return saturatingSum(playback.startTime, unscaled(threshold, by: playback.rate))
  }
}
