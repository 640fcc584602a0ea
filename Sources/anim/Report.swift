import AnimLanguage

/// Prints a file's diagnostics to standard error through the one renderer: at most `limit`
/// (`DiagnosticRenderer.shownLimit`), then one line saying how many more there are,
/// written as they are made.
func report(_ diagnostics: [Diagnostic], in source: SourceText, limit: Int = DiagnosticRenderer.shownLimit) {
  let renderer = DiagnosticRenderer(source: source, usesColor: Output.standardErrorUsesColor)
  var text = ""
  for diagnostic in diagnostics.prefix(limit) {
    text += renderer.render(diagnostic)
    if text.utf8.count > 1 << 16 {
      Output.standardError.write(text)
      text = ""
    }
  }
  if let line = renderer.notShownLine(diagnostics, limit: limit) { text += "anim: " + line }
  Output.standardError.write(text)
}
