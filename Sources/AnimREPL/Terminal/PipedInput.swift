// PipedInput: a session over standard input that is not a terminal (a pipe, a file, a
// test). No readline at all (it would echo the prompt and the input, take a tab for
// completion, and write the history file): lines are read with `readLine()`, with no
// prompt, and joined while an entry is unfinished. Results go to standard output as lines,
// diagnostics to standard error. The end of input ends the session with status 0, even
// after errors: each error has been reported where it happened.

/// Evaluates standard input, entry by entry, until its end or `:quit`, or until `ending`
/// reports a signal that ends the process (checked after each entry and when reading stops:
/// a signal cuts a read short).
func runPipedInput(_ session: Session, ending: () -> Bool = { false }) {
  var buffer = InputBuffer()
  var lineNumber = 0
  while !ending(), let line = readLine(strippingNewline: true) {
    lineNumber += 1
    switch buffer.continuation(of: line) {
    case .help:
      session.evaluate(line, firstLine: lineNumber)
      continue
    case .quit:
      return
    case .continues:
      break
    }
    guard let entry = buffer.add(line, lineNumber: lineNumber) else { continue }
    session.tick()
    if session.evaluate(entry, firstLine: buffer.firstLine) == .quit { return }
  }
  // Input that ends inside an open block is still evaluated, so its error is shown.
  if !ending(), let rest = buffer.flush() {
    session.tick()
    session.evaluate(rest, firstLine: buffer.firstLine)
  }
}
