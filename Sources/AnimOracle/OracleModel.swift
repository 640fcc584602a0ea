// The oracle's own vocabulary: what a differential run does (operations at engine times) and
// what it observes (events). It shares no type with AnimCore.

/// A time or a span of time in integer nanoseconds.
package typealias OracleTime = Int64

/// Web Animations' fill modes.
package enum OracleFill: String, Sendable, Hashable, CaseIterable {
  case none, forwards, backwards, both
  var backwards: Bool { self == .backwards || self == .both }
  var forwards: Bool { self == .forwards || self == .both }
}

/// An effect's timing (Web Animations' EffectTiming, no end delay).
package struct OracleTiming: Sendable, Hashable {
  package var delay: OracleTime
  package var duration: OracleTime
  /// Passes in total; `.infinity` for `repeat forever`.
  package var iterations: Double
  /// `autoreverse`: Web Animations' `alternate` direction.
  package var autoreverse: Bool
  package var fill: OracleFill

  package init(
    delay: OracleTime = 0, duration: OracleTime, iterations: Double = 1, autoreverse: Bool = false,
    fill: OracleFill = .forwards
  ) {
    self.delay = delay
    self.duration = duration
    self.iterations = iterations
    self.autoreverse = autoreverse
    self.fill = fill
  }

  /// The active duration: duration × iterations rounded to the nanosecond, 0 when either is 0,
  /// nil when infinite.
  package var activeDuration: OracleTime? {
    if duration == 0 { return 0 }
    if iterations.isInfinite { return nil }
    return OracleArithmetic.roundProduct(duration, iterations)
  }

  /// The local time at which the effect is over: max(delay + active duration, 0).
  package var endTime: OracleTime? { activeDuration.map { max(delay + $0, 0) } }
}

/// One keyframe: its position in nanoseconds within a pass (rule 10: round(p/100 · duration),
/// halves up), its value (nil: the value when the track starts; only a first keyframe at 0),
/// and the curve of the segment that ends at it.
package struct OracleKeyframe: Sendable, Hashable {
  package var position: OracleTime
  package var percent: Double
  package var value: Double?
  package var curve: OracleCurve

  package init(percent: Double, duration: OracleTime, value: Double?, curve: OracleCurve = .linear) {
    self.percent = percent
    if percent == percent.rounded(), abs(percent) < 1e6 {
      // Exactly: floor((p · d + 50) / 100).
      let n = Int128(Int64(percent)) * Int128(duration) + 50
      var (q, r) = n.quotientAndRemainder(dividingBy: 100)
      if r < 0 {
        q -= 1
        r += 100
      }
      self.position = Int64(q)
    } else if percent.isFinite, percent >= 0, -OracleArithmetic.parts(percent).e <= 60 {
      // Exactly too, from the percent's binary expansion p = m · 2^e (e < 0 here):
      // floor((m · d / 2^-e + 50) / 100) = floor((m · d + 50 · 2^-e) / (100 · 2^-e)). (17.5 % of
      // 672 635 900 ns is 117 711 282.5, so 117 711 283; in floating point 0.175 · d came to
      // 117 711 282.49999999, rounded down: seed 22292985.)
      let (m, e) = OracleArithmetic.parts(percent)
      let scale = Int128(1) << -e
      self.position = Int64((m * Int128(duration) + 50 * scale) / (100 * scale))
    } else {
      self.position = OracleArithmetic.roundHalfUp(percent / 100 * Double(duration))
    }
    self.value = value
    self.curve = curve
  }
}

/// What a property animation does.
package enum OracleShape: Sendable, Hashable {
  case tween(from: Double?, to: Double, curve: OracleCurve)
  /// Keyframes sorted by position; without a first keyframe at 0 the track starts from the
  /// property's value when it starts.
  case keyframes([OracleKeyframe])

  /// The target: `to`, or the last keyframe's value.
  var target: Double? {
    switch self {
    case .tween(_, let to, _): to
    case .keyframes(let frames): frames.last?.value
    }
  }
}

/// What a new node is.
package enum OracleNodeKind: Sendable, Hashable {
  /// A property animation (`merge replace` when `replace`).
  case animation(property: Int, shape: OracleShape, timing: OracleTiming, rate: Double, replace: Bool)
  /// A timeline or a group in one; its duration is given in `timing` (the generator computes it).
  case timeline(timing: OracleTiming, rate: Double)
  /// A `print`/`emit` item: fires `key` when crossed forwards, and backwards when asked.
  case callback(key: Int, firesBackwards: Bool)
  /// A timeline `set` item (rule 5).
  case set(property: Int, value: Double)
  /// One member of a staggered statement on a group (grammar.md § Stagger): an animation
  /// whose delay is its own plus member `member`'s stagger offset among `count`, which each
  /// side computes in its own way (the oracle: OracleStagger).
  case staggered(OracleStaggeredMember)
}

/// A staggered member (see `OracleNodeKind.staggered`).
package struct OracleStaggeredMember: Sendable, Hashable {
  package var property: Int
  package var shape: OracleShape
  package var timing: OracleTiming
  package var rate: Double
  package var stagger: OracleStagger
  package var member: Int
  package var count: Int

  package init(
    property: Int, shape: OracleShape, timing: OracleTiming, rate: Double, stagger: OracleStagger, member: Int,
    count: Int
  ) {
    self.property = property
    self.shape = shape
    self.timing = timing
    self.rate = rate
    self.stagger = stagger
    self.member = member
    self.count = count
  }

  /// The plain animation it is, with `offset` added to its delay.
  package func animation(offset: OracleTime) -> OracleNodeKind {
    var timing = self.timing
    timing.delay += offset
    return .animation(property: property, shape: shape, timing: timing, rate: rate, replace: false)
  }
}

/// Where a new node goes.
package enum OraclePlacement: Sendable, Hashable {
  /// On the engine, starting now.
  case now
  /// On the engine, idle until `play` (a declared timeline).
  case idle
  /// In timeline `node`, at `at` of its iteration time.
  case inTimeline(node: Int, at: OracleTime)
}

/// A control statement.
package enum OracleControl: Sendable, Hashable {
  case play, pause, resume, reverse, finish, cancel
  case seek(OracleTime)
  case speed(Double)
}

/// What a control or an event is about: a node (by the order nodes were added, from 0) or a
/// property (by the order properties were added, from 0).
package enum OracleSubject: Sendable, Hashable {
  case node(Int)
  case property(Int)
}

/// One operation.
package enum OracleOperation: Sendable, Hashable {
  case addProperty(Double)
  case add(OracleNodeKind, OraclePlacement)
  case control(OracleControl, OracleSubject)
  /// A top-level `set T.p to v`.
  case set(property: Int, value: Double)
}

/// An operation at an engine time.
package struct OracleStep: Sendable, Hashable {
  package var time: OracleTime
  package var operation: OracleOperation
  package init(time: OracleTime, _ operation: OracleOperation) {
    self.time = time
    self.operation = operation
  }
}

/// An event, as the comparison sees it.
package struct OracleEvent: Sendable, Hashable, CustomStringConvertible {
  package enum Kind: Sendable, Hashable {
    case start, `repeat`, complete
    case callback(Int)
  }
  package var time: OracleTime
  package var kind: Kind
  package var subject: OracleSubject
  package var reversed: Bool

  package init(time: OracleTime, kind: Kind, subject: OracleSubject, reversed: Bool) {
    self.time = time
    self.kind = kind
    self.subject = subject
    self.reversed = reversed
  }

  package var description: String {
    let what: String
    switch kind {
    case .start: what = "start"
    case .repeat: what = "repeat"
    case .complete: what = "complete"
    case .callback(let key): what = "callback(\(key))"
    }
    let subject: String
    switch self.subject {
    case .node(let n): subject = "node\(n)"
    case .property(let p): subject = "p\(p)"
    }
    return "\(time)ns \(what) \(subject)\(reversed ? " reversed" : "")"
  }
}

/// Exact integer arithmetic with a rate: round(t · r) and round(t / r) to the nearest
/// nanosecond, halves away from zero, computed exactly from the rate's binary expansion.
package enum OracleArithmetic {
  /// r = m · 2^e exactly, m odd (or 0).
  static func parts(_ r: Double) -> (m: Int128, e: Int) {
    precondition(r.isFinite)
    if r == 0 { return (0, 0) }
    var m = Int128(r.significandBitPattern | (r.isNormal ? 1 << 52 : 0))
    var e = r.isNormal ? Int(r.exponentBitPattern) - 1075 : -1074
    while m != 0 && m & 1 == 0 {
      m >>= 1
      e += 1
    }
    return (r < 0 ? -m : m, e)
  }

  /// n / d rounded to the nearest integer, halves away from zero (d > 0).
  static func divideRounded(_ n: Int128, _ d: Int128) -> Int128 {
    let (q, r) = n.quotientAndRemainder(dividingBy: d)
    if 2 * r.magnitude >= d.magnitude { return n < 0 ? q - 1 : q + 1 }
    return q
  }

  static func clamp(_ x: Int128) -> Int64 {
    x > Int128(Int64.max) ? .max : x < Int128(Int64.min) ? .min : Int64(x)
  }

  /// round(t · r).
  package static func roundProduct(_ t: Int64, _ r: Double) -> Int64 {
    let (m, e) = parts(r)
    if m == 0 || t == 0 { return 0 }
    let product = Int128(t) * m
    if e >= 0 {
      if e > 60 { return product > 0 ? .max : .min }
      return clamp(product << e)
    }
    if -e > 120 { return 0 }
    return clamp(divideRounded(product, Int128(1) << -e))
  }

  /// round(t / r), r ≠ 0.
  package static func roundQuotient(_ t: Int64, _ r: Double) -> Int64 {
    let (m, e) = parts(r)
    precondition(m != 0)
    var n = Int128(t)
    var d = m
    if e >= 0 {
      if e > 60 { return 0 }
      d <<= e
    } else {
      if -e > 60 { return t == 0 ? 0 : (t > 0) == (r > 0) ? .max : .min }
      n <<= -e
    }
    if d < 0 {
      n = -n
      d = -d
    }
    return clamp(divideRounded(n, d))
  }

  /// x rounded to the nearest integer, halves up (toward +∞).
  package static func roundHalfUp(_ x: Double) -> Int64 {
    Int64((x + 0.5).rounded(.down))
  }
}
