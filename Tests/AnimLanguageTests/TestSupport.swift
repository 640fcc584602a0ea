@testable import AnimLanguage

/// Parses `text` and returns its dump; the parse must report nothing.
func dumpOf(_ text: String, sourceLocation: SourceLocation? = nil) -> (dump: String, diagnostics: [String]) {
  let source = SourceText(name: "test.anim", contents: text)
  let result = parse(source)
  return (SyntaxDump.dump(result.file), describe(result.diagnostics, in: source))
}

/// Diagnostics as `L:C: severity: message`, for comparing.
func describe(_ diagnostics: [Diagnostic], in source: SourceText) -> [String] {
  diagnostics.map { diagnostic in
    let location = source.location(of: diagnostic.span.start)
    return "\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)"
  }
}

/// The diagnostics of parsing `text`, described.
func errorsOf(_ text: String) -> [String] {
  let source = SourceText(name: "test.anim", contents: text)
  return describe(parse(source).diagnostics, in: source)
}
