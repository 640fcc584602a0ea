import ArgumentParser

/// The `anim` command: a thin front over the language, the runtime and the REPL. Each
/// subcommand lives in a file of its own; they share file reading (ScriptFile.swift),
/// output (Output.swift) and the exit statuses of README's Using anim (ExitStatus.swift).
@main
struct Anim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "anim",
    abstract: "A scriptable animation interpreter.",
    subcommands: [
      RunCommand.self, TraceCommand.self, CheckCommand.self, FormatCommand.self, ReplCommand.self,
      PreviewCommand.self,
    ]
  )
}
