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
