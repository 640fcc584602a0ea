import AnimLanguage

/// Prints a file's diagnostics to standard error through the one renderer.
///
/// At most `limit` are printed, then one line saying how many more there are: a file of
/// random bytes can hold hundreds of thousands of errors, and printing each one with its
/// line would take minutes and gigabytes. A script people write never gets near it.
func report(_ diagnostics: [Diagnostic], in source: SourceText, limit: Int = 500) {
  let renderer = DiagnosticRenderer(source: source, usesColor: Output.standardErrorUsesColor)
  var text = ""
  for diagnostic in diagnostics.prefix(limit) {
    text += renderer.render(diagnostic)
    if text.utf8.count > 1 << 16 {
      Output.standardError.write(text)
      text = ""
    }
  }
  if diagnostics.count > limit {
    let errors = diagnostics.dropFirst(limit).filter(\.isError).count
    let warnings = diagnostics.count - limit - errors
    var counts: [String] = []
    if errors > 0 { counts.append(errors == 1 ? "1 more error" : "\(errors) more errors") }
    if warnings > 0 { counts.append(warnings == 1 ? "1 more warning" : "\(warnings) more warnings") }
    text += "anim: \(source.name): \(counts.joined(separator: " and ")) not shown\n"
  }
  Output.standardError.write(text)
}
