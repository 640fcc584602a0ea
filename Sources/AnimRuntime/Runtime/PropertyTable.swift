// PropertyTable: the runtime's properties by their names `T.p`, in the order they were
// declared. A script may declare a million properties, and a `Dictionary` from `String` to
// id, with a list of the names beside it, held about a hundred bytes a property: each name
// past 15 bytes a heap string of its own, the dictionary's buckets at most three quarters
// full and doubled as it grows, the list doubled too. Here the names' bytes sit end to end
// in one buffer, each property is its position (its name's end, its engine id), and an
// open-addressed index of positions, keyed by a hash of the name's bytes, finds a name:
// about thirty bytes a property, kept in chunks that never copy what they hold.

import AnimCore

struct PropertyTable {
  /// Every name's bytes, end to end, in order of position.
  private var bytes = ChunkedArray<UInt8>()
  /// Per position: where its name ends in `bytes` (it starts where the one before ends).
  private var ends = ChunkedArray<UInt32>()
  /// Per position: the property's engine id.
  private var ids = ChunkedArray<PropertyID>()
  /// Per position: the top byte of its name's hash, compared before the name itself, so that
  /// a look-up passing other names in the index rarely reads their bytes.
  private var tags = ChunkedArray<UInt8>()
  /// Per slot: 1 + the position of the name it holds, or 0 when empty. Its count is a power
  /// of two, at least a third more than the positions.
  private var slots: [UInt32] = []

  init() {}

  /// The names and ids of `names`, in that order.
  init(_ names: [String], ids: (String) -> PropertyID) {
    for name in names { self[name] = ids(name) }
  }

  var count: Int { ids.count }
  var isEmpty: Bool { ids.count == 0 }

  /// The names in order, as strings.
  var names: [String] {
    var names: [String] = []
    names.reserveCapacity(count)
    for position in 0..<count { names.append(name(at: position)) }
    return names
  }

  /// The ids in order of the names.
  var idsInOrder: [PropertyID] { ids.array }

  /// The name at `position`.
  func name(at position: Int) -> String {
    let range = byteRange(at: position)
    return String(unsafeUninitializedCapacity: range.count) { buffer in
      for (offset, index) in range.enumerated() { buffer[offset] = bytes[index] }
      return range.count
    }
  }

  /// The id at `position`.
  func id(at position: Int) -> PropertyID { ids[position] }

  private func byteRange(at position: Int) -> Range<Int> {
    (position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])
  }

  /// The id of the property named `name`; setting one adds the name at the end, gives a
  /// name there a new id in its place, or (nil) removes the name.
  subscript(name: String) -> PropertyID? {
    get {
      guard let position = position(of: name) else { return nil }
      return ids[position]
    }
    set {
      if let newValue {
        set(newValue, for: name)
      } else {
        remove(name)
      }
    }
  }

  /// The position of `name`, if the table has it.
  func position(of name: String) -> Int? {
    if ids.count == 0 { return nil }
    var name = name
    return name.withUTF8 { key in
      let entry = slots[slot(of: key, hash: Self.hash(of: key))]
      return entry == 0 ? nil : Int(entry) - 1
    }
  }

  /// Gives `name` the id `newID(existing)` returns for its id now (nil when the table has no
  /// such name), adding the name at the end when it is new, or leaves it when that is nil; in
  /// one look-up of the name (a target's declaration looked each of its properties up, then
  /// looked it up again to add it: a script of a million properties spent a twentieth of its
  /// trace finding empty slots). Returns whether it set an id.
  @discardableResult
  mutating func update(_ name: String, _ newID: (PropertyID?) -> PropertyID?) -> Bool {
    var name = name
    return name.withUTF8 { key in
      let hash = Self.hash(of: key)
      var slot = ids.count == 0 ? nil : slot(of: key, hash: hash)
      let existing = slot.flatMap { slots[$0] == 0 ? nil : ids[Int(slots[$0]) - 1] }
      guard let id = newID(existing) else { return false }
      if existing == nil, (ids.count + 1) * 4 > slots.count * 3 {
        rebuildIndex(slotCount: Swift.max(16, slots.count * 2))
        slot = nil
      }
      add(id, key: key, hash: hash, slot: slot ?? self.slot(of: key, hash: hash))
      return true
    }
  }

  private mutating func set(_ id: PropertyID, for name: String) {
    var name = name
    name.withUTF8 { key in
      if (ids.count + 1) * 4 > slots.count * 3 { rebuildIndex(slotCount: Swift.max(16, slots.count * 2)) }
      let hash = Self.hash(of: key)
      add(id, key: key, hash: hash, slot: slot(of: key, hash: hash))
    }
  }

  /// Gives the name `key` (of `hash`), found at `slot` or to go there, the id `id`.
  private mutating func add(_ id: PropertyID, key: UnsafeBufferPointer<UInt8>, hash: UInt32, slot: Int) {
    if slots[slot] != 0 {
      ids[Int(slots[slot]) - 1] = id
      return
    }
    for byte in key { bytes.append(byte) }
    // (Names of 4 GiB and more in all would need a process of a hundred times that.)
    precondition(bytes.count <= Int(UInt32.max), "more property names than a table holds")
    ends.append(UInt32(bytes.count))
    ids.append(id)
    tags.append(Self.tag(of: hash))
    slots[slot] = UInt32(ids.count)
  }

  /// Removes `name` (rare: a target declared again without it, in a session). The
  /// positions after it move down by one.
  private mutating func remove(_ name: String) {
    guard let removed = position(of: name) else { return }
    var kept = PropertyTable()
    for position in 0..<count where position != removed {
      kept[self.name(at: position)] = ids[position]
    }
    self = kept
  }

  /// The slot holding `key`, or the empty slot where it would go.
  private func slot(of key: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Int {
    let mask = slots.count - 1
    let tag = Self.tag(of: hash)
    var index = Int(hash) & mask
    while true {
      let entry = slots[index]
      if entry == 0 || (tags[Int(entry) - 1] == tag && holds(key, at: Int(entry) - 1)) { return index }
      index = (index + 1) & mask
    }
  }

  /// Whether the name at `position` is `key`.
  private func holds(_ key: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
    let range = byteRange(at: position)
    guard range.count == key.count else { return false }
    var index = range.lowerBound
    for byte in key {
      if bytes[index] != byte { return false }
      index += 1
    }
    return true
  }

  private mutating func rebuildIndex(slotCount: Int) {
    slots = Array(repeating: 0, count: slotCount)
    let mask = slotCount - 1
    let bytes = self.bytes
    for position in 0..<count {
      var slot = Int(Self.hash(of: byteRange(at: position).lazy.map { bytes[$0] })) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(position + 1)
    }
  }

  /// The byte of `hash` kept per position: its top one (the index is placed by the low ones).
  private static func tag(of hash: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 24) }

  /// FNV-1a of the bytes (names are short, and one script's: a collision costs a little time,
  /// never correctness).
  private static func hash<Bytes: Sequence<UInt8>>(of key: Bytes) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return hash
  }
}

extension PropertyTable: Sequence {
  /// The names and ids, in order.
  func makeIterator() -> AnyIterator<(name: String, id: PropertyID)> {
    var position = 0
    return AnyIterator {
      guard position < self.count else { return nil }
      defer { position += 1 }
      return (self.name(at: position), self.ids[position])
    }
  }
}
