// RuntimeBackend: AnimRuntime behind a REPL session, the session's default SessionBackend.
//
// It turns what the runtime reports into the lines the session prints, holds a restored
// session's engine at its instant until `resume` (the session sets its clock to that instant,
// so clock time and engine time stay one), and reads and writes session files atomically.

import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation

/// The runtime behind a REPL session.
package final class RuntimeBackend: SessionBackend {
  private(set) var runtime = Runtime()

  package init() {}

  package func setPrecision(_ precision: Precision) {
    runtime.numberStyle = precision == .full ? .exact : .short
  }

  package func reset() {
    let style = runtime.numberStyle
    defer { runtime.numberStyle = style }
    runtime = Runtime()
  }

  package var isHeld: Bool { runtime.isHeld }

  package func setHeld(_ held: Bool, reason: String) {
    runtime.isHeld = held
    runtime.holdReason = reason
  }

  // The whole output at once: the streamed forms below, gathered (the hold is theirs).
  package func run(_ program: CheckedProgram, of source: SourceText, at now: Nanoseconds) -> [SessionOutput] {
    var all: [SessionOutput] = []
    _ = run(program, of: source, at: now, delivering: { all += $0 }, stoppingWhen: { false })
    return all
  }

  package func advance(to time: Nanoseconds) -> [SessionOutput] {
    var all: [SessionOutput] = []
    _ = advance(to: time, delivering: { all += $0 }, stoppingWhen: { false })
    return all
  }

  package func advance(
    to time: Nanoseconds, delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    guard !runtime.isHeld else { return time }
    if runtime.advance(to: time, delivering: { deliver(lines($0)) }, stoppingWhen: shouldStop) { return time }
    return runtime.engine.now
  }

  package func run(
    _ program: CheckedProgram, of source: SourceText, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    // Held, the engine stays at its instant whatever the clock says (the session holds its
    // clock too): the input runs there.
    let reached = runtime.run(
      program, of: source, at: runtime.isHeld ? runtime.engine.now : now, delivering: { deliver(lines($0)) },
      stoppingWhen: shouldStop)
    return reached ? now : runtime.engine.now
  }

  package func planLoad(_ source: SourceText, in environment: Environment) -> EntryPlan? {
    runtime.planEntry(source, in: environment)
  }

  package func runLoad(
    _ source: SourceText, planned plan: EntryPlan, in environment: Environment, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> (reached: Nanoseconds, environment: Environment) {
    // Held, as `run` above.
    let (reached, after) = runtime.runEntry(
      source, planned: plan, in: environment, at: runtime.isHeld ? runtime.engine.now : now,
      delivering: { deliver(lines($0)) }, stoppingWhen: shouldStop)
    return (reached ? now : runtime.engine.now, after)
  }

  private func lines(_ outputs: [AnimRuntime.RuntimeOutput]) -> [SessionOutput] {
    outputs.map { output in
      switch output {
      case .record(let record):
        if case .event(_, let name, let subject) = record {
          return .event(subject: subject ?? name, line: line(for: record))
        }
        return .line(line(for: record))
      case .error(let error, let source): return .diagnostic(error.diagnostic, in: source)
      case .value(let name, let value): return .line("\(name) = \(value)")
      case .note(let text): return .line(text)
      }
    }
  }

  /// One time-stamped line for an event or print: `[1.3s] complete intro`, `[0.3s] done`.
  func line(for record: TraceRecord) -> String {
    let style = runtime.numberStyle
    func seconds(_ time: Nanoseconds) -> String { TraceNumber.seconds(time, style: style) }
    switch record {
    case .print(let time, let text): return "[\(seconds(time))s] \(text)"
    case .control(let time, let statement, _): return "[\(seconds(time))s] \(statement)"
    case .event(let time, let name, let subject?): return "[\(seconds(time))s] \(name) \(subject)"
    case .event(let time, let name, nil): return "[\(seconds(time))s] \(name)"
    case .sample(let time, let values):
      return "[\(seconds(time))s] "
        + values.map { "\($0.name) = \(TraceNumber.text($0.value, style: style))" }.joined(separator: ", ")
    }
  }

  package func status(at now: Nanoseconds) -> [String] {
    runtime.statusLines()
  }

  package func value(ofTarget target: String, property: String) -> String? {
    runtime.value(of: "\(target).\(property)").map { TraceNumber.text($0, style: runtime.numberStyle) }
  }

  package func save(to path: String) throws(SessionFileError) {
    let data: Data
    do {
      data = try runtime.sessionData()
    } catch {
      throw SessionFileError("cannot save the session: \(error)")
    }
    // Atomically: a temporary file beside the destination (links followed; nothing but a
    // regular file is replaced), keeping an existing file's mode (and owner, as root), then
    // a rename over it.
    let destination = try SaveDestination.resolve(path)
    let url = URL(fileURLWithPath: destination.path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    do {
      try data.write(to: temporary)
      if let mode = destination.mode { chmod(temporary.path, mode) }
      if let (uid, gid) = destination.owner, geteuid() == 0 { chown(temporary.path, uid, gid) }
      if rename(temporary.path, url.path) != 0 {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(at: temporary)
        throw SessionFileError("cannot write '\(path)': \(reason)")
      }
    } catch let error as SessionFileError {
      throw error
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw SessionFileError("cannot write '\(path)': \(Self.reason(error))")
    }
  }

  /// The largest session file `:restore` reads: a file (and its decoding) beyond this would
  /// take more memory than a session should; a session of 100,000 animations is ~30 MB.
  static let largestSessionFile = 256 << 20

  package func restore(from path: String) throws(SessionFileError) -> RestoredSession {
    let data: Data
    do {
      data = Data(try readWholeFile(atPath: path, limit: Self.largestSessionFile, regularOnly: true))
    } catch {
      throw SessionFileError("cannot read '\(path)': \(error.reason); the session is unchanged")
    }
    let restored: (Runtime, Environment)
    do {
      restored = try Runtime.restored(from: data)
    } catch {
      throw SessionFileError("cannot restore '\(path)': \(error.description); the session is unchanged")
    }
    let runtime = restored.0
    runtime.numberStyle = self.runtime.numberStyle
    // It continues where it was saved, held as a whole until a bare `resume`.
    runtime.isHeld = true
    self.runtime = runtime
    return RestoredSession(environment: restored.1, time: runtime.engine.now)
  }

  private static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
      return "No such file or directory"
    }
    return nsError.localizedDescription
  }
}
