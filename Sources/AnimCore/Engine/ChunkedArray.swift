// ChunkedArray: a growable array kept in chunks of 4,096 elements, for the engine's
// per-animation records and the checker's name tables (`NameTable`, AnimLanguage). It is
// `public` and inlinable only so that the checker's code specialises it: a name is looked up
// at every use, and with `package` access the checker called its subscript unspecialised,
// looking up generic metadata at every access (seen in a profile of `anim trace`). It is not
// part of the engine's API for embedders.
//
// An `Array` doubles when it fills: it copies everything it holds, in one call, and leaves
// up to half its memory spare. With 100,000 nodes that is a copy of several megabytes in
// whichever frame adds the 65,537th, and 31% of the nodes' memory unused after it. Here
// growing adds a chunk: nothing beyond the last chunk is ever copied, and the spare room is
// at most what the last chunk holds (each chunk grows as an array does until it holds 4,096
// elements, so a small engine stays small).

/// A growable random-access array stored in chunks of `chunkSize` elements.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
  /// Elements per chunk, a power of two so that an index splits with a shift and a mask (the
  /// subscript and `append` write these numbers out: see the subscript).
  @inlinable public static var chunkSize: Int { 1 << chunkShift }
  @inlinable public static var chunkShift: Int { 12 }

  /// Every chunk but the last holds exactly `chunkSize` elements; the last holds 1 or more.
  @usableFromInline var chunks: [ContiguousArray<Element>] = []
  /// The number of elements.
  @usableFromInline var storedCount = 0
  @inlinable public var count: Int { storedCount }

  @inlinable public init() {}

  /// The elements of `elements` (an array or a slice of one), a chunk at a time.
  @inlinable
  public init<C: RandomAccessCollection>(_ elements: C) where C.Element == Element, C.Index == Int {
    var start = elements.startIndex
    while start < elements.endIndex {
      let end = Swift.min(start + Self.chunkSize, elements.endIndex)
      chunks.append(ContiguousArray(elements[start..<end]))
      start = end
    }
    storedCount = elements.count
  }

  /// The elements in one array, copied a chunk at a time.
  @inlinable public var array: [Element] {
    var array: [Element] = []
    array.reserveCapacity(count)
    for chunk in chunks { array.append(contentsOf: chunk) }
    return array
  }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { count }

  @inlinable @inline(__always) public func index(after i: Int) -> Int { i + 1 }
  @inlinable @inline(__always) public func index(before i: Int) -> Int { i - 1 }

  /// The element at `index`. Bounds are checked by the chunks: all but the last are full.
  /// The shift and mask are written out (`chunkShift`, `chunkSize - 1`), so that no generic
  /// static member is called for them.
  @inlinable @inline(__always) public subscript(index: Int) -> Element {
    get { chunks[index &>> 12][index & 4_095] }
    _modify { yield &chunks[index &>> 12][index & 4_095] }
  }

  /// Adds `element` at the end: into the last chunk, or a new one when the last is full.
  @inlinable
  public mutating func append(_ element: Element) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == 4_096 {  // chunkSize, written out as above
      chunks.append(ContiguousArray())
    }
    let last = chunks.count - 1
    let held = chunks[last].count
    if held == chunks[last].capacity {
      // Each chunk grows by doubling up to a whole chunk, so that the spare room is at most
      // what the last chunk holds (the copies are of one chunk at most). Never past a chunk:
      // an array holding 4,095 would grow to 8,191.
      chunks[last].reserveCapacity(Swift.min(4_096, Swift.max(4, 2 * held)))
    }
    chunks[last].append(element)
    storedCount += 1
  }

  /// Adds `elements` at the end, a chunk's share at a time (a name's bytes, in one copy rather
  /// than one `append` each: appending a million names byte by byte was a twentieth of a
  /// trace that declared them).
  @inlinable
  public mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    // (Nearly always: a few bytes, into a chunk with room for them. Its capacity may be more
    // than a chunk: an allocation is rounded up.)
    if let last = chunks.indices.last,
      chunks[last].count + elements.count <= Swift.min(chunks[last].capacity, 4_096)
    {
      chunks[last].append(contentsOf: elements)
      storedCount += elements.count
      return
    }
    var rest = elements[...]
    while !rest.isEmpty {
      if chunks.isEmpty || chunks[chunks.count - 1].count == 4_096 {  // chunkSize, written out as above
        chunks.append(ContiguousArray())
      }
      let last = chunks.count - 1
      let held = chunks[last].count
      let taken = Swift.min(rest.count, 4_096 - held)
      if held + taken > chunks[last].capacity {
        // Grown as `append(_:)` grows it: doubling, never past a chunk.
        chunks[last].reserveCapacity(Swift.min(4_096, Swift.max(4, 2 * held, held + taken)))
      }
      chunks[last].append(contentsOf: rest.prefix(taken))
      rest = rest.dropFirst(taken)
      storedCount += taken
    }
  }

  /// Calls `body` with the elements in `range`, in order, as the buffers of contiguous
  /// storage they sit in (one for each chunk the range crosses).
  @inlinable
  public func withBuffers(in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) -> Void) {
    var start = range.lowerBound
    while start < range.upperBound {
      let chunk = start &>> 12  // chunkShift, written out as in the subscript
      let offset = start & 4_095
      let count = Swift.min(range.upperBound - start, 4_096 - offset)
      chunks[chunk].withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset..<(offset + count)])) }
      start += count
    }
  }

  /// Removes and returns the last element.
  @inlinable @discardableResult
  public mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast on an empty ChunkedArray")
    let element = chunks[chunks.count - 1].removeLast()
    if chunks[chunks.count - 1].isEmpty { chunks.removeLast() }
    storedCount -= 1
    return element
  }

  /// Removes the last `k` elements.
  @inlinable
  public mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "removeLast(\(k)) on \(count) elements")
    for _ in 0..<k { removeLast() }
  }

  /// The storage in use, in bytes, spare room included (for memory figures).
  package var allocatedBytes: Int {
    chunks.reduce(chunks.capacity * MemoryLayout<ContiguousArray<Element>>.stride) {
      $0 + $1.capacity * MemoryLayout<Element>.stride
    }
  }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
  public static func == (a: ChunkedArray, b: ChunkedArray) -> Bool { a.elementsEqual(b) }
}

/// Coded as a plain array, so that snapshots do not depend on how the elements are stored.
extension ChunkedArray: Codable where Element: Codable {
  public init(from decoder: Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd { append(try container.decode(Element.self)) }
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}
