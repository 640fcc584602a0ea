// TerminalInput: a session on a terminal. It joins the line editor and the session: the
// editor's loop ticks the session, the session's output goes above the prompt, and
// unfinished entries continue at `...> `. Nothing here knows about readline.

/// The prompt of a new entry.
let primaryPrompt = "anim> "
/// The prompt of a line that continues an unfinished entry.
let continuationPrompt = "...> "

/// Runs an interactive session until Ctrl-D on an empty line or `:quit`, or SIGTERM or
/// SIGHUP, which it returns.
@MainActor
func runTerminalInput(_ session: Session, editor: LineEditor) -> Int32? {
  var buffer = InputBuffer()
  // Long work (a `:tick` of a year) asks between its pieces: SIGTERM or SIGHUP stops it
  // for the process to end, Ctrl-C stops it for the prompt to come back, and Ctrl-Z
  // suspends it where it is.
  var interruptShown = false
  session.stopRequest = {
    MainActor.assumeIsolated {
      editor.suspendIfAsked(resumed: { session.noteSuspension() })
      if editor.isEnding { return .terminate }
      guard editor.interruptIsPending else { return nil }
      if !interruptShown { editor.workWasInterrupted() }
      interruptShown = true
      return .interrupt
    }
  }
  // The watched values live in a status area above the prompt.
  session.showStatus = { lines in MainActor.assumeIsolated { editor.setStatus(lines) } }
  defer {
    session.stopRequest = { nil }
    session.showStatus = nil
  }
  func evaluate(_ entry: String) -> LineEditor.Decision {
    interruptShown = false
    let outcome = session.evaluate(entry)
    if session.entryWasInterrupted { editor.forgetInterrupt() }
    return outcome == .quit ? .quit : .proceed
  }
  return editor.run(
    prompt: { buffer.isContinuing ? continuationPrompt : primaryPrompt },
    tick: { session.tick() },
    resumed: { session.noteSuspension() },
    interrupted: { buffer.discard() },
    accept: { line in
      guard let line else {
        // Ctrl-D at `...> ` hands over the unfinished entry (its errors say what is
        // missing); at `anim> ` it ends the session.
        guard let rest = buffer.flush() else { return .quit }
        return evaluate(rest)
      }
      switch buffer.continuation(of: line) {
      case .help:
        session.evaluate(line)
        return .proceed
      case .quit:
        return .quit
      case .continues:
        break
      }
      // Line numbers count within the entry: an error in an entry's third line is at 3.
      guard let entry = buffer.add(line, lineNumber: 1) else { return .proceed }
      return evaluate(entry)
    })
}
