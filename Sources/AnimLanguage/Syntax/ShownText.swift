// ShownText: text from a file or from input, made safe to write to a terminal or a log.
//
// A script, a REPL entry or a string in them may hold control bytes (an escape sequence
// that clears the screen, a bell, a NUL) or bytes that are not UTF-8. None of them is ever
// written as it is: each is shown as `\x1B`, two upper-case hex digits per byte, so what a
// person sees is what the file holds, and a diagnostic's caret still lines up.

/// Text as anim shows it: control bytes and invalid UTF-8 escaped.
package enum ShownText {
  /// `bytes` as text, each C0 control byte but tab, DEL, each byte of a C1 control
  /// (U+0080–U+009F) and each byte of invalid UTF-8 written as `\xNN`.
  package static func escaped<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    // The usual case, nothing to escape, costs one scan.
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F || $0 == 0x09 }) {
      return String(decoding: bytes, as: UTF8.self)
    }
    var result = ""
    let array = Array(bytes)
    var index = 0
    func escape(_ byte: UInt8) {
      let digits = Array("0123456789ABCDEF")
      result += "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
    while index < array.count {
      let byte = array[index]
      if byte < 0x80 {
        if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
          escape(byte)
        } else {
          result.unicodeScalars.append(Unicode.Scalar(byte))
        }
        index += 1
        continue
      }
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      let end = index + length
      if length > 1, end <= array.count,
        let text = String(validating: array[index..<end], as: UTF8.self),
        let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1
      {
        if scalar.value >= 0x80 && scalar.value <= 0x9F {
          for b in array[index..<end] { escape(b) }
        } else {
          result.unicodeScalars.append(scalar)
        }
        index = end
      } else {
        escape(byte)
        index += 1
      }
    }
    return result
  }

  /// A Swift string (valid UTF-8) with its control characters escaped as above.
  package static func escaped(_ text: String) -> String {
    escaped(Array(text.utf8))
  }
}
