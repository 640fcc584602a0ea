// Lexer: bytes to tokens, following language.md "Lexical". Literal values (numbers,
// exact durations, percents, colors, string segments) are computed here, once; a bad
// literal is reported at the literal and still yields a well-formed token with a
// placeholder value, so the parser does not pile further errors on it.
//
// Newlines are significant: one ends a statement, except inside `( )` or after a binary
// operator or a comma, where the lexer drops it. Comments go to a side list for the
// formatter. Invalid UTF-8 and stray bytes are errors, never a crash.

/// What lexing a source range produced.
public struct LexedTokens: Sendable {
  /// The tokens, ending with `.endOfFile`.
  public var tokens: [Token]
  public var comments: [Comment]
  public var diagnostics: [Diagnostic]
}

/// The tokens of a whole script, for tools that work below the syntax tree (syntax
/// colouring in the REPL, completion of the word under the cursor).
public func tokenize(_ source: SourceText) -> LexedTokens {
  Lexer.tokenize(source)
}

struct Lexer {
  private let bytes: [UInt8]
  private var position: Int
  private let end: Int
  private var parenDepth = 0
  private var tokens: [Token] = []
  private var comments: [Comment] = []
  private var diagnostics: [Diagnostic] = []

  /// Lexes `range` of `source` (the whole text by default; a string interpolation's inside
  /// when the parser asks). A `#!` line is skipped only at offset 0.
  static func tokenize(_ source: SourceText, range: Range<Int>? = nil) -> LexedTokens {
    var lexer = Lexer(bytes: source.bytes, range: range ?? 0..<source.bytes.count)
    lexer.run()
    return LexedTokens(tokens: lexer.tokens, comments: lexer.comments, diagnostics: lexer.diagnostics)
  }

  private init(bytes: [UInt8], range: Range<Int>) {
    self.bytes = bytes
    self.position = range.lowerBound
    self.end = min(range.upperBound, bytes.count)
  }

  // MARK: - Driver

  private mutating func run() {
    if position == 0, end >= 2, bytes[0] == UInt8(ascii: "#"), bytes[1] == UInt8(ascii: "!") {
      let start = position
      while position < end && bytes[position] != newlineByte { position += 1 }
      comments.append(Comment(style: .shebang, span: span(from: start), text: text(from: start)))
    }
    while position < end {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        position += 1
      case newlineByte:
        lexNewline()
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        lexLineComment()
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        lexBlockComment()
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        lexNumber()
      case UInt8(ascii: ".") where isDigit(peek(1)) && !dotIsMemberAccess():
        lexNumber()
      case UInt8(ascii: "#"):
        lexColor()
      case UInt8(ascii: "\""):
        lexString()
      case _ where isIdentifierStart(byte):
        lexWord()
      default:
        if let kind = punctuation(byte) {
          add(kind, from: position, length: 1)
          position += 1
          if kind == .leftParen { parenDepth += 1 }
          if kind == .rightParen { parenDepth = max(0, parenDepth - 1) }
          // A brace ends any parenthesis left open, so an unclosed `(` cannot swallow the
          // newlines of a whole block.
          if kind == .leftBrace || kind == .rightBrace { parenDepth = 0 }
        } else {
          lexStrayBytes()
        }
      }
    }
    tokens.append(Token(kind: .endOfFile, span: SourceSpan(at: end)))
  }

  /// A newline ends a statement unless a `(` is open, the line ended on a binary operator
  /// or a comma, or the statement is empty (blank lines, a line after `;`).
  private mutating func lexNewline() {
    defer { position += 1 }
    if parenDepth > 0 { return }
    guard let last = tokens.last else { return }
    switch last.kind {
    case .plus, .minus, .star, .slash, .comma, .newline, .semicolon:
      return
    default:
      add(.newline, from: position, length: 1)
    }
  }

  // MARK: - Comments

  // lineComment -> "//" { any byte but newline }
  private mutating func lexLineComment() {
    let start = position
    while position < end && bytes[position] != newlineByte { position += 1 }
    checkUTF8(start..<position, what: "comment")
    comments.append(Comment(style: .line, span: span(from: start), text: text(from: start)))
  }

  // blockComment -> "/*" { blockComment | any byte } "*/"    (blocks nest)
  private mutating func lexBlockComment() {
    let start = position
    var depth = 0
    while position < end {
      if bytes[position] == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
        depth += 1
        position += 2
      } else if bytes[position] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
        depth -= 1
        position += 2
        if depth == 0 { break }
      } else {
        position += 1
      }
    }
    if depth > 0 {
      report("unterminated block comment: expected '*/'", SourceSpan(start: start, end: start + 2))
    }
    checkUTF8(start..<position, what: "comment")
    comments.append(Comment(style: .block, span: span(from: start), text: text(from: start)))
  }

  // MARK: - Words

  // identifier -> ( letter | "_" ) { letter | digit | "_" }
  private mutating func lexWord() {
    let start = position
    while position < end && isIdentifierContinue(bytes[position]) { position += 1 }
    if let keyword = Lexer.keyword(spelledBy: start..<position, in: bytes) {
      add(.keyword(keyword), from: start, length: position - start)
    } else {
      add(.identifier, from: start, length: position - start)
    }
  }

  /// Keywords grouped by their first letter, as bytes, so looking a word up allocates
  /// nothing.
  private static let keywordsByFirstByte: [[(spelling: [UInt8], keyword: Keyword)]] = {
    var table = [[(spelling: [UInt8], keyword: Keyword)]](repeating: [], count: 128)
    for keyword in Keyword.allCases {
      let spelling = Array(keyword.rawValue.utf8)
      table[Int(spelling[0])].append((spelling, keyword))
    }
    return table
  }()

  /// The keyword spelled by `range` of `bytes`, if any.
  static func keyword(spelledBy range: Range<Int>, in bytes: [UInt8]) -> Keyword? {
    let first = bytes[range.lowerBound]
    guard first < 128 else { return nil }
    for candidate in keywordsByFirstByte[Int(first)] where candidate.spelling.count == range.count {
      if candidate.spelling.elementsEqual(bytes[range]) { return candidate.keyword }
    }
    return nil
  }

  // MARK: - Numbers, durations, percents

  // number   -> digits [ "." digits ] [ exponent ] | "." digits [ exponent ]
  // digits   -> digit { digit | "_" }
  // exponent -> ( "e" | "E" ) [ "+" | "-" ] digits
  // duration -> number ( "s" | "ms" )
  // percent  -> number "%"
  private mutating func lexNumber() {
    let start = position
    var integerDigits: [UInt8] = []
    var fractionDigits: [UInt8] = []
    var exponentText: [UInt8] = []
    scanDigits(into: &integerDigits)
    if position < end, bytes[position] == UInt8(ascii: "."), isDigit(peek(1)) {
      position += 1
      scanDigits(into: &fractionDigits)
    }
    if position < end, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      let sign = peek(1)
      if isDigit(sign) {
        position += 1
        scanDigits(into: &exponentText)
      } else if (sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")) && isDigit(peek(2)) {
        position += 2
        exponentText.append(sign!)
        scanDigits(into: &exponentText)
      }
    }
    let numberEnd = position

    // What follows the digits decides the literal's kind.
    if position < end && bytes[position] == UInt8(ascii: "%") {
      position += 1
      let value = doubleValue(start..<numberEnd)
      add(.percent, from: start, length: position - start, value: .percent(value))
      return
    }
    if position < end && isIdentifierStart(bytes[position]) {
      let suffixStart = position
      while position < end && isIdentifierContinue(bytes[position]) { position += 1 }
      let suffix = text(from: suffixStart)
      if suffix == "s" || suffix == "ms" {
        let nanoseconds = durationValue(
          integer: integerDigits, fraction: fractionDigits, exponent: exponentText,
          unitExponent: suffix == "s" ? 9 : 6, span: span(from: start))
        add(.duration, from: start, length: position - start, value: .duration(nanoseconds))
      } else {
        report(
          "invalid suffix '\(suffix)' on number '\(text(from: start))': a number may be "
            + "followed only by 's', 'ms' or '%'", span(from: start))
        add(.number, from: start, length: position - start, value: .number(0))
      }
      return
    }
    add(.number, from: start, length: numberEnd - start, value: .number(doubleValue(start..<numberEnd)))
  }

  /// Digits and underscores; the first byte is known to be a digit (or a `.` handled by the
  /// caller).
  private mutating func scanDigits(into digits: inout [UInt8]) {
    while position < end {
      let byte = bytes[position]
      if isDigit(byte) {
        digits.append(byte)
      } else if byte != UInt8(ascii: "_") || digits.isEmpty {
        break
      }
      position += 1
    }
  }

  /// The Double a number's text denotes; beyond Double's range is an error at the literal.
  private mutating func doubleValue(_ range: Range<Int>) -> Double {
    let cleaned = String(decoding: bytes[range].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
    guard let value = Double(cleaned) else {
      report("invalid number '\(cleaned)'", SourceSpan(start: range.lowerBound, end: range.upperBound))
      return 0
    }
    guard value.isFinite else {
      report(
        "number '\(text(range))' is beyond the range of a Double",
        SourceSpan(start: range.lowerBound, end: range.upperBound))
      return 0
    }
    return value
  }

  /// A duration's exact value in nanoseconds: the decimal digits are shifted by the
  /// exponent and the unit (10⁹ for `s`, 10⁶ for `ms`), then rounded half up to the
  /// nanosecond. No floating point, and overflow of Int64 is an error.
  private mutating func durationValue(
    integer: [UInt8], fraction: [UInt8], exponent: [UInt8], unitExponent: Int, span: SourceSpan
  ) -> Int64 {
    var digits = ArraySlice(integer + fraction)
    while let first = digits.first, first == UInt8(ascii: "0") { digits.removeFirst() }
    if digits.isEmpty { return 0 }
    // The written exponent, saturated: anything beyond ±10⁶ is out of range either way.
    var writtenExponent = 0
    var negative = false
    for byte in exponent {
      if byte == UInt8(ascii: "-") { negative = true; continue }
      if byte == UInt8(ascii: "+") { continue }
      writtenExponent = min(writtenExponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
    }
    if negative { writtenExponent = -writtenExponent }
    let scale = writtenExponent - fraction.count + unitExponent
    let tooLong = "duration '\(text(span.start..<span.end))' is too long: durations are "
      + "counted in 64-bit nanoseconds (at most about 292 years)"

    // The digits that stay left of the nanosecond point, and the first dropped one.
    let kept = digits.count + min(scale, 0)
    var value: Int64 = 0
    for (index, byte) in digits.enumerated() where index < kept {
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { report(tooLong, span); return 0 }
      value = sum
    }
    if scale > 0 {
      for _ in 0..<scale {
        let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
        if overflow { report(tooLong, span); return 0 }
        value = times10
      }
    } else if kept >= 0 && kept < digits.count {
      let firstDropped = digits[digits.startIndex + kept]
      if firstDropped >= UInt8(ascii: "5") {
        let (rounded, overflow) = value.addingReportingOverflow(1)
        if overflow { report(tooLong, span); return 0 }
        value = rounded
      }
    }
    return value
  }

  // MARK: - Colors

  // color -> "#" hex hex hex [ hex hex hex [ hex hex ] ]    (3, 6 or 8 hex digits)
  private mutating func lexColor() {
    let start = position
    position += 1
    let digitsStart = position
    while position < end && isIdentifierContinue(bytes[position]) { position += 1 }
    let digits = Array(bytes[digitsStart..<position])
    let whole = span(from: start)
    let placeholder = TokenValue.color(ColorLiteral(red: 0, green: 0, blue: 0))
    if digits.isEmpty {
      report("expected hex digits after '#' (#rgb, #rrggbb or #rrggbbaa)", whole)
      add(.color, from: start, length: position - start, value: placeholder)
      return
    }
    if let bad = digits.firstIndex(where: { hexValue($0) == nil }) {
      let offset = digitsStart + bad
      report(
        "invalid hex digit '\(text(offset..<offset + 1))' in color '\(text(from: start))'",
        SourceSpan(start: offset, end: offset + 1))
      add(.color, from: start, length: position - start, value: placeholder)
      return
    }
    let nibbles = digits.map { UInt8(hexValue($0)!) }
    let channels: [UInt8]
    switch nibbles.count {
    case 3: channels = nibbles.map { $0 * 17 } + [255]
    case 6, 8:
      channels =
        stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] * 16 + nibbles[$0 + 1] }
        + (nibbles.count == 6 ? [255] : [])
    default:
      report(
        "a color needs 3, 6 or 8 hex digits (#rgb, #rrggbb or #rrggbbaa); "
          + "'\(text(from: start))' has \(nibbles.count)", whole)
      add(.color, from: start, length: position - start, value: placeholder)
      return
    }
    let color = ColorLiteral(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
    add(.color, from: start, length: position - start, value: .color(color))
  }

  // MARK: - Strings

  // string        -> '"' { character | escape | interpolation } '"'    (on one line)
  // escape        -> "\n" | "\t" | '\"' | "\\" | "\{"
  // interpolation -> "{" expression "}"    (to the matching "}", no string inside)
  private mutating func lexString() {
    let start = position
    position += 1
    var segments: [StringSegment] = []
    var text: [UInt8] = []
    var textStart = position

    func flushText(upTo offset: Int, into segments: inout [StringSegment], text: inout [UInt8]) {
      if offset > textStart {
        segments.append(.text(String(decoding: text, as: UTF8.self), SourceSpan(start: textStart, end: offset)))
      }
      text.removeAll()
    }

    while true {
      guard position < end, bytes[position] != newlineByte else {
        report("unterminated string: expected '\"' before the end of the line", SourceSpan(start: start, end: start + 1))
        flushText(upTo: position, into: &segments, text: &text)
        break
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        flushText(upTo: position, into: &segments, text: &text)
        position += 1
        break
      }
      if byte == UInt8(ascii: "\\") {
        let escaped = peek(1)
        if escaped == nil || escaped == newlineByte {
          position += 1  // the end of the line reports the unterminated string
          continue
        }
        switch escaped {
        case UInt8(ascii: "n"): text.append(newlineByte)
        case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "{"): text.append(escaped!)
        default:
          let shown = escaped! >= 0x80 || escaped! < 0x20 ? "" : String(UnicodeScalar(escaped!))
          let length = escaped! >= 0x80 ? 1 : 2
          report(
            "unknown escape '\\\(shown)' in string; the escapes are \\n \\t \\\" \\\\ and \\{",
            SourceSpan(start: position, end: position + length))
          position += length
          continue
        }
        position += 2
        continue
      }
      if byte == UInt8(ascii: "{") {
        flushText(upTo: position, into: &segments, text: &text)
        let open = position
        var depth = 1
        var cursor = position + 1
        var closed = false
        scan: while cursor < end {
          switch bytes[cursor] {
          case newlineByte, UInt8(ascii: "\""): break scan
          case UInt8(ascii: "{"): depth += 1
          case UInt8(ascii: "}"):
            depth -= 1
            if depth == 0 { closed = true; break scan }
          default: break
          }
          cursor += 1
        }
        if !closed {
          if cursor < end && bytes[cursor] == UInt8(ascii: "\"") {
            report(
              "expected '}' to close the interpolation; an interpolation cannot hold a string",
              SourceSpan(start: open, end: open + 1))
            if cursor > open + 1 {
              segments.append(.interpolation(SourceSpan(start: open + 1, end: cursor)))
            }
            position = cursor + 1
            textStart = position
            break
          }
          report(
            "unterminated string: expected '\"' before the end of the line",
            SourceSpan(start: start, end: start + 1))
          position = cursor
          break
        }
        segments.append(.interpolation(SourceSpan(start: open + 1, end: cursor)))
        position = cursor + 1
        textStart = position
        continue
      }
      if byte >= 0x80 {
        if let length = utf8SequenceLength(at: position) {
          text.append(contentsOf: bytes[position..<position + length])
          position += length
        } else {
          report("invalid UTF-8 byte 0x\(hex(byte)) in string", SourceSpan(start: position, end: position + 1))
          text.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
          // One error for the whole broken sequence, not one per stray continuation byte.
          position += 1
          while position < end && (0x80...0xBF).contains(bytes[position]) { position += 1 }
        }
        continue
      }
      text.append(byte)
      position += 1
    }
    add(.string, from: start, length: position - start, value: .string(segments))
  }

  // MARK: - Punctuation and stray bytes

  private func punctuation(_ byte: UInt8) -> TokenKind? {
    switch byte {
    case UInt8(ascii: "("): return .leftParen
    case UInt8(ascii: ")"): return .rightParen
    case UInt8(ascii: "{"): return .leftBrace
    case UInt8(ascii: "}"): return .rightBrace
    case UInt8(ascii: ","): return .comma
    case UInt8(ascii: ":"): return .colon
    case UInt8(ascii: "."): return .dot
    case UInt8(ascii: ";"): return .semicolon
    case UInt8(ascii: "="): return .equals
    case UInt8(ascii: "+"): return .plus
    case UInt8(ascii: "-"): return .minus
    case UInt8(ascii: "*"): return .star
    case UInt8(ascii: "/"): return .slash
    default: return nil
    }
  }

  /// A run of bytes no token starts with becomes one `invalid` token and one error (a
  /// binary file gives a few errors, not one per byte).
  private mutating func lexStrayBytes() {
    let start = position
    var invalidUTF8 = false
    while position < end {
      let byte = bytes[position]
      if byte >= 0x80 {
        if let length = utf8SequenceLength(at: position) {
          position += length
        } else {
          invalidUTF8 = true
          position += 1
        }
        continue
      }
      let startsToken =
        isIdentifierStart(byte) || isDigit(byte) || punctuation(byte) != nil
        || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: " ")
        || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == newlineByte
      if startsToken { break }
      position += 1
    }
    let whole = span(from: start)
    if invalidUTF8 {
      report("invalid UTF-8 (byte 0x\(hex(bytes[start]))): a script must be UTF-8 text", whole)
    } else {
      let shown = text(from: start)
      let printable = shown.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
      report(
        printable
          ? "unexpected character\(shown.count > 1 ? "s" : "") '\(shown)'"
          : "unexpected control character (byte 0x\(hex(bytes[start])))", whole)
    }
    add(.invalid, from: start, length: position - start)
  }

  // MARK: - Helpers

  private var newlineByte: UInt8 { UInt8(ascii: "\n") }

  private func peek(_ offset: Int) -> UInt8? {
    position + offset < end ? bytes[position + offset] : nil
  }

  /// `r.5` is not a number after a dot: a `.` touching a word or `)` is member access.
  private func dotIsMemberAccess() -> Bool {
    guard let last = tokens.last, last.span.end == position else { return false }
    switch last.kind {
    case .identifier, .keyword, .rightParen: return true
    default: return false
    }
  }

  private mutating func add(_ kind: TokenKind, from start: Int, length: Int, value: TokenValue = .none) {
    tokens.append(Token(kind: kind, span: SourceSpan(start: start, end: start + length), value: value))
  }

  private mutating func report(_ message: String, _ span: SourceSpan) {
    diagnostics.append(.error(message, at: span))
  }

  private func span(from start: Int) -> SourceSpan { SourceSpan(start: start, end: position) }

  private func text(from start: Int) -> String { text(start..<position) }

  private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  private mutating func checkUTF8(_ range: Range<Int>, what: String) {
    var offset = range.lowerBound
    while offset < range.upperBound {
      if bytes[offset] < 0x80 { offset += 1; continue }
      guard let length = utf8SequenceLength(at: offset), offset + length <= range.upperBound else {
        report("invalid UTF-8 byte 0x\(hex(bytes[offset])) in \(what)", SourceSpan(start: offset, end: offset + 1))
        return
      }
      offset += length
    }
  }

  /// The length of the well-formed UTF-8 sequence at `offset` (RFC 3629: no overlongs, no
  /// surrogates, nothing above U+10FFFF), or nil.
  private func utf8SequenceLength(at offset: Int) -> Int? {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; secondRange = 0x80...0x9F
    case 0xF0: length = 4; secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; secondRange = 0x80...0x8F
    default: return nil
    }
    guard offset + length <= end else { return nil }
    guard secondRange.contains(bytes[offset + 1]) else { return nil }
    for index in 2..<length where !(0x80...0xBF).contains(bytes[offset + index]) { return nil }
    return length
  }
}

private func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}

private func hexValue(_ byte: UInt8) -> Int? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
  default: return nil
  }
}

func isDigit(_ byte: UInt8?) -> Bool {
  guard let byte else { return false }
  return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

func isIdentifierStart(_ byte: UInt8) -> Bool {
  (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
}

func isIdentifierContinue(_ byte: UInt8) -> Bool {
  isIdentifierStart(byte) || isDigit(byte)
}
