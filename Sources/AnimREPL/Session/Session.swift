// Session: the REPL's evaluator, independent of any terminal. It takes one complete entry
// (one or more lines), runs a `:command` or checks language input, and writes what it has
// to say through an output function: results to standard output, diagnostics to standard
// error. The terminal (LineEditor) and piped input both drive it; neither knows about the
// other, and the session knows about neither.
//
// The engine plugs in through `runtime` (see SessionBackend.swift). Until one is attached,
// input that parses and checks is remembered for completion and the session says that
// nothing runs without one: it never shows a made-up value.
//
// Input is parsed and checked in the checker's session mode against the declarations so
// far, so `card.x` after `target card { x: 0 }` checks, and a misspelt name is an error with
// a suggestion before anything runs.

import AnimCore
import AnimLanguage
import Foundation

/// One interactive session: clock, declared names, watched values, and an optional runtime.
package final class Session {
  /// Where a piece of output goes.
  package enum Stream: Sendable {
    /// Values, prints, events, command results.
    case standardOutput
    /// Diagnostics and notes.
    case standardError
  }

  /// What the reader should do after an entry.
  package enum Outcome: Sendable, Equatable {
    case proceed
    case quit
  }

  /// Writes text (whole lines, each ending with a newline) to a stream.
  package typealias Write = (Stream, String) -> Void

  /// Why long work (a `:tick`, what a `:load` runs, catching up with the real clock) should
  /// stop part-way.
  package enum StopRequest: Sendable, Equatable {
    /// Ctrl-C: stop, say where the clock is, and go on with the session.
    case interrupt
    /// A signal that ends the process (SIGTERM, SIGHUP): stop at once, quietly.
    case terminate
  }

  /// Asked between the pieces of long work (every instant that has something due); the
  /// front end answers from the signals it caught, without forgetting them. Nil: go on.
  package var stopRequest: () -> StopRequest? = { nil }

  /// On a terminal, where the watched values go: a status area above the prompt, given
  /// the lines to show (none: no area) whenever they change, about ten times a second on
  /// the real clock. Nil (piped input): they are written as lines, after each `:tick`.
  package var showStatus: (([String]) -> Void)? {
    didSet {
      shownStatus = []
      refreshStatus()
    }
  }
  /// What the status area shows now.
  private var shownStatus: [String] = []

  /// Whether the last entry's work was stopped by Ctrl-C (which the front end then forgets:
  /// it has done its job).
  package private(set) var entryWasInterrupted = false

  /// How long one pass may spend catching up with the real clock: a session that cannot
  /// keep up (a timeline replaying itself every nanosecond) never holds the prompt longer,
  /// and the time it could not play counts as a pause. (So Ctrl-C never has to stop
  /// catching up: the prompt takes it as usual, moments later.)
  package static let catchUpBudget: Nanoseconds = 100_000_000

  /// A page showing the session (`anim repl --preview`), handed it after each pass.
  package var stage: (any SessionStage)?
  /// Counts the entries evaluated and the stage's acts: anything but the clock that changes
  /// the runtime (a statement, `:load`, `:restore`, a step) changes it first, so a page
  /// showing the session need not look at the runtime while neither it nor the time moved.
  package internal(set) var revision = 0

  /// The engine: the runtime by default. Nil: statements are checked only.
  package var runtime: (any SessionBackend)? = RuntimeBackend() {
    didSet { runtime?.setPrecision(precision) }
  }

  /// How values and times are shown (`:precision`): short on a terminal, full when piped.
  package private(set) var precision = Precision.full
  /// The declarations so far, as the checker's session mode keeps them: a later `let`,
  /// `curve`, `target` or `timeline` replaces an earlier one of the same name. Completion
  /// and `:watch` read names here.
  package private(set) var environment = Environment()
  /// The properties `:watch` shows, as `T.p`, in the order asked.
  package private(set) var watched: [String] = []

  /// Which events `:events` lets through: all (`on`, the start), none (`off`), or those of
  /// some subjects (timelines, `T.p`, emitted names). Prints are never filtered.
  enum EventFilter: Equatable {
    case all, none
    case only(Set<String>)

    func shows(_ subject: String) -> Bool {
      switch self {
      case .all: return true
      case .none: return false
      case .only(let subjects): return subjects.contains(subject)
      }
    }
  }
  private var eventFilter = EventFilter.all

  private var clock: SessionClock
  private let gapThreshold: Nanoseconds
  private let sourceName: String
  private let usesColor: Bool
  let write: Write
  /// When the watched values were last shown live, and what they were.
  private var lastWatchTime: Nanoseconds = .min
  private var lastWatchText = ""
  /// Why the last piece of long work stopped part-way (nil: it did not, or not yet).
  private var stoppedBy: StopReason?

  private enum StopReason {
    case interrupt, terminate, outOfTime
  }

  /// - Parameters:
  ///   - clock: real (animations play while the person types) or virtual (`:tick`).
  ///   - sourceName: what diagnostics call typed input: `<repl>` or `<stdin>`.
  ///   - usesColor: colour diagnostics (standard error is a terminal, NO_COLOR unset).
  ///   - gapThreshold: on the real clock, a longer stretch between two readings counts as
  ///     a pause. The terminal reads 60 times a second, so 1 s means "the process was
  ///     stopped"; piped input, which blocks between lines, passes `.max`.
  ///   - write: where output goes.
  package init(
    clock: ClockChoice, sourceName: String = "<repl>", usesColor: Bool = false,
    gapThreshold: Nanoseconds = 1_000_000_000, write: @escaping Write
  ) {
    self.clock = SessionClock(clock, gapThreshold: gapThreshold)
    self.gapThreshold = gapThreshold
    self.sourceName = sourceName
    self.usesColor = usesColor
    self.write = write
  }

  /// Engine time at the last reading of the clock.
  package var now: Nanoseconds { clock.now }
  /// How fast the real clock plays (1 unless the stage's speed changed it).
  package var clockSpeed: Double { clock.speed }
  /// Whether the clock is held (a restored or stepped session, until a bare `resume`).
  package var isHeld: Bool { clock.isHeld }
  /// Whether the clock is the real one (the virtual one moves only by `:tick`).
  package var isOnRealClock: Bool { clock.choice == .real }

  /// The stage's speed: the real clock plays `speed` times as fast from now (within
  /// 1/16…16). The virtual clock moves only by `:tick`: there it is refused with a note.
  package func setSpeed(_ speed: Double) {
    if !clock.setSpeed(speed) {
      note("the stage's speed acts on the real clock; this session's virtual clock moves only by :tick")
    }
  }

  /// The stage's step: `frames` frames on from the frame at or before the clock's time, on
  /// the 60 Hz grid (k / 60 s) that `anim preview` and `anim trace` use; the session is then
  /// held there, as a restored one is, until a bare `resume`. A step back would need the
  /// session replayed from its start, and an interactive session has no script to replay:
  /// it is refused with a note.
  package func step(frames: Int) {
    guard frames > 0 else {
      note("a step back needs a script to replay, and an interactive session has none: only forward steps here")
      return
    }
    guard let runtime else {
      note("a step needs a runtime, and none is attached")
      return
    }
    let reason = "a step on the stage"
    clock.read()
    let start = clock.now
    let fps: Int64 = 60
    var frame = start / 1_000_000_000 * fps
    while frameTime(frame + 1, fps: fps) <= start { frame += 1 }
    let target = frameTime(frame + Int64(frames), fps: fps)
    guard target < AnimationEngine.endOfTime else { return }
    runtime.setHeld(false, reason: reason)
    stoppedBy = nil
    let reached = runtime.advance(to: target, delivering: emit, stoppingWhen: { shouldStop(deadline: nil) })
    runtime.setHeld(true, reason: reason)
    clock.hold(at: reached, reason: reason)
  }

  // MARK: - Entries

  /// Evaluates one complete entry.
  /// - Parameters:
  ///   - entry: one or more lines, as typed (no trailing newline needed).
  ///   - firstLine: the input line the entry started on, for diagnostics of piped input.
  /// - Returns: whether to go on or leave.
  @discardableResult
  package func evaluate(_ entry: String, firstLine: Int = 1) -> Outcome {
    revision &+= 1
    entryWasInterrupted = false
    // (Whatever the entry did to the watched values, or to what is watched, shows.)
    defer { refreshStatus() }
    let source = SourceText(name: sourceName, contents: entry, firstLine: firstLine)
    // `help`, `quit` and `exit` typed bare, as other REPLs take them: a one-line hint (unless
    // the session has declared that name).
    let word = String(entry.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    if ["help", "quit", "exit"].contains(word) && environment[word] == nil {
      note(word == "help" ? "type :help for what can be typed" : "type :quit (or Ctrl-D on an empty line) to leave")
      return .proceed
    }
    let leading = entry.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
    if entry.utf8.dropFirst(leading).first == UInt8(ascii: ":") {
      let line = CommandInput(source: source, commandStart: leading)
      return run(line, firstLine: firstLine)
    }
    evaluateLanguage(source, firstLine: firstLine)
    return .proceed
  }

  /// Reads the clock and lets the runtime catch up with it. The terminal calls this on
  /// every pass of its loop (about 60 times a second); piped input before each entry.
  ///
  /// Catching up stops part-way on a signal that ends the process, and on the real clock
  /// after `catchUpBudget`; the clock then stands where the engine stopped (on the real
  /// clock, the time not played counts as a pause).
  package func tick() {
    clock.read()
    guard let runtime else { return }
    let target = clock.now
    let deadline = clock.choice == .real ? saturatingSum(MonotonicClock.systemMonotonicTime(), Self.catchUpBudget) : nil
    stoppedBy = nil
    let reached = runtime.advance(
      to: target, delivering: emit, stoppingWhen: { shouldStop(deadline: deadline, interruptible: false) })
    if reached < target { clock.standStill(at: reached) }
    if clock.choice == .real { showWatchedValuesLive() }
    passToStage()
  }

  /// Whether long work should stop now (asked between instants): a stop request from the
  /// front end (Ctrl-C only when `interruptible`), or the deadline passed.
  private func shouldStop(deadline: Nanoseconds?, interruptible: Bool = true) -> Bool {
    if let request = stopRequest(), interruptible || request == .terminate {
      stoppedBy = request == .interrupt ? .interrupt : .terminate
      if request == .interrupt { entryWasInterrupted = true }
      return true
    }
    if let deadline, MonotonicClock.systemMonotonicTime() >= deadline {
      stoppedBy = .outOfTime
      return true
    }
    return false
  }

  /// The process was suspended (Ctrl-Z) and has continued: the time away is a pause.
  package func noteSuspension() {
    clock.noteSuspension()
  }

  /// Checks `source` against the session's declarations and, when it has no errors, keeps
  /// its declarations and runs it.
  /// - Returns: whether it had no errors.
  @discardableResult
  private func evaluateLanguage(_ source: SourceText, firstLine: Int, loadedFrom path: String? = nil) -> Bool {
    // The environment takes the input's declarations only when the input has no errors,
    // and only once it runs.
    var checked = environment
    let result = parseAndCheck(source, in: &checked, mode: .session)
    let diagnostics = result.diagnostics
    if !diagnostics.isEmpty {
      let renderer = DiagnosticRenderer(source: source, usesColor: usesColor, firstLine: firstLine)
      write(.standardError, renderer.renderLimited(diagnostics))
    }
    guard result.isRunnable, let program = result.program else {
      if let path { note("nothing from '\(path)' was loaded: the session is unchanged") }
      return false
    }
    if wasInterruptedBeforeRunning(loadedFrom: path) { return false }
    environment = checked
    guard !program.file.statements.isEmpty else { return true }
    if let runtime {
      stoppedBy = nil
      let reached = runtime.run(
        program, of: source, at: clock.now, delivering: emit, stoppingWhen: { shouldStop(deadline: nil) })
      ran(reaching: reached, runtime)
    } else if let path {
      note(
        "'\(path)' checked (\(count(program.file.statements.count, "statement"))); no runtime is attached, so nothing runs"
      )
    } else {
      note("no runtime is attached, so nothing runs")
    }
    return true
  }

  /// Checking a large input takes a while: Ctrl-C meanwhile stops it before anything runs,
  /// and the session stays as it was. Whether it did.
  private func wasInterruptedBeforeRunning(loadedFrom path: String?) -> Bool {
    guard let request = stopRequest() else { return false }
    if request == .interrupt {
      entryWasInterrupted = true
      write(
        .standardOutput,
        path.map { "':load' interrupted: nothing from '\($0)' was loaded; the session is unchanged\n" }
          ?? "interrupted: nothing ran; the session is unchanged\n")
    }
    return true
  }

  /// After an input ran on `runtime`, whose catching up with the clock reached `reached`.
  private func ran(reaching reached: Nanoseconds, _ runtime: any SessionBackend) {
    if reached < clock.now {
      clock.standStill(at: reached)
      if stoppedBy == .interrupt {
        write(
          .standardOutput,
          "interrupted while catching up with the clock: it stands at \(formatSeconds(reached, precision)), "
            + "where the input ran; the time not played counts as a pause\n")
      }
    }
    // A bare `resume` released a restored session's hold: the clock goes on from there.
    if clock.isHeld && !runtime.isHeld { clock.release() }
  }

  /// A file's input (`:load`), read one top-level statement at a time when the runtime
  /// can (`SessionBackend.planLoad`), as `anim run` reads a script, so that its tree is
  /// never held whole: checked through first (an input with an error changes nothing),
  /// then read again and run as it is read. Otherwise, and for its errors, as typed input
  /// is (`evaluateLanguage`). The same diagnostics, notes, output and session either way.
  /// - Returns: whether it had no errors.
  private func loadLanguage(_ source: SourceText, loadedFrom path: String) -> Bool {
    guard let runtime, var plan = runtime.planLoad(source, in: environment) else {
      return evaluateLanguage(source, firstLine: 1, loadedFrom: path)
    }
    if !plan.warnings.isEmpty {
      let renderer = DiagnosticRenderer(source: source, usesColor: usesColor, firstLine: 1)
      write(.standardError, renderer.renderLimited(plan.warnings))
    }
    if wasInterruptedBeforeRunning(loadedFrom: path) { return false }
    guard plan.statementCount > 0 else {
      environment = plan.environment
      return true
    }
    // The run reads the input's declarations again: the plan's go first, so that a file of
    // a million declarations is not held twice.
    plan.environment = Environment()
    stoppedBy = nil
    let (reached, after) = runtime.runLoad(
      source, planned: plan, in: environment, at: clock.now, delivering: emit,
      stoppingWhen: { shouldStop(deadline: nil) })
    environment = after
    ran(reaching: reached, runtime)
    return true
  }

  /// The property names of target `name` in the order declared, or nil when `name` is not
  /// a target now.
  package func properties(ofTarget name: String) -> [String]? {
    environment.target(named: name)?.properties.map(\.name)
  }

  /// Every target name, sorted.
  var targetNames: [String] {
    environment.order.filter { environment.target(named: $0) != nil }.sorted()
  }

  // MARK: - Commands

  private func run(_ line: CommandInput, firstLine: Int) -> Outcome {
    let name = line.commandName
    // A prefix that names exactly one command runs it (`:q`, `:h`, `:st`); an ambiguous one
    // runs nothing and lists the candidates.
    let candidates = Command.candidates(named: Substring(name.text))
    if candidates.count > 1 {
      error(
        "ambiguous command ':\(name.text)': \(candidates.map(\.spelled).sorted().joined(separator: " "))",
        at: name.span, in: line, firstLine: firstLine)
      return .proceed
    }
    guard let command = candidates.count == 1 ? candidates[0] : nil else {
      let shown = ":" + name.text
      error(
        name.text.isEmpty
          ? "expected a command after ':' (:help lists them)"
          : "unknown command '\(shown)'"
            + didYouMean(shown, among: Command.allCases.map(\.spelled)) + " (:help lists them)",
        at: name.span, in: line, firstLine: firstLine)
      return .proceed
    }
    let arguments = line.arguments
    func noArguments() -> Bool {
      guard let extra = arguments.first else { return true }
      error("'\(command.spelled)' takes no arguments", at: extra.span, in: line, firstLine: firstLine)
      return false
    }
    func oneFile() -> String? {
      guard let file = arguments.first else {
        error(
          "expected a file name after '\(command.spelled)'", at: SourceSpan(at: line.source.bytes.count),
          in: line, firstLine: firstLine)
        return nil
      }
      if arguments.count > 1 {
        error(
          "'\(command.spelled)' takes one file name (write one with spaces in double quotes)", at: arguments[1].span,
          in: line, firstLine: firstLine)
        return nil
      }
      return Self.expandingTilde(file.text)
    }

    switch command {
    case .help:
      if arguments.count > 1 {
        error("':help' takes at most one topic", at: arguments[1].span, in: line, firstLine: firstLine)
      } else if let topic = arguments.first {
        if let text = Help.text(forTopic: topic.text) {
          write(.standardOutput, text)
        } else {
          error(
            "no help on '\(topic.text)'" + didYouMean(topic.text, among: Help.topicNames)
              + " (:help lists the topics)", at: topic.span, in: line, firstLine: firstLine)
        }
      } else {
        write(.standardOutput, Help.overview)
      }
    case .quit:
      if noArguments() { return .quit }
    case .clock:
      if noArguments() { showClock() }
    case .tick:
      tick(line, firstLine: firstLine)
    case .reset:
      if noArguments() { reset() }
    case .events:
      events(arguments.map(\.text))
    case .precision:
      switch arguments.map(\.text) {
      case []: write(.standardOutput, "precision \(precision.rawValue)\n")
      case ["full"]: setPrecision(.full)
      case ["short"]: setPrecision(.short)
      default:
        error("expected 'full' or 'short' after ':precision'", at: arguments[0].span, in: line, firstLine: firstLine)
      }
    case .status:
      guard noArguments() else { break }
      if let runtime {
        let lines = runtime.status(at: clock.now)
        write(.standardOutput, lines.isEmpty ? "nothing is playing or paused\n" : lines.map { $0 + "\n" }.joined())
      } else {
        note("':status' needs a runtime, and none is attached")
      }
    case .watch:
      watch(arguments, in: line, firstLine: firstLine)
    case .unwatch:
      unwatch(arguments, in: line, firstLine: firstLine)
    case .load:
      if let path = oneFile() { load(path: path) }
    case .save, .restore:
      guard let path = oneFile() else { break }
      guard let runtime else {
        note(
          "'\(command.spelled)' needs a runtime, and none is attached; nothing was \(command == .save ? "written" : "read")"
        )
        break
      }
      do {
        if command == .save {
          try runtime.save(to: path)
          write(.standardOutput, "saved the session to '\(path)'\n")
        } else {
          let restored = try runtime.restore(from: path)
          environment = restored.environment
          clock.hold(at: restored.time)
          write(
            .standardOutput,
            "restored the session from '\(path)' at \(formatSeconds(restored.time, precision)): "
              + "held until 'resume'\n")
        }
      } catch {
        write(.standardError, "error: \(error.message)\n")
      }
    }
    return .proceed
  }

  /// Shows values and times exactly (`full`) or to 6 significant digits and the millisecond.
  package func setPrecision(_ precision: Precision) {
    self.precision = precision
    runtime?.setPrecision(precision)
  }

  /// `:events [on | off | SUBJECT ...]`: which events show (prints always do).
  private func events(_ arguments: [String]) {
    switch arguments {
    case []: break
    case ["on"]: eventFilter = .all
    case ["off"]: eventFilter = .none
    default: eventFilter = .only(Set(arguments))
    }
    switch eventFilter {
    case .all: write(.standardOutput, "events: all shown\n")
    case .none: write(.standardOutput, "events: none shown (prints still are)\n")
    case .only(let subjects): write(.standardOutput, "events: only of \(subjects.sorted().joined(separator: " "))\n")
    }
  }

  /// `:reset`: the session starts afresh; its history and display settings stay. A virtual
  /// clock goes back to 0; a real clock runs on, and the engine starts again from its time.
  private func reset() {
    environment = Environment()
    watched = []
    lastWatchText = ""
    lastWatchTime = .min
    if clock.choice == .virtual { clock = SessionClock(.virtual, gapThreshold: gapThreshold) }
    clock.release()
    runtime?.reset()
    if clock.choice == .real, let runtime { _ = runtime.advance(to: clock.now) }
    write(.standardOutput, "the session is reset: nothing declared, nothing playing\n")
  }

  /// `:clock`: which clock and its engine time.
  private func showClock() {
    clock.read()
    switch clock.choice {
    case .virtual where clock.isHeld:
      write(
        .standardOutput,
        "virtual clock at \(formatSeconds(clock.now, precision)) (held since \(clock.holdReason) until 'resume')\n")
    case .virtual:
      write(.standardOutput, "virtual clock at \(formatSeconds(clock.now, precision)) (moves only on :tick)\n")
    case .real:
      let paused = clock.pausedTime
      let pauses = paused > 0 ? ", \(formatSeconds(paused, precision)) left out as pauses" : ""
      let held = clock.isHeld ? " (held since \(clock.holdReason) until 'resume')" : ""
      let speed = clock.speed == 1 ? "" : ", playing at \(formatNumber(clock.speed))×"
      write(.standardOutput, "real clock at \(formatSeconds(clock.now, precision))\(held)\(speed)\(pauses)\n")
    }
  }

  /// `:tick D`: advances the virtual clock by D, a duration in the language's own syntax.
  private func tick(_ line: CommandInput, firstLine: Int) {
    guard clock.choice == .virtual else {
      error(
        "':tick' advances a virtual clock; this session runs on the real clock "
          + "(start it with --clock virtual)", at: line.commandName.span, in: line, firstLine: firstLine)
      return
    }
    let expected = "expected a duration after ':tick', such as 400ms or 1.5s"
    guard let argument = line.argumentRange else {
      error(expected, at: SourceSpan(at: line.source.bytes.count), in: line, firstLine: firstLine)
      return
    }
    // The argument is parsed in place, everything else blanked, so spans are columns of
    // the typed line.
    var bytes = [UInt8](repeating: UInt8(ascii: " "), count: line.source.bytes.count)
    bytes.replaceSubrange(argument, with: line.source.bytes[argument])
    let parsed = parse(SourceText(name: sourceName, bytes: bytes))
    if parsed.hasErrors {
      let renderer = DiagnosticRenderer(source: line.source, usesColor: usesColor, firstLine: firstLine)
      write(.standardError, renderer.render(parsed.diagnostics))
      return
    }
    guard let statement = parsed.file.statements.first, case .expression(let expression) = statement.kind
    else {
      error(
        expected, at: SourceSpan(start: argument.lowerBound, end: argument.upperBound), in: line, firstLine: firstLine)
      return
    }
    if parsed.file.statements.count > 1 {
      error("':tick' takes one duration", at: parsed.file.statements[1].span, in: line, firstLine: firstLine)
      return
    }
    let delta: Nanoseconds
    switch expression.kind {
    case .duration(let nanoseconds):
      delta = nanoseconds
    case .negate:
      error("':tick' cannot go back: the clock only moves forward", at: expression.span, in: line, firstLine: firstLine)
      return
    case .number:
      error(
        "\(expected); a plain number has no unit", at: expression.span, in: line, firstLine: firstLine)
      return
    default:
      error(expected, at: expression.span, in: line, firstLine: firstLine)
      return
    }
    // Nothing runs past the end of time (2^62 ns, about 146 years): a tick that would reach
    // it is refused whole, and the clock does not move.
    if delta >= AnimationEngine.endOfTime - clock.now {
      error(
        "':tick' would take the clock to or past the end of time, \(AnimationEngine.endOfTime) ns "
          + "(about 146 years); the clock is at \(clock.now) ns and does not move",
        at: expression.span, in: line, firstLine: firstLine)
      return
    }
    if clock.isHeld {
      note(
        "the session is held at \(formatSeconds(clock.now, precision)) since \(clock.holdReason), and the clock "
          + "does not move: 'resume' releases it")
      return
    }
    guard let runtime else {
      _ = clock.advance(by: delta)
      return
    }
    // The runtime gets there piece by piece, its output written as it comes; Ctrl-C stops
    // it between two instants, and the clock stands where it stopped.
    let start = clock.now
    let target = start + delta
    stoppedBy = nil
    let reached = runtime.advance(to: target, delivering: emit, stoppingWhen: { shouldStop(deadline: nil) })
    _ = clock.advance(by: reached - start)
    if reached < target {
      guard stoppedBy == .interrupt else { return }  // the process is ending
      write(
        .standardOutput,
        ":tick interrupted: the clock stopped at \(formatSeconds(reached, precision)), "
          + "\(formatSeconds(target - reached, precision)) short of \(formatSeconds(target, precision))\n")
    }
    if showStatus == nil, let text = watchedValuesText(runtime) { write(.standardOutput, text) }
  }

  /// `:watch T.p ...`: adds properties to the live display.
  private func watch(_ arguments: [CommandInput.Argument], in line: CommandInput, firstLine: Int) {
    guard !arguments.isEmpty else {
      if watched.isEmpty {
        error(
          "expected properties to watch after ':watch', such as card.x",
          at: SourceSpan(at: line.source.bytes.count), in: line, firstLine: firstLine)
      } else {
        write(.standardOutput, "watching \(watched.joined(separator: " "))\n")
      }
      return
    }
    var added: [String] = []
    for argument in arguments {
      guard let property = validatedProperty(argument, in: line, firstLine: firstLine) else { return }
      if !watched.contains(property) && !added.contains(property) { added.append(property) }
    }
    watched += added
    lastWatchText = ""
    if runtime == nil {
      note("watching \(watched.joined(separator: " ")); values show when a runtime is attached")
    } else if showStatus == nil, let runtime, let text = watchedValuesText(runtime) {
      write(.standardOutput, text)
    }
  }

  /// `:unwatch [T.p ...]`: removes some, or all, watched properties.
  private func unwatch(_ arguments: [CommandInput.Argument], in line: CommandInput, firstLine: Int) {
    if arguments.isEmpty {
      watched.removeAll()
      return
    }
    for argument in arguments where !watched.contains(argument.text) {
      error(
        "'\(argument.text)' is not watched" + didYouMean(argument.text, among: watched),
        at: argument.span, in: line, firstLine: firstLine)
      return
    }
    watched.removeAll { name in arguments.contains { $0.text == name } }
  }

  /// `T.p` of a declared target and one of its properties; reports anything else.
  private func validatedProperty(_ argument: CommandInput.Argument, in line: CommandInput, firstLine: Int) -> String? {
    let parts = argument.text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, parts.allSatisfy(isIdentifier) else {
      error(
        "expected a property such as card.x, found '\(argument.text)'", at: argument.span, in: line,
        firstLine: firstLine)
      return nil
    }
    guard let properties = properties(ofTarget: parts[0]) else {
      error(
        "unknown target '\(parts[0])'" + didYouMean(parts[0], among: targetNames),
        at: argument.span, in: line, firstLine: firstLine)
      return nil
    }
    guard properties.contains(parts[1]) else {
      error(
        "target '\(parts[0])' has no property '\(parts[1])'" + didYouMean(parts[1], among: properties),
        at: argument.span, in: line, firstLine: firstLine)
      return nil
    }
    return argument.text
  }

  /// The watched values as `T.p = v` lines, or nil when nothing is watched.
  private func watchedValuesText(_ runtime: any SessionBackend) -> String? {
    guard !watched.isEmpty else { return nil }
    return watchedValueLines(runtime).map { $0 + "\n" }.joined()
  }

  /// The watched values, one `T.p = v` each.
  private func watchedValueLines(_ runtime: any SessionBackend) -> [String] {
    watched.map { name -> String in
      let parts = name.split(separator: ".").map(String.init)
      let value = runtime.value(ofTarget: parts[0], property: parts[1]) ?? "(gone)"
      return "\(name) = \(value)"
    }
  }

  /// Gives the status area (on a terminal) the watched values, when they changed.
  private func refreshStatus() {
    guard let showStatus else { return }
    let lines = runtime.map(watchedValueLines) ?? []
    guard lines != shownStatus else { return }
    shownStatus = lines
    showStatus(lines)
  }

  /// On the real clock, about ten times a second, the watched values when they changed: in
  /// the status area on a terminal, else as lines.
  private func showWatchedValuesLive() {
    guard let runtime, !watched.isEmpty else { return }
    let (elapsed, overflow) = clock.now.subtractingReportingOverflow(lastWatchTime)
    guard overflow || elapsed >= 100_000_000 else { return }
    lastWatchTime = clock.now
    if showStatus != nil {
      refreshStatus()
      return
    }
    guard let text = watchedValuesText(runtime), text != lastWatchText else { return }
    lastWatchText = text
    write(.standardOutput, text)
  }

  /// What became of a `:load`.
  package enum LoadOutcome: Sendable, Equatable {
    /// Checked and run (or, with no runtime, checked and declared).
    case loaded
    /// The file has errors, all reported; nothing changed.
    case hadErrors
    /// The file could not be read; the reason was reported.
    case unreadable
  }

  /// `:load FILE` (and `anim repl FILE`): checks the file against the session and runs it
  /// into the session.
  @discardableResult
  package func load(path: String) -> LoadOutcome {
    let bytes: [UInt8]
    do {
      bytes = try readWholeFile(atPath: path)
    } catch {
      write(.standardError, "error: cannot read '\(path)': \(error.reason)\n")
      return .unreadable
    }
    // A saved session (JSON) is not a script: say what to do with it instead of showing
    // the errors of reading JSON as `.anim`.
    if Self.looksLikeSavedSession(bytes) {
      write(.standardError, "error: '\(path)' looks like a saved session: use :restore\n")
      return .hadErrors
    }
    let source = SourceText(name: path, bytes: bytes)
    return loadLanguage(source, loadedFrom: path) ? .loaded : .hadErrors
  }

  /// A leading `~` or `~user` as a shell expands it: the home directory (`$HOME`, or the
  /// password database's), or that user's; anything else, or an unknown user, as written.
  static func expandingTilde(_ path: String) -> String {
    guard path.hasPrefix("~") else { return path }
    let slash = path.firstIndex(of: "/") ?? path.endIndex
    let user = path[path.index(after: path.startIndex)..<slash]
    var home: String?
    if user.isEmpty {
      home =
        ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
    } else {
      home = getpwnam(String(user)).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
    }
    guard let home else { return path }
    return home + path[slash...]
  }

  /// Whether a file reads as a session `:save` wrote: a JSON object with the session's
  /// keys (`engine`, `version`) near its start.
  static func looksLikeSavedSession(_ bytes: [UInt8]) -> Bool {
    guard bytes.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "{") else { return false }
    let head = String(decoding: bytes.prefix(1 << 20), as: UTF8.self)
    return head.contains("\"engine\"") && head.contains("\"version\"")
  }

  // MARK: - Output

  /// Writes a piece of the runtime's output: consecutive lines of one stream in one write.
  private func emit(_ outputs: [SessionOutput]) {
    var text = ""
    var stream = Stream.standardOutput
    func add(_ piece: String, to target: Stream) {
      if target != stream && !text.isEmpty {
        write(stream, text)
        text = ""
      }
      stream = target
      text += piece
    }
    for output in outputs {
      switch output {
      case .line(let line):
        add(line + "\n", to: .standardOutput)
      case .event(let subject, let line):
        if eventFilter.shows(subject) { add(line + "\n", to: .standardOutput) }
      case .diagnostic(let diagnostic, let source):
        add(DiagnosticRenderer(source: source, usesColor: usesColor).render(diagnostic), to: .standardError)
      }
    }
    if !text.isEmpty { write(stream, text) }
  }

  private func note(_ message: String) {
    write(.standardError, "note: \(message)\n")
  }

  /// An error about a command line, shown as the language's diagnostics are: position,
  /// message, the typed line and a caret.
  private func error(_ message: String, at span: SourceSpan, in line: CommandInput, firstLine: Int) {
    let renderer = DiagnosticRenderer(source: line.source, usesColor: usesColor, firstLine: firstLine)
    write(.standardError, renderer.render(.error(message, at: span)))
  }
}

/// `1 statement`, `3 statements`.
private func count(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// Whether `text` is an identifier of the language (a letter or `_`, then letters, digits, `_`).
func isIdentifier(_ text: String) -> Bool {
  guard let first = text.utf8.first, !first.isASCIIDigit else { return false }
  return text.utf8.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == UInt8(ascii: "_") }
}

extension UInt8 {
  var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
  var isASCIILetter: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
  }
}
