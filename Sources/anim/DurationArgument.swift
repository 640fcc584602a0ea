import AnimCore
import AnimLanguage

/// A duration given on the command line (`--until 1.5s`), read by the language's own lexer,
/// so it is exact and spelled as in a script: `2s`, `1.5s`, `250ms`, `1_000ms`.
enum DurationArgument {
  /// The duration `text` spells, in nanoseconds; nil when it is not exactly one duration
  /// literal (a plain number, a negative one, anything after it).
  static func parse(_ text: String) -> Nanoseconds? { parsedDuration(text) }

  /// What a wrong one is told.
  static func usage(_ option: String, _ text: String) -> String {
    "'\(option)' takes a duration such as 2s, 1.5s or 250ms; '\(text)' is not one"
  }
}
