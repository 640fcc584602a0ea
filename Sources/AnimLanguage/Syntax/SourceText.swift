// SourceText: the bytes of one script and the arithmetic that turns byte offsets into
// lines and columns. Everything else in the front end speaks in byte offsets
// (`SourceSpan`); a line and a column are only computed when a diagnostic is shown.

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text of one script (a file, a REPL entry, a test string), kept as UTF-8 bytes.
///
/// The bytes are kept as they were read, invalid UTF-8 included: the lexer reports bad
/// bytes as errors instead of the reader silently replacing them.
public struct SourceText: Sendable {
  /// The largest script read (256 MiB): a larger file, or a stream that never ends
  /// (`/dev/zero`), is refused at that size instead of filling memory.
  package static let largestScript = 256 << 20

  /// The name diagnostics show before the line number: a file path or `<repl>`.
  package let name: String
  /// The raw bytes of the script.
  package let bytes: [UInt8]
  /// The byte offset at which each line starts, found when first asked for: a line and a
  /// column are only computed when a diagnostic is shown, and a script that runs without
  /// one held 0.9 MB for the 225,695 lines of front.run's targets form.
  private let lines = LineStarts()
  /// The byte offset at which each line starts; `lineStarts[0] == 0`.
  var lineStarts: [UInt32] { lines.starts(of: bytes) }
  /// The number people know its first line by: 1 for a file; for a REPL entry read from
  /// the middle of piped input, the input line it started on (so that an error found when
  /// it runs, perhaps much later, names that line).
  package let firstLine: Int

  /// Wraps bytes read from a file (which may hold invalid UTF-8).
  public init(name: String, bytes: [UInt8], firstLine: Int = 1) {
    self.name = name
    self.bytes = bytes
    self.firstLine = max(1, firstLine)
  }

  /// Wraps a Swift string (always valid UTF-8).
  public init(name: String, contents: String, firstLine: Int = 1) {
    self.init(name: name, bytes: Array(contents.utf8), firstLine: firstLine)
  }

  /// The 1-based line holding the byte at `offset` (an offset at the end counts as the
  /// last line).
  package func line(of offset: Int) -> Int {
    let lineStarts = lineStarts
    // Binary search for the last line start that is <= offset.
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if Int(lineStarts[middle]) <= offset { low = middle } else { high = middle - 1 }
    }
    return low + 1
  }

  /// The byte range of a 1-based line, without its `\n` (nor a `\r` before it).
  package func byteRange(ofLine line: Int) -> Range<Int> {
    let lineStarts = lineStarts
    let index = max(0, min(line - 1, lineStarts.count - 1))
    let start = Int(lineStarts[index])
    var end = index + 1 < lineStarts.count ? Int(lineStarts[index + 1]) - 1 : bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return start..<end
  }

  /// The text of a 1-based line; invalid UTF-8 shows as U+FFFD.
  package func text(ofLine line: Int) -> String {
    String(decoding: bytes[byteRange(ofLine: line)], as: UTF8.self)
  }

  /// The line and the 1-based column (counted in Characters, as people count them) of the
  /// byte at `offset`.
  package func location(of offset: Int) -> SourceLocation {
    let clamped = max(0, min(offset, bytes.count))
    let line = line(of: clamped)
    let start = Int(lineStarts[line - 1])
    let prefix = String(decoding: bytes[start..<clamped], as: UTF8.self)
    return SourceLocation(line: line, column: prefix.count + 1)
  }

  /// The text a span covers; invalid UTF-8 shows as U+FFFD.
  package func text(of span: SourceSpan) -> String {
    let start = max(0, min(span.start, bytes.count))
    let end = max(start, min(span.end, bytes.count))
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// A half-open range of byte offsets into a `SourceText`: `start..<end`.
///
/// Spans are plain integers so tokens and syntax nodes stay small and copy nothing from
/// the source. They are kept in 32 bits each (every node of a tree holds one, and a token
/// two words is a token the parser copies faster): offsets beyond 4 GiB are clamped there.
public struct SourceSpan: Hashable, Sendable, CustomStringConvertible {
  private var storedStart: UInt32
  private var storedEnd: UInt32

  /// The offset of the first byte.
  public var start: Int {
    get { Int(storedStart) }
    set { storedStart = UInt32(clamping: newValue) }
  }

  /// The offset just past the last byte (equal to `start` for an empty span).
  public var end: Int {
    get { Int(storedEnd) }
    set { storedEnd = UInt32(clamping: newValue) }
  }

  package init(start: Int, end: Int) {
    self.storedStart = UInt32(clamping: start)
    self.storedEnd = UInt32(clamping: max(start, end))
  }

  /// An empty span at one offset (for "expected X here" at the end of input).
  package init(at offset: Int) {
    self.init(start: offset, end: offset)
  }

  /// The span from the start of the first to the end of the last.
  package func through(_ other: SourceSpan) -> SourceSpan {
    SourceSpan(start: min(start, other.start), end: max(end, other.end))
  }

  package var length: Int { end - start }
  public var description: String { "\(start)..<\(end)" }

  /// Both offsets as one word.
  private var packed: UInt64 { UInt64(storedStart) << 32 | UInt64(storedEnd) }

  public static func == (a: SourceSpan, b: SourceSpan) -> Bool { a.packed == b.packed }

  public func hash(into hasher: inout Hasher) { hasher.combine(packed) }

  /// The hash dictionaries use: a 64-bit mix of the two offsets and the seed (SplitMix64's
  /// finalizer), not SipHash. The checker's tables are keyed by span and the runtime reads
  /// them for every statement it runs, where SipHash's set-up was a tenth of its time; spans
  /// come from the program's own text, so there is no flooding to guard against.
  public func _rawHashValue(seed: Int) -> Int {
    var x = packed ^ UInt64(UInt(bitPattern: seed))
    x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
    x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
    return Int(bitPattern: UInt(x ^ (x >> 31)))
  }
}

/// A position as people read it: 1-based line and 1-based column in Characters.
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package var description: String { "\(line):\(column)" }
}

/// A script's line starts, found on first use and kept (a `SourceText` is shared by the
/// threads that parse, check and run it, so the first use takes a lock).
private final class LineStarts: Sendable {
  private let found = Mutex<[UInt32]?>(nil)

  /// The offsets at which the lines of `bytes` start (`[0]` first); `bytes` are the same
  /// at every call.
  func starts(of bytes: [UInt8]) -> [UInt32] {
    found.withLock { found in
      if let found { return found }
      let starts = Self.lineStarts(of: bytes)
      found = starts
      return starts
    }
  }

  /// In 32 bits, as `SourceSpan`'s offsets, and exactly as many as there are lines, counted
  /// first: grown by appends in 64 bits, a 10 MB script of 25-byte lines kept 4 MB, against 1.6.
  private static func lineStarts(of bytes: [UInt8]) -> [UInt32] {
    // The newlines, found by memchr many bytes at a time: `visit` gets the offset after each.
    func forEachLineStart(_ visit: (Int) -> Void) {
      bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count,
          let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset)
        {
          offset = base.distance(to: UnsafeRawPointer(found)) + 1
          visit(offset)
        }
      }
    }
    var count = 1
    forEachLineStart { _ in count += 1 }
    var starts: [UInt32] = [0]
    starts.reserveCapacity(count)
    forEachLineStart { starts.append(UInt32(truncatingIfNeeded: $0)) }
    return starts
  }
}
