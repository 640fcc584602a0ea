// SessionClock: the one clock of a session, real or virtual, read once per pass of the
// input loop. The engine time the runtime sees always comes from here.

import AnimCore

/// Which clock a session runs on (`--clock real|virtual`).
package enum ClockChoice: String, CaseIterable, Sendable {
  /// The monotonic clock: animations play while the person types.
  case real
  /// A manual clock: nothing moves until `:tick`, so piped sessions are deterministic.
  case virtual
}

/// A session's clock and the last time read from it.
struct SessionClock {
  private enum Source {
    case real(MonotonicClock)
    case virtual(ManualClock)
  }

  private var source: Source
  private let gapThreshold: Nanoseconds
  /// Engine time at the last reading.
  private(set) var now: Nanoseconds = 0
  /// While the session is held (restored, until `resume`): the raw monotonic time the hold
  /// began. The clock reads the held instant throughout; on release it goes on from there.
  private var heldSince: Nanoseconds?
  /// Pauses of clocks replaced by a re-basing, and holds on the real clock, so far.
  private var earlierPauses: Nanoseconds = 0
  /// How fast the real clock plays (the stage's speed control, `anim repl --preview`): engine
  /// time moves `speed` times as fast as real time. The virtual clock moves only by `:tick`.
  private(set) var speed = 1.0
  /// What holds the clock (`:restore`, or a step on the stage), while it is held.
  private(set) var holdReason = ":restore"

  /// - Parameter gapThreshold: for the real clock, a delta between two readings larger
  ///   than this counts as a pause (the process was stopped or starved), not as time played.
  init(_ choice: ClockChoice, gapThreshold: Nanoseconds) {
    self.gapThreshold = gapThreshold
    switch choice {
    case .real: source = .real(MonotonicClock(gapThreshold: gapThreshold))
    case .virtual: source = .virtual(ManualClock())
    }
    _ = read()
  }

  /// Whether the clock is held at the instant of a restored session.
  var isHeld: Bool { heldSince != nil }

  /// Holds the clock at `time` (a restored session's instant): a virtual clock is set to
  /// it, a real one re-based to read it now; it reads `time` until `release`.
  mutating func hold(at time: Nanoseconds, reason: String = ":restore") {
    // (Held again while held, as each step on the stage does: the hold began at the first.)
    let since = heldSince ?? MonotonicClock.systemMonotonicTime()
    heldSince = nil
    rebase(to: time)
    heldSince = since
    holdReason = reason
  }

  /// Plays the real clock `speed` times as fast from now (within 1/16…16); false on the
  /// virtual clock, which moves only by `:tick`.
  mutating func setSpeed(_ speed: Double) -> Bool {
    guard case .real = source, speed.isFinite, speed > 0 else { return false }
    read()
    self.speed = min(max(speed, 1.0 / 16), 16)
    if !isHeld { rebase(to: now) }
    return true
  }

  /// Goes on from the held instant: the real time spent held counts as a pause.
  mutating func release() {
    guard let since = heldSince else { return }
    heldSince = nil
    if case .real = source {
      earlierPauses = saturatingSum(earlierPauses, max(MonotonicClock.systemMonotonicTime() - since, 0))
    }
    rebase(to: now)
  }

  /// A clock of the same kind that reads `time` from now on.
  private mutating func rebase(to time: Nanoseconds) {
    switch source {
    case .real(let clock):
      earlierPauses = saturatingSum(earlierPauses, clock.totalGap)
      if speed == 1 {
        source = .real(MonotonicClock(startTime: time, gapThreshold: gapThreshold))
      } else {
        // Raw time scaled from the re-basing on (a gap is still one of real time).
        let origin = MonotonicClock.systemMonotonicTime()
        let speed = self.speed
        source = .real(
          MonotonicClock(
            startTime: time, gapThreshold: Nanoseconds(min(Double(gapThreshold) * speed, Double(Int64.max / 2))),
            rawTime: {
              origin + Nanoseconds((Double(MonotonicClock.systemMonotonicTime() - origin) * speed).rounded())
            }))
      }
    case .virtual:
      source = .virtual(ManualClock(startingAt: time))
    }
    read()
  }

  var choice: ClockChoice {
    if case .real = source { return .real }
    return .virtual
  }

  /// Reads the clock: the real clock moves on by itself; the virtual one stays put.
  @discardableResult
  mutating func read() -> ClockReading {
    if isHeld { return ClockReading(time: now, gap: 0) }
    let reading: ClockReading
    switch source {
    case .real(var clock):
      reading = clock.read()
      source = .real(clock)
    case .virtual(var clock):
      reading = clock.read()
      source = .virtual(clock)
    }
    now = reading.time
    return reading
  }

  /// Advances a virtual clock by `delta`; false on the real clock (which nobody moves), while
  /// held, or for a negative delta.
  mutating func advance(by delta: Nanoseconds) -> Bool {
    guard !isHeld, case .virtual(var clock) = source, clock.advance(by: delta) else { return false }
    source = .virtual(clock)
    read()
    return true
  }

  /// The engine stopped at `time`, short of the last reading: the clock is taken back to
  /// it. On the real clock the time it did not play counts as a pause; a virtual clock
  /// simply stands at `time`.
  mutating func standStill(at time: Nanoseconds) {
    guard time < now else { return }
    switch source {
    case .real(var clock):
      clock.leaveOut(after: time)
      source = .real(clock)
    case .virtual:
      source = .virtual(ManualClock(startingAt: time))
    }
    now = time
  }

  /// Tells the real clock that the process was suspended: the time away becomes a pause.
  mutating func noteSuspension() {
    guard case .real(var clock) = source else { return }
    clock.noteSuspension()
    source = .real(clock)
  }

  /// The total time left out as pauses (suspensions, stalls, holds) on the real clock; 0 on
  /// the virtual one.
  var pausedTime: Nanoseconds {
    if case .real(let clock) = source { return saturatingSum(earlierPauses, clock.totalGap) }
    return 0
  }
}

/// Seconds as people and the trace read them: the shortest decimal that reads back to the
/// same Double, with no `.0` on whole numbers: `0.4s`, `2s`, `0.0166666667s`.
func formatSeconds(_ nanoseconds: Nanoseconds, _ precision: Precision = .full) -> String {
  guard precision == .short else { return formatNumber(seconds(nanoseconds)) + "s" }
  return formatNumber((Double(nanoseconds) / 1e6).rounded() / 1e3) + "s"
}

/// A number written the way the trace writes it: shortest round-trip form, whole numbers
/// without a fraction.
func formatNumber(_ value: Double) -> String {
  if value == value.rounded(), value.magnitude < 1e15 {
    return String(Int64(value))
  }
  return value.description
}
