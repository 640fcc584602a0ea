// PropertyIDList: the engine ids of a `PropertyTable`'s names, by position. Each is four
// bytes (`PropertyID.packed`); and a table whose properties are numbers added in the order
// the engine added them, as a script that declares only number properties has, holds the
// number property of index p at each position p: such a prefix is kept as its length alone,
// where its ids were 2.7 MB of front.run's targets form (677,085 properties). The first id
// that does not follow ends the prefix, and one written over it in the prefix sets the list
// out in full.

import AnimCore

struct PropertyIDList {
  /// The positions `0..<implicitCount` hold the number property whose index is the position
  /// (`PropertyID(packed:)` of the position: a number's kind packs to 0); `packed` holds the
  /// ids after them.
  private var implicitCount = 0
  private var packed = ChunkedArray<UInt32>()

  init() {}

  var count: Int { implicitCount + packed.count }

  /// The id at `position`.
  subscript(position: Int) -> PropertyID {
    get {
      if position < implicitCount { return PropertyID(packed: UInt32(position)) }
      return PropertyID(packed: packed[position - implicitCount])
    }
    set {
      if position < implicitCount {
        if Self.pack(newValue) == UInt32(position) { return }
        setOut()
      }
      packed[position - implicitCount] = Self.pack(newValue)
    }
  }

  mutating func append(_ id: PropertyID) {
    let id = Self.pack(id)
    if packed.count == 0 && id == UInt32(implicitCount) {
      implicitCount += 1
    } else {
      packed.append(id)
    }
  }

  /// Appends `ids` in order.
  mutating func append(contentsOf ids: UnsafeBufferPointer<PropertyID>) {
    var rest = ids[...]
    // (While the prefix goes on: nearly always all of them, or none.)
    while let first = rest.first, packed.count == 0, Self.pack(first) == UInt32(implicitCount) {
      implicitCount += 1
      rest = rest.dropFirst()
    }
    if rest.isEmpty { return }
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: rest.count) { buffer in
      for (index, id) in rest.enumerated() { buffer[index] = Self.pack(id) }
      packed.append(contentsOf: UnsafeBufferPointer(buffer))
    }
  }

  /// Writes the prefix's ids out in `packed`, before the others: the list no longer has one.
  private mutating func setOut() {
    var all = ChunkedArray<UInt32>()
    for position in 0..<implicitCount { all.append(UInt32(position)) }
    for position in 0..<packed.count { all.append(packed[position]) }
    packed = all
    implicitCount = 0
  }

  /// `id` packed, as the list holds it.
  private static func pack(_ id: PropertyID) -> UInt32 {
    guard let packed = id.packed else { preconditionFailure("more properties of one kind than a table holds") }
    return packed
  }
}
