// EventPoints: where on its own local time line an effect's start, repeat and complete
// events fall, and which of them a move from one local time to another crosses.
//
// The points follow the phases of Web Animations. Moving forwards, the start fires on
// reaching the delay, a repeat on reaching each pass boundary and the complete on reaching the
// end of the active interval; moving backwards, the same points in mirror order: the start on
// reaching the end, a repeat on reaching a boundary, the complete on reaching the delay. A
// point is crossed forwards when local time goes from below it to at or above it, and
// backwards when it goes from above it to at or below it. A node that completes is then
// recorded a nanosecond beyond its edge, so that turning back crosses the edge again at once
// (a reversed finished animation starts back immediately).

/// The events of an animation or timeline itself.
public enum NodeEventKind: UInt8, Sendable, Hashable, Codable {
  case start, `repeat`, complete

  /// The order at one instant: completes, then repeats, then starts.
  var rank: Int {
    switch self {
    case .complete: 0
    case .repeat: 1
    case .start: 2
    }
  }
}

/// The event points of one effect timing.
struct EventPoints {
  let delay: Nanoseconds
  let duration: Nanoseconds
  /// Where the active interval begins: the delay, or 0 when the delay is negative (an
  /// animation placed part-way through starts where it is placed), and never after the end
  /// (Web Animations' before-active boundary).
  let start: Nanoseconds
  /// The end of the active interval, never below 0 (an animation whose negative delay skips
  /// all of it is over where it is placed); nil when infinite.
  let end: Nanoseconds?
  /// An infinite effect that has started loops in both directions: below its delay it keeps
  /// running down through its passes, so there is no start or complete, only repeats.
  let wraps: Bool

  /// Whether there is any repeat point: a pass boundary inside the active interval.
  let repeats: Bool

  init(_ timing: EffectTiming, hasStarted: Bool) {
    delay = timing.delay
    duration = timing.iterationDuration
    let end = timing.activeDuration.map { max(clampedToNanoseconds(Int128(timing.delay) + Int128($0)), 0) }
    self.end = end
    start = max(min(timing.delay, end ?? .max), 0)
    wraps = end == nil && hasStarted && duration > 0
    let firstBoundary = Int128(timing.delay) + Int128(timing.iterationDuration)
    repeats = timing.iterationDuration > 0 && (end.map { firstBoundary < Int128($0) } ?? true)
  }

  /// The pass boundary `delay + k·duration` nearest above `local` (strictly), if it is a
  /// repeat point.
  private func boundary(above local: Nanoseconds) -> Nanoseconds? {
    guard repeats else { return nil }
    let k = floorDivide(Int128(local) - Int128(delay), Int128(duration)) + 1
    return repeatPoint(Int128(delay) + k * Int128(duration))
  }

  /// The pass boundary nearest below `local` (strictly), if it is a repeat point.
  private func boundary(below local: Nanoseconds) -> Nanoseconds? {
    guard repeats else { return nil }
    let k = ceilDivide(Int128(local) - Int128(delay), Int128(duration)) - 1
    return repeatPoint(Int128(delay) + k * Int128(duration))
  }

  /// `q` if a boundary there is a repeat: inside the active interval, or anywhere once an
  /// infinite effect wraps.
  private func repeatPoint(_ q: Int128) -> Nanoseconds? {
    guard q > Int128(Int64.min), q < Int128(Int64.max) else { return nil }
    if wraps { return Int64(q) }
    guard q > Int128(start) else { return nil }
    if let end, q >= Int128(end) { return nil }
    return Int64(q)
  }

  /// The first point reached moving from `local` in direction `forward`, or nil.
  func nextThreshold(from local: Nanoseconds, forward: Bool) -> Nanoseconds? {
    var best: Nanoseconds?
    func consider(_ t: Nanoseconds?) {
      guard let t else { return }
      if let b = best { best = forward ? min(b, t) : max(b, t) } else { best = t }
    }
    if forward {
      if !wraps, local < start { consider(start) }
      consider(boundary(above: local))
      if let end, local < end { consider(end) }
    } else {
      if let end, local > end { consider(end) }
      consider(boundary(below: local))
      if !wraps, local > start { consider(start) }
    }
    return best
  }

  /// Calls `body` with each event at point `t`, reached moving from `local`, in the order
  /// of travel.
  @inline(__always)
  func forEachEvent(at t: Nanoseconds, from local: Nanoseconds, forward: Bool, _ body: (NodeEventKind) -> Void) {
    if forward {
      if !wraps, local < start, t == start { body(.start) }
      if let q = boundary(above: local), q == t { body(.repeat) }
      if let end, local < end, t == end { body(.complete) }
    } else {
      if let end, local > end, t == end { body(.start) }
      if let q = boundary(below: local), q == t { body(.repeat) }
      if !wraps, local > start, t == start { body(.complete) }
    }
  }

  /// Calls `body` with every event crossed moving from `a` to `b` (a ≠ b) and its point,
  /// in order of travel, stopping once `limit` have been (the last point's events are all given).
  @inline(__always)
  func forEachCrossing(
    from a: Nanoseconds, to b: Nanoseconds, limit: Int = 10_001, _ body: (NodeEventKind, Nanoseconds) -> Void
  ) {
    let forward = b > a
    var count = 0
    var position = a
    while count < limit, let t = nextThreshold(from: position, forward: forward),
      forward ? t <= b : t >= b
    {
      forEachEvent(at: t, from: position, forward: forward) { kind in
        body(kind, t)
        count += 1
      }
      // Every condition is strict, so the next search starts beyond this point.
      position = t
    }
  }
}

/// ⌈a / b⌉ for b > 0.
@inlinable
func ceilDivide(_ a: Int128, _ b: Int128) -> Int128 {
  let q = a / b
  return (a % b != 0 && a > 0) ? q + 1 : q
}

/// ⌊a / b⌋ for b > 0 (Swift's `/` truncates toward zero).
@inlinable
func floorDivide(_ a: Int128, _ b: Int128) -> Int128 {
  let q = a / b
  return (a % b != 0 && a < 0) ? q - 1 : q
}

extension EffectTiming {
  /// The local time at which sampling reads an infinite effect that has started and has
  /// run below its delay (or below 0): moved up by whole periods (two passes when alternating, so the
  /// direction of each pass is kept) into the active interval. Anything else is unchanged.
  @inlinable
  func wrapped(_ local: Nanoseconds, hasStarted: Bool) -> Nanoseconds {
    // (Below 0 too: with a negative delay, Web Animations' before phase begins at local time
    // 0, not at the delay, so a time below 0 is moved up above it.)
    let low = max(delay, 0)
    guard hasStarted, local <= low, iterationCount.isInfinite, iterationDuration > 0 else { return local }
    let alternates = direction == .alternate || direction == .alternateReverse
    let period = Int128(iterationDuration) * (alternates ? 2 : 1)
    let below = Int128(low) - Int128(local)
    let periods = below / period + 1
    return clampedToNanoseconds(Int128(local) + periods * period)
  }
}
