// SessionStage: a page that shows an interactive session (`anim repl --preview`). The session
// hands it the runtime after every pass of its loop, on the session's own thread, and takes
// from it what was clicked or typed on the page, evaluated as if typed at the prompt, so the
// page and the REPL's log show one session.

import AnimCore
import AnimRuntime

/// What a page sends a session.
package enum StageEntry: Sendable, Equatable {
  /// Input, evaluated as if typed at the prompt.
  case input(String)
  /// The transport's speed: the session's real clock plays this many times as fast.
  case speed(Double)
  /// The transport's step: the session held at the frame (of the 60 Hz grid) this many
  /// frames on, as `anim preview`'s step pauses its clock there; a bare `resume` (the
  /// page's play) releases it. Back (a negative count) needs a script to replay.
  case step(Int)
}

/// The session's clock as a page shows it.
package struct SessionStageClock: Sendable, Equatable {
  /// How fast the real clock plays (1 on the virtual clock).
  package var speed: Double
  /// Whether the session is held (restored, or stepped), until a bare `resume`.
  package var isHeld: Bool

  package init(speed: Double, isHeld: Bool) {
    self.speed = speed
    self.isHeld = isHeld
  }
}

/// What shows a session elsewhere (the stage), called on the session's thread only.
package protocol SessionStage: AnyObject {
  /// The entries sent from the page since the last call, to evaluate in order.
  func takeEntries() -> [StageEntry]
  /// The session after a pass: its runtime (nil when none is attached) at session time `now`,
  /// its clock, and its `revision` (`Session.revision`: while it and the runtime's time stay
  /// the same, nothing shown can have changed).
  func show(_ runtime: Runtime?, at now: Nanoseconds, clock: SessionStageClock, revision: Int)
  /// Text the session wrote (results, events, diagnostics), for the page's log.
  func log(_ text: String, isError: Bool)
  /// A descriptor that becomes readable when a page wants a pass now (it connected and waits
  /// for the session's state, asked for the page, or sent something): piped input, which
  /// passes only between its lines, waits on it as well as on standard input, so a page gets
  /// its state and its clicks take effect without more input. Nil: no such descriptor.
  var wakeDescriptor: Int32? { get }
  /// Empties `wakeDescriptor` once it was seen readable (before the pass it asked for).
  func drainWake()
  /// How soon after a pass a page wants the next one while it shows things moving (the frame
  /// its pages write), so that piped input waiting for a line still passes at that pace; nil
  /// while no page shows anything moving (then only a line or a wake brings a pass).
  var passInterval: Nanoseconds? { get }
}

extension SessionStage {
  package var wakeDescriptor: Int32? { nil }
  package func drainWake() {}
  package var passInterval: Nanoseconds? { nil }
}

extension Session {
  /// Evaluates what the page sent (each echoed as `stage> ENTRY`, so the REPL's log shows
  /// it) and hands the page the session as it is now.
  func passToStage() {
    guard let stage else { return }
    for entry in stage.takeEntries() {
      switch entry {
      case .input(let text):
        write(.standardOutput, "stage> \(text)\n")
        evaluate(text)
      case .speed(let speed):
        write(.standardOutput, "stage> speed \(formatNumber(speed))×\n")
        revision &+= 1
        setSpeed(speed)
      case .step(let frames):
        write(.standardOutput, "stage> step \(frames)\n")
        revision &+= 1
        step(frames: frames)
      }
    }
    stage.show(
      (runtime as? RuntimeBackend)?.runtime, at: now, clock: SessionStageClock(speed: clockSpeed, isHeld: isHeld),
      revision: revision)
  }
}
