import AnimREPL
import AnimStageServer
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
      With --preview, a page shows the session's targets as `anim preview` does (its address \
      is printed first): what is typed moves on the page, and what is clicked there is \
      evaluated in the session and shown in its log.
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

  @Flag(help: "Also serve a page that shows the session's targets (as anim preview does).")
  var preview = false

  @OptionGroup var server: StageServerArguments

  func validate() throws { try server.validate() }

  func run() throws {
    var stage: ReplStage?
    if preview {
      let relay = StageRelay(title: file.map { "repl: \($0)" } ?? "repl")
      // (The session's signals are the REPL's: SIGTERM ends the process, not the server alone.)
      _ = try server.start(relay, stopsOnSignals: false)
      stage = ReplStage(relay: relay, size: server.stageSize)
    }
    let status = REPL.run(file: file, clock: clock == .real ? .real : .virtual, stage: stage)
    if status != 0 { throw ExitCode(status) }
  }
}
