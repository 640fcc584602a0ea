import AnimREPL
import ArgumentParser

/// `anim repl [FILE] [--clock real|virtual]`: the interactive session (README, Using anim).
struct ReplCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "An interactive session that steers running animations.",
    discussion: """
      On a terminal: line editing, history, Tab completion; animations play while you type.
      Not on a terminal: reads statements line by line, results on standard output,
      diagnostics on standard error, and exits 0 at the end of input.
      """
  )

  /// The clocks a session can run on.
  enum Clock: String, ExpressibleByArgument, CaseIterable {
    case real, virtual
  }

  @Argument(help: "A script to load into the session first.")
  var file: String?

  @Option(help: "real: animations play while you type; virtual: nothing moves until :tick.")
  var clock: Clock = .real

  func run() throws {
    let status = REPL.run(file: file, clock: clock == .real ? .real : .virtual)
    if status != 0 { throw ExitCode(status) }
  }
}
