import AnimLanguage
import ArgumentParser

/// `anim check FILE...`: parses and checks each file, runs nothing, and prints every error
/// and warning through the one renderer.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Parse and check scripts without running them; print every error and warning.",
    discussion: """
      Exit status: 0 when every file is clean or has only warnings, 65 when a file has \
      errors, 66 when a file cannot be read.
      """
  )

  @ArgumentParser.Argument(help: "The scripts to check.")
  var files: [String]

  func run() throws {
    ignoreBrokenPipes()
    try runReportingInternalFailures {
      var status = ExitStatus.success
      for path in files {
        let source: SourceText
        do {
          source = try ScriptFile.read(path)
        } catch {
          Output.standardError.write("anim: error: \(error)\n")
          status = max(status, .unreadable)
          continue
        }
        let diagnostics = diagnose(source)
        report(diagnostics, in: source)
        if diagnostics.contains(where: \.isError) { status = max(status, .scriptErrors) }
      }
      return status
    }
  }
}
