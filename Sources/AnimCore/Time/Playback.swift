// Playback: where an animation or timeline is in its own time, as Web Animations keeps it.
//
// An animation's local time is never accumulated. It is either held (a hold time, while
// paused, at rate 0, or finished) or derived from its parent's time and a start time:
// local = (parent − start) × rate. Pausing stores the local time; resuming solves for the
// start time that gives the same local time now. So any sequence of pauses and resumes
// at rate ±1 is exact integer arithmetic: an animation of length D started at S and paused
// for a total of P finishes at exactly S + D + P, to the nanosecond.

/// The playback state of one animation or timeline: start time, hold time, rate.
///
/// Web Animations Level 1's model (start time, hold time, playback rate) with integer
/// nanosecond times. Every operation takes the parent's time at which it happens, so the
/// same state serves a top-level animation (parent = engine time) and a child of a timeline
/// (parent = the timeline's time).
public struct Playback: Sendable, Hashable, Codable {
  // Stored in this order so that it takes 26 bytes (the flag after the optional's tag).
  /// The parent time at which local time was 0; meaningful only when not held.
  public private(set) var startTime: Nanoseconds
  /// The playback rate: 1 is normal speed, negative plays backwards, 0 holds still.
  public private(set) var rate: Double
  /// The local time while held (paused, rate 0, or finished at an edge); nil while running.
  public private(set) var holdTime: Nanoseconds?
  /// Whether the playback was paused (`pause`), as opposed to held by rate 0 or by finishing.
  public private(set) var isPaused: Bool
  /// While paused from running: the parent time that had passed since the start time, so
  /// that resuming moves the start time by exactly the time paused. (Solving for it from
  /// the hold time would round once per pause at a rate other than ±1, and drift.) Cleared
  /// by anything that moves local time otherwise: a seek, a rate change, a hold.
  public private(set) var pausedOffset: Nanoseconds?

  /// A playback whose local time is `localTime` at parent time `parentTime`.
  /// - Parameters:
  ///   - localTime: the local time now (0 starts at the beginning).
  ///   - parentTime: the parent's time now.
  ///   - rate: the playback rate (negative plays backwards).
  ///   - paused: whether it starts paused.
  public init(localTime: Nanoseconds = 0, at parentTime: Nanoseconds, rate: Double = 1, paused: Bool = false) {
    self.rate = rate.isNaN ? 0 : rate
    self.isPaused = paused
    self.startTime = 0
    self.holdTime = localTime
    if !paused { release(at: parentTime) }
  }

  /// A playback from its parts, as an engine stores them.
  init(startTime: Nanoseconds, rate: Double, holdTime: Nanoseconds?, isPaused: Bool, pausedOffset: Nanoseconds? = nil) {
    self.startTime = startTime
    self.rate = rate
    self.holdTime = holdTime
    self.isPaused = isPaused
    self.pausedOffset = holdTime != nil && isPaused ? pausedOffset : nil
  }

  /// Whether local time is standing still (paused, rate 0, or held at an edge).
  @inlinable public var isHeld: Bool { holdTime != nil }

  /// Whether the playback is held at an edge after finishing (held, but neither paused nor
  /// at rate 0).
  @inlinable public var isHeldAtEdge: Bool { holdTime != nil && !isPaused && rate != 0 }

  /// Local time at parent time `parentTime`: the hold time if held, else
  /// (parent − start) × rate, rounded to the nearest nanosecond.
  @inlinable
  public func currentTime(at parentTime: Nanoseconds) -> Nanoseconds {
    if let holdTime { return holdTime }
    return scaled(saturatingDifference(parentTime, startTime), by: rate)
  }

  /// Freezes local time where it is. Pausing a paused playback does nothing.
  public mutating func pause(at parentTime: Nanoseconds) {
    guard !isPaused else { return }
    if holdTime == nil { pausedOffset = saturatingDifference(parentTime, startTime) }
    holdTime = currentTime(at: parentTime)
    isPaused = true
  }

  /// Continues from exactly where it was paused. Resuming a running playback does nothing.
  public mutating func resume(at parentTime: Nanoseconds) {
    guard isPaused else { return }
    isPaused = false
    release(at: parentTime)
  }

  /// Sets the rate without a jump: the local time now stays what it was, and from now on it
  /// moves at the new rate. A rate of 0 holds the current time; a paused playback stays
  /// paused with its new rate.
  public mutating func setRate(_ newRate: Double, at parentTime: Nanoseconds) {
    setRate(newRate, at: parentTime, current: currentTime(at: parentTime))
  }

  /// `setRate`, with the local time now as the engine reads it (kept inside its pass at a
  /// boundary): start time = parent time − round(current / new rate).
  mutating func setRate(_ newRate: Double, at parentTime: Nanoseconds, current: Nanoseconds) {
    rate = newRate.isNaN ? 0 : newRate
    holdTime = current
    pausedOffset = nil
    if !isPaused { release(at: parentTime) }
  }

  /// Turns the direction around where it is (rate = −rate), keeping the paused or playing
  /// state. A playback held at an edge after finishing starts moving back from it.
  public mutating func reverse(at parentTime: Nanoseconds) {
    setRate(-rate, at: parentTime)
  }

  /// Jumps to local time `localTime`, keeping the paused or playing state.
  public mutating func seek(to localTime: Nanoseconds, at parentTime: Nanoseconds) {
    holdTime = localTime
    pausedOffset = nil
    if !isPaused { release(at: parentTime) }
  }

  /// Holds local time at `localTime` without pausing: what finishing at an edge does. A later
  /// `reverse`, `setRate` or `seek` moves it again.
  public mutating func hold(at localTime: Nanoseconds) {
    holdTime = localTime
    pausedOffset = nil
  }

  /// Sets the hold time of a paused playback to what its local time reads (corrected at a
  /// boundary), keeping the offset that resuming restores.
  mutating func correctHold(_ localTime: Nanoseconds) {
    guard holdTime != nil else { return }
    holdTime = localTime
  }

  /// Starts moving again from the hold time, unless paused or at rate 0.
  @usableFromInline
  mutating func release(at parentTime: Nanoseconds) {
    guard let holdTime, !isPaused, rate != 0 else { return }
    if let pausedOffset {
      startTime = saturatingDifference(parentTime, pausedOffset)
    } else {
      startTime = saturatingDifference(parentTime, unscaled(holdTime, by: rate))
    }
    self.holdTime = nil
    pausedOffset = nil
  }
}

/// a − b, saturating at the Int64 range instead of trapping.
@inlinable
public func saturatingDifference(_ a: Nanoseconds, _ b: Nanoseconds) -> Nanoseconds {
  let (difference, overflow) = a.subtractingReportingOverflow(b)
  return overflow ? (b < 0 ? .max : .min) : difference
}
