import AnimLanguage
import AnimSignals

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Unbuffered writes to standard output or standard error, so the two streams never
/// interleave out of order and nothing is lost at exit.
struct Output: Sendable {
  let descriptor: Int32

  static let standardOutput = Output(descriptor: STDOUT_FILENO)
  static let standardError = Output(descriptor: STDERR_FILENO)

  /// Writes all of `text`; false when it could not (a closed pipe: nothing more can be said).
  @discardableResult
  func write(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { buffer in
      guard var pointer = buffer.baseAddress else { return true }
      var remaining = buffer.count
      while remaining > 0 {
        let written = Glibc.write(descriptor, pointer, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        pointer += written
        remaining -= written
      }
      return true
    }
  }

  /// Whether the reading end is gone (the pipe's reader exited, as `head -1` does after
  /// its line): asked without writing, so a run that writes nothing for a while still
  /// notices at once.
  var isClosed: Bool {
    var descriptor = pollfd(fd: self.descriptor, events: 0, revents: 0)
    guard poll(&descriptor, 1, 0) > 0 else { return false }
    return descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
  }

  /// `run` and `trace` stop at once when their standard output is closed, as `yes | head -1`
  /// does: the process ends by SIGPIPE (which `ignoreBrokenPipes` only kept from killing it
  /// in the middle of a write).
  static func endForClosedOutput() -> Never {
    CaughtSignals.die(of: SIGPIPE)
  }

  /// Whether diagnostics on standard error may be coloured: the renderer's one rule (a
  /// terminal, and no `NO_COLOR`, https://no-color.org), shared with the REPL.
  static var standardErrorUsesColor: Bool {
    var environment: [String: String] = [:]
    if let value = getenv("NO_COLOR") { environment["NO_COLOR"] = String(cString: value) }
    return DiagnosticRenderer.wantsColor(isTerminal: isatty(STDERR_FILENO) == 1, environment: environment)
  }
}
