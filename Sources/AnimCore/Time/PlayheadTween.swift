// PlayheadTween: a paused node's playhead carried along a curve over engine time
// (`tween X to A over D with CURVE`, GSAP's tweenTo).
//
// The playhead's place at each engine time is computed afresh from the tween's start, never
// accumulated: p(t) = from + trunc((to − from) · curve((t − start) / duration)), the distance
// moved rounded toward zero, so that a point is reached at the first nanosecond the exact
// playhead is there (for a linear tween, t = start + ⌈(L − from) · duration / (to − from)⌉),
// never half a nanosecond early; exactly `from` at the start and `to` at the end, and in
// integer arithmetic for a linear curve. The
// engine finds the instant the playhead reaches each of the node's points by a search over
// integer engine times on p itself (p is monotonic between the curve's turning points), so
// nothing inverts a curve into a time.

/// A node's playhead moving along a curve over engine time.
struct PlayheadTween: Sendable, Hashable, Codable {
  /// The node it moves, and the generation the node had (a removed node's tween is dropped).
  var node: Int32
  var generation: UInt32
  /// The engine time it set out at, and how long it takes.
  var start: Nanoseconds
  var duration: Nanoseconds
  /// The node's local time at the start and at the end.
  var from: Nanoseconds
  var to: Nanoseconds
  var curve: TimingCurve
  /// The last engine time at which the playhead was moved and what it crossed handed out.
  var movedThrough: Nanoseconds

  /// The engine time it arrives at `to`.
  var end: Nanoseconds { saturatingSum(start, duration) }

  /// The playhead's local time at engine time `time`.
  func position(at time: Nanoseconds) -> Nanoseconds {
    if time >= end { return to }
    if time <= start { return from }
    let elapsed = Int128(time) - Int128(start)
    let span = Int128(to) - Int128(from)
    if case .linear = curve {
      // span · elapsed / duration, rounded toward zero, exactly (Swift's `/` truncates).
      return clampedToNanoseconds(Int128(from) + span * elapsed / Int128(duration))
    }
    let progress = curve.progress(at: Double(elapsed) / Double(duration))
    let moved = (Double(span) * progress).rounded(.towardZero)
    guard moved.isFinite, moved.magnitude < 1.7e38 else { return moved < 0 ? .min : .max }
    return clampedToNanoseconds(Int128(from) + Int128(moved))
  }

  /// The engine times strictly inside the tween at which its curve turns back (a cubic
  /// Bézier that overshoots), in order: between two of them, and the start and end, the
  /// playhead moves one way only.
  var turningTimes: [Nanoseconds] {
    guard duration > 1, case .cubicBezier(let bezier) = curve else { return [] }
    // y(s) = a·s³ + b·s² + c·s, so y′(s) = 3a·s² + 2b·s + c.
    let c = 3 * bezier.y1
    let b = 3 * (bezier.y2 - 2 * bezier.y1)
    let a = 1 - 3 * bezier.y2 + 3 * bezier.y1
    var roots: [Double] = []
    if a.magnitude < 1e-12 {
      if b.magnitude > 1e-12 { roots = [-c / (2 * b)] }
    } else {
      let discriminant = 4 * b * b - 12 * a * c
      if discriminant > 0 {
        let root = discriminant.squareRoot()
        roots = [(-2 * b - root) / (6 * a), (-2 * b + root) / (6 * a)]
      }
    }
    // x(s) from the curve's x control points gives each turning point's input progress.
    func x(_ s: Double) -> Double {
      let cx = 3 * bezier.x1
      let bx = 3 * (bezier.x2 - 2 * bezier.x1)
      let ax = 1 - 3 * bezier.x2 + 3 * bezier.x1
      return ((ax * s + bx) * s + cx) * s
    }
    let times = roots.filter { $0 > 0 && $0 < 1 }.map { s in
      saturatingSum(start, Nanoseconds((x(s) * Double(duration)).rounded()))
    }
    return Array(Set(times.filter { $0 > start && $0 < end })).sorted()
  }

  /// The first engine time in `lower...upper` at which the playhead, moving in `direction`
  /// (+1 or −1) there, has reached local time `threshold` (≥ it forwards, ≤ backwards); nil
  /// when it does not by `upper`. `position` must move one way only in that range.
  func firstTime(reaching threshold: Nanoseconds, direction: Int, in lower: Nanoseconds, _ upper: Nanoseconds)
    -> Nanoseconds?
  {
    func reached(_ t: Nanoseconds) -> Bool {
      direction > 0 ? position(at: t) >= threshold : position(at: t) <= threshold
    }
    guard lower <= upper, reached(upper) else { return nil }
    var low = lower
    var high = upper
    while low < high {
      let middle = low + (high - low) / 2
      if reached(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
