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
    let local = playback(of: node).currentTime(at: parent.time)
    return (local, rate(of: node) < 0 ? -parent.direction : parent.direction)
  }

  /// The time a timeline gives its children at engine time `time`, and their parent
  /// direction.
  func childTime(of timeline: Int32, at time: Nanoseconds) -> (time: Nanoseconds, direction: Int) {
    let state = localState(of: timeline, at: time)
    let node = nodes[Int(timeline)]
    let local = timing(of: node).wrapped(state.local, hasStarted: node.hasStarted)
    // Values follow Web Animations: an exact pass boundary belongs to the next pass, in
    // either direction (crossing events decide passes by direction, in Engine+Events).
    let pass = Self.pass(of: timing(of: node), at: local, forward: true)
    let forwards = Self.isForwardPass(timing(of: node), pass)
    return (Self.iterationTime(timing(of: node), local, pass: pass), forwards ? state.direction : -state.direction)
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
    guard !playback.isHeld, playback.rate != 0 else { return nil }
    let childForward = parentForward == (playback.rate > 0)
    func reached(_ parent: Nanoseconds) -> Bool {
      let local = playback.currentTime(at: parent)
      return childForward ? local >= threshold : local <= threshold
    }
    var guess = saturatingSum(playback.startTime, unscaled(threshold, by: playback.rate))
    // The rounded guess is within a nanosecond or two of the exact answer; walk to it.
    let step: Nanoseconds = parentForward ? 1 : -1
    var walked = 0
    while reached(guess), walked < 64 {
      let previous = saturatingSum(guess, -step)
      if !reached(previous) { return guess }
      guess = previous
      walked += 1
    }
    while !reached(guess), walked < 128 {
      guess = saturatingSum(guess, step)
      walked += 1
    }
    return reached(guess) ? guess : nil
  }
}
