// Diagnose: the one function that finds every problem in a script without running it.
// `anim check`, the golden tests and the REPL's load all go through it, so a new kind of
// check (the checker) is added in one place.

/// Every error and warning of a script, in source order.
///
/// Today this is the parser's syntax errors; the checker extends it with type and name
/// errors and warnings.
public func diagnose(_ source: SourceText) -> [Diagnostic] {
  parse(source).diagnostics
}
