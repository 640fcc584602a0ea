// How engine time becomes each node's local time, down the tree of timelines.
//
// A top-level node's parent time is the engine time. A timeline passes its children its
// iteration time: the time within its current pass, run backwards in a reversed pass, and
// clamped to the pass before and after its active interval. Every step is integer
// arithmetic, with one rounding per rate conversion.

extension AnimationEngine {
  /// A node's local time at engine time `time`, and the direction it moves in there (+1 or
  /// −1: the product of the rates' signs and of the passes' directions above it).
  func localState(of index: Int32, at time: Nanoseconds) -> (local: Nanoseconds, direction: Int) {
    let node = nodes[Int(index)]
    let parent = node.parent < 0 ? (time: time, direction: 1) : childTime(of: node.parent, at: time)
    let local = localTime(of: index, atParent: parent.time)
    return (local, rate(of: node) < 0 ? -parent.direction : parent.direction)
  }

  /// A node's local time at its parent's time `parent`: (parent − start) × rate, rounded, but
  /// never on the other side of one of its own boundaries (the end of its delay, a pass
  /// boundary, its end) than the parent time is of the time that boundary is reached, which
  /// is start + round(boundary / rate). So at a rate other than ±1 events fall on exactly
  /// those parent times, and between them local time stays inside the current pass.
  @inline(__always)
  func localTime(of index: Int32, atParent parent: Nanoseconds) -> Nanoseconds {
    let node = nodes[Int(index)]
    let rate = rate(of: node)
    if node.isHeld { return node.time }
    if rate == 1 { return saturatingDifference(parent, node.time) }
    let raw = scaled(saturatingDifference(parent, node.time), by: rate)
    if rate == -1 || rate == 0 || !rate.isFinite { return raw }
    return Self.corrected(
      raw, at: parent, start: node.time, rate: rate,
      points: EventPoints(timing(of: node), hasStarted: node.hasStarted))
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
      let reached = saturatingSum(start, unscaled(b, by: rate))
      // Rule 6: the boundary falls at exactly that parent time, whichever way the parent
      // moves, so the local time then is the boundary itself.
      if parent == reached {
        local = b
      } else if rate > 0 {
        if parent >= reached && local < b { local = b }
        if parent < reached && local >= b { local = saturatingSum(b, -1) }
      } else {
        if parent >= reached && local > b { local = b }
        if parent < reached && local <= b { local = saturatingSum(b, 1) }
      }
      boundary = points.nextThreshold(from: b, forward: true)
      checked += 1
    }
    return local
  }

  /// The time a timeline gives its children at engine time `time`, and their parent
  /// direction.
  func childTime(of timeline: Int32, at time: Nanoseconds) -> (time: Nanoseconds, direction: Int) {
    let state = localState(of: timeline, at: time)
    let node = nodes[Int(timeline)]
    let timing = timing(of: node)
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
