// SessionClock: the one clock of a session, real or virtual, read once per pass of the
// input loop. The engine time the runtime sees always comes from here.

import AnimCore

/// Which clock a session runs on (`--clock real|virtual`).
public enum ClockChoice: String, CaseIterable, Sendable {
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
  /// Engine time at the last reading.
  private(set) var now: Nanoseconds = 0

  /// - Parameter gapThreshold: for the real clock, a delta between two readings larger
  ///   than this counts as a pause (the process was stopped or starved), not as time played.
  init(_ choice: ClockChoice, gapThreshold: Nanoseconds) {
    switch choice {
    case .real: source = .real(MonotonicClock(gapThreshold: gapThreshold))
    case .virtual: source = .virtual(ManualClock())
    }
    _ = read()
  }

  var choice: ClockChoice {
    if case .real = source { return .real }
    return .virtual
  }

  /// Reads the clock: the real clock moves on by itself; the virtual one stays put.
  @discardableResult
  mutating func read() -> ClockReading {
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

  /// Advances a virtual clock by `delta`; false on the real clock (which nobody moves) or
  /// for a negative delta.
  mutating func advance(by delta: Nanoseconds) -> Bool {
    guard case .virtual(var clock) = source, clock.advance(by: delta) else { return false }
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

  /// The total time left out as pauses (suspensions, stalls) on the real clock; 0 on the
  /// virtual one.
  var pausedTime: Nanoseconds {
    if case .real(let clock) = source { return clock.totalGap }
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
