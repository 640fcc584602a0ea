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

  /// Appends the keys of the columns in `range`, in order, to `bytes`, as `appendKey(at:to:)`
  /// appends each, and after each where it ends there to `ends`. From the table, the names
  /// are walked in order (`PropertyTable.forEachName(in:_:)`) and copied into room of the
  /// keys' own, appended to `bytes` in one copy: a key at a time, each name found by its
  /// position and appended to `bytes` in pieces, took 670 instructions a key of a sample of
  /// a million properties.
  func appendKeys(in range: Range<Int>, to bytes: inout [UInt8], ends: inout [Int]) {
    let start = bytes.count
    var isPlain = listed == nil
    if isPlain {
      var room = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Swift.max(64, 24 * range.count))
      var used = 0
      // Where each key ends, `range.count` of them, appended to `ends` at the end (one
      // append a key was a uniqueness check each).
      let keyEnds = UnsafeMutableBufferPointer<Int>.allocate(capacity: range.count)
      var keyCount = 0
      // Properties' names (the tails of a run's names, each kept once) seen to need no
      // escaping: each checked once, not at every target.
      var plainTails: [UnsafePointer<UInt8>] = []
      // (Nothing here is a local function: a variable one captures is checked for exclusive
      // access at run time, at each use.)
      table.forEachName(in: range) { head, tail, sameHead in
        guard isPlain else { return }
        if !sameHead && !head.allSatisfy(TraceJSON.isWrittenAsItself) {
          isPlain = false
          return
        }
        if let part = tail.baseAddress, !plainTails.contains(part) {
          guard tail.allSatisfy(TraceJSON.isWrittenAsItself) else {
            isPlain = false
            return
          }
          // (A tail is its property's, in the table's one list of them: the same place,
          // the same bytes.)
          if plainTails.count < 8 { plainTails.append(part) }
        }
        let length = head.count + tail.count + 3
        if used + length > room.count {
          let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * room.count + length)
          grown.baseAddress!.initialize(from: room.baseAddress!, count: used)
          room.deallocate()
          room = grown
        }
        var out = room.baseAddress! + used
        out.initialize(to: UInt8(ascii: "\""))
        out += 1
        if let part = head.baseAddress {
          out.initialize(from: part, count: head.count)
          out += head.count
        }
        if let part = tail.baseAddress {
          out.initialize(from: part, count: tail.count)
          out += tail.count
        }
        out.initialize(to: UInt8(ascii: "\""))
        (out + 1).initialize(to: UInt8(ascii: ":"))
        used += length
        keyEnds[keyCount] = start + used
        keyCount += 1
      }
      if isPlain {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<used]))
        ends.append(contentsOf: UnsafeBufferPointer(rebasing: keyEnds[..<keyCount]))
      }
      room.deallocate()
      keyEnds.deallocate()
    }
    // (Listed, or a name to escape: a key at a time.)
    guard !isPlain else { return }
    for position in range {
      appendKey(at: position, to: &bytes)
      ends.append(bytes.count)
    }
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
  /// The values of the columns at the positions of a range, in order.
  private let valuesIn: (Range<Int>) -> [AnimationValue]

  init(time: Nanoseconds, columns: TraceSampleColumns, values: @escaping (Range<Int>) -> [AnimationValue]) {
    self.time = time
    self.columns = columns
    self.valuesIn = values
  }

  /// The value of column `position` at `time`.
  package func value(at position: Int) -> AnimationValue { valuesIn(position..<(position + 1))[0] }

  /// The values of the columns in `range`, in order: read a range at a time (a call for
  /// each value was a fifth of the writing of a sample of a million values).
  package func values(in range: Range<Int>) -> [AnimationValue] { valuesIn(range) }
}
