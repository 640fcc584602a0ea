// REPL: the entry point of `anim repl`. It decides between the terminal (readline) and
// piped input, makes the session, loads the file given, and runs.

import AnimCore
import AnimLanguage
import AnimSignals

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `anim repl [FILE] [--clock real|virtual]`.
package enum REPL {
  /// Exit status when FILE cannot be read (README, Using anim: exit statuses).
  package static let cannotReadFile: Int32 = 66

  /// Runs a session on standard input and returns the exit status: 0 when it ends (even
  /// after errors in what was typed), 66 when FILE cannot be read. On a terminal, SIGTERM
  /// or SIGHUP ends the process by that signal, after the terminal and history are put right.
  /// Must be called on the main thread.
  ///
  /// With `stage` (`anim repl --preview`), a page shows the session: it is handed the session
  /// after each pass and every piece of output, and what it sends is evaluated as typed.
  package static func run(file: String?, clock: ClockChoice, stage: (any SessionStage)? = nil) -> Int32 {
    // A write to a reader that went away fails instead of killing the process in the middle
    // of it; piped, the session then ends by SIGPIPE (below), as `run` and `trace` do.
    signal(SIGPIPE, SIG_IGN)
    let onTerminal = isatty(STDIN_FILENO) != 0
    let noColor = getenv("NO_COLOR").map { ["NO_COLOR": String(cString: $0)] } ?? [:]
    let usesColor = DiagnosticRenderer.wantsColor(isTerminal: isatty(STDERR_FILENO) != 0, environment: noColor)
    if !onTerminal {
      // Reading blocks between lines, so a long wait for input is not a stall of the
      // engine: only an explicit stop counts as a pause.
      let session = Session(
        clock: clock, sourceName: "<stdin>", usesColor: usesColor, gapThreshold: .max,
        write: { stream, text in
          writeToStandardStreams(stream, text)
          stage?.log(text, isError: stream == .standardError)
        })
      session.stage = stage
      // SIGINT, SIGTERM and SIGHUP stop long work (a `:tick` of a year) between two
      // instants, and then end the process by that signal.
      var signals = CaughtSignals()
      signals.install(endingOnly: true)
      let caught = signals
      // A reader that went away (`anim repl < script | head -1`) ends the session as it
      // ends `run` and `trace`: by SIGPIPE, also in the middle of a long `:tick`, which would
      // otherwise compute for nobody. (Looked at every 256th question: it is a system call.)
      var questions = 0
      var outputGone = false
      func endingSignal() -> Int32? {
        if let signal = caught.terminating { return signal }
        questions &+= 1
        if !outputGone && questions & 255 == 1 { outputGone = standardOutputIsClosed() }
        return outputGone ? SIGPIPE : nil
      }
      session.stopRequest = { endingSignal() == nil ? nil : .terminate }
      if let file, session.load(path: file) == .unreadable {
        signals.restore()
        return cannotReadFile
      }
      if endingSignal() == nil { runPipedInput(session, ending: { endingSignal() != nil }) }
      signals.restore()
      if let signal = endingSignal() { CaughtSignals.die(of: signal) }
      return 0
    }
    // The stage is used on this (the main) thread only, as the session is.
    nonisolated(unsafe) let stage = stage
    return MainActor.assumeIsolated {
      var editor: LineEditor?
      let session = Session(clock: clock, sourceName: "<repl>", usesColor: usesColor) { stream, text in
        // Output during evaluation is written plainly; output while a prompt is shown
        // (events of animations playing) goes above it.
        stage?.log(text, isError: stream == .standardError)
        MainActor.assumeIsolated {
          if let editor {
            editor.printAbove(text, toStandardError: stream == .standardError)
          } else {
            writeToStandardStreams(stream, text)
          }
        }
      }
      session.stage = stage
      // One line for a person at a terminal (piped input has none): where help is.
      writeToStandardStreams(
        .standardOutput,
        "anim \(clock == .virtual ? "(virtual clock) " : "")— :help for what can be typed, :quit or Ctrl-D to leave\n")
      // A person at a terminal reads 6 significant digits and milliseconds (`:precision full`
      // shows the exact values); piped output stays exact.
      session.setPrecision(.short)
      if let file, session.load(path: file) == .unreadable { return cannotReadFile }
      let lineEditor = LineEditor(historyPath: historyFilePath()) { word, lineBefore in
        session.completions(of: word, after: lineBefore)
      }
      editor = lineEditor
      if let signal = runTerminalInput(session, editor: lineEditor) {
        // The terminal and the history are saved by now: end as the signal would have,
        // so that whoever sent it sees it did.
        CaughtSignals.die(of: signal)
      }
      return 0
    }
  }
}

/// Results to standard output, diagnostics to standard error, written at once (unbuffered)
/// so the two streams stay in order when both go to one place.
private func writeToStandardStreams(_ stream: Session.Stream, _ text: String) {
  writeAll(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO, text)
}

/// Writes all of `text` to a file descriptor, going on after partial writes and signals;
/// gives up quietly when the reader has gone (there is no one left to tell).
func writeAll(_ descriptor: Int32, _ text: String) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written < 0 {
      if errno == EINTR { continue }
      return
    }
    bytes = bytes.dropFirst(written)
  }
}

/// `$XDG_STATE_HOME/anim/history`, or `~/.local/state/anim/history` when XDG_STATE_HOME is
/// unset (or not an absolute path, which the XDG spec says to ignore); the directory is
/// created. Nil when there is no home to put it in.
func historyFilePath() -> String? {
  let stateHome: String
  if let xdg = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
    stateHome = xdg
  } else if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
    stateHome = home + "/.local/state"
  } else {
    return nil
  }
  let directory = stateHome + "/anim"
  guard makeDirectories(directory) else { return nil }
  return directory + "/history"
}

/// `mkdir -p` (mode 0700, as the XDG spec asks of state directories).
private func makeDirectories(_ path: String) -> Bool {
  var prefix = ""
  for component in path.split(separator: "/") {
    prefix += "/" + component
    if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return false }
  }
  return true
}

/// Whether standard output's reader is gone (a pipe whose reader exited), asked without
/// writing.
func standardOutputIsClosed() -> Bool {
  var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
  guard poll(&descriptor, 1, 0) > 0 else { return false }
  return descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
}
