// LineEditor: the one file that talks to GNU readline. The rest of the REPL sees a line
// editor that hands over lines, prints above the prompt, and calls a hook on every pass
// of its loop; it does not know readline exists.
//
// Readline runs through its callback interface on the main thread: a poll() loop with a
// 16 ms timeout feeds it one character at a time when standard input is readable, and
// calls `tick` on every pass, so the engine advances about 60 times a second while the
// person types, with no second thread touching the terminal. (A blocking `readline()`
// plus a ticking thread garbles the line and races readline's globals.)
//
// Signals: readline's own handlers are off. Ours only store into atomics; the loop acts
// on them at its next pass (at most 16 ms later, or at once: poll() returns early with
// EINTR). The terminal is restored on every way out: Ctrl-D, `:quit`, SIGTERM, SIGHUP.

import AnimSignals
@preconcurrency import CReadline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An interactive line editor on the terminal (GNU readline underneath).
@MainActor
final class LineEditor {
  /// What the reader wants after a line.
  enum Decision {
    case proceed
    case quit
  }

  /// The editor whose loop is running: readline's C callbacks cannot capture, so they
  /// find it here.
  fileprivate static var current: LineEditor?

  /// The signals the loop acts on (Ctrl-C, Ctrl-Z, continue, resize, SIGTERM/SIGHUP).
  private var signals = CaughtSignals()
  private let historyPath: String?
  private let completer: (_ word: String, _ lineBefore: String) -> CompletionResult
  /// Whether readline's line handler is installed (a prompt is on screen and the terminal
  /// is in readline's mode). While a line is being evaluated it is not.
  private var handlerInstalled = false
  /// A line readline handed over (nil inside: end of input), waiting for the loop.
  private var arrived: String??
  private var primaryPrompt = "anim> "
  /// Where readline draws: standard output, or standard error when output is redirected.
  private let display: UnsafeMutablePointer<FILE>
  /// The status area (`:watch`): lines kept above the prompt and redrawn in place, while
  /// output scrolls above them. Empty: no area.
  private var statusLines: [String] = []
  /// The area's lines as drawn, each cut to the width then; empty while none is on screen.
  private var drawnStatus: [String] = []

  /// - Parameters:
  ///   - historyPath: the history file, read now and written on the way out; nil for none.
  ///   - completer: the completions of a word, given the text of the line before it.
  init(
    historyPath: String?,
    completer: @escaping (_ word: String, _ lineBefore: String) -> CompletionResult
  ) {
    self.historyPath = historyPath
    self.completer = completer
    self.display = isatty(STDOUT_FILENO) != 0 ? stdout : stderr
  }

  /// Runs the session until end of input, `quit`, or SIGTERM/SIGHUP; returns that signal,
  /// if one ended it (the terminal is restored by then).
  /// - Parameters:
  ///   - prompt: the prompt for the next line (`anim> ` or `...> `).
  ///   - tick: called on every pass of the loop, about 60 times a second.
  ///   - resumed: called after the process was suspended and continued.
  ///   - interrupted: Ctrl-C dropped the line being typed.
  ///   - accept: a line was entered (nil: Ctrl-D on an empty line).
  func run(
    prompt: () -> String,
    tick: () -> Void,
    resumed: () -> Void,
    interrupted: () -> Void,
    accept: (String?) -> Decision
  ) -> Int32? {
    LineEditor.current = self
    setUpReadline()
    signals.install(resize: true)
    defer {
      if handlerInstalled {
        // (Here a signal ended the session, or input went away, at the prompt.) No status
        // area is left behind; the line being typed stays, and what comes next starts below
        // it. Not in the background, where the terminal is the shell's.
        if !drawnStatus.isEmpty, tcgetpgrp(STDIN_FILENO) == getpgrp() {
          eraseStatusArea()
          fputs("\n", display)
          fflush(display)
        }
        rl_callback_handler_remove()
      }
      handlerInstalled = false
      signals.restore()
      saveHistory()
      LineEditor.current = nil
    }

    // (The prompt of a new entry: seeing it again after a line means the entry is complete.)
    let entryPrompt = prompt()
    install(prompt: prompt())
    while signals.terminating == nil {
      // (After a stop, round again first: a SIGTERM that came while stopped ends the loop
      // before anything reads the terminal, which in the background would stop it again.)
      if signals.takeSuspend() {
        suspend(resumed: resumed)
        continue
      }
      if signals.takeContinued() {
        redrawAfterStop(resumed: resumed)
        continue
      }
      if signals.takeResize(), handlerInstalled { resize() }
      if signals.takeInterrupt() {
        dropLine(prompt: prompt, interrupted: interrupted)
      }
      tick()

      var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, 16)
      // Standard input closed under us, or poll itself failing: nothing more can be read,
      // and going round again would spin.
      if (ready < 0 && errno != EINTR) || descriptor.revents & Int16(POLLNVAL) != 0 { break }
      if ready > 0, descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, handlerInstalled {
        rl_callback_read_char()
        fflush(display)
      }

      guard let line = arrived else { continue }
      arrived = nil
      if let line {
        remember(line)
      } else {
        fputs("\n", display)  // Ctrl-D leaves the cursor after the prompt
      }
      fflush(display)
      if accept(line) == .quit { break }
      // (A signal that ends the process stopped the entry's work: no new prompt.)
      if signals.terminating != nil { break }
      if prompt() == entryPrompt { entryEnded() }
      install(prompt: prompt())
    }
    return signals.terminating
  }

  /// Writes text (whole lines) above the prompt, and redraws the prompt and the line being
  /// typed below it with the cursor where it was. While no prompt is shown (a line is
  /// being evaluated) it just writes.
  func printAbove(_ text: String, toStandardError: Bool = false) {
    let stream = toStandardError ? stderr : stdout
    guard handlerInstalled else {
      fputs(text, stream)
      fflush(stream)
      return
    }
    eraseStatusArea(redrawingLine: false)
    // (On the terminal's stream, all of it goes out at once, at the end.)
    if stream != display { fflush(display) }
    fputs(text, stream)
    if stream != display { fflush(stream) }
    drawStatusAreaAndLine()
  }

  // MARK: - Status area

  /// Shows `lines` in the status area above the prompt, in place of what it showed (none:
  /// the area goes). While a line is being evaluated it is only kept, and drawn with the
  /// next prompt.
  func setStatus(_ lines: [String]) {
    guard lines != statusLines else { return }
    statusLines = lines
    guard handlerInstalled else { return }
    eraseStatusArea(redrawingLine: false)
    drawStatusAreaAndLine()
  }

  /// Clears the prompt and the line being typed and, above them, the status area, leaving
  /// the cursor where the area began; with `redrawingLine`, the prompt and line are drawn
  /// again there (no area above them).
  private func eraseStatusArea(redrawingLine: Bool = true) {
    rl_clear_visible_line()  // (the cursor ends at the start of the prompt's first row)
    let rows = rowsOnScreen(drawnStatus)
    if rows > 0 { fputs("\u{1B}[\(rows)A\r\u{1B}[J", display) }
    drawnStatus = []
    if redrawingLine {
      rl_on_new_line()
      rl_redisplay()
      fflush(display)
    }
  }

  /// Draws the status area where the cursor is (the start of a row), then the prompt and
  /// the line being typed below it.
  private func drawStatusAreaAndLine() {
    drawStatusArea()
    rl_on_new_line()
    rl_redisplay()
    fflush(display)
  }

  /// Writes the status area's lines where the cursor is, each cut to the terminal's width
  /// so that it takes one row.
  private func drawStatusArea() {
    let (height, width) = (Int(screenSize().rows), Int(screenSize().columns))
    // It leaves the prompt and a row of output at least: more lines than fit end in a count.
    var lines = statusLines
    let room = max(height - 2, 1)
    if height > 0, lines.count > room {
      lines = lines.prefix(room - 1) + ["(\(statusLines.count - room + 1) more)"]
    }
    drawnStatus = lines.map { line in
      width > 1 && line.count >= width ? String(line.prefix(width - 1)) : line
    }
    if !drawnStatus.isEmpty { fputs(drawnStatus.map { $0 + "\n" }.joined(), display) }
  }

  /// The rows some lines take at the terminal's width now (after a resize, a line drawn
  /// for a wider terminal wraps).
  private func rowsOnScreen(_ lines: [String]) -> Int {
    let width = max(Int(screenSize().columns), 1)
    return lines.reduce(0) { $0 + max(1, ($1.count + width - 1) / width) }
  }

  private func screenSize() -> (rows: Int32, columns: Int32) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    rl_get_screen_size(&rows, &columns)
    return (rows, columns)
  }

  /// SIGWINCH: readline learns the new size; the area and the line are drawn again for it.
  private func resize() {
    rl_resize_terminal()
    guard !statusLines.isEmpty || !drawnStatus.isEmpty else { return }
    eraseStatusArea(redrawingLine: false)
    drawStatusAreaAndLine()
  }

  /// Enter, before readline accepts the line: the area goes from above it (the accepted
  /// line stays in the log; the area comes back above the next prompt).
  fileprivate func lineAccepting() {
    guard handlerInstalled, !drawnStatus.isEmpty else { return }
    eraseStatusArea()
  }

  // MARK: - Readline set-up

  private func setUpReadline() {
    // What is drawn goes out at each fflush, in one write: a redraw of the status area and
    // the line (erase, area, prompt, line) reaches the terminal whole, never half done.
    setvbuf(display, nil, _IOFBF, 1 << 16)
    rl_readline_name = UnsafePointer(strdup("anim"))
    rl_outstream = display
    rl_catch_signals = 0
    rl_catch_sigwinch = 0
    rl_initialize()
    // Editing a recalled line must not change the history entry it came from, even when
    // the line is then dropped with Ctrl-C.
    rl_variable_bind("revert-all-at-newline", "on")
    // `card.x` and `:help` are one word; blanks, brackets and operators separate words.
    rl_completer_word_break_characters = UnsafePointer(strdup(languageWordBreaks))
    rl_attempted_completion_function = completeWord
    // After `:load`, `:save` and `:restore` a word is a path: it breaks at blanks only (so
    // `a-b/c` and `~/x` are one word), and a name with a blank is written in double quotes,
    // as bash does with its own quotes.
    rl_completion_word_break_hook = wordBreaks
    rl_completer_quote_characters = UnsafePointer(strdup("\""))
    rl_filename_quote_characters = UnsafePointer(strdup(" \t\n\"'\\()<>;&|$*?[]{}#!`="))
    // Enter takes the status area away before the line is accepted.
    rl_bind_key(13, acceptLine)
    rl_bind_key(10, acceptLine)

    using_history()
    stifle_history(1000)
    // A multi-line entry is one item, also in the file (timestamps delimit items there).
    // (readline writes an item's timestamp after its comment character, NUL unless set.)
    history_comment_char = CChar(UInt8(ascii: "#"))
    history_multiline_entries = 1
    history_write_timestamps = 1
    if let historyPath { _ = read_history(historyPath) }
  }

  private func install(prompt: String) {
    primaryPrompt = prompt
    // (Keys typed while the last line was evaluated were echoed here by the terminal; they
    // are still to be read, and show in the line once they are.)
    fputs("\r\u{1B}[K", display)
    drawStatusArea()
    rl_callback_handler_install(prompt, lineHandler)
    handlerInstalled = true
    fflush(display)
  }

  /// Called from readline's line handler.
  fileprivate func lineArrived(_ line: String?) {
    // Ctrl-D: the area goes, and the prompt shows where it began. (Readline has ended the
    // line already, a row down, when it had bracketed paste on: it writes `\r\n` then.)
    if line == nil, !drawnStatus.isEmpty {
      let movedDown = rl_variable_value("enable-bracketed-paste").map { String(cString: $0) } == "on"
      let rows = rowsOnScreen(drawnStatus) + (movedDown ? 1 : 0)
      fputs("\r\u{1B}[\(rows)A\u{1B}[J\(primaryPrompt)\(movedDown ? "\r\n" : "")", display)
      fflush(display)
      drawnStatus = []
    }
    // The line is evaluated with the handler removed, so what it prints needs no redraw;
    // the loop installs the handler again with the next prompt.
    rl_callback_handler_remove()
    handlerInstalled = false
    arrived = .some(line)
  }

  /// Adds a non-empty line to the history unless it repeats the last one.
  private func remember(_ line: String) {
    guard line.contains(where: { $0 != " " && $0 != "\t" }) else { return }
    if entryLines.isEmpty, history_length > 0, let last = history_get(history_base + history_length - 1),
      let text = last.pointee.line, String(cString: text) == line
    {
      return
    }
    add_history(line)
    addedThisSession += 1
    entryLines.append(line)
  }

  /// The lines of the entry being typed that went into the history, one item each so far.
  private var entryLines: [String] = []
  /// History items this session added (appended to the file on the way out).
  private var addedThisSession = 0

  /// An entry is complete: its lines become one history item, recalled whole (and written
  /// as one, `history_multiline_entries`).
  private func entryEnded() {
    defer { entryLines = [] }
    guard entryLines.count > 1, history_length >= Int32(entryLines.count) else { return }
    for _ in entryLines {
      if let removed = remove_history(history_length - 1) { free_history_entry(removed) }
    }
    add_history(entryLines.joined(separator: "\n"))
    addedThisSession -= entryLines.count - 1
  }

  /// Appends this session's items to the history file (so that sessions running at once
  /// do not overwrite each other's), then keeps its last 1,000; a new file is written whole.
  private func saveHistory() {
    guard let historyPath else { return }
    let status: Int32
    if access(historyPath, F_OK) == 0 {
      status = addedThisSession > 0 ? append_history(Int32(addedThisSession), historyPath) : 0
      if status == 0 { _ = history_truncate_file(historyPath, 1000) }
    } else {
      status = write_history(historyPath)
    }
    if status != 0 {
      fputs("note: could not save the history to '\(historyPath)': \(systemErrorText(status))\n", stderr)
    }
  }

  // MARK: - Keys that are signals

  /// Whether a signal that ends the process (SIGTERM, SIGHUP, SIGQUIT) came: long work
  /// stops for it, and the loop ends.
  var isEnding: Bool { signals.terminating != nil }

  /// Whether Ctrl-C was pressed and not yet acted on.
  var interruptIsPending: Bool { signals.interruptIsPending }

  /// Forgets a Ctrl-C that has done its job (it stopped long work): it drops no line.
  func forgetInterrupt() {
    _ = signals.takeInterrupt()
  }

  /// Ctrl-C stopped long work while a line was being evaluated: the terminal echoed `^C`
  /// after that line (when it echoes control keys), so what follows starts a line of its own.
  func workWasInterrupted() {
    guard !handlerInstalled else { return }
    var settings = termios()
    let echoes = tcflag_t(ECHO | ECHOCTL)
    if tcgetattr(STDIN_FILENO, &settings) == 0, settings.c_lflag & echoes == echoes {
      fputs("\n", display)
      fflush(display)
    }
  }

  /// During long work (a line being evaluated, no prompt shown), Ctrl-Z stops the process
  /// there and then, as at the prompt; the work goes on after `fg`.
  func suspendIfAsked(resumed: () -> Void) {
    if signals.takeSuspend() { suspend(resumed: resumed) }
  }

  /// Ctrl-C: the line being typed (and any unfinished entry) is dropped, and a fresh
  /// prompt appears below it. The session goes on.
  private func dropLine(prompt: () -> String, interrupted: () -> Void) {
    entryLines = []  // (the entry is dropped: what of it went into the history stays as lines)
    guard handlerInstalled else {
      interrupted()
      return
    }
    rl_callback_sigcleanup()  // ends an incremental search or a pending key sequence
    rl_point = rl_end
    // The dropped line stays on screen, without the area above it.
    if drawnStatus.isEmpty { rl_redisplay() } else { eraseStatusArea() }
    fputs("^C\n", display)
    // Reset the line out of sight: the screen already shows a fresh line.
    let redisplay = rl_redisplay_function
    rl_redisplay_function = {}
    rl_revert_line(1, 0)  // a recalled history line goes back to what it was
    rl_free_line_state()
    rl_replace_line("", 1)
    using_history()
    rl_redisplay_function = redisplay
    interrupted()
    primaryPrompt = prompt()
    rl_set_prompt(primaryPrompt)
    drawStatusAreaAndLine()
  }

  /// Ctrl-Z: gives the terminal back, stops, and on `fg` takes it again.
  private func suspend(resumed: () -> Void) {
    if handlerInstalled {
      // (The shell writes below: the area would be left behind as a stale copy.)
      if !drawnStatus.isEmpty { eraseStatusArea() }
      rl_deprep_terminal()
    }
    fflush(display)
    signals.stopUntilContinued()
    redrawAfterStop(resumed: resumed)
  }

  /// After a stop (Ctrl-Z, or SIGSTOP from elsewhere): the time away counts as a pause,
  /// and the terminal, which the shell may have changed, is prepared and redrawn.
  private func redrawAfterStop(resumed: () -> Void) {
    resumed()
    // Continued to end (`kill %1` sends SIGTERM, then SIGCONT), or in the background: the
    // terminal is the shell's, and preparing it would stop the process again (SIGTTOU).
    guard handlerInstalled, signals.terminating == nil, tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
    rl_prep_terminal(1)
    if !statusLines.isEmpty, drawnStatus.isEmpty {
      // The line as readline last drew it is gone from its view: it goes on a fresh row,
      // below the area.
      fputs("\r\u{1B}[J", display)
      drawStatusAreaAndLine()
      return
    }
    rl_forced_update_display()
    fflush(display)
  }

  // MARK: - Completion

  /// Whether the words of this line are paths (it is `:load`, `:save` or `:restore`).
  fileprivate func completesFileNames(_ line: String) -> Bool {
    completer("", line + " ") == .fileNames
  }

  /// The matches for readline: nil for file-name completion, else a malloc'd,
  /// NULL-terminated array of strdup'd strings, the first being what replaces the word
  /// (the common prefix of several matches).
  fileprivate func matches(start: Int32, end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    let bytes = UnsafeRawBufferPointer(start: rl_line_buffer, count: Int(rl_end))
    let lower = max(0, min(Int(start), bytes.count))
    let upper = max(lower, min(Int(end), bytes.count))
    let lineBefore = String(decoding: bytes[0..<lower], as: UTF8.self)
    let word = String(decoding: bytes[lower..<upper], as: UTF8.self)
    switch completer(word, lineBefore) {
    case .fileNames:
      rl_attempted_completion_over = 0
      return nil
    case .words(let words):
      rl_attempted_completion_over = 1
      guard !words.isEmpty else { return nil }
      let replacement = words.count == 1 ? words[0] : commonPrefix(of: words)
      // (`card.` goes on with a property: no space after it.)
      rl_completion_suppress_append = replacement.hasSuffix(".") || replacement.hasSuffix("/") ? 1 : 0
      let all = [replacement] + (words.count == 1 ? [] : words)
      guard let array = malloc((all.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)
      else { return nil }
      let matches = array.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: all.count + 1)
      for (index, text) in all.enumerated() { matches[index] = strdup(text) }
      matches[all.count] = nil
      return matches
    }
  }
}

/// Readline's line handler: copies the line, frees readline's copy, and hands it over.
private let lineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
  let text = line.map { String(cString: $0) }
  free(line)
  MainActor.assumeIsolated { LineEditor.current?.lineArrived(text) }
}

/// Where words break in the language: blanks, brackets and operators (`card.x` and `:help`
/// stay one word).
private let languageWordBreaks = " \t\n\"(){},;=+-*/"
/// Where they break in a path after `:load`, `:save` and `:restore`.
private let pathWordBreaks = " \t\n"
nonisolated(unsafe) private let languageBreaksC = strdup(languageWordBreaks)
nonisolated(unsafe) private let pathBreaksC = strdup(pathWordBreaks)

/// Readline's word-break hook: the path breaks when the line is a file command.
private let wordBreaks: @convention(c) () -> UnsafeMutablePointer<CChar>? = {
  let line = rl_line_buffer.map { String(cString: $0) } ?? ""
  let isFileCommand = MainActor.assumeIsolated { LineEditor.current?.completesFileNames(line) ?? false }
  return isFileCommand ? pathBreaksC : languageBreaksC
}

/// Enter (Return or Ctrl-J): the status area goes, then readline accepts the line.
private let acceptLine: @convention(c) (Int32, Int32) -> Int32 = { count, key in
  MainActor.assumeIsolated { LineEditor.current?.lineAccepting() }
  return rl_newline(count, key)
}

/// Readline's completion entry point.
private let completeWord:
  @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = {
    _, start, end in
    // Pointers are not Sendable: they cross the isolation boundary as an address.
    let address = MainActor.assumeIsolated {
      Int(bitPattern: LineEditor.current?.matches(start: start, end: end))
    }
    return UnsafeMutablePointer(bitPattern: address)
  }

/// The longest common prefix of some words, by Characters.
private func commonPrefix(of words: [String]) -> String {
  guard var prefix = words.first else { return "" }
  for word in words.dropFirst() {
    while !word.hasPrefix(prefix) { prefix.removeLast() }
  }
  return prefix
}
