import AnimLanguage
import ArgumentParser

/// `anim fmt FILE... [--write | --check]`: the canonical layout of each script.
struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Print scripts in the canonical layout (two-space indent, one item per line, comments kept).",
    discussion: """
      Without an option, the formatted scripts are written to standard output. A file with \
      syntax errors is not formatted: its errors are printed instead.
      Exit status: 0 on success, 1 with --check when a file is not in canonical layout, 65 \
      when a file has syntax errors, 66 when a file cannot be read or written.
      """
  )

  @ArgumentParser.Argument(help: "The scripts to format.")
  var files: [String]

  @Flag(help: "Rewrite the files in place (only those whose layout changes).")
  var write = false

  @Flag(help: "Change nothing; exit 1 and name the files that are not in canonical layout.")
  var check = false

  func validate() throws {
    if write && check { throw ValidationError("'--write' and '--check' cannot be used together.") }
  }

  func run() throws {
    ignoreBrokenPipes()
    try runReportingInternalFailures {
      var status = ExitStatus.success
      for path in files {
        status = max(status, try format(path))
      }
      return status
    }
  }

  /// Formats one file as the options ask; returns how it went.
  private func format(_ path: String) throws -> ExitStatus {
    let source: SourceText
    do {
      source = try ScriptFile.read(path)
    } catch {
      Output.standardError.write("anim: error: \(error)\n")
      return .unreadable
    }
    let parsed = AnimLanguage.parse(source)
    if parsed.hasErrors {
      report(parsed.diagnostics.filter(\.isError), in: source)
      return .scriptErrors
    }
    let formatted = AnimLanguage.format(parsed.file, source: source)
    try verifyMeaningKept(original: parsed, formatted: formatted, path: path)
    let unchanged = Array(formatted.utf8) == source.bytes
    if check {
      if unchanged { return .success }
      Output.standardOutput.write("\(path)\n")
      return .notFormatted
    }
    if write {
      if unchanged { return .success }
      do {
        try ScriptFile.replace(path, with: formatted)
      } catch {
        Output.standardError.write("anim: error: \(error)\n")
        return .unreadable
      }
      return .success
    }
    Output.standardOutput.write(formatted)
    return .success
  }

  /// The formatter's promise, checked on every run before anything is written: the new
  /// text parses to the same tree with the same comments. A failure is a formatter bug.
  private func verifyMeaningKept(original: ParseResult, formatted: String, path: String) throws {
    let reparsed = AnimLanguage.parse(SourceText(name: path, contents: formatted))
    let sameTree = !reparsed.hasErrors && SyntaxDump.dump(reparsed.file) == SyntaxDump.dump(original.file)
    let sameComments =
      reparsed.file.comments.map(\.comparableText) == original.file.comments.map(\.comparableText)
    if !sameTree || !sameComments {
      throw FormatterBug(path: path)
    }
  }
}

/// The formatted text would not mean what the file means: nothing is written.
struct FormatterBug: Error, CustomStringConvertible {
  var path: String
  var description: String {
    "formatting '\(path)' would change its meaning or its comments; the file was left as it is"
  }
}
