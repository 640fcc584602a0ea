// Runtime+Steering: what a person at `anim run`'s terminal does to everything at once
// (`r`, and ← →), as the bare control statements do to every top-level animation and
// timeline.

import AnimCore

extension Runtime {
  /// A change to every top-level animation and timeline that is playing, paused or finished
  /// (a timeline declared and never played is left alone).
  package enum Steering: Sendable, Hashable {
    /// Each turns around, as the bare statement `reverse` does.
    case reverse
    /// Each jumps by this much of its own time (negative: back), silently as `seek` does,
    /// kept within 0 and its end.
    case seek(by: Nanoseconds)
  }

  /// Applies `steering` now. The events it causes come with the next advance.
  package func steer(_ steering: Steering) {
    for node in engine.topLevelNodes {
      guard let status = try? engine.status(of: node), status.state != .idle else { continue }
      switch steering {
      case .reverse:
        try? engine.reverse(node)
      case .seek(let delta):
        var target = max(saturatingSum(status.localTime, delta), 0)
        if let end = status.duration { target = min(target, end) }
        guard target != status.localTime else { continue }
        try? engine.seek(node, to: target)
      }
    }
  }
}
