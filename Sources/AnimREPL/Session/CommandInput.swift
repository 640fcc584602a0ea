// CommandInput: a `:command` entry cut into its name and arguments, each with the byte span
// it covers in the typed line, so an error can put a caret under it.

import AnimLanguage

/// A typed `:command` line: `:name arg "quoted arg" ...`.
struct CommandInput {
  /// A word of the line and where it is.
  struct Argument {
    var text: String
    var span: SourceSpan
  }

  /// The whole typed entry.
  let source: SourceText
  /// The name after `:` (empty for a lone `:`), its span covering the `:`.
  let commandName: Argument
  /// The arguments, split at blanks; `"..."` keeps blanks inside one argument.
  let arguments: [Argument]
  /// The bytes from the first argument to the end of the last, or nil when there is none.
  var argumentRange: Range<Int>? {
    guard let first = arguments.first, let last = arguments.last else { return nil }
    return first.span.start..<last.span.end
  }

  /// - Parameter commandStart: the offset of the `:`.
  init(source: SourceText, commandStart: Int) {
    self.source = source
    let bytes = source.bytes
    var position = commandStart + 1
    while position < bytes.count, !isBlank(bytes[position]) { position += 1 }
    commandName = Argument(
      text: String(decoding: bytes[(commandStart + 1)..<position], as: UTF8.self),
      span: SourceSpan(start: commandStart, end: position))
    var arguments: [Argument] = []
    while position < bytes.count {
      if isBlank(bytes[position]) {
        position += 1
        continue
      }
      let start = position
      if bytes[position] == UInt8(ascii: "\"") {
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") { position += 1 }
        let text = String(decoding: bytes[(start + 1)..<min(position, bytes.count)], as: UTF8.self)
        position = min(position + 1, bytes.count)
        arguments.append(Argument(text: text, span: SourceSpan(start: start, end: position)))
      } else {
        while position < bytes.count, !isBlank(bytes[position]) { position += 1 }
        arguments.append(
          Argument(
            text: String(decoding: bytes[start..<position], as: UTF8.self),
            span: SourceSpan(start: start, end: position)))
      }
    }
    self.arguments = arguments
  }
}

private func isBlank(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
    || byte == UInt8(ascii: "\r")
}
