// Lexer: bytes to tokens, following grammar.md § Lexical structure. Literal values (numbers,
// exact durations, percents, colors, string segments) are computed here, once; a bad
// literal is reported at the literal and still yields a well-formed token with a
// placeholder value, so the parser does not pile further errors on it.
//
// Newlines are significant: one ends a statement, except inside `( )` or after a binary
// operator or a comma, where the lexer drops it. Comments go to a side list for the
// formatter. Invalid UTF-8 and stray bytes are errors, never a crash.
//
// The lexer hands out one token at a time (`next()`), so the parser never holds more than
// the few tokens it looks at: a script's tokens are several times its size, and checking a
// large script would otherwise hold all of them at once. Lexing allocates nothing except
// for what a token keeps (a string's segments, a comment's text).

/// What lexing a source range produced.
package struct LexedTokens: Sendable {
  /// The tokens, ending with `.endOfFile`.
  package var tokens: [Token]
  /// The segments of each string literal, by the literal's number (`TokenValue.string`).
  package var strings: [[StringSegment]]
  package var comments: [Comment]
  package var diagnostics: [Diagnostic]

  /// The segments of a string literal token (none for any other token).
  package func segments(of token: Token) -> [StringSegment] {
    guard case .string(let number) = token.value, strings.indices.contains(number) else { return [] }
    return strings[number]
  }
}

/// The tokens of a whole script, for tools that work below the syntax tree (syntax
/// colouring in the REPL, completion of the word under the cursor).
package func tokenize(_ source: SourceText) -> LexedTokens {
  Lexer.tokenize(source)
}

struct Lexer {
  private let bytes: [UInt8]
  /// `bytes`, while `next()` runs or while the parser lends it for a whole statement (see
  /// `Parser.nextStatementOfFile`); the scanning reads through it, unchecked.
  var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  /// The keyword table, held here so that reading it costs no lazy-global check.
  private let keywordSlots = Lexer.keywordTable
  private var position: Int
  private let end: Int
  private var parenDepth = 0
  /// The kind and the end offset of the last token handed out: a newline after an operator
  /// is dropped, and a `.` touching a word is member access.
  private var lastKind: TokenKind?
  private var lastEnd = -1
  /// Whether comments are collected (the formatter needs them; checking does not).
  let keepsComments: Bool
  /// The comments met so far.
  private(set) var comments: [Comment] = []
  /// The errors found so far.
  private(set) var diagnostics: [Diagnostic] = []
  /// The segments of the last few string literals, by the literal's number modulo their
  /// count: tokens stay trivially copyable, and the parser takes a string's segments
  /// within a token or two of reading it.
  private var recentStrings: [(number: Int, segments: [StringSegment])] = Array(repeating: (-1, []), count: 4)
  private var stringCount = 0

  /// Lexes `range` of `source` (the whole text by default; a string interpolation's inside
  /// when the parser asks) into an array. A `#!` line is skipped only at offset 0.
  static func tokenize(_ source: SourceText, range: Range<Int>? = nil) -> LexedTokens {
    var lexer = Lexer(source, range: range)
    var tokens: [Token] = []
    var strings: [[StringSegment]] = []
    while true {
      let token = lexer.next()
      if case .string = token.value { strings.append(lexer.segments(of: token)) }
      tokens.append(token)
      if token.kind == .endOfFile { break }
    }
    return LexedTokens(tokens: tokens, strings: strings, comments: lexer.comments, diagnostics: lexer.diagnostics)
  }

  /// A lexer over `range` of `source` (the whole text by default).
  init(_ source: SourceText, range: Range<Int>? = nil, keepsComments: Bool = true) {
    self.bytes = source.bytes
    self.position = range?.lowerBound ?? 0
    self.end = min(range?.upperBound ?? source.bytes.count, source.bytes.count)
    self.keepsComments = keepsComments
    if position == 0, end >= 2, bytes[0] == UInt8(ascii: "#"), bytes[1] == UInt8(ascii: "!") {
      let start = position
      while position < end && bytes[position] != newlineByte { position += 1 }
      if keepsComments {
        comments.append(Comment(style: .shebang, span: span(from: start), text: text(from: start)))
      }
    }
  }

  // MARK: - Driver

  /// The segments of a string literal token handed out recently.
  func segments(of token: Token) -> [StringSegment] {
    guard case .string(let number) = token.value else { return [] }
    let recent = recentStrings[number % recentStrings.count]
    precondition(recent.number == number, "a string token's segments were asked for too late")
    return recent.segments
  }

  /// The next token; `.endOfFile` at the end, and again on every later call.
  mutating func next() -> Token {
    if buffer.baseAddress != nil { return nextToken() }
    let bytes = self.bytes  // a reference of its own, so that `self` may change while it is read
    return bytes.withUnsafeBufferPointer { buffer in
      self.buffer = buffer
      defer { self.buffer = UnsafeBufferPointer(start: nil, count: 0) }
      return nextToken()
    }
  }

  private mutating func nextToken() -> Token {
    while true {
      // Blanks first, in a loop of their own; then words, the commonest tokens.
      var offset = position
      while offset < end {
        let byte = buffer[offset]
        guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") else { break }
        offset &+= 1
      }
      position = offset
      guard position < end else { break }
      let byte = buffer[position]
      if isIdentifierStart(byte) { return lexWord() }
      switch byte {
      case newlineByte:
        if let token = lexNewline() { return token }
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        lexLineComment()
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        lexBlockComment()
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        return lexNumber()
      case UInt8(ascii: ".") where isDigit(peek(1)) && !dotIsMemberAccess():
        return lexNumber()
      case UInt8(ascii: "#"):
        return lexColor()
      case UInt8(ascii: "\""):
        return lexString()
      case UInt8(ascii: "!") where peek(1) == UInt8(ascii: "="):
        position += 2
        return make(.notEqual, from: position - 2)
      default:
        if let kind = punctuation(byte) {
          let start = position
          position += 1
          if let longer = longerOperator(kind) { return make(longer, from: start) }
          if kind == .leftParen || kind == .leftBracket { parenDepth += 1 }
          if kind == .rightParen || kind == .rightBracket { parenDepth = max(0, parenDepth - 1) }
          // A brace ends any parenthesis left open, so an unclosed `(` cannot swallow the
          // newlines of a whole block.
          if kind == .leftBrace || kind == .rightBrace { parenDepth = 0 }
          return make(kind, from: start)
        }
        return lexStrayBytes()
      }
    }
    return Token(kind: .endOfFile, span: SourceSpan(at: end), value: .none)
  }

  /// A newline ends a statement unless a `(` or `[` is open, the line ended on a binary
  /// operator (`and` and `or` too) or a comma, or the statement is empty (blank lines, a
  /// line after `;`).
  private mutating func lexNewline() -> Token? {
    position += 1
    if parenDepth > 0 { return nil }
    guard let last = lastKind else { return nil }
    if last.continuesLine || last == .newline || last == .semicolon { return nil }
    return make(.newline, from: position - 1)
  }

  // MARK: - Comments

  // lineComment -> "//" { any byte but newline }
  private mutating func lexLineComment() {
    let start = position
    while position < end && buffer[position] != newlineByte { position += 1 }
    checkUTF8(start..<position, what: "comment")
    if keepsComments {
      comments.append(Comment(style: .line, span: span(from: start), text: text(from: start)))
    }
  }

  // blockComment -> "/*" { blockComment | any byte } "*/"    (blocks nest)
  private mutating func lexBlockComment() {
    let start = position
    var depth = 0
    while position < end {
      if buffer[position] == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
        depth += 1
        position += 2
      } else if buffer[position] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
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
    if keepsComments {
      comments.append(Comment(style: .block, span: span(from: start), text: text(from: start)))
    }
  }

  // MARK: - Words

  // identifier -> ( letter | "_" ) { letter | digit | "_" }
  private mutating func lexWord() -> Token {
    let start = position
    // The first 16 bytes, packed (byte 0 lowest), to look the word up among the keywords.
    var low: UInt64 = 0
    var high: UInt64 = 0
    var offset = start
    // Eight bytes at a time while eight remain: the bytes of the word are found all at once.
    while offset &+ 8 <= end {
      let chunk = UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
      let inWord = identifierBytes(chunk)
      let count = (~inWord & Lexer.highBits).trailingZeroBitCount / 8  // 8 when all are
      let index = offset &- start
      let taken = count == 8 ? chunk : chunk & ((1 &<< UInt64(8 &* count)) &- 1)
      if index == 0 { low = taken } else if index == 8 { high = taken }
      offset &+= count
      if count < 8 { break }
    }
    // The rest of the word, near the end of the input.
    while offset < end {
      let byte = buffer[offset]
      guard isIdentifierContinue(byte) else { break }
      let index = offset &- start
      if index < 8 {
        low |= UInt64(byte) &<< UInt64(8 &* index)
      } else if index < 16 {
        high |= UInt64(byte) &<< UInt64(8 &* (index &- 8))
      }
      offset &+= 1
    }
    position = offset
    // One slot of the word table to compare (a word longer than 16 bytes is no keyword).
    let length = offset &- start
    if length <= 16 {
      let candidate = keywordSlots[Lexer.keywordSlot(low: low, high: high)]
      if candidate.length == length && candidate.low == low && candidate.high == high {
        switch candidate.word {
        case .reserved(let keyword): return make(.keyword(keyword), from: start)
        case .contextual(let word): return make(.identifier, from: start, value: .word(word))
        }
      }
    }
    return make(.identifier, from: start)
  }

  /// The high bit of each byte.
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `chunk` that is a letter, a digit or `_`, as eight
  /// comparisons done at once (no byte's arithmetic borrows from another, as every byte has
  /// its high bit set before subtracting).
  @inline(__always)
  private func identifierBytes(_ chunk: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high = Lexer.highBits
    /// The high bit of each byte of `x` (each below 0x80) in `lowest...highest`.
    func inRange(_ x: UInt64, _ lowest: UInt64, _ highest: UInt64) -> UInt64 {
      let atLeastLowest = (x | high) &- lowest &* ones
      let aboveHighest = (x | high) &- (highest &+ 1) &* ones
      return atLeastLowest & ~aboveHighest & high
    }
    let ascii = chunk & ~high
    let letters = inRange(ascii | 0x2020_2020_2020_2020, 0x61, 0x7A)  // `| 0x20`: A...Z to a...z
    let digits = inRange(ascii, 0x30, 0x39)
    let underscores = inRange(ascii, 0x5F, 0x5F)
    return (letters | digits | underscores) & ~chunk & high  // and not a byte above 0x7F
  }

  /// A reserved or a contextual word, as the word table holds it.
  enum Word {
    case reserved(Keyword)
    case contextual(ContextualKeyword)

    var spelling: String {
      switch self {
      case .reserved(let keyword): return keyword.rawValue
      case .contextual(let word): return word.rawValue
      }
    }
  }

  /// A word's spelling packed into two integers, byte 0 lowest, so that a word is looked up
  /// with a few integer comparisons and no allocation.
  struct PackedKeyword {
    var length: Int
    var low: UInt64
    var high: UInt64
    var word: Word
  }

  /// Every reserved and contextual word, packed, in the slot `keywordSlot` gives it: the
  /// multipliers there were chosen so that no two words share a slot (checked here when the
  /// table is built). Empty slots have length 0.
  static let keywordTable: [PackedKeyword] = {
    let empty = PackedKeyword(length: 0, low: 0, high: 0, word: .reserved(.let))
    var table = [PackedKeyword](repeating: empty, count: 1 << keywordSlotBits)
    let words = Keyword.allCases.map(Word.reserved) + ContextualKeyword.allCases.map(Word.contextual)
    for word in words {
      let (low, high) = pack(word.spelling)
      let slot = keywordSlot(low: low, high: high)
      precondition(table[slot].length == 0, "two words in one slot of the word table")
      table[slot] = PackedKeyword(length: word.spelling.utf8.count, low: low, high: high, word: word)
    }
    return table
  }()

  /// The first 16 bytes of `text`, packed as `lexWord` packs them.
  static func pack(_ text: String) -> (low: UInt64, high: UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for (index, byte) in text.utf8.prefix(16).enumerated() {
      if index < 8 { low |= UInt64(byte) << (8 * index) } else { high |= UInt64(byte) << (8 * (index - 8)) }
    }
    return (low, high)
  }

  /// The word table has 2^8 slots.
  static let keywordSlotBits = 8

  /// A perfect hash of the words' packed spellings into the table's slots.
  @inline(__always)
  static func keywordSlot(low: UInt64, high: UInt64) -> Int {
    Int(truncatingIfNeeded: ((low ^ (high &* keywordHighMultiplier)) &* keywordMultiplier) &>> 56)
  }

  static let keywordHighMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
  static let keywordMultiplier: UInt64 = 0x5B51_E2C0_1EEA_E939

  // MARK: - Numbers, durations, percents

  /// The digits of a number as written: byte ranges (underscores included) and counts.
  private struct NumberParts {
    var integer: Range<Int>
    var integerDigits = 0
    var fraction: Range<Int>
    var fractionDigits = 0
    /// The exponent after `e`, its sign included.
    var exponent: Range<Int>
    var hasUnderscores = false
  }

  // number   -> digits [ "." digits ] [ exponent ] | "." digits [ exponent ]
  // digits   -> digit { digit | "_" }
  // exponent -> ( "e" | "E" ) [ "+" | "-" ] digits
  // duration -> number ( "s" | "ms" )
  // percent  -> number "%"
  private mutating func lexNumber() -> Token {
    let start = position
    var parts = NumberParts(integer: position..<position, fraction: position..<position, exponent: position..<position)
    parts.integerDigits = scanDigits(&parts.hasUnderscores)
    parts.integer = start..<position
    parts.fraction = position..<position
    if position < end, buffer[position] == UInt8(ascii: "."), isDigit(peek(1)) {
      position += 1
      let fractionStart = position
      parts.fractionDigits = scanDigits(&parts.hasUnderscores)
      parts.fraction = fractionStart..<position
    }
    parts.exponent = position..<position
    if position < end, buffer[position] == UInt8(ascii: "e") || buffer[position] == UInt8(ascii: "E") {
      let sign = peek(1)
      if isDigit(sign) {
        position += 1
        let exponentStart = position
        _ = scanDigits(&parts.hasUnderscores)
        parts.exponent = exponentStart..<position
      } else if (sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")) && isDigit(peek(2)) {
        position += 1
        let exponentStart = position
        position += 1
        _ = scanDigits(&parts.hasUnderscores, afterSign: true)
        parts.exponent = exponentStart..<position
      }
    }
    let numberEnd = position

    // What follows the digits decides the literal's kind.
    if position < end && buffer[position] == UInt8(ascii: "%") {
      position += 1
      let value = doubleValue(start..<numberEnd, parts)
      return make(.percent, from: start, value: .percent(value))
    }
    if position < end && isIdentifierStart(buffer[position]) {
      let suffixStart = position
      while position < end && isIdentifierContinue(buffer[position]) { position += 1 }
      let suffixLength = position - suffixStart
      let isSeconds = suffixLength == 1 && buffer[suffixStart] == UInt8(ascii: "s")
      let isMilliseconds =
        suffixLength == 2 && buffer[suffixStart] == UInt8(ascii: "m") && buffer[suffixStart + 1] == UInt8(ascii: "s")
      if isSeconds || isMilliseconds {
        let nanoseconds = durationValue(parts, unitExponent: isSeconds ? 9 : 6, span: span(from: start))
        return make(.duration, from: start, value: .duration(nanoseconds))
      }
      report(
        "invalid suffix '\(text(from: suffixStart))' on number '\(text(from: start))': a number may be "
          + "followed only by 's', 'ms' or '%'", span(from: start))
      return make(.number, from: start, value: .number(0))
    }
    return make(.number, from: start, value: .number(doubleValue(start..<numberEnd, parts)))
  }

  /// Skips digits and underscores and returns the number of digits; the first byte is known
  /// to be a digit (or a `.` handled by the caller). An underscore counts only after a digit
  /// of the group (or after an exponent's sign).
  private mutating func scanDigits(_ hasUnderscores: inout Bool, afterSign: Bool = false) -> Int {
    var digits = 0
    while position < end {
      let byte = buffer[position]
      if isDigit(byte) {
        digits += 1
      } else if byte == UInt8(ascii: "_") && (digits > 0 || afterSign) {
        hasUnderscores = true
      } else {
        break
      }
      position += 1
    }
    return digits
  }

  /// Powers of ten that a Double holds exactly.
  private static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  /// The Double a number's text denotes; beyond Double's range is an error at the literal.
  private mutating func doubleValue(_ range: Range<Int>, _ parts: NumberParts) -> Double {
    // The common case without text: at most 15 significant digits and a small exponent are
    // an exact integer times an exact power of ten, and one multiplication or division of
    // exact operands is correctly rounded, as parsing the text is (Clinger's fast path).
    if !parts.hasUnderscores, parts.integerDigits + parts.fractionDigits <= 15 {
      var mantissa: Int64 = 0
      for offset in parts.integer { mantissa = mantissa * 10 + Int64(buffer[offset] &- UInt8(ascii: "0")) }
      for offset in parts.fraction { mantissa = mantissa * 10 + Int64(buffer[offset] &- UInt8(ascii: "0")) }
      var exponent = 0
      var negative = false
      for offset in parts.exponent {
        let byte = buffer[offset]
        if byte == UInt8(ascii: "-") {
          negative = true
        } else if byte != UInt8(ascii: "+") {
          exponent = min(exponent * 10 + Int(byte &- UInt8(ascii: "0")), 1_000)
        }
      }
      let scale = (negative ? -exponent : exponent) - parts.fractionDigits
      if mantissa == 0 { return 0 }
      if scale >= 0 && scale <= 22 { return Double(mantissa) * Lexer.exactPowersOfTen[scale] }
      if scale < 0 && scale >= -22 { return Double(mantissa) / Lexer.exactPowersOfTen[-scale] }
    }
    var cleaned = ""
    cleaned.reserveCapacity(range.count)
    for offset in range where buffer[offset] != UInt8(ascii: "_") {
      cleaned.unicodeScalars.append(UnicodeScalar(buffer[offset]))
    }
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
  private mutating func durationValue(_ parts: NumberParts, unitExponent: Int, span: SourceSpan) -> Int64 {
    // The digits of the integer and the fraction, in order, without underscores.
    func forEachDigit(_ body: (Int64) -> Bool) {
      for range in [parts.integer, parts.fraction] {
        for offset in range where buffer[offset] != UInt8(ascii: "_") {
          if !body(Int64(buffer[offset] &- UInt8(ascii: "0"))) { return }
        }
      }
    }
    // The significant digits: leading zeros do not count.
    var significant = 0
    forEachDigit { digit in
      if significant > 0 || digit != 0 { significant += 1 }
      return true
    }
    if significant == 0 { return 0 }
    // The written exponent, saturated: anything beyond ±10⁶ is out of range either way.
    var writtenExponent = 0
    var negative = false
    for offset in parts.exponent {
      let byte = buffer[offset]
      if byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "_") { continue }
      writtenExponent = min(writtenExponent * 10 + Int(byte &- UInt8(ascii: "0")), 1_000_000)
    }
    if negative { writtenExponent = -writtenExponent }
    let scale = writtenExponent - parts.fractionDigits + unitExponent

    // The digits that stay left of the nanosecond point, and the first dropped one.
    let kept = significant + min(scale, 0)
    var value: Int64 = 0
    var index = 0
    var firstDropped: Int64?
    var overflowed = false
    forEachDigit { digit in
      if index == 0 && digit == 0 { return true }  // a leading zero
      defer { index += 1 }
      if index < kept {
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        if overflow1 || overflow2 {
          overflowed = true
          return false
        }
        value = sum
        return true
      }
      if index == kept { firstDropped = digit }
      return false
    }
    if !overflowed && scale > 0 {
      for _ in 0..<scale {
        let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
        if overflow {
          overflowed = true
          break
        }
        value = times10
      }
    } else if !overflowed && kept >= 0, let firstDropped, firstDropped >= 5 {
      let (rounded, overflow) = value.addingReportingOverflow(1)
      if overflow { overflowed = true } else { value = rounded }
    }
    if overflowed {
      report(
        "duration '\(text(span.start..<span.end))' is too long: durations are "
          + "counted in 64-bit nanoseconds (at most about 292 years)", span)
      return 0
    }
    return value
  }

  // MARK: - Colors

  // color -> "#" hex hex hex [ hex hex hex [ hex hex ] ]    (3, 6 or 8 hex digits)
  private mutating func lexColor() -> Token {
    let start = position
    position += 1
    let digitsStart = position
    while position < end && isIdentifierContinue(buffer[position]) { position += 1 }
    let count = position - digitsStart
    let whole = span(from: start)
    let placeholder = TokenValue.color(ColorLiteral(red: 0, green: 0, blue: 0))
    if count == 0 {
      report("expected hex digits after '#' (#rgb, #rrggbb or #rrggbbaa)", whole)
      return make(.color, from: start, value: placeholder)
    }
    for offset in digitsStart..<position where hexValue(buffer[offset]) == nil {
      report(
        "invalid hex digit '\(text(offset..<offset + 1))' in color '\(text(from: start))'",
        SourceSpan(start: offset, end: offset + 1))
      return make(.color, from: start, value: placeholder)
    }
    func nibble(_ index: Int) -> UInt8 { UInt8(hexValue(buffer[digitsStart + index])!) }
    let color: ColorLiteral
    switch count {
    case 3:
      color = ColorLiteral(red: nibble(0) * 17, green: nibble(1) * 17, blue: nibble(2) * 17, alpha: 255)
    case 6, 8:
      func channel(_ index: Int) -> UInt8 { nibble(2 * index) * 16 + nibble(2 * index + 1) }
      color = ColorLiteral(red: channel(0), green: channel(1), blue: channel(2), alpha: count == 8 ? channel(3) : 255)
    default:
      report(
        "a color needs 3, 6 or 8 hex digits (#rgb, #rrggbb or #rrggbbaa); "
          + "'\(text(from: start))' has \(count)", whole)
      return make(.color, from: start, value: placeholder)
    }
    return make(.color, from: start, value: .color(color))
  }

  // MARK: - Strings

  // string        -> '"' { character | escape | interpolation } '"'    (on one line)
  // escape        -> "\n" | "\t" | '\"' | "\\" | "\{"
  // interpolation -> "{" expression "}"    (to the matching "}", no string inside)
  private mutating func lexString() -> Token {
    let start = position
    position += 1
    var segments: [StringSegment] = []
    var reportedControl = false
    var text: [UInt8] = []
    var textStart = position

    func flushText(upTo offset: Int, into segments: inout [StringSegment], text: inout [UInt8]) {
      if offset > textStart {
        segments.append(.text(String(decoding: text, as: UTF8.self), SourceSpan(start: textStart, end: offset)))
      }
      text.removeAll()
    }

    while true {
      guard position < end, buffer[position] != newlineByte else {
        report(
          "unterminated string: expected '\"' before the end of the line", SourceSpan(start: start, end: start + 1))
        flushText(upTo: position, into: &segments, text: &text)
        break
      }
      let byte = buffer[position]
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
        guard let meaning = StringEscapes.meaning(of: escaped!) else {
          let shown = escaped! >= 0x80 || escaped! < 0x20 ? "" : String(UnicodeScalar(escaped!))
          let length = escaped! >= 0x80 ? 1 : 2
          report(
            "unknown escape '\\\(shown)' in string; the escapes are \(StringEscapes.listed)",
            SourceSpan(start: position, end: position + length))
          position += length
          continue
        }
        text.append(meaning)
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
          switch buffer[cursor] {
          case newlineByte, UInt8(ascii: "\""): break scan
          case UInt8(ascii: "{"): depth += 1
          case UInt8(ascii: "}"):
            depth -= 1
            if depth == 0 {
              closed = true
              break scan
            }
          default: break
          }
          cursor += 1
        }
        if !closed {
          if cursor < end && buffer[cursor] == UInt8(ascii: "\"") {
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
      if isControl(at: position) && !reportedControl {
        reportedControl = true
        reportControl(at: position, in: "string")
      }
      if byte >= 0x80 {
        if let length = utf8SequenceLength(at: position) {
          text.append(contentsOf: buffer[position..<position + length])
          position += length
        } else {
          report("invalid UTF-8 byte 0x\(hex(byte)) in string", SourceSpan(start: position, end: position + 1))
          text.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
          // One error for the whole broken sequence, not one per stray continuation byte.
          position += 1
          while position < end && (0x80...0xBF).contains(buffer[position]) { position += 1 }
        }
        continue
      }
      text.append(byte)
      position += 1
    }
    let number = stringCount
    stringCount += 1
    recentStrings[number % recentStrings.count] = (number, segments)
    return make(.string, from: start, value: .string(number))
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
    case UInt8(ascii: "["): return .leftBracket
    case UInt8(ascii: "]"): return .rightBracket
    case UInt8(ascii: "<"): return .less
    case UInt8(ascii: ">"): return .greater
    default: return nil
    }
  }

  /// The operator of two or three bytes that begins with the one-byte token `kind` just
  /// read (`<=`, `>=`, `==`, `..<`, `...`), consuming its other bytes; nil when there is none.
  private mutating func longerOperator(_ kind: TokenKind) -> TokenKind? {
    let equals = UInt8(ascii: "=")
    let dot = UInt8(ascii: ".")
    switch kind {
    case .less where peek(0) == equals:
      position += 1
      return .lessEqual
    case .greater where peek(0) == equals:
      position += 1
      return .greaterEqual
    case .equals where peek(0) == equals:
      position += 1
      return .equalEqual
    case .dot where peek(0) == dot && peek(1) == UInt8(ascii: "<"):
      position += 2
      return .halfOpenRange
    case .dot where peek(0) == dot && peek(1) == dot:
      position += 2
      return .closedRange
    default:
      return nil
    }
  }

  /// A run of bytes no token starts with becomes one `invalid` token and one error (a
  /// binary file gives a few errors, not one per byte).
  private mutating func lexStrayBytes() -> Token {
    let start = position
    var invalidUTF8 = false
    while position < end {
      let byte = buffer[position]
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
        || (byte == UInt8(ascii: "!") && peek(1) == UInt8(ascii: "="))
      if startsToken { break }
      position += 1
    }
    let whole = span(from: start)
    if invalidUTF8 {
      report("invalid UTF-8 (byte 0x\(hex(buffer[start]))): a script must be UTF-8 text", whole)
    } else {
      let shown = text(from: start)
      let printable = shown.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
      report(
        printable
          ? "unexpected character\(shown.count > 1 ? "s" : "") '\(shown)'"
          : "unexpected control character (byte 0x\(hex(buffer[start])))", whole)
    }
    return make(.invalid, from: start)
  }

  // MARK: - Helpers

  private var newlineByte: UInt8 { UInt8(ascii: "\n") }

  private func peek(_ offset: Int) -> UInt8? {
    position + offset < end ? buffer[position + offset] : nil
  }

  /// `r.5` is not a number after a dot: a `.` touching a word or `)` is member access.
  private func dotIsMemberAccess() -> Bool {
    guard let last = lastKind, lastEnd == position else { return false }
    switch last {
    case .identifier, .keyword, .rightParen, .rightBracket: return true
    default: return false
    }
  }

  /// The token of `kind` from `start` to the current position, remembered as the last one.
  private mutating func make(_ kind: TokenKind, from start: Int, value: TokenValue = .none) -> Token {
    lastKind = kind
    lastEnd = position
    return Token(kind: kind, span: SourceSpan(start: start, end: position), value: value)
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
      if buffer[offset] < 0x80 {
        if isControl(at: offset) {
          reportControl(at: offset, in: what)
          return
        }
        offset += 1
        continue
      }
      guard let length = utf8SequenceLength(at: offset), offset + length <= range.upperBound else {
        report("invalid UTF-8 byte 0x\(hex(buffer[offset])) in \(what)", SourceSpan(start: offset, end: offset + 1))
        return
      }
      if isControl(at: offset) {
        reportControl(at: offset, in: what)
        return
      }
      offset += length
    }
  }

  /// Whether a control character starts at `offset`: a C0 byte but tab and carriage return
  /// (a line may end in CR LF), DEL, or a C1 character (U+0080–U+009F, C2 80–C2 9F).
  private func isControl(at offset: Int) -> Bool {
    let byte = buffer[offset]
    if byte < 0x20 { return byte != 0x09 && byte != 0x0D && byte != 0x0A }
    if byte == 0x7F { return true }
    return byte == 0xC2 && offset + 1 < bytes.count && (0x80...0x9F).contains(buffer[offset + 1])
  }

  /// A control character in a comment or string: it would reach a terminal as it is (an
  /// escape sequence, a bell), so it is an error, shown escaped (`\x1B`).
  private mutating func reportControl(at offset: Int, in what: String) {
    let length = buffer[offset] == 0xC2 ? 2 : 1
    report(
      "control character \(ShownText.escaped(bytes[offset..<offset + length])) in \(what): "
        + "a script holds no control characters but tab",
      SourceSpan(start: offset, end: offset + length))
  }

  /// The length of the well-formed UTF-8 sequence at `offset` (RFC 3629: no overlongs, no
  /// surrogates, nothing above U+10FFFF), or nil.
  private func utf8SequenceLength(at offset: Int) -> Int? {
    let lead = buffer[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: return nil
    }
    guard offset + length <= end else { return nil }
    guard secondRange.contains(buffer[offset + 1]) else { return nil }
    for index in 2..<length where !(0x80...0xBF).contains(buffer[offset + index]) { return nil }
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

@inline(__always)
func isDigit(_ byte: UInt8?) -> Bool {
  guard let byte else { return false }
  return byte &- UInt8(ascii: "0") < 10
}

@inline(__always)
func isIdentifierStart(_ byte: UInt8) -> Bool {
  // `| 0x20` maps A...Z onto a...z (and nothing else onto them).
  (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
}

@inline(__always)
package func isIdentifierContinue(_ byte: UInt8) -> Bool {
  // Bit n of the mask for bytes 0...63 (64...127) is set when byte n (64 + n) is a letter, a
  // digit or `_`.
  let digits: UInt64 = 0x03FF_0000_0000_0000
  let lettersAndUnderscore: UInt64 = 0x07FF_FFFE_87FF_FFFE
  let mask = byte < 64 ? digits : lettersAndUnderscore
  return byte < 128 && (mask &>> UInt64(byte & 63)) & 1 != 0
}
