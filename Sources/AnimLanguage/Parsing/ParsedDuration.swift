// A duration written outside a script (`anim trace --until 1.5s`, the stage's `?at=1.5s`),
// read by the language's own lexer so that it is exact and spelled as in a script.

import AnimCore

/// The duration `text` spells (`2s`, `1.5s`, `250ms`, `1_000ms`), in nanoseconds; nil when it
/// is not exactly one duration literal (a plain number, a negative one, anything after it).
package func parsedDuration(_ text: String) -> Nanoseconds? {
  let lexed = tokenize(SourceText(name: "<argument>", contents: text))
  guard lexed.diagnostics.isEmpty else { return nil }
  let tokens = lexed.tokens.filter { $0.kind != .newline && $0.kind != .endOfFile }
  guard tokens.count == 1, tokens[0].kind == .duration, case .duration(let nanoseconds) = tokens[0].value
  else { return nil }
  return nanoseconds
}
