// Diagnose: the one function that finds every problem in a script without running it.
// `anim check`, the golden tests and the REPL's load all go through it, so a new kind of
// check is added in one place.

/// Every error and warning of a script, in source order: the parser's syntax errors, then,
/// when the script parses cleanly, the checker's name, type and range errors and warnings.
///
/// The checker runs only on a tree without syntax errors: a statement with a syntax error is
/// left out of the tree, and checking the rest would report each use of a name it declared
/// as unknown.
public func diagnose(_ source: SourceText) -> [Diagnostic] {
  let parsed = parse(source)
  if parsed.hasErrors { return parsed.diagnostics }
  return parsed.diagnostics + check(parsed.file).diagnostics
}
