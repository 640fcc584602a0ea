import ArgumentParser

/// The exit statuses (README, Using anim), from the BSD sysexits convention. Usage errors (64) come
/// from argument-parser itself.
enum ExitStatus: Int32, Comparable, Error {
  case success = 0
  /// `anim fmt --check`: a file is not in canonical layout.
  case notFormatted = 1
  /// EX_USAGE: wrong usage found after the arguments parsed (a `--watch` name that is not
  /// a property of the script).
  case usage = 64
  /// EX_DATAERR: the script has errors (every one is printed first).
  case scriptErrors = 65
  /// EX_NOINPUT: a file cannot be read.
  case unreadable = 66
  /// EX_UNAVAILABLE: `anim preview`'s server could not start (its port is taken).
  case unavailable = 69
  /// EX_SOFTWARE: an internal failure (a bug).
  case internalFailure = 70

  /// When several files end differently, the run ends with the gravest: an unreadable
  /// file, then script errors, then an unformatted file.
  static func < (left: ExitStatus, right: ExitStatus) -> Bool { left.rawValue < right.rawValue }

  var exitCode: ExitCode { ExitCode(rawValue) }
}

/// Runs a subcommand's body, turning an unexpected error into exit 70 with a message
/// (argument-parser would otherwise exit 1, which `fmt --check` uses for its own answer).
func runReportingInternalFailures(_ body: () throws -> ExitStatus) throws {
  let status: ExitStatus
  do {
    status = try body()
  } catch {
    Output.standardError.write("anim: internal error: \(error)\n")
    throw ExitCode(ExitStatus.internalFailure.rawValue)
  }
  if status != .success { throw status.exitCode }
}
