import AnimCore
import AnimLanguage
import AnimRuntime
import AnimSignals
import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `anim run FILE [--until D]`: plays a script on the real clock, 60 ticks a second. On a
/// terminal, a live view of every property with the event log above it (LiveView.swift);
/// otherwise one time-stamped line per event and print. The virtual-clock twin is
/// `anim trace` (TraceRun.swift).
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a script on the real clock: a live view on a terminal, a time-stamped log otherwise.",
    discussion: """
      The run ends when nothing is playing and no event is pending (a paused animation that \
      nothing will resume does not keep it going), or at --until. Ctrl-C stops it. Ctrl-Z \
      stops the process; after `fg` the animations go on where they were: the time away is \
      a pause, not time played.
      Exit status: 0 on success; 65 when the script has errors (each is printed and nothing \
      runs) or the run met runtime errors (it still runs to the end); 66 when the file \
      cannot be read; 130 after Ctrl-C.
      """
  )

  @ArgumentParser.Argument(help: "The script to run.")
  var file: String

  @Option(help: ArgumentHelp("Stop at this engine time: a duration such as 2s, 1.5s or 500ms.", valueName: "duration"))
  var until: String?

  func validate() throws {
    if let until, DurationArgument.parse(until) == nil {
      throw ValidationError(DurationArgument.usage("--until", until))
    }
  }

  func run() throws {
    ignoreBrokenPipes()
    returnLargeBlocksWhenFreed()
    var ending: RunPlayer.Outcome?
    try runReportingInternalFailures {
      let (runtime, first): (Runtime, [RuntimeOutput])
      // The live view's bars span gauges, kept from the start.
      switch ScriptFile.readAndStart(file, tracksGauges: isatty(STDOUT_FILENO) == 1) {
      case .success(let started): (runtime, first) = started
      case .failure(let status): return status
      }

      let display: RunDisplay =
        isatty(STDOUT_FILENO) == 1 ? LiveView(usesColor: LiveView.standardOutputUsesColor) : LogDisplay()
      let player = RunPlayer(
        display: display, until: until.flatMap(DurationArgument.parse), holdsRecords: display is LogDisplay)
      let outcome = player.play(runtime, startedWith: first)
      ending = outcome
      switch outcome {
      case .finished(let hadErrors) where hadErrors: return .scriptErrors
      case .endless(let error):
        Output.standardError.write("anim: error: \(error)\n")
        return .scriptErrors
      default: return .success
      }
    }
    switch ending {
    case .interrupted: throw ExitCode(130)
    case .terminated(let signal): CaughtSignals.die(of: signal)
    case .finished, .endless, .quit, nil: break
    }
  }
}

/// A script played on the real clock: read the clock once per tick, advance the runtime
/// to that time, show what happened and the values, sleep to the next frame.
struct RunPlayer {
  enum Outcome {
    /// Nothing left to play, or `--until` reached.
    case finished(hadErrors: Bool)
    /// Ctrl-C.
    case interrupted
    /// `q` on the live view: ends the run as Ctrl-C does, successfully.
    case quit
    /// SIGTERM or SIGHUP: the process ends by that signal once the terminal is restored.
    case terminated(Int32)
    /// No `--until`, and the run never ends (only playback that repeats for ever is left)
    /// or is still busy after `Runtime.longestRun`.
    case endless(TraceError)
  }

  /// The engine ticks at 60 Hz.
  static let frameLength: Nanoseconds = 1_000_000_000 / 60

  let display: RunDisplay
  /// The engine time to stop at, if any.
  let until: Nanoseconds?
  /// Whether records wait until the run is known to go on past their time (a log, which a
  /// run that never ends must not half write), as `anim trace` does.
  let holdsRecords: Bool

  /// Plays `runtime`, whose script has been started at time 0 (`Runtime.start(_:)`), from
  /// `first`, what starting it produced.
  func play(_ runtime: Runtime, startedWith first: [RuntimeOutput]) -> Outcome {
    var signals = CaughtSignals()
    signals.install()
    display.begin()
    defer {
      display.finish()
      signals.restore()
    }

    var clock = MonotonicClock()
    var now = clock.read().time  // the script's time 0
    let holds = holdsRecords && until == nil
    var held: [RuntimeOutput] = []
    /// Shows runtime errors at once and, when holding, keeps the records back.
    func show(_ outputs: [RuntimeOutput]) {
      guard holds else { return display.log(outputs) }
      var errors: [RuntimeOutput] = []
      for output in outputs {
        if case .record = output { held.append(output) } else { errors.append(output) }
      }
      if !errors.isEmpty { display.log(errors) }
    }
    /// Shows the held records earlier than `time` (all when nil); drops the rest.
    func release(before time: Nanoseconds? = nil) {
      let shown = held.filter { output in
        guard let time, case .record(let record) = output else { return true }
        return record.time < time
      }
      held = []
      if !shown.isEmpty { display.log(shown) }
    }
    /// Where the run stands: nil while it goes on (the held records then go out).
    func ending() -> Outcome? {
      guard holds else { return nil }
      switch runtime.progress {
      case .goesOn, .ended:
        release()
        return nil
      case .neverEnds(let since):
        release(before: since)
        return .endless(.neverEnds(at: since))
      case .tooLong:
        release(before: Runtime.longestRun)
        return .endless(.runsTooLong)
      }
    }
    show(first)
    display.inspect { name in
      let marks = runtime.playbackMarks(of: name)
      return PropertyInspection(gauge: runtime.gauge(of: name), paused: marks.paused, reversed: marks.reversed)
    }
    if let endless = ending() { return endless }
    display.frame(at: now, values: runtime.sample())

    // The keys pause the script's time and change its speed; they start out doing neither.
    var steering = RunClock(script: now, atReal: now)
    var deadline = MonotonicClock.systemMonotonicTime() + RunPlayer.frameLength
    // A run paused by a key stays until a key resumes it (or `q`), even with nothing left.
    while !runtime.isIdle || steering.isPaused, until.map({ now < $0 }) ?? true {
      sleep(until: deadline)  // a signal cuts it short
      if signals.takeInterrupt() { return .interrupted }
      if let signal = signals.terminating { return .terminated(signal) }
      var stopped = false
      if signals.takeSuspend() {
        display.suspend()
        signals.stopUntilContinued()
        stopped = true
      }
      if signals.takeContinued() { stopped = true }  // a stop by SIGSTOP, from elsewhere
      if stopped {
        // However short the stop, the time away is a pause: the next reading is all gap.
        clock.noteSuspension()
        display.resume()
      }
      let raw = MonotonicClock.systemMonotonicTime()
      if !stopped, raw < deadline { continue }  // woken early by some other signal
      // After a stop, or when a tick ran late, the frames start again from now.
      deadline = raw < deadline + RunPlayer.frameLength ? deadline + RunPlayer.frameLength : raw + RunPlayer.frameLength

      let reading = clock.read()
      var outputs: [RuntimeOutput] = []
      if reading.gap > 0 { outputs.append(.record(Runtime.clockGap(reading.gap, at: now))) }
      let scriptTime = steering.script(atReal: reading.time)
      let target = until.map { min(scriptTime, $0) } ?? scriptTime
      outputs += runtime.advance(to: target)
      now = target
      // The keys typed during the frame act at its end.
      var steered = false
      for key in display.takeKeys() {
        switch key {
        case .quit:
          show(outputs)
          return .quit
        case .pauseOrResume: steering.togglePause(atReal: reading.time)
        case .faster: steering.changeSpeed(faster: true, atReal: reading.time)
        case .slower: steering.changeSpeed(faster: false, atReal: reading.time)
        case .reverse: runtime.steer(.reverse)
        case .seekBack: runtime.steer(.seek(by: -1_000_000_000))
        case .seekForward: runtime.steer(.seek(by: 1_000_000_000))
        }
        steered = steered || [.reverse, .seekBack, .seekForward].contains(key)
      }
      // What a seek or a reverse changed shows at once (an advance to the same instant).
      if steered { outputs += runtime.advance(to: now) }
      display.show(paused: steering.isPaused, speed: steering.speed)
      show(outputs)
      if let endless = ending() { return endless }
      display.frame(at: now, values: runtime.sample())
    }
    return .finished(hadErrors: runtime.hadErrors)
  }

  /// Sleeps until raw monotonic time `deadline`, or until a signal comes.
  private func sleep(until deadline: Nanoseconds) {
    var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
  }
}
