// Diagnose: the one function that finds every problem in a script without running it.
// `anim check`, the golden tests and the REPL's load all go through it, so a new kind of
// check is added in one place.

/// Every error and warning of a script, in source order: the parser's syntax errors, then,
/// when the script parses cleanly, the checker's name, type and range errors and warnings.
///
/// The checker runs only on a tree without syntax errors: a statement with a syntax error is
/// left out of the tree, and checking the rest would report each use of a name it declared
/// as unknown.
///
/// A script is read and checked one top-level statement at a time (Checker+Streaming.swift)
/// and, in the rare case that needs the whole file at once, again as a whole: either way the
/// result is the whole-file check's.
public func diagnose(_ source: SourceText) -> [Diagnostic] {
  if let diagnostics = diagnoseStatementByStatement(source) { return diagnostics }
  let parsed = parse(source)
  if parsed.hasErrors { return parsed.diagnostics }
  var checker = Checker(mode: .script, environment: Environment(), recordsFacts: false)
  checker.checkFile(parsed.file)
  return checker.orderedDiagnostics()
}

/// `diagnose`, holding one top-level statement's tree at a time; nil when the script must be
/// checked whole. A large script is parsed on a thread of its own while this one checks
/// (Diagnose+Threads.swift).
func diagnoseStatementByStatement(_ source: SourceText) -> [Diagnostic]? {
  if source.bytes.count >= ParsingThread.minimumSize, let diagnostics = diagnoseOnTwoThreads(source) {
    return diagnostics
  }
  var parser = Parser(source: source, keepsComments: false)
  var checker = Checker.statementByStatement()
  var checking = true
  while let statement = parser.nextStatementOfFile() {
    // After a syntax error only syntax errors are reported: the rest is only parsed.
    if parser.hasErrors { checking = false }
    if checking { checker.checkNextTopLevelStatement(statement) }
  }
  let (syntaxErrors, _) = parser.finish()
  if !syntaxErrors.isEmpty { return syntaxErrors }
  return checker.finishStatementByStatement()
}

/// What parsing and checking one input produced.
public struct CheckResult: Sendable {
  /// The parse: the tree and the syntax errors. (Whether typed input is cut short, so the
  /// REPL reads another line, is `InputCompleteness`'s to say, before parsing.)
  package var parse: ParseResult
  /// The check, when the parse was clean; nil after a syntax error.
  public var program: CheckedProgram?

  /// Every diagnostic: the syntax errors, or the checker's errors and warnings.
  public var diagnostics: [Diagnostic] { parse.diagnostics + (program?.diagnostics ?? []) }

  /// Whether the input may run: it parsed and checked without errors.
  public var isRunnable: Bool { !parse.hasErrors && program.map { !$0.hasErrors } ?? false }
}

/// Parses one input and, when it parses cleanly, checks it against `environment` (see
/// `check(_:in:mode:)`: the environment takes the input's declarations only when it has no
/// errors). The REPL calls this for each input in `.session` mode; `anim check` and `anim
/// run` through `diagnose` or with a fresh environment in `.script` mode.
public func parseAndCheck(_ source: SourceText, in environment: inout Environment, mode: CheckMode) -> CheckResult {
  parseAndCheck(source, in: &environment, mode: mode, recordingTypes: true)
}

/// `parseAndCheck(_:in:mode:)`; without `recordingTypes`, the program has no table of each
/// expression's type (`CheckedProgram.types`), which nothing that runs a program reads: a
/// script that is only run (`Runtime.start` reading one whole) does without it, about a
/// megabyte for each megabyte of script.
package func parseAndCheck(
  _ source: SourceText, in environment: inout Environment, mode: CheckMode, recordingTypes: Bool
) -> CheckResult {
  let parsed = parse(source)
  if parsed.hasErrors { return CheckResult(parse: parsed, program: nil) }
  return CheckResult(
    parse: parsed, program: check(parsed.file, in: &environment, mode: mode, recordingTypes: recordingTypes))
}
