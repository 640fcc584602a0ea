#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import AnimLanguage

/// Unbuffered writes to standard output or standard error, so the two streams never
/// interleave out of order and nothing is lost at exit.
struct Output: Sendable {
  let descriptor: Int32

  static let standardOutput = Output(descriptor: STDOUT_FILENO)
  static let standardError = Output(descriptor: STDERR_FILENO)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      guard var pointer = buffer.baseAddress else { return }
      var remaining = buffer.count
      while remaining > 0 {
        let written = Glibc.write(descriptor, pointer, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return  // a closed pipe: nothing more can be said
        }
        pointer += written
        remaining -= written
      }
    }
  }

  /// Whether diagnostics on standard error may be coloured: the renderer's one rule (a
  /// terminal, and no `NO_COLOR`, https://no-color.org), shared with the REPL.
  static var standardErrorUsesColor: Bool {
    var environment: [String: String] = [:]
    if let value = getenv("NO_COLOR") { environment["NO_COLOR"] = String(cString: value) }
    return DiagnosticRenderer.wantsColor(isTerminal: isatty(STDERR_FILENO) == 1, environment: environment)
  }
}
