// Diagnostic: the one type for every error, warning and note the front end (and the
// checker, and the runtime) reports. Raising a diagnostic is separate from showing it:
// `DiagnosticRenderer` turns one into text.

/// A problem found in a script, with where it is.
public struct Diagnostic: Hashable, Sendable {
  /// How bad it is: an error stops the script from running; a warning and a note do not.
  public enum Severity: String, Hashable, Sendable {
    case error, warning, note
  }

  /// A secondary remark attached to a diagnostic ("the block was opened here").
  package struct Note: Hashable, Sendable {
    package var message: String
    /// Where the note points; nil for a remark about no place in particular.
    package var span: SourceSpan?

    package init(_ message: String, span: SourceSpan? = nil) {
      self.message = message
      self.span = span
    }
  }

  public var severity: Severity
  /// One sentence, without the location or the severity (`DiagnosticRenderer` adds them).
  public var message: String
  /// The bytes of the source it is about.
  public var span: SourceSpan
  package var notes: [Note]

  package init(severity: Severity, message: String, span: SourceSpan, notes: [Note] = []) {
    self.severity = severity
    self.message = message
    self.span = span
    self.notes = notes
  }

  /// An error at `span`.
  package static func error(_ message: String, at span: SourceSpan, notes: [Note] = []) -> Diagnostic {
    Diagnostic(severity: .error, message: message, span: span, notes: notes)
  }

  /// A warning at `span` (warnings never change an exit code).
  package static func warning(_ message: String, at span: SourceSpan, notes: [Note] = []) -> Diagnostic {
    Diagnostic(severity: .warning, message: message, span: span, notes: notes)
  }

  package var isError: Bool { severity == .error }
}
