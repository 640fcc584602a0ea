// SessionBackend: the seam where what runs statements plugs into a session: the protocol a
// session asks (RuntimeBackend, over AnimRuntime, is the one it has by default; tests plug in
// a recording one).
//
// The session does everything that needs no engine itself: reading input, commands, the
// clock, checking, remembering names for completion. What needs the engine (running
// statements, values, status, save and restore) it asks of an attached runtime; with none
// attached (an embedder that only wants checking) it says plainly that nothing runs, and
// never makes up a value.

import AnimCore
import AnimLanguage
import AnimRuntime

/// Something a session's runtime reports: a line for standard output (a value, a `print`,
/// an event), or a diagnostic (a runtime error) for standard error.
package enum SessionOutput: Sendable {
  /// One line of standard output, without its newline: `b.x = 40`, `[1.3s] landed`.
  case line(String)
  /// An event's line (`[1.3s] complete card.x`, `[2s] landed` for `emit "landed"`), with its
  /// subject (the timeline, `T.p`, or the emitted name), which `:events` filters on.
  case event(subject: String, line: String)
  /// A runtime error, shown with the source it points into.
  case diagnostic(Diagnostic, in: SourceText)
}

/// The engine side of a session. The REPL calls it from one thread (the main actor), and
/// always with engine times read from the session's clock, which never go backwards.
package protocol SessionBackend: AnyObject {
  /// Runs an input that parsed and checked (the checker's facts included: types,
  /// constants, references, placements), at engine time `now` (top-level `at D` is
  /// relative to it). Declarations replace earlier ones of the same name; the program's
  /// `environment` holds the session's declarations after this input.
  func run(_ program: CheckedProgram, of source: SourceText, at now: Nanoseconds) -> [SessionOutput]

  /// Advances every animation and timeline to engine time `time`, firing every event due
  /// up to and including it, in order.
  func advance(to time: Nanoseconds) -> [SessionOutput]

  /// Advances toward engine time `time` as `advance(to:)` does, handing output to `deliver`
  /// as it comes (so that nothing piles up however long the advance), and asking
  /// `shouldStop` between instants whether to stop there.
  /// - Returns: the time reached: `time`, or the earlier instant where it stopped (the
  ///   runtime stands there, as if advanced to it).
  func advance(
    to time: Nanoseconds, delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds

  /// Runs an input as `run(_:of:at:)` does, handing output to `deliver` as it comes.
  /// Catching up to `now` first may stop where `shouldStop` says; the input then runs at
  /// the time reached, which is returned.
  func run(
    _ program: CheckedProgram, of source: SourceText, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds

  /// The first reading of a file's input (`:load`), one top-level statement at a time
  /// against the session's declarations, `environment`: what running it statement by
  /// statement needs (`runLoad`), or nil when the session should check and run it whole
  /// (`run(_:of:at:)`): it has errors, or running it statement by statement would not be
  /// exactly running it whole, or the backend cannot.
  func planLoad(_ source: SourceText, in environment: Environment) -> EntryPlan?

  /// Runs a file's input that `planLoad` checked, as `run(_:of:at:delivering:stoppingWhen:)`
  /// runs it whole, reading it again one statement at a time when it can. `environment` is
  /// the session's declarations before it; what it returns, the time reached (as `run`'s)
  /// and the declarations after it (the plan's may be let go before).
  func runLoad(
    _ source: SourceText, planned plan: EntryPlan, in environment: Environment, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> (reached: Nanoseconds, environment: Environment)

  /// One line per animation and timeline: state, direction, speed, local time / duration,
  /// progress (`:status`).
  func status(at now: Nanoseconds) -> [String]

  /// The current value of `T.p`, as the trace writes it (`40`, `[0,120]`, `#ff8800ff`);
  /// nil when the target or property does not exist.
  func value(ofTarget target: String, property: String) -> String?

  /// Writes the whole session (targets, timing state, pending events, handlers) as JSON.
  func save(to path: String) throws(SessionFileError)

  /// Replaces the session with one saved by `save`, held as a whole at the instant it was
  /// saved (see `isHeld`), and returns the declarations it holds (the session checks later
  /// input against them) and that instant (the session's clock reads it from now on). On
  /// failure nothing changes.
  func restore(from path: String) throws(SessionFileError) -> RestoredSession

  /// Whether the session as a whole is held (restored, and no bare `resume` since): the
  /// engine does not advance, input runs at the held instant, and the session's clock
  /// stands still with it.
  var isHeld: Bool { get }

  /// Holds the session (`isHeld`), saying why (`:restore`, a step on the stage), or lets it
  /// go: a step on the stage holds it at the frame it stepped to.
  func setHeld(_ held: Bool, reason: String)

  /// How values and times are shown: exact, as the trace writes them, or short.
  func setPrecision(_ precision: Precision)

  /// Starts afresh (`:reset`): no targets, timelines, curves, values, handlers, animations
  /// or pending events; the engine at time 0.
  func reset()
}

/// What `restore` gives back: the restored declarations and the engine time it was saved at.
package struct RestoredSession {
  package var environment: Environment
  package var time: Nanoseconds

  package init(environment: Environment, time: Nanoseconds) {
    self.environment = environment
    self.time = time
  }
}

extension SessionBackend {
  /// Holds the session (`isHeld`), saying why (`:restore`, a step on the stage), or lets it
  /// go. A backend that cannot be held ignores it.
  package func setHeld(_ held: Bool, reason: String) {}

  /// By default, all at once through `advance(to:)`: it cannot stop part-way.
  package func advance(
    to time: Nanoseconds, delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    deliver(advance(to: time))
    return time
  }

  /// By default, none: a file's input is checked and run whole.
  package func planLoad(_ source: SourceText, in environment: Environment) -> EntryPlan? { nil }

  /// By default, whole (`planLoad` plans nothing, so this is not asked).
  package func runLoad(
    _ source: SourceText, planned plan: EntryPlan, in environment: Environment, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> (reached: Nanoseconds, environment: Environment) {
    var checked = environment
    let result = parseAndCheck(source, in: &checked, mode: .session)
    guard result.isRunnable, let program = result.program else { return (now, environment) }
    return (run(program, of: source, at: now, delivering: deliver, stoppingWhen: shouldStop), checked)
  }

  /// By default, all at once through `run(_:of:at:)`.
  package func run(
    _ program: CheckedProgram, of source: SourceText, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    deliver(run(program, of: source, at: now))
    return now
  }
}

/// How a session shows numbers: `full` as the trace writes them (piped input, and after
/// `:precision full`), `short` for a person at a terminal (6 significant digits, `%g`-like,
/// times to the millisecond).
package enum Precision: String, Sendable {
  case full, short
}

/// Why `:save` or `:restore` failed, in words for the person at the prompt.
package struct SessionFileError: Error, Sendable {
  package var message: String

  package init(_ message: String) {
    self.message = message
  }
}
