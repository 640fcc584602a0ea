// The boundaries of an effect's local time, and where a local time falls among them.
//
// Web Animations' chain, restated on integers: an effect's local time crosses its start
// (max(delay, 0)), its pass boundaries (delay + k·d strictly between start and end) and its end
// (max(delay + active duration, 0)). A node's "zone" is how many of these it has passed; zone 0
// is the before phase, the last zone the after phase, each zone between one pass (or the part of
// it after a negative delay). Rule 6 decides the zone from the parent time: boundary u is
// reached at parent time S + round(u / r); arriving forwards at u counts u as passed (an exact
// boundary belongs to the next pass), arriving backwards at u counts it as crossed back (the
// mirror). Between boundaries the local time is round((p − S)·r), kept inside the zone.

struct OracleBoundaries {
  let timing: OracleTiming
  /// The local time at which the active phase starts.
  let start: OracleTime
  /// The local time at which it ends; nil when it repeats forever.
  let end: OracleTime?
  /// The first k ≥ 1 with delay + k·d > start (for d > 0).
  let firstPass: Int64
  /// How many pass boundaries lie strictly between start and end (finite only).
  let passCount: Int64

  init(_ timing: OracleTiming) {
    self.timing = timing
    let active = timing.activeDuration
    let end = active.map { max(timing.delay + $0, 0) }
    let start = max(min(timing.delay, end ?? .max), 0)
    self.start = start
    self.end = end
    let d = timing.duration
    if d > 0 {
      // smallest k ≥ 1 with delay + k·d > start
      var k = Swift.max(1, Self.floorDiv(start - timing.delay, d) + 1)
      while timing.delay + (k - 1) * d > start && k > 1 { k -= 1 }
      firstPass = k
      if let end {
        // largest k with delay + k·d < end
        let last = Self.ceilDiv(end - timing.delay, d) - 1
        passCount = Swift.max(0, last - k + 1)
      } else {
        passCount = .max
      }
    } else {
      firstPass = 1
      passCount = 0
    }
  }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }
  static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

  var isInfinite: Bool { end == nil }
  /// The number of boundaries (nil: infinitely many).
  var count: Int64? { end == nil ? nil : passCount + 2 }

  /// Whether an infinite effect has started: from then on its boundaries are its passes' starts
  /// in both directions (played back past its start, it loops on down through them), so its
  /// start is a boundary only while it has not started. (Its owner keeps this in step.)
  var hasStarted = false

  /// Boundary `i` (0: the start). An infinite effect's boundaries above its start are its
  /// passes' starts, delay + k·d for k ≥ `firstPass`; once it has started, boundary 0 and
  /// those below are the pass starts below them, delay + (firstPass − 1 + i)·d. With a delay
  /// ≥ 0 that is the start itself; with a negative one the start lies inside a pass, and
  /// the passes its delay skips are no boundaries crossed at its start (grammar.md § Timing:
  /// they fire no `repeat`; seed 25015923).
  func boundary(_ i: Int64) -> OracleTime {
    if isInfinite {
      if i <= 0 && !hasStarted { return start }
      return timing.delay + (firstPass - 1 + i) * timing.duration
    }
    if i <= 0 { return start }
    if i <= passCount { return timing.delay + (firstPass + i - 1) * timing.duration }
    return end!
  }

  /// The zone of a local time, given which way it arrived: forwards, a boundary at the local
  /// time counts as passed; backwards, it does not.
  func zone(local: OracleTime, forward: Bool, started: Bool) -> Int64 {
    zone(started: started) { u in forward ? local >= u : local > u }
  }

  /// The number of boundaries for which `passed` holds (it holds for a prefix of them).
  func zone(started: Bool, _ passed: (OracleTime) -> Bool) -> Int64 {
    if let count {
      var lo: Int64 = 0  // passed(boundary(i)) for all i < lo
      var hi = count  // not passed for i ≥ hi
      while lo < hi {
        let mid = lo + (hi - lo) / 2
        if passed(boundary(mid)) { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
    // Infinite: boundary i is delay + i·d; the zone is the first index not passed (before the
    // start, only indices ≥ 0 exist).
    if !started && !passed(boundary(0)) { return 0 }
    var lo: Int64 = started ? 0 : 0  // an index known passed, once found
    if started {
      lo = -1
      while !passed(boundary(lo)) { lo *= 2 }
    }
    var hi: Int64 = 1
    while passed(boundary(hi)) { hi *= 2 }
    // passed(lo), not passed(hi)
    while hi - lo > 1 {
      let mid = lo + (hi - lo) / 2
      if passed(boundary(mid)) { lo = mid } else { hi = mid }
    }
    return hi
  }

  /// The lowest and highest local time inside zone `z`, arriving as `forward` says.
  /// (Zone 0 of an infinite effect that has not started is its before phase, unbounded
  /// below: the boundaries below its start exist only once it loops back down through them.)
  func interval(zone z: Int64, forward: Bool, started: Bool) -> (OracleTime, OracleTime) {
    let lowBoundary: OracleTime? = ((isInfinite && started) || z > 0) ? boundary(z - 1) : nil
    let highBoundary: OracleTime? = (count.map { z < $0 } ?? true) ? boundary(z) : nil
    if forward {
      return (lowBoundary ?? .min, highBoundary.map { $0 - 1 } ?? .max)
    }
    return (lowBoundary.map { $0 + 1 } ?? .min, highBoundary ?? .max)
  }

  func isActive(zone z: Int64, started: Bool) -> Bool {
    if let count { return z > 0 && z < count }
    return started || z > 0
  }

  func isAfter(zone z: Int64) -> Bool { count.map { z >= $0 } ?? false }

  /// The pass that zone `z` lies in.
  func pass(ofZone z: Int64) -> Int64 {
    let d = timing.duration
    if d == 0 { return 0 }
    return Self.floorDiv(boundary(z - 1) - timing.delay, d)
  }

  /// The pass whose time a timeline in zone `z` gives its children: zone `z`'s, but past its
  /// end, its last pass (they stand at that pass's end; no pass of theirs lies beyond it).
  func childPass(ofZone z: Int64) -> Int64 {
    let k = pass(ofZone: z)
    guard isAfter(zone: z), timing.iterations.isFinite, timing.iterations > 0 else { return k }
    return min(k, Int64(timing.iterations.rounded(.up)) - 1)
  }

  func isForwardPass(_ k: Int64) -> Bool { !timing.autoreverse || k & 1 == 0 }

  /// Directed progress within pass `k` at local time `local`: (progress 0...1, the directed
  /// time in the pass in ns).
  func directed(pass k: Int64, local: OracleTime) -> (Double, OracleTime) {
    let d = timing.duration
    let q = local - timing.delay - k * d
    let t = isForwardPass(k) ? q : d - q
    return (Double(t) / Double(d), t)
  }

  /// Directed progress at the start of the active phase (what a backwards fill shows).
  func startEdge() -> (progress: Double, time: OracleTime, forwardPass: Bool) {
    let d = timing.duration
    if d == 0 { return (0, 0, true) }
    // A negative delay that skips the whole active interval puts its start at its end.
    if let a = timing.activeDuration, start - timing.delay >= a { return endEdge() }
    let k = Self.floorDiv(start - timing.delay, d)
    let (p, t) = directed(pass: k, local: start)
    return (p, t, isForwardPass(k))
  }

  /// Directed progress at the end of the active phase (what a forwards fill shows): the end
  /// of the active interval is progress 1 of the last pass.
  func endEdge() -> (progress: Double, time: OracleTime, forwardPass: Bool) {
    let d = timing.duration
    let n = timing.iterations
    if d == 0 {
      let whole = n == n.rounded(.down)
      let k = whole ? Int64(n) - 1 : Int64(n.rounded(.down))
      let simple = whole ? 1.0 : n - n.rounded(.down)
      let forward = isForwardPass(max(k, 0))
      return (forward ? simple : 1 - simple, 0, forward)
    }
    // The last pass ends at the fractional part of the iteration count (1 when whole), as
    // Web Animations' overall progress n gives; its time in the pass is that of the rounded
    // active duration.
    let a = timing.activeDuration ?? 0
    var k = a / d
    var q = a % d
    if q == 0 && a > 0 {
      k -= 1
      q = d
    }
    let whole = n == n.rounded(.down)
    let simple = whole ? 1.0 : n - n.rounded(.down)
    let t = isForwardPass(k) ? q : d - q
    return (isForwardPass(k) ? simple : 1 - simple, t, isForwardPass(k))
  }
}
