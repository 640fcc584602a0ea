// The `jsonl` trace format: one JSON object per line, the default of `anim trace`.

import AnimCore
import Dispatch

/// Writes each record as one JSON object on a line of its own (README, Using anim: `anim trace`):
///
///     {"t":0.5,"values":{"box.x":40,"box.pos":[0,120],"box.tint":"#ff8800ff"}}
///     {"t":1.3,"event":"complete","subject":"intro"}
///     {"t":1.3,"event":"intro-done"}
///     {"t":1.3,"print":"landed at 1.3s"}
///
/// `t` is the exact nanosecond time / 10⁹ and every number is written by
/// `TraceNumber.json(_:)`: the shortest form that reads back to the same Double, whole
/// numbers without a fraction, and `null` for NaN and the infinities (which JSON cannot
/// write). A vector is an array of its components, a color `#rrggbbaa` (un-premultiplied,
/// each channel round(c · 255) with halves rounded up). An event of a timeline or property
/// has its `subject`; a script's own event (from `emit`) has none. Values are written in
/// the order the sample holds them; the writer needs no columns. The only thing it keeps is
/// the names of the last sample (or, for a streamed `TraceSample`, its columns), and, from
/// the second sample naming the same properties in the same order on, each position's key
/// (`"box.x":`) as escaped bytes (`SampleKeys`).
package struct JSONLTraceWriter: TraceWriter, Sendable {
  private var keys = SampleKeys()

  package init() {}

  package mutating func write(_ record: TraceRecord) -> String {
    if case .sample(let time, let values) = record { return keys.line(time: time, values: values) }
    return Self.line(record)
  }

  /// The text of `write(_:)` handed to `sink` in pieces, of a few thousand values at most:
  /// `anim trace` writes a sample of a million properties without holding its whole line.
  package mutating func write(_ record: TraceRecord, to sink: (String) -> Void) {
    if case .sample(let time, let values) = record {
      keys.pieces(time: time, values: values, sink)
    } else {
      sink(Self.line(record))
    }
  }

  /// The line of `sample`, as `write(_:to:)` writes its record, read a piece at a time
  /// (`Runtime.trace`'s `emitSample`): no record of every value is made.
  package mutating func write(_ sample: TraceSample, to sink: (String) -> Void) {
    keys.pieces(of: sample, sink)
  }

  package mutating func finish() -> String { "" }

  /// The line for `record`, ending in `\n`.
  package static func line(_ record: TraceRecord) -> String {
    if case .control = record { return "" }  // the chart's only
    if case .sample(let time, let values) = record {
      var keys = SampleKeys()
      return keys.line(time: time, values: values)
    }
    var line = "{\"t\":" + TraceNumber.json(seconds(record.time))
    switch record {
    case .sample: break
    case .event(_, let name, let subject):
      line += ",\"event\":" + TraceJSON.string(name)
      if let subject { line += ",\"subject\":" + TraceJSON.string(subject) }
    case .print(_, let text):
      line += ",\"print\":" + TraceJSON.string(text)
    case .control:
      break
    }
    return line + "}\n"
  }
}

/// The keys of a sample's values, `"T.p":` escaped once, by position; and the sample's line
/// written as bytes straight into the string's storage, in pieces.
///
/// The keys are escaped into `bytes` only when a second sample names the same properties in
/// the same order (every frame of a trace after the first): a trace of one sample (`--until
/// 0s` on a script of a million properties) would keep megabytes of keys for nothing. A line
/// is handed out in pieces of at most `valuesPerPiece` values, each a string of room for
/// the longest numbers (`TraceNumber.maxLength`): such a sample's line in one string would
/// be about twice the size of the text it holds, on top of the text already written.
struct SampleKeys: Sendable {
  /// The names of the last sample written as a record, by position (empty after a streamed one).
  private var names: [String] = []
  /// The columns of the last sample written streamed (`TraceSample`), nil after a record: a
  /// trace's samples share one, so the same object means the same names in the same order.
  private var streamedColumns: TraceSampleColumns?
  /// Where each name's key ends in `bytes` (it starts where the one before ends); both empty
  /// until a sample names the last one's properties again.
  private var ends: [Int] = []
  private var bytes: [UInt8] = []

  /// Values per piece of a line: few enough that a piece of numbers' string (room for the
  /// longest number and the keys), and the array of its values, stay under glibc's mmap
  /// threshold (128 KiB, LargeBlocks.swift), so that each piece reuses the heap memory the
  /// piece before let go of. At 4,096, each was a mapping of its own, faulted in page by
  /// page and returned at once: a third of the runner's time writing the sample at 0 of
  /// front.run's targets form (677,000 values).
  static let valuesPerPiece = 2_048

  /// Whether `values` name exactly `names`, in order.
  private func namesAre(_ values: [NamedValue]) -> Bool {
    names.count == values.count && zip(names, values).allSatisfy { $0 == $1.name }
  }

  /// Appends the key, `"T.p":`, of each name at a position in a range to bytes, in order,
  /// and after each where it ends there to ends.
  typealias KeyWriter = (_ range: Range<Int>, _ bytes: inout [UInt8], _ ends: inout [Int]) -> Void

  /// The `KeyWriter` of `values`' names.
  private static func keys(of values: [NamedValue]) -> KeyWriter {
    { range, bytes, ends in
      for index in range {
        appendKey(values[index].name, to: &bytes)
        ends.append(bytes.count)
      }
    }
  }

  /// Appends the key of `name` to `bytes`.
  static func appendKey(_ name: String, to bytes: inout [UInt8]) {
    bytes += TraceJSON.string(name).utf8
    bytes.append(UInt8(ascii: ":"))
  }

  /// Escapes the keys of the `count` positions `key` writes into `bytes`.
  private mutating func cacheKeys(count: Int, _ key: KeyWriter) {
    ends = []
    bytes = []
    ends.reserveCapacity(count)
    key(0..<count, &bytes, &ends)
  }

  /// `{"t":…,"values":{…}}` and a newline, in one string.
  mutating func line(time: Nanoseconds, values: [NamedValue]) -> String {
    var line = ""
    pieces(time: time, values: values) { piece in
      if line.isEmpty { line = piece } else { line += piece }
    }
    return line
  }

  /// The line of `line(time:values:)`, handed to `sink` in pieces.
  mutating func pieces(time: Nanoseconds, values: [NamedValue], _ sink: (String) -> Void) {
    if namesAre(values) {
      if ends.count != names.count { cacheKeys(count: names.count, Self.keys(of: values)) }
    } else {
      names = values.map(\.name)
      ends = []
      bytes = []
    }
    streamedColumns = nil
    pieces(
      time: time, count: values.count, key: Self.keys(of: values), values: { $0.map { values[$0].value } }, sink)
  }

  /// The line of `sample`, handed to `sink` in pieces, its values read a piece at a time.
  mutating func pieces(of sample: TraceSample, _ sink: (String) -> Void) {
    let columns = sample.columns
    if streamedColumns === columns {
      if ends.count != columns.count { cacheKeys(count: columns.count, columns.appendKeys(in:to:ends:)) }
    } else {
      streamedColumns = columns
      names = []
      ends = []
      bytes = []
    }
    pieces(
      time: sample.time, count: columns.count, key: columns.appendKeys(in:to:ends:), values: sample.values(in:), sink)
  }

  /// The line of `count` values, `key` and `values(in:)` by position, in pieces; the keys
  /// from `bytes` when they are cached for `count` names.
  private func pieces(
    time: Nanoseconds, count: Int, key: KeyWriter, values: (Range<Int>) -> [AnimationValue], _ sink: (String) -> Void
  ) {
    let cached = ends.count == count
    let pieceCount = max((count + Self.valuesPerPiece - 1) / Self.valuesPerPiece, 1)
    @Sendable func range(of piece: Int) -> Range<Int> {
      piece * Self.valuesPerPiece..<min((piece + 1) * Self.valuesPerPiece, count)
    }
    guard pieceCount >= Self.piecesMadeInPairs else {
      for index in 0..<pieceCount {
        sink(piece(time: time, count: count, range(of: index), cached: cached, key: key, values: values))
      }
      return
    }
    // A line of many pieces (the sample at 0 of a script of a million targets, made while the
    // parsing and checking threads have finished and the process waits for it alone) is made
    // two pieces at a time, one on another thread, and handed out in order: two pieces held
    // at once, not the line.
    // (The closures do not escape: every piece is made before this returns.)
    withoutActuallyEscaping(key) { key in
      withoutActuallyEscaping(values) { values in
        let work = PairedPieces(writer: self, time: time, count: count, cached: cached, key: key, values: values)
        var next = 0
        while next < pieceCount {
          let pair = min(2, pieceCount - next)
          let first = next
          DispatchQueue.concurrentPerform(iterations: pair) { offset in
            work.make(offset, range(of: first + offset))
          }
          for offset in 0..<pair { sink(work.take(offset)) }
          next += pair
        }
      }
    }
  }

  /// How many pieces a line has before they are made two at a time: fewer, and starting the
  /// other thread costs more than it saves.
  static let piecesMadeInPairs = 4

  /// Two pieces of one line made at once (`pieces(time:count:key:values:_:)`). Each is made
  /// into its own slot, by one thread, and taken on the writer's thread once both are made:
  /// the keys and values read are the sample's own copies (its columns' table and the
  /// engine as it stood), which nothing changes while the line is written, and the writer's
  /// cached keys are read, not written. So the closures, which Swift cannot see are only
  /// read, are shared unchecked.
  private final class PairedPieces: @unchecked Sendable {
    let writer: SampleKeys
    let time: Nanoseconds
    let count: Int
    let cached: Bool
    let key: KeyWriter
    let values: (Range<Int>) -> [AnimationValue]
    /// The two slots, each written by one thread (not an array, whose mutation through a
    /// shared reference would be one access from two threads).
    private let made = UnsafeMutablePointer<String>.allocate(capacity: 2)

    init(
      writer: SampleKeys, time: Nanoseconds, count: Int, cached: Bool, key: @escaping KeyWriter,
      values: @escaping (Range<Int>) -> [AnimationValue]
    ) {
      self.writer = writer
      self.time = time
      self.count = count
      self.cached = cached
      self.key = key
      self.values = values
      made.initialize(repeating: "", count: 2)
    }

    deinit {
      made.deinitialize(count: 2)
      made.deallocate()
    }

    /// Makes the piece of `range` into slot `slot` (0 or 1; each by one thread).
    func make(_ slot: Int, _ range: Range<Int>) {
      made[slot] = writer.piece(time: time, count: count, range, cached: cached, key: key, values: values)
    }

    /// The piece in slot `slot`, once made, which the slot then lets go of.
    func take(_ slot: Int) -> String {
      defer { made[slot] = "" }
      return made[slot]
    }
  }

  /// The part of the line for the values in `range`: with the line's opening when the range
  /// starts at 0, its end when the range ends with the `count` values.
  fileprivate func piece(
    time: Nanoseconds, count: Int, _ range: Range<Int>, cached: Bool, key: KeyWriter,
    values: (Range<Int>) -> [AnimationValue]
  ) -> String {
    let opens = range.lowerBound == 0
    let closes = range.upperBound == count
    let values = values(range)
    // The keys of this piece: from the cache, or escaped now.
    var own: [UInt8] = []
    var ownEnds: [Int] = []
    if !cached {
      ownEnds.reserveCapacity(range.count)
      key(range, &own, &ownEnds)
    }
    let keysStart = cached ? (range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]) : 0
    let keysEnd = cached ? (range.isEmpty ? keysStart : ends[range.upperBound - 1]) : own.count
    let number = TraceNumber.maxLength
    var capacity = 32 + number + keysEnd - keysStart
    for value in values {
      switch value {
      case .number: capacity += number + 1
      case .color: capacity += 12
      case .vec2: capacity += 2 * number + 4
      case .vec3: capacity += 3 * number + 5
      case .vec4: capacity += 4 * number + 6
      }
    }
    return (cached ? bytes : own).withUnsafeBufferPointer { keys in
      String(unsafeUninitializedCapacity: capacity) { buffer in
        let start = buffer.baseAddress!
        var out = start
        func put(_ text: StaticString) {
          out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
          out += text.utf8CodeUnitCount
        }
        func put(_ x: Double) {
          out += TraceNumber.writeJSON(x, to: out)
        }
        if opens {
          put("{\"t\":")
          put(seconds(time))
          put(",\"values\":{")
        }
        var keyStart = keysStart
        for index in range {
          if index > 0 { put(",") }
          let keyEnd = cached ? ends[index] : ownEnds[index - range.lowerBound]
          out.update(from: keys.baseAddress! + keyStart, count: keyEnd - keyStart)
          out += keyEnd - keyStart
          keyStart = keyEnd
          switch values[index - range.lowerBound] {
          case .number(let x):
            put(x)
          case .color(let color):
            var hex = "\"" + color.hexString() + "\""
            hex.withUTF8 { text in
              precondition(text.count <= 11, "a color is #rrggbbaa")
              out.update(from: text.baseAddress!, count: text.count)
              out += text.count
            }
          case .vec2(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put("]")
          case .vec3(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put(",")
            put(v.z)
            put("]")
          case .vec4(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put(",")
            put(v.z)
            put(",")
            put(v.w)
            put("]")
          }
        }
        if closes { put("}}\n") }
        return out - start
      }
    }
  }
}

/// JSON text for the trace's values and strings.
package enum TraceJSON {
  /// `text` as a JSON string literal, quotes included. `"` and `\` are escaped, the control
  /// characters U+0000–U+001F as `\b \f \n \r \t` or `\u00XX`, and U+007F, U+2028 and
  /// U+2029 as `\u` escapes too (legal in JSON, but they break JavaScript source and
  /// terminals). Everything else is written as itself, in UTF-8.
  package static func string(_ text: String) -> String {
    // Nearly every name is printable ASCII with no quote or backslash: itself between quotes,
    // without a walk of its scalars (which was a seventh of a trace of a million properties).
    if text.utf8.allSatisfy(isWrittenAsItself) { return "\"" + text + "\"" }
    var out = "\""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
        out += "\\u" + hex4(scalar.value)
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
    return out
  }

  /// Whether `byte` stands for itself in a JSON string: printable ASCII, neither a quote
  /// nor a backslash.
  static func isWrittenAsItself(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
  }

  /// A value as JSON: a number, an array of components, or a color's `#rrggbbaa` string.
  package static func value(_ value: AnimationValue) -> String {
    switch value {
    case .number(let x): return TraceNumber.json(x)
    case .color(let color): return "\"" + color.hexString() + "\""
    case .vec2, .vec3, .vec4:
      let components = value.numericComponents ?? []
      return "[" + components.map(TraceNumber.json).joined(separator: ",") + "]"
    }
  }

  static func hex4(_ value: UInt32) -> String {
    let digits = Array("0123456789abcdef")
    return String([12, 8, 4, 0].map { digits[Int((value >> UInt32($0)) & 0xF)] })
  }
}
