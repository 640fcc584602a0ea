import ArgumentParser

/// The `anim` command: a thin front over the language, the runtime and the REPL.
@main
struct Anim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "anim",
    abstract: "A scriptable animation interpreter.",
    subcommands: [Repl.self]
  )
}
