// TargetRuns: the names of targets declared new one after another with one list of
// properties, in a `PropertyTable`. Such a target's names `T.p` take the positions after the
// one before's, one for each property in the list's order: a run of them is kept as where it
// starts, the list (each property by its place in the table's list of them), and each
// target's name once, so that a position in the run is its target's name, a dot and its
// property, found by arithmetic. Each name stored whole, with its end, was 24 bytes of
// front.run's targets form's 36 a target, box12345's x, y and opacity.

import AnimCore

struct TargetRuns {
  /// Targets declared one after another, with one list of properties.
  private struct Run {
    /// The table's position of its first target's first name.
    var firstPosition: Int
    /// Each property's place in the table's list of properties (at least one).
    var places: [UInt32]
    /// How many targets it holds, and the first one's number among all runs' targets.
    var targets: Int
    var firstTarget: Int
    /// The number of positions in the runs before it.
    var positionsBefore: Int

    var positionCount: Int { targets * places.count }
  }

  private var runs: [Run] = []
  /// Every target's name, end to end, in order.
  private var bytes = ChunkedArray<UInt8>()
  /// Per target: where its name ends in `bytes` (it starts where the one before ends).
  private var ends = ChunkedArray<UInt32>()

  init() {}

  var isEmpty: Bool { runs.isEmpty }

  /// Where a position is: in a run (its target's name in the runs' bytes, and its
  /// property's place), or the table's entry this many positions after the runs' before it.
  enum Place {
    case inRun(target: Range<Int>, property: UInt32)
    case entry(Int)
  }

  /// Adds the target named `target`, whose properties are at `places` in the table's list,
  /// as the names at `position` on (the table's end).
  mutating func append(_ target: UnsafeBufferPointer<UInt8>, places: [UInt32], at position: Int) {
    // (Names of 4 GiB and more in all would need a process of a hundred times that.)
    precondition(bytes.count + target.count <= Int(UInt32.max), "more target names than a table holds")
    bytes.append(contentsOf: target)
    ends.append(UInt32(bytes.count))
    // (Arrays compare by identity first: targets declared one after another share one list.)
    if let last = runs.last, last.firstPosition + last.positionCount == position, last.places == places {
      runs[runs.count - 1].targets += 1
    } else {
      let before = runs.last.map { $0.positionsBefore + $0.positionCount } ?? 0
      runs.append(
        Run(firstPosition: position, places: places, targets: 1, firstTarget: ends.count - 1, positionsBefore: before))
    }
  }

  /// Where `position` is.
  func place(of position: Int) -> Place {
    // The last run that starts at or before it.
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].firstPosition <= position { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return .entry(position) }
    let run = runs[low - 1]
    let offset = position - run.firstPosition
    guard offset < run.positionCount else { return .entry(position - run.positionsBefore - run.positionCount) }
    let (target, property) = offset.quotientAndRemainder(dividingBy: run.places.count)
    let number = run.firstTarget + target
    return .inRun(
      target: (number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number]), property: run.places[property])
  }

  /// Calls, for each position in `range` in order, `inRun` with its target's name, its
  /// property's place, and whether the name is the last call's too (the target's properties
  /// after its first), when it is in a run; else `entry` with the table's entry it is (as
  /// `place(of:)` says). A run's targets are taken one after another, each name's bytes
  /// handed over for all its properties, with no search for each position (writing the
  /// keys of a sample of a million properties found each one's run: such a trace spent a
  /// sixth of its instructions on the keys).
  func forEach(
    in range: Range<Int>, entry: (Int) -> Void,
    inRun: (_ target: UnsafeBufferPointer<UInt8>, _ property: UInt32, _ sameTarget: Bool) -> Void
  ) {
    var position = range.lowerBound
    // The runs that start at or before `position`.
    var started = 0
    var high = runs.count
    while started < high {
      let middle = (started + high) / 2
      if runs[middle].firstPosition <= position { started = middle + 1 } else { high = middle }
    }
    while position < range.upperBound {
      while started < runs.count && runs[started].firstPosition <= position { started += 1 }
      if started > 0 {
        let run = runs[started - 1]
        let runEnd = run.firstPosition + run.positionCount
        if position < runEnd {
          let end = Swift.min(range.upperBound, runEnd)
          var (target, property) = (position - run.firstPosition).quotientAndRemainder(dividingBy: run.places.count)
          run.places.withUnsafeBufferPointer { places in
            while position < end {
              let number = run.firstTarget + target
              // (Nothing the closure captures changes in it: a variable that did was checked
              // for exclusive access at each change, at run time.)
              let properties = property..<Swift.min(places.count, property + end - position)
              bytes.withBuffer(in: (number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])) { name in
                for property in properties { inRun(name, places[property], property != properties.lowerBound) }
              }
              position += properties.count
              property = 0
              target += 1
            }
          }
          continue
        }
      }
      // Entries, up to the next run.
      let before = started > 0 ? runs[started - 1].positionsBefore + runs[started - 1].positionCount : 0
      let end = Swift.min(range.upperBound, started < runs.count ? runs[started].firstPosition : Int.max)
      while position < end {
        entry(position - before)
        position += 1
      }
    }
  }

  /// Whether the bytes in `range` of the targets' names are `other`'s.
  func bytes(in range: Range<Int>, equal other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard range.count == other.count else { return false }
    for (offset, byte) in other.enumerated() where bytes[range.lowerBound + offset] != byte { return false }
    return true
  }

  /// Calls `body` with the bytes in `range` of the targets' names.
  func withBuffers(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    bytes.withBuffers(in: range, body)
  }
}

extension ChunkedArray {
  /// Calls `body` with the elements in `range` in one buffer: the storage's own, or, when
  /// they cross from one chunk to the next (or there are none), a copy.
  func withBuffer(in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) -> Void) {
    let shift = Self.chunkShift
    if !range.isEmpty && range.lowerBound >> shift == (range.upperBound - 1) >> shift {
      withBuffers(in: range, body)
      return
    }
    var copy: [Element] = []
    withBuffers(in: range) { copy.append(contentsOf: $0) }
    copy.withUnsafeBufferPointer(body)
  }
}
