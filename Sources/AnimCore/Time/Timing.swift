// Timing: the W3C Web Animations Level 1 timing model for one effect.
//
// From an effect's local time this computes, in the spec's order: the active duration, the
// phase (before / active / after), the active time, the overall progress, the simple
// iteration progress, the current iteration, the directed progress and the before flag.
// Applying an easing curve to the directed progress is the caller's step
// (`curve.progress(at: directedProgress, beforeFlag:)`), so this file knows no curves.
//
// References are to https://www.w3.org/TR/web-animations-1/: #active-duration,
// #animation-effect-phases-and-states, §4.8.3 (active time, overall progress, simple
// iteration progress), #current-iteration, §4.9.1 (directed progress) and
// #calculating-the-transformed-progress (the before flag).

/// Which side of its active interval an effect keeps showing when it is not active.
///
/// Web Animations' fill modes: outside its active interval an effect has no output unless its
/// fill covers that side, so `none` lets the underlying value show through, `forwards` holds
/// the final value after the end, `backwards` shows the first value during the delay.
public enum FillMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// No output before or after the active interval.
  case none
  /// Hold the value at the end of the active interval after it.
  case forwards
  /// Show the value at the start of the active interval during the delay before it.
  case backwards
  /// Both `forwards` and `backwards`.
  case both

  /// Whether the fill covers the before phase (the start delay).
  @inlinable public var fillsBackwards: Bool { self == .backwards || self == .both }
  /// Whether the fill covers the after phase.
  @inlinable public var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Which way each pass (iteration) of an effect runs.
///
/// Web Animations' playback directions. `alternate` is the language's `autoreverse`: every
/// other pass runs backwards, and each pass counts as an iteration.
public enum PlaybackDirection: String, Sendable, Hashable, Codable, CaseIterable {
  /// Every pass runs forwards.
  case normal
  /// Every pass runs backwards.
  case reverse
  /// Even passes (0, 2, …) run forwards, odd passes backwards.
  case alternate
  /// Even passes run backwards, odd passes forwards.
  case alternateReverse
}

/// Where an effect's local time falls relative to its active interval.
///
/// The phase decides whether the fill applies and how progress is derived. The boundaries
/// depend on which way the animation is moving, so that an animation reaching a boundary is
/// already "past" it: see `EffectTiming.computedTiming(localTime:goingBackwards:)`.
public enum AnimationPhase: String, Sendable, Hashable, Codable, CaseIterable {
  /// Before the active interval (in the start delay, or before the effect starts).
  case before
  /// Inside the active interval.
  case active
  /// After the active interval (in the end delay, or after the effect has ended).
  case after
  /// In none of the three phases, because the local time is unresolved (for example, an
  /// animation not attached to a timeline). Web Animations calls this the idle phase; the
  /// effect has no output in it.
  case idle
}

/// The timing of one animation effect: when it starts, how long each pass lasts, how many
/// passes it plays, which way they run and what it shows outside its active interval.
///
/// These are Web Animations' `EffectTiming` members, with clock times as integer nanoseconds
/// so every derived time is exact. The defaults are the spec's (`fill` none, one iteration,
/// normal direction); the language's own default fill (`forwards`) is the caller's choice.
///
/// Out-of-range values never trap: a negative `duration` counts as 0, and a negative or NaN
/// `iterations` counts as 0.
public struct EffectTiming: Sendable, Hashable {
  /// The start delay: local time before the active interval begins (may be negative, which
  /// starts the effect part-way through).
  public var delay: Nanoseconds
  /// The iteration duration: the length of one pass (≥ 0).
  public var duration: Nanoseconds
  /// The iteration count: the number of passes, ≥ 0, fractions allowed, `.infinity` for
  /// `repeat forever`.
  public var iterations: Double
  /// The end delay: local time after the active interval before the effect ends (may be
  /// negative, which cuts the active interval short).
  public var endDelay: Nanoseconds
  /// Which way each pass runs.
  public var direction: PlaybackDirection
  /// Which side of the active interval keeps its output. (The one-byte members last: 34
  /// bytes in all.)
  public var fill: FillMode

  /// Creates an effect timing; the defaults are Web Animations' defaults.
  public init(
    delay: Nanoseconds = 0,
    duration: Nanoseconds,
    iterations: Double = 1,
    direction: PlaybackDirection = .normal,
    fill: FillMode = .none,
    endDelay: Nanoseconds = 0
  ) {
    self.delay = delay
    self.duration = duration
    self.iterations = iterations
    self.direction = direction
    self.fill = fill
    self.endDelay = endDelay
  }

  /// The iteration count with NaN and negative values read as 0, so the arithmetic below
  /// never meets them.
  @inlinable var iterationCount: Double {
    iterations.isNaN || iterations < 0 ? 0 : iterations
  }

  /// The iteration duration with negative values read as 0.
  @inlinable var iterationDuration: Nanoseconds { max(duration, 0) }

  /// The active duration: how long the effect plays, all passes together. `nil` when it is
  /// infinite (`repeat forever` with a non-zero duration).
  ///
  /// duration × iterations, rounded to the nearest nanosecond (the product is computed
  /// exactly, then rounded once); 0 when either is 0, as the spec says, so that a zero-length
  /// effect repeated forever still ends.
  @inlinable public var activeDuration: Nanoseconds? {
    let duration = iterationDuration
    let count = iterationCount
    if duration == 0 || count == 0 { return 0 }
    if count.isInfinite { return nil }
    // Whole counts (the common case) multiply exactly in integers; others round once.
    if count <= 9_007_199_254_740_992, case let whole = Int64(count), Double(whole) == count {
      let (product, overflow) = duration.multipliedReportingOverflow(by: whole)
      return overflow ? .max : product
    }
    return scaled(duration, by: count)
  }

  /// The end time: max(delay + active duration + end delay, 0), the local time at which the
  /// effect is over. `nil` when infinite.
  @inlinable public var endTime: Nanoseconds? {
    activeDuration.map(endTime(activeDuration:))
  }

  /// The end time for a finite active duration already computed.
  @inlinable func endTime(activeDuration: Nanoseconds) -> Nanoseconds {
    // Without an end delay (always, in the engine) the exact sum clamped is a saturating sum.
    if endDelay == 0 { return max(saturatingSum(delay, activeDuration), 0) }
    return max(clampedToNanoseconds(Int128(delay) + Int128(activeDuration) + Int128(endDelay)), 0)
  }

  /// Everything Web Animations derives from a local time, in one pass.
  ///
  /// - Parameters:
  ///   - localTime: the effect's local time (its animation's current time); `nil` when
  ///     unresolved, which gives the idle phase and no output.
  ///   - goingBackwards: whether the animation is playing backwards (its playback rate is
  ///     negative). It decides the phase at exactly the boundaries: arriving backwards at the
  ///     start of the active interval is the before phase, arriving forwards at its end is
  ///     the after phase, so a finished animation is past its edge in its direction of travel.
  /// - Returns: the phase, active time and progress values; `nil` members mean "no output"
  ///   (the fill does not cover the phase).
  ///
  /// Allocation-free and branch-light: it runs for every animation on every tick. Progress
  /// within a pass is computed from integer time (the active time's quotient and remainder
  /// by the duration), so iteration boundaries are exact and a backwards pass is bit-for-bit
  /// the mirror of a forwards one.
  @inlinable
  public func computedTiming(localTime: Nanoseconds?, goingBackwards: Bool = false) -> ComputedTiming {
    guard let localTime else { return ComputedTiming(phase: .idle) }
    let duration = iterationDuration
    let count = iterationCount
    let activeDuration = self.activeDuration
    // An `if let` rather than `activeDuration.map(endTime(activeDuration:))`: that method
    // reference is a closure capturing `self`, which allocates once this is inlined.
    let endTime: Nanoseconds?
    if let activeDuration { endTime = self.endTime(activeDuration: activeDuration) } else { endTime = nil }

    // #animation-effect-phases-and-states: the boundary times.
    let beforeActiveBoundary = max(min(delay, endTime ?? .max), 0)
    let phase: AnimationPhase
    if localTime < beforeActiveBoundary || (goingBackwards && localTime == beforeActiveBoundary) {
      phase = .before
    } else if let activeDuration, let endTime,
      case let activeAfterBoundary = max(min(saturatingSum(delay, activeDuration), endTime), 0),
      localTime > activeAfterBoundary || (!goingBackwards && localTime == activeAfterBoundary)
    {
      phase = .after
    } else {
      phase = .active
    }

    // §4.8.3.1 Calculating the active time.
    let sinceDelay = saturatingDifference(localTime, delay)  // = the exact difference, clamped
    let activeTime: Nanoseconds
    switch phase {
    case .before:
      guard fill.fillsBackwards else { return ComputedTiming(phase: phase) }
      // Web Animations' max(local time − delay, 0), but never past the end of the active
      // interval: an item whose negative delay skips it all, waiting for its timeline to
      // reach it, shows the end it will be placed at (the spec would run into a pass that
      // does not exist).
      activeTime = max(min(sinceDelay, activeDuration ?? .max), 0)
    case .active:
      activeTime = sinceDelay
    case .after:
      // An after phase exists only when the active duration is finite.
      guard fill.fillsForwards, let activeDuration else { return ComputedTiming(phase: phase) }
      activeTime = max(min(sinceDelay, activeDuration), 0)
    case .idle:
      return ComputedTiming(phase: .idle)
    }

    // §4.8.3 and #current-iteration: overall progress, simple iteration progress, current iteration;
    // §4.9.1: the current direction and directed progress.
    let overallProgress: Double
    var simpleProgress: Double
    var currentIteration: Double
    let forwards: Bool
    let directedProgress: Double
    if duration != 0 && !((phase != .before || activeTime > 0) && activeTime == activeDuration) {
      // Inside the active interval (or filling before it): integer quotient and remainder,
      // so an iteration boundary is exact. At the very end of the interval the spec's
      // active time / duration is exactly the iteration count, which the rounded active
      // duration may not reproduce, so the end takes the branch below.
      // In the first pass (most samples) the quotient is 0: no integer division needed.
      let (quotient, remainder) =
        activeTime >= 0 && activeTime < duration
        ? (0, activeTime) : activeTime.quotientAndRemainder(dividingBy: duration)
      let length = Double(duration)
      overallProgress = Double(activeTime) / length
      simpleProgress = Double(remainder) / length
      currentIteration = Double(quotient)
      forwards = Self.isForwards(direction, iterationIsEven: quotient & 1 == 0, isInfinite: false)
      // 1 − simple progress, computed as exactly as simple progress itself, so a backwards
      // pass is the bit-for-bit mirror of a forwards one.
      directedProgress = forwards ? simpleProgress : Double(duration - remainder) / length
    } else {
      // A zero duration (progress comes from the phase: 0 before, the iteration count
      // otherwise) or the end of the active interval (exactly the iteration count).
      overallProgress = duration == 0 && phase == .before ? 0 : count
      simpleProgress = overallProgress.isInfinite ? 0 : overallProgress.truncatingRemainder(dividingBy: 1)
      currentIteration = overallProgress.rounded(.down)
      // The end of the active interval is progress 1 of the last pass, not 0 of the next.
      if simpleProgress == 0 && (phase != .before || activeTime > 0) && activeTime == activeDuration && count != 0 {
        simpleProgress = 1
        currentIteration -= 1
      }
      if phase == .after && count.isInfinite { currentIteration = .infinity }
      forwards = Self.isForwards(
        direction, iterationIsEven: currentIteration.truncatingRemainder(dividingBy: 2) == 0,
        isInfinite: currentIteration.isInfinite)
      directedProgress = forwards ? simpleProgress : 1 - simpleProgress
    }

    // #calculating-the-transformed-progress: the before flag, for step easings.
    let beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)

    return ComputedTiming(
      phase: phase, activeTime: activeTime, overallProgress: overallProgress,
      simpleIterationProgress: simpleProgress, currentIteration: currentIteration,
      directedProgress: directedProgress, isGoingForwards: forwards, beforeFlag: beforeFlag)
  }
}

extension EffectTiming {
  /// What sampling needs of `computedTiming(localTime:goingBackwards:)`: the directed
  /// progress (nil: no output), the before flag, and whether the pass runs forwards (a
  /// keyframe track finds its pass time from the progress, mirrored in a backwards pass).
  ///
  /// The common shape, one forward pass with a duration, a delay ≥ 0 and no end delay, is
  /// worked out here in a few comparisons; anything else goes through `computedTiming`. For
  /// that shape the chain reduces to: before the delay (or at it, going backwards) progress
  /// 0 with the before flag if the fill covers it; at or after the end (the end itself only
  /// going forwards) progress 1 if the fill covers it; in between, time since the delay /
  /// duration, which is also exactly 1 at the end going backwards. The same values, bit for
  /// bit, as `computedTiming` (checked against it in SampledProgressTests).
  @inlinable @inline(__always)
  func sampledProgress(
    localTime: Nanoseconds, goingBackwards: Bool
  ) -> (progress: Double?, beforeFlag: Bool, passForwards: Bool) {
    if iterations == 1, direction == .normal, endDelay == 0, delay >= 0, duration > 0,
      case (let end, let overflow) = delay.addingReportingOverflow(duration), !overflow
    {
      if localTime < delay || (goingBackwards && localTime == delay) {
        return fill.fillsBackwards ? (0, true, true) : (nil, false, true)
      }
      if localTime > end || (!goingBackwards && localTime == end) {
        return fill.fillsForwards ? (1, false, true) : (nil, false, true)
      }
      return (Double(localTime - delay) / Double(duration), false, true)
    }
    let timing = computedTiming(localTime: localTime, goingBackwards: goingBackwards)
    return (timing.directedProgress, timing.beforeFlag, timing.isGoingForwards ?? true)
  }

  /// §4.9.1 current direction: whether a pass runs forwards. For the alternate directions it
  /// depends on the parity of the current iteration; an infinite iteration counts as
  /// forwards.
  @inlinable
  static func isForwards(_ direction: PlaybackDirection, iterationIsEven: Bool, isInfinite: Bool) -> Bool {
    switch direction {
    case .normal: true
    case .reverse: false
    case .alternate: isInfinite || iterationIsEven
    case .alternateReverse: isInfinite || !iterationIsEven
    }
  }
}

extension EffectTiming: Codable {
  private enum CodingKeys: String, CodingKey {
    case delay, duration, iterations, direction, fill, endDelay
  }

  /// The spelling of an infinite iteration count in encoded form (JSON has no infinity).
  public static let foreverSpelling = "forever"

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    delay = try container.decodeIfPresent(Nanoseconds.self, forKey: .delay) ?? 0
    duration = try container.decode(Nanoseconds.self, forKey: .duration)
    if let spelled = try? container.decode(String.self, forKey: .iterations) {
      guard spelled == Self.foreverSpelling else {
        throw DecodingError.dataCorruptedError(
          forKey: .iterations, in: container,
          debugDescription: "iterations must be a number or \"\(Self.foreverSpelling)\", not \"\(spelled)\"")
      }
      iterations = .infinity
    } else {
      iterations = try container.decodeIfPresent(Double.self, forKey: .iterations) ?? 1
    }
    direction = try container.decodeIfPresent(PlaybackDirection.self, forKey: .direction) ?? .normal
    fill = try container.decodeIfPresent(FillMode.self, forKey: .fill) ?? .none
    endDelay = try container.decodeIfPresent(Nanoseconds.self, forKey: .endDelay) ?? 0
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(delay, forKey: .delay)
    try container.encode(duration, forKey: .duration)
    if iterations == .infinity {
      try container.encode(Self.foreverSpelling, forKey: .iterations)
    } else {
      try container.encode(iterations, forKey: .iterations)
    }
    try container.encode(direction, forKey: .direction)
    try container.encode(fill, forKey: .fill)
    try container.encode(endDelay, forKey: .endDelay)
  }
}

/// What an effect's timing says at one local time: Web Animations' computed timing.
///
/// Every optional member is `nil` exactly when the spec's value is unresolved: in the idle
/// phase, or in a before/after phase that the fill does not cover. Then the effect has no
/// output and the underlying value shows.
public struct ComputedTiming: Sendable, Hashable, Codable {
  /// Where the local time falls relative to the active interval.
  public var phase: AnimationPhase
  /// Time since the start of the active interval, clamped to it when filling.
  public var activeTime: Nanoseconds?
  /// Passes completed so far, with the fraction of the current one (2.5 = half-way through
  /// the third pass).
  public var overallProgress: Double?
  /// Progress through the current pass, 0...1, before direction is applied.
  public var simpleIterationProgress: Double?
  /// The index of the current pass, from 0; `.infinity` after an infinitely repeating
  /// zero-length effect.
  public var currentIteration: Double?
  /// Progress through the current pass in the direction it runs, 0...1: the input to the
  /// easing curve.
  public var directedProgress: Double?
  /// Whether the current pass runs forwards (Web Animations' "current direction"); `nil`
  /// when there is no output.
  public var isGoingForwards: Bool?
  /// The before flag that step easings need at their discontinuity: set in the before phase
  /// when the pass runs forwards, and in the after phase when it runs backwards.
  public var beforeFlag: Bool

  /// Creates a computed timing from its parts.
  public init(
    phase: AnimationPhase, activeTime: Nanoseconds? = nil, overallProgress: Double? = nil,
    simpleIterationProgress: Double? = nil, currentIteration: Double? = nil,
    directedProgress: Double? = nil, isGoingForwards: Bool? = nil, beforeFlag: Bool = false
  ) {
    self.phase = phase
    self.activeTime = activeTime
    self.overallProgress = overallProgress
    self.simpleIterationProgress = simpleIterationProgress
    self.currentIteration = currentIteration
    self.directedProgress = directedProgress
    self.isGoingForwards = isGoingForwards
    self.beforeFlag = beforeFlag
  }

  /// The computed timing of an effect whose local time is unresolved.
  public static let idle = ComputedTiming(phase: .idle)

  /// Whether the effect has output now (Web Animations' "in effect": its active time is
  /// resolved).
  @inlinable public var isInEffect: Bool { activeTime != nil }
}
