// Clocks: where engine time comes from.
//
// The engine reads its clock once per tick and computes every value of that tick from the one
// reading. Two clocks share one protocol so that everything above them is identical: a
// manual (virtual) clock that moves only when told, for tests, rendering and scripted runs,
// and the real monotonic clock, which turns suspensions and big jumps into pauses instead of
// leaps.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One reading of an `AnimationClock`: the engine time now, and any gap skipped to get here.
///
/// Engine time excludes gaps: while the process was suspended (or the clock jumped), the
/// animations were, in effect, paused. `gap` tells the embedder that this happened, so it can
/// say so in the event log.
public struct ClockReading: Sendable, Hashable, Codable {
  /// Engine time: raw time elapsed, minus every gap so far.
  public var time: Nanoseconds
  /// The length of the gap detected at this reading (and left out of `time`), or 0.
  public var gap: Nanoseconds

  /// Creates a reading.
  public init(time: Nanoseconds, gap: Nanoseconds = 0) {
    self.time = time
    self.gap = gap
  }
}

/// A source of engine time, read once per tick.
///
/// `read()` is mutating because reading a real clock updates what it remembers (the last raw
/// time, a pending suspension); a manual clock just reports where it was set.
public protocol AnimationClock {
  /// The engine time now. Successive readings never go backwards.
  mutating func read() -> ClockReading
}

/// A virtual clock that moves exactly as told and never on its own.
///
/// For tests, `--virtual` runs and frame rendering: the same script run against it produces
/// the same values at the same times on every machine. It never reports a gap.
public struct ManualClock: AnimationClock, Sendable, Hashable, Codable {
  /// The current engine time.
  public private(set) var time: Nanoseconds

  /// Creates a clock that reads `time` (0 by default) until moved.
  public init(startingAt time: Nanoseconds = 0) {
    self.time = time
  }

  /// Moves the clock forward by `delta` nanoseconds, saturating at `Int64.max`.
  ///
  /// Time only moves forward: a negative `delta` leaves the clock where it is.
  /// - Returns: whether the clock moved as asked (false for a negative `delta`).
  @discardableResult
  public mutating func advance(by delta: Nanoseconds) -> Bool {
    guard delta >= 0 else { return false }
    let (sum, overflow) = time.addingReportingOverflow(delta)
    time = overflow ? .max : sum
    return true
  }

  /// Sets the clock to `newTime` if that is not earlier than the current time.
  ///
  /// - Returns: whether the clock was set (false when `newTime` is in the past).
  @discardableResult
  public mutating func set(to newTime: Nanoseconds) -> Bool {
    guard newTime >= time else { return false }
    time = newTime
    return true
  }

  /// The current time, with no gap: the manual clock moves exactly as told.
  public mutating func read() -> ClockReading {
    ClockReading(time: time, gap: 0)
  }
}

/// The real clock: CLOCK_MONOTONIC, with suspensions and jumps treated as pauses.
///
/// When the process is stopped (Ctrl-Z) and continued, or when more than `gapThreshold`
/// passes between two readings (a stalled machine, a debugger), the engine must not leap
/// ahead as if the animations had run unseen. So the whole of such a delta is a gap: engine
/// time does not advance over it, and the reading reports it in `gap` for the event log.
/// The first reading is engine time `startTime` (0 by default).
///
/// Each `read()` makes exactly one raw clock read. The raw source is a parameter so that the
/// gap logic can be tested with scripted raw times, without sleeping. Not `Hashable` or
/// `Codable`: it holds a live time source, which has neither equality nor a serial form.
public struct MonotonicClock: AnimationClock, Sendable {
  /// A raw delta larger than this is a gap, not elapsed engine time (1 s by default).
  public var gapThreshold: Nanoseconds
  /// The sum of all gaps so far, for reporting.
  public private(set) var totalGap: Nanoseconds = 0

  private let rawTime: @Sendable () -> Nanoseconds
  private var lastRaw: Nanoseconds?
  private var time: Nanoseconds
  private var suspensionNoted = false

  /// Creates a monotonic clock.
  /// - Parameters:
  ///   - startTime: the engine time of the first reading.
  ///   - gapThreshold: a raw delta above this between two readings is a gap.
  ///   - rawTime: the raw monotonic time in nanoseconds; `systemMonotonicTime` by default.
  public init(
    startTime: Nanoseconds = 0,
    gapThreshold: Nanoseconds = 1_000_000_000,
    rawTime: @escaping @Sendable () -> Nanoseconds = MonotonicClock.systemMonotonicTime
  ) {
    self.time = startTime
    self.gapThreshold = gapThreshold
    self.rawTime = rawTime
  }

  /// Marks that the process was suspended: the next reading treats its whole raw delta as a
  /// gap, however short. The CLI calls this when it handles SIGCONT, since a stop of less
  /// than `gapThreshold` is still a stop.
  public mutating func noteSuspension() {
    suspensionNoted = true
  }

  /// Takes the engine time of the last reading back to `engineTime`, where the engine
  /// stopped short of it (it could not keep up, or was interrupted): the time between
  /// counts as a gap, as a stall would, and later readings go on from `engineTime`. Nothing
  /// happens for a time at or after the last reading.
  public mutating func leaveOut(after engineTime: Nanoseconds) {
    guard engineTime < time else { return }
    totalGap = saturatingSum(totalGap, time - engineTime)
    time = engineTime
  }

  /// Reads the raw clock once and returns the engine time, leaving out any gap.
  public mutating func read() -> ClockReading {
    let raw = rawTime()
    defer { lastRaw = raw }
    guard let lastRaw else {
      suspensionNoted = false
      return ClockReading(time: time, gap: 0)
    }
    // A raw source that steps backwards (it should not) moves engine time by 0.
    let (difference, overflow) = raw.subtractingReportingOverflow(lastRaw)
    let delta = overflow ? (raw > lastRaw ? .max : 0) : max(difference, 0)
    if suspensionNoted || delta > gapThreshold {
      suspensionNoted = false
      totalGap = saturatingSum(totalGap, delta)
      return ClockReading(time: time, gap: delta)
    }
    time = saturatingSum(time, delta)
    return ClockReading(time: time, gap: 0)
  }

  /// CLOCK_MONOTONIC in nanoseconds: unaffected by wall-clock changes, and (on Linux) not
  /// advancing while the machine sleeps.
  @Sendable
  public static func systemMonotonicTime() -> Nanoseconds {
    var spec = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &spec)
    let (nanoseconds, overflow) = Int64(spec.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : saturatingSum(nanoseconds, Int64(spec.tv_nsec))
  }
}
