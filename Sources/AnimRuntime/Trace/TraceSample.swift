// TraceSample: a trace's sample handed to a writer without a record of every value.
//
// A sample as a record (`TraceRecord.sample`) holds every watched property's name and value,
// 56 bytes a value, besides the list of watched names it was made from and the writer's copy
// of the names: with a million properties (a script of targets traced `--until 0s`) that was
// the largest thing `anim trace` held, about six times the script's size. A `TraceSample`
// reads each name and value where it is kept (the runtime's property table, the engine's
// current values) when the writer asks for it, a piece at a time (`JSONLTraceWriter`).

import AnimCore

/// The columns of a trace's samples: the watched properties' names, by position. One trace
/// makes one and hands it with every sample, so a writer knows by identity that a sample
/// names the same properties, in the same order, as the one before.
package final class TraceSampleColumns: Sendable {
  /// The names `--watch` gave (its groups expanded); nil when the names are `table`'s.
  private let listed: [String]?
  /// Every property the runtime had when the trace started: the first `count` positions of
  /// its table (a copy of it, which shares its storage; a property added later goes after
  /// them, and a name given a new id keeps its place). Empty when the names are listed. (A
  /// stored property of its own, read in place: bound out of an enum's case at each key, the
  /// table, a dozen stored lists, was retained and released whole.)
  private let table: PropertyTable
  /// The number of columns.
  package let count: Int

  /// The columns `watched`.
  init(listed watched: [String]) {
    listed = watched
    table = PropertyTable()
    count = watched.count
  }

  /// Every property of `table`, in its order.
  init(table: PropertyTable) {
    listed = nil
    self.table = table
    count = table.count
  }

  /// The name `T.p` of column `position`.
  package func name(at position: Int) -> String {
    if let listed { return listed[position] }
    return table.name(at: position)
  }

  /// Appends column `position`'s key in a JSONL sample, `"T.p":`, to `bytes`: from the
  /// table, its name's bytes copied as they are when none needs escaping (nearly always),
  /// with no string made (two strings a name were most of the writing of a sample of a
  /// million properties).
  func appendKey(at position: Int, to bytes: inout [UInt8]) {
    guard listed == nil else {
      SampleKeys.appendKey(name(at: position), to: &bytes)
      return
    }
    let start = bytes.count
    bytes.append(UInt8(ascii: "\""))
    table.appendName(at: position, to: &bytes)
    // (Read through a buffer rather than a slice of the array: 5 % of the key's instructions.)
    let isPlain = bytes.withUnsafeBufferPointer { $0[(start + 1)...].allSatisfy(TraceJSON.isWrittenAsItself) }
    guard isPlain else {
      bytes.removeSubrange(start...)
      SampleKeys.appendKey(name(at: position), to: &bytes)
      return
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  /// Every column's name, in order.
  var all: [String] { listed ?? (0..<count).map(table.name(at:)) }
}

/// The values of a trace's watched properties at `time`, read by position when asked for:
/// valid only while the closure it was handed to runs (the runtime moves on after it).
package struct TraceSample {
  /// When it was taken.
  package let time: Nanoseconds
  /// The watched properties.
  package let columns: TraceSampleColumns
  /// The value of the column at a position.
  private let valueAt: (Int) -> AnimationValue

  init(time: Nanoseconds, columns: TraceSampleColumns, value: @escaping (Int) -> AnimationValue) {
    self.time = time
    self.columns = columns
    self.valueAt = value
  }

  /// The value of column `position` at `time`.
  package func value(at position: Int) -> AnimationValue { valueAt(position) }
}
