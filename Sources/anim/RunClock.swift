// RunClock: `anim run`'s script time from the monotonic clock, which the keys pause and
// speed up or slow down. Exact: the script time is an anchor plus the real time since it,
// scaled by a power of two in integer arithmetic, and re-anchored at each change, so no
// error accumulates however often a person presses a key.

import AnimCore

struct RunClock {
  /// Speeds are 2^k for k in this range: 1/16 to 16.
  static let speedExponents = -4...4

  /// Whether a key paused the run.
  private(set) var isPaused = false
  /// The speed is 2^speedExponent.
  private(set) var speedExponent = 0
  /// The script time and the real time of the last change.
  private var anchorScript: Nanoseconds
  private var anchorReal: Nanoseconds

  /// A clock whose script time is `script` at real time `real`, running at speed 1.
  init(script: Nanoseconds, atReal real: Nanoseconds) {
    anchorScript = script
    anchorReal = real
  }

  /// The speed as a number: 0.0625 ... 16.
  var speed: Double { speedExponent >= 0 ? Double(1 << speedExponent) : 1 / Double(1 << -speedExponent) }

  /// The script time at real time `real` (not before the last change).
  func script(atReal real: Nanoseconds) -> Nanoseconds {
    if isPaused { return anchorScript }
    let elapsed = max(real - anchorReal, 0)
    if speedExponent >= 0 {
      let (scaled, overflow) = elapsed.multipliedReportingOverflow(by: 1 << speedExponent)
      return overflow ? .max : saturatingSum(anchorScript, scaled)
    }
    // Divided by 2^k, halves up.
    let divisor = Nanoseconds(1) << -speedExponent
    return anchorScript + (elapsed + divisor / 2) / divisor
  }

  /// Pauses or resumes at real time `real`.
  mutating func togglePause(atReal real: Nanoseconds) {
    anchor(atReal: real)
    isPaused.toggle()
  }

  /// Doubles (`faster`) or halves the speed, within 1/16 ... 16, at real time `real`.
  mutating func changeSpeed(faster: Bool, atReal real: Nanoseconds) {
    let next = speedExponent + (faster ? 1 : -1)
    guard Self.speedExponents.contains(next) else { return }
    anchor(atReal: real)
    speedExponent = next
  }

  private mutating func anchor(atReal real: Nanoseconds) {
    anchorScript = script(atReal: real)
    anchorReal = max(real, anchorReal)
  }
}
