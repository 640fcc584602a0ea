// SessionStage: a page that shows an interactive session (`anim repl --preview`). The session
// hands it the runtime after every pass of its loop, on the session's own thread, and takes
// from it what was clicked or typed on the page, evaluated as if typed at the prompt, so the
// page and the REPL's log show one session.

import AnimCore
import AnimRuntime

/// What shows a session elsewhere (the stage), called on the session's thread only.
package protocol SessionStage: AnyObject {
  /// The entries sent from the page since the last call, to evaluate in order.
  func takeEntries() -> [String]
  /// The session after a pass: its runtime (nil when none is attached) at session time `now`.
  func show(_ runtime: Runtime?, at now: Nanoseconds)
  /// Text the session wrote (results, events, diagnostics), for the page's log.
  func log(_ text: String, isError: Bool)
}

extension Session {
  /// Evaluates what the page sent (each echoed as `stage> ENTRY`, so the REPL's log shows
  /// it) and hands the page the session as it is now.
  func passToStage() {
    guard let stage else { return }
    for entry in stage.takeEntries() {
      write(.standardOutput, "stage> \(entry)\n")
      evaluate(entry)
    }
    stage.show((runtime as? RuntimeBackend)?.runtime, at: now)
  }
}
