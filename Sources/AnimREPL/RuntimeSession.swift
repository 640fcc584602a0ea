// RuntimeSession: the runtime (AnimRuntime) as a REPL session's engine.
//
// It turns what the runtime reports into the lines the session prints, keeps the session's
// clock and the engine's time in step (a restored session continues at the engine time it
// was saved at, whatever the clock reads), and reads and writes session files atomically.

import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation

/// The runtime behind a REPL session.
public final class RuntimeSession: SessionRuntime {
  private(set) var runtime = Runtime()
  /// Engine time minus the session clock's time (non-zero after a restore).
  private var offset: Nanoseconds = 0
  /// The last clock time the session gave.
  private var clockTime: Nanoseconds = 0
  /// A restored session holds its engine time still until `resume`, so that everything,
  /// statements scheduled on the root included, continues exactly where it was saved.
  private var isFrozen = false

  public init() {}

  public func setPrecision(_ precision: Precision) {
    runtime.numberStyle = precision == .full ? .exact : .short
  }

  public func reset() {
    let style = runtime.numberStyle
    defer { runtime.numberStyle = style }
    runtime = Runtime()
    offset = 0
    clockTime = 0
    isFrozen = false
  }

  private func engineTime(_ now: Nanoseconds) -> Nanoseconds {
    clockTime = now
    if isFrozen { offset = saturatingDifference(runtime.engine.now, now) }
    return saturatingSum(now, offset)
  }

  public func run(_ program: CheckedProgram, of source: SourceText, at now: Nanoseconds) -> [SessionOutput] {
    let time = engineTime(now)
    if isFrozen, program.file.statements.contains(where: Self.isResume) { isFrozen = false }
    return lines(runtime.run(program, of: source, at: time))
  }

  private static func isResume(_ statement: Statement) -> Bool {
    if case .control(let control) = statement.kind { return control.action == .resume }
    return false
  }

  public func advance(to time: Nanoseconds) -> [SessionOutput] {
    lines(runtime.advance(to: engineTime(time)))
  }

  public func advance(
    to time: Nanoseconds, delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    let target = engineTime(time)
    if runtime.advance(to: target, delivering: { deliver(lines($0)) }, stoppingWhen: shouldStop) { return time }
    return clockTime(ofEngineTime: runtime.engine.now)
  }

  public func run(
    _ program: CheckedProgram, of source: SourceText, at now: Nanoseconds,
    delivering deliver: ([SessionOutput]) -> Void, stoppingWhen shouldStop: () -> Bool
  ) -> Nanoseconds {
    let time = engineTime(now)
    if isFrozen, program.file.statements.contains(where: Self.isResume) { isFrozen = false }
    let reached = runtime.run(
      program, of: source, at: time, delivering: { deliver(lines($0)) }, stoppingWhen: shouldStop)
    return reached ? now : clockTime(ofEngineTime: runtime.engine.now)
  }

  /// The session clock's reading at which the engine stands at `time` (the two differ by
  /// `offset` after a restore); the runtime remembers it as the last time given.
  private func clockTime(ofEngineTime time: Nanoseconds) -> Nanoseconds {
    clockTime = saturatingDifference(time, offset)
    return clockTime
  }

  private func lines(_ outputs: [AnimRuntime.RuntimeOutput]) -> [SessionOutput] {
    outputs.map { output in
      switch output {
      case .record(let record):
        if case .event(_, let name, let subject) = record { return .event(subject: subject ?? name, line: line(for: record)) }
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
    case .event(let time, let name, let subject?): return "[\(seconds(time))s] \(name) \(subject)"
    case .event(let time, let name, nil): return "[\(seconds(time))s] \(name)"
    case .sample(let time, let values):
      return "[\(seconds(time))s] "
        + values.map { "\($0.name) = \(TraceNumber.text($0.value, style: style))" }.joined(separator: ", ")
    }
  }

  public func status(at now: Nanoseconds) -> [String] {
    _ = engineTime(now)
    return runtime.statusLines()
  }

  public func value(ofTarget target: String, property: String) -> String? {
    runtime.value(of: "\(target).\(property)").map { TraceNumber.text($0, style: runtime.numberStyle) }
  }

  public func save(to path: String) throws(SessionFileError) {
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

  public func restore(from path: String) throws(SessionFileError) -> Environment {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw SessionFileError("cannot read '\(path)': \(Self.reason(error))")
    }
    let restored: (Runtime, Environment)
    do {
      restored = try Runtime.restored(from: data)
    } catch {
      throw SessionFileError("cannot restore '\(path)': \(error.description); the session is unchanged")
    }
    let runtime = restored.0
    runtime.numberStyle = self.runtime.numberStyle
    // It continues paused, where it was saved, until `resume`.
    runtime.pauseAll()
    self.runtime = runtime
    offset = saturatingDifference(runtime.engine.now, clockTime)
    isFrozen = true
    return restored.1
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
