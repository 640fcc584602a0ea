// PropertyTable: the runtime's properties by their names `T.p`, in the order they were
// declared. A script may declare a million properties, and a `Dictionary` from `String` to
// id, with a list of the names beside it, held about a hundred bytes a property: each name
// past 15 bytes a heap string of its own, the dictionary's buckets at most three quarters
// full and doubled as it grows, the list doubled too. Here the names' bytes sit end to end
// in one buffer, each property is its position (its name's end, its engine id), and an
// open-addressed index of positions, keyed by a hash of the name's bytes, finds a name:
// about thirty bytes a property, kept in chunks that never copy what they hold.
//
// A declaration looks its names up as a target's name and a property's (`update(target:
// property:_:)`), hashed and compared in two parts, so that no string `T.p` is made for
// them; and each slot of the index holds the bits of its name's hash that did not place it,
// so that a look-up passing other names reads nothing but the index (reading each one's tag
// from a list by position was a cache miss at every step, a twelfth of a trace that declared
// a million properties). A declaration of a target the runtime did not have adds its names
// without a look-up (`appendNew(target:property:_:)`): the index takes them at the next
// look-up, in one pass, or never when nothing looks a name up (a trace of every property by
// position), instead of one cache miss each. Targets declared new one after another with one
// list of properties store each target's name once (TargetRuns.swift).

import AnimCore

struct PropertyTable {
  /// Every name's bytes, end to end, in order of position.
  private var bytes = ChunkedArray<UInt8>()
  /// Per entry (a position that is not in one of `runs`, counted without them): where its
  /// name ends in `bytes` (it starts where the one before ends).
  private var ends = ChunkedArray<UInt32>()
  /// The names of targets declared new one after another with one list of properties, each
  /// target's name once (see `appendNew(target:properties:ids:)`).
  private var runs = TargetRuns()
  /// The properties of the targets in `runs`, each once, and their places there.
  private var runProperties: [String] = []
  /// The bytes of each of `runProperties` with a dot before them, end to end, and where each
  /// starts there (one more: where the last ends).
  private var runSuffixBytes: [UInt8] = []
  private var runSuffixStarts: [Int] = [0]
  private var runPlaces: [String: UInt32] = [:]
  /// The last list of properties `runPlaces(of:)` was asked about, and its answer: targets
  /// declared one after another mostly share one list.
  private var lastPropertyList: [String] = []
  private var lastRunPlaces: [UInt32]?
  /// Per position: the property's engine id (in four bytes, or none: PropertyIDList.swift).
  private var ids = PropertyIDList()
  /// Per slot: 0 when empty, else 1 + the position of the name it holds in the bits the
  /// slot's index takes (`mask`), and the bits of the name's hash above them in the others,
  /// compared before the name itself. Its count is a power of two, at least a third more than
  /// the positions, so that 1 + a position fits under the mask.
  private var slots: [UInt32] = []
  /// The positions the index holds, `0..<indexed`; those after it (`appendNew`) wait for the
  /// next look-up.
  private var indexed = 0

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
  var idsInOrder: [PropertyID] {
    var idsInOrder: [PropertyID] = []
    idsInOrder.reserveCapacity(count)
    for position in 0..<count { idsInOrder.append(id(at: position)) }
    return idsInOrder
  }

  /// The name at `position`.
  func name(at position: Int) -> String {
    let segments = segments(at: position)
    return String(unsafeUninitializedCapacity: segments.count) { buffer in
      var end = 0
      withBuffers(of: segments) { part in
        _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(from: part)
        end += part.count
      }
      return end
    }
  }

  /// Appends the bytes of the name at `position` to `buffer`: in a run, its target's name and
  /// then its property's with a dot before it, two appends (a sample of every property
  /// writes each name: a part at a time, through `segments`, took twice as long).
  func appendName(at position: Int, to buffer: inout [UInt8]) {
    switch runs.place(of: position) {
    case .entry(let entry):
      bytes.withBuffers(in: entryRange(entry)) { buffer.append(contentsOf: $0) }
    case .inRun(let target, let property):
      runs.withBuffers(in: target) { buffer.append(contentsOf: $0) }
      buffer.append(contentsOf: runSuffixBytes[runSuffixStarts[Int(property)]..<runSuffixStarts[Int(property) + 1]])
    }
  }

  /// Calls `body` with the name at each position in `range`, in order, in two parts whose
  /// bytes end to end are the name: in a run, its target's name and its property's with a
  /// dot before it; else the whole name and nothing. And whether `head` holds the bytes the
  /// last call's did (a target's name, for its properties after the first). (The runs are
  /// walked, not searched for each position: `TargetRuns.forEach(in:entry:inRun:)`.)
  func forEachName(
    in range: Range<Int>,
    _ body: (_ head: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>, _ sameHead: Bool) -> Void
  ) {
    let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    runSuffixBytes.withUnsafeBufferPointer { suffixes in
      runSuffixStarts.withUnsafeBufferPointer { starts in
        runs.forEach(in: range) { entry in
          bytes.withBuffer(in: entryRange(entry)) { body($0, none, false) }
        } inRun: { target, property, sameTarget in
          let place = Int(property)
          body(target, UnsafeBufferPointer(rebasing: suffixes[starts[place]..<starts[place + 1]]), sameTarget)
        }
      }
    }
  }

  /// The id at `position`.
  func id(at position: Int) -> PropertyID { ids[position] }

  /// The most properties the targets in runs have in all: a target with others has its
  /// names stored whole (a script does not have this many property names, but a table of
  /// them could grow).
  private static let runPropertyLimit = 1 << 16

  /// Where the name at `position` is: all of it in `bytes` at `whole`; or, in a run, its
  /// target's name in the runs' bytes, a dot, and `property`.
  private struct Segments {
    var whole: Range<Int>
    var target: Range<Int>?
    var property: String?

    /// The length of the name in bytes.
    var count: Int {
      if let target, let property { return target.count + 1 + property.utf8.count }
      return whole.count
    }
  }

  /// Where the name of entry `entry` (a position not in a run) is in `bytes`.
  private func entryRange(_ entry: Int) -> Range<Int> {
    (entry == 0 ? 0 : Int(ends[entry - 1]))..<Int(ends[entry])
  }

  private func segments(at position: Int) -> Segments {
    switch runs.place(of: position) {
    case .entry(let entry):
      return Segments(whole: entryRange(entry))
    case .inRun(let target, let property):
      return Segments(whole: 0..<0, target: target, property: runProperties[Int(property)])
    }
  }

  /// Calls `body` with the bytes of a name, in order, as buffers of the table's storage.
  private func withBuffers(of segments: Segments, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    guard let target = segments.target, var property = segments.property else {
      bytes.withBuffers(in: segments.whole, body)
      return
    }
    runs.withBuffers(in: target, body)
    var dot = Key.dot
    withUnsafePointer(to: &dot) { body(UnsafeBufferPointer(start: $0, count: 1)) }
    property.withUTF8 { body($0) }
  }

  /// The places in `runProperties` of `properties`, a target's, added there as needed; nil
  /// when the target's names are to be stored whole (too many properties there already).
  private mutating func runPlaces(of properties: [String]) -> [UInt32]? {
    // (Arrays compare by identity first.)
    if properties == lastPropertyList { return lastRunPlaces }
    lastPropertyList = properties
    lastRunPlaces = nil
    var places: [UInt32] = []
    places.reserveCapacity(properties.count)
    for property in properties {
      if let place = runPlaces[property] {
        places.append(place)
      } else {
        guard runProperties.count < Self.runPropertyLimit else { return nil }
        places.append(UInt32(runProperties.count))
        runPlaces[property] = UInt32(runProperties.count)
        runProperties.append(property)
        runSuffixBytes.append(Key.dot)
        runSuffixBytes.append(contentsOf: property.utf8)
        runSuffixStarts.append(runSuffixBytes.count)
      }
    }
    lastRunPlaces = places
    return places
  }

  /// The id of the property named `name`; setting one adds the name at the end, gives a
  /// name there a new id in its place, or (nil) removes the name.
  subscript(name: String) -> PropertyID? {
    mutating get {
      guard let position = position(of: name) else { return nil }
      return id(at: position)
    }
    set {
      if let newValue {
        set(newValue, for: name)
      } else {
        remove(name)
      }
    }
  }

  /// The id of the property `target.property`.
  subscript(target target: String, property property: String) -> PropertyID? {
    mutating get {
      indexAppendedNames()
      // (The id is read outside the closure: a non-mutating method called inside it, which
      // captures this mutating getter's `self`, was handed a copy of the whole table, every
      // array retained and released again, at each look-up.)
      guard let position = Key.with(target, property, { found($0) }) else { return nil }
      return id(at: position)
    }
  }

  /// The position of `name`, if the table has it.
  mutating func position(of name: String) -> Int? {
    indexAppendedNames()
    return Key.with(name) { found($0) }
  }

  /// The position of `key` in the index as it is. (Mutating, though it changes nothing, so
  /// that the closures that call it capture the table in place: one that read it captured a
  /// copy, a retain and a release of each of its lists at each look-up.)
  private mutating func found(_ key: Key) -> Int? {
    if ids.count == 0 { return nil }
    let entry = slots[slot(of: key)]
    return entry == 0 ? nil : position(in: entry)
  }

  /// Gives `name` the id `newID(existing)` returns for its id now (nil when the table has no
  /// such name), adding the name at the end when it is new, or leaves it when that is nil; in
  /// one look-up of the name (a target's declaration looked each of its properties up, then
  /// looked it up again to add it: a script of a million properties spent a twentieth of its
  /// trace finding empty slots). Returns whether it set an id.
  @discardableResult
  mutating func update(_ name: String, _ newID: (PropertyID?) -> PropertyID?) -> Bool {
    Key.with(name) { key in update(key, newID) }
  }

  /// `update(_:_:)` of the name `target.property`, given in its two parts (no string made).
  @discardableResult
  mutating func update(target: String, property: String, _ newID: (PropertyID?) -> PropertyID?) -> Bool {
    Key.with(target, property) { key in update(key, newID) }
  }

  private mutating func update(_ key: Key, _ newID: (PropertyID?) -> PropertyID?) -> Bool {
    indexAppendedNames()
    var slot = ids.count == 0 ? nil : slot(of: key)
    let existing = slot.flatMap { slots[$0] == 0 ? nil : id(at: position(in: slots[$0])) }
    guard let id = newID(existing) else { return false }
    if existing == nil, (ids.count + 1) * 4 > slots.count * 3 {
      rebuildIndex(slotCount: Swift.max(16, slots.count * 2))
      slot = nil
    }
    add(id, key: key, slot: slot ?? self.slot(of: key))
    return true
  }

  private mutating func set(_ id: PropertyID, for name: String) {
    indexAppendedNames()
    Key.with(name) { key in
      if (ids.count + 1) * 4 > slots.count * 3 { rebuildIndex(slotCount: Swift.max(16, slots.count * 2)) }
      add(id, key: key, slot: slot(of: key))
    }
  }

  /// Adds `target.property`, which the caller knows the table does not have (the name twice
  /// would be two properties), at the end with the id `id`, without a look-up: the index
  /// takes it at the next one.
  mutating func appendNew(target: String, property: String, _ id: PropertyID) {
    // (No key: its hash would go unused until the index takes the name, which hashes it again.)
    var target = target
    var property = property
    target.withUTF8 { bytes.append(contentsOf: $0) }
    bytes.append(Key.dot)
    property.withUTF8 { bytes.append(contentsOf: $0) }
    endName(id)
  }

  /// Adds the names `target.p` of a target the table does not have, for each property `p` of
  /// `properties` in order with the id in `ids` at its place, as `appendNew(target:property:_:)`
  /// adds one name: as a target of a run (`TargetRuns`), its name stored once, where each
  /// name stored whole took 24 bytes of the 36 of a target `box12345 { x, y, opacity }`;
  /// and its ids in one append, where a name at a time made five appends to the table's
  /// lists, 745 instructions a property of a script that declared 677,000.
  mutating func appendNew(target: String, properties: [String], ids: UnsafeBufferPointer<PropertyID>) {
    precondition(properties.count == ids.count, "one id for each property")
    if properties.isEmpty { return }
    var target = target
    if let places = runPlaces(of: properties) {
      target.withUTF8 { runs.append($0, places: places, at: count) }
      self.ids.append(contentsOf: ids)
      return
    }
    for (property, id) in zip(properties, ids) { appendNew(target: target, property: property, id) }
  }

  /// Gives the name `key`, found at `slot` or to go there, the id `id`.
  private mutating func add(_ id: PropertyID, key: Key, slot: Int) {
    if slots[slot] != 0 {
      ids[position(in: slots[slot])] = id
      return
    }
    append(id, key: key)
    slots[slot] = entry(position: ids.count - 1, hash: key.hash)
    indexed = count
  }

  /// Adds the name `key` at the end with the id `id` (not to the index).
  private mutating func append(_ id: PropertyID, key: Key) {
    bytes.append(contentsOf: key.head)
    if let tail = key.tail {
      bytes.append(Key.dot)
      bytes.append(contentsOf: tail)
    }
    endName(id)
  }

  /// Ends the name whose bytes were just appended, with the id `id`.
  private mutating func endName(_ id: PropertyID) {
    // (Names of 4 GiB and more in all would need a process of a hundred times that.)
    precondition(bytes.count <= Int(UInt32.max), "more property names than a table holds")
    ends.append(UInt32(bytes.count))
    ids.append(id)
  }

  /// Moves the properties `moved` (ids, in the order they are to take) to the end, after the
  /// others in their order. (For a script read statement by statement: the properties a
  /// target's statement adds after its first step go where the whole run adds them, after
  /// every target's first step.)
  mutating func moveToEnd(_ moved: [PropertyID]) {
    guard !moved.isEmpty else { return }
    var rank: [PropertyID: Int] = [:]
    for (index, id) in moved.enumerated() { rank[id] = index }
    var movedPositions = Array(repeating: -1, count: moved.count)
    var table = PropertyTable()
    func copy(_ position: Int) {
      // (Each stored whole: the one before it may have moved.)
      withBuffers(of: segments(at: position)) { table.bytes.append(contentsOf: $0) }
      table.ends.append(UInt32(table.bytes.count))
      table.ids.append(ids[position])
    }
    for position in 0..<count {
      if let index = rank[id(at: position)] {
        movedPositions[index] = position
      } else {
        copy(position)
      }
    }
    for position in movedPositions where position >= 0 { copy(position) }
    // (The index is built again at the next look-up.)
    self = table
  }

  /// Removes `name` (rare: a target declared again without it, in a session). The
  /// positions after it move down by one.
  private mutating func remove(_ name: String) {
    guard let removed = position(of: name) else { return }
    var kept = PropertyTable()
    for position in 0..<count where position != removed {
      kept[self.name(at: position)] = id(at: position)
    }
    self = kept
  }

  /// The bits of a slot that its index takes: those of its position.
  private var mask: UInt32 { UInt32(truncatingIfNeeded: slots.count - 1) }

  /// A slot's entry for the name at `position` whose hash is `hash`.
  private func entry(position: Int, hash: UInt32) -> UInt32 { (hash & ~mask) | UInt32(position + 1) }

  /// The position of the name a (non-empty) slot's entry holds.
  private func position(in entry: UInt32) -> Int { Int(entry & mask) - 1 }

  /// The slot holding `key`, or the empty slot where it would go.
  private func slot(of key: Key) -> Int {
    let mask = self.mask
    let high = key.hash & ~mask
    var index = Int(key.hash & mask)
    while true {
      let entry = slots[index]
      if entry == 0 || (entry & ~mask == high && holds(key, at: Int(entry & mask) - 1)) { return index }
      index = (index + 1) & Int(mask)
    }
  }

  /// Whether the name at `position` is `key`.
  private func holds(_ key: Key, at position: Int) -> Bool {
    let segments = segments(at: position)
    guard segments.count == key.count else { return false }
    if let target = segments.target, let property = segments.property {
      // A name in a run, looked up as its target and its property (nearly always): each part
      // against its own.
      if let tail = key.tail, key.head.count == target.count {
        return runs.bytes(in: target, equal: key.head) && property.utf8.elementsEqual(tail)
      }
      // (Else byte by byte, in its three parts.)
      var index = 0
      var matches = true
      withBuffers(of: segments) { part in
        for byte in part where matches {
          matches = key.byte(at: index) == byte
          index += 1
        }
      }
      return matches
    }
    let range = segments.whole
    var index = range.lowerBound
    for byte in key.head {
      if bytes[index] != byte { return false }
      index += 1
    }
    guard let tail = key.tail else { return true }
    if bytes[index] != Key.dot { return false }
    index += 1
    for byte in tail {
      if bytes[index] != byte { return false }
      index += 1
    }
    return true
  }

  /// Puts the names `appendNew` added into the index (growing it when they fill it past
  /// three quarters, as adding them one by one would).
  private mutating func indexAppendedNames() {
    guard indexed < count else { return }
    if count * 4 > slots.count * 3 {
      var slotCount = Swift.max(16, slots.count * 2)
      while count * 4 > slotCount * 3 { slotCount *= 2 }
      rebuildIndex(slotCount: slotCount)
    } else {
      for position in indexed..<count { index(position) }
      indexed = count
    }
  }

  private mutating func rebuildIndex(slotCount: Int) {
    slots = Array(repeating: 0, count: slotCount)
    for position in 0..<count { index(position) }
    indexed = count
  }

  /// Puts the name at `position` in the first empty slot from its hash's.
  private mutating func index(_ position: Int) {
    let mask = Int(self.mask)
    var hash = NameHash()
    withBuffers(of: segments(at: position)) { hash.add($0) }
    var slot = Int(hash.value) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = entry(position: position, hash: hash.value)
  }
}

/// A name looked up in a `PropertyTable`: its UTF-8 bytes, `head`, then, for `T.p` given as
/// its target and its property, a dot and `tail`; and its hash.
private struct Key {
  static let dot = UInt8(ascii: ".")

  let head: UnsafeBufferPointer<UInt8>
  let tail: UnsafeBufferPointer<UInt8>?
  let hash: UInt32

  private init(_ head: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>?) {
    self.head = head
    self.tail = tail
    var hash = NameHash()
    hash.add(head)
    if let tail {
      hash.add(Self.dot)
      hash.add(tail)
    }
    self.hash = hash.value
  }

  /// The length of the name in bytes.
  var count: Int { head.count + (tail.map { $0.count + 1 } ?? 0) }

  /// The name's byte at `index` (below `count`).
  func byte(at index: Int) -> UInt8 {
    if index < head.count { return head[index] }
    if index == head.count { return Self.dot }
    return tail.map { $0[index - head.count - 1] } ?? 0
  }

  /// `body` of the key of `name`.
  static func with<Result>(_ name: String, _ body: (Key) -> Result) -> Result {
    var name = name
    return name.withUTF8 { body(Key($0, nil)) }
  }

  /// `body` of the key of `target.property`.
  static func with<Result>(_ target: String, _ property: String, _ body: (Key) -> Result) -> Result {
    var target = target
    var property = property
    return target.withUTF8 { head in property.withUTF8 { tail in body(Key(head, tail)) } }
  }
}

/// The hash of a name's bytes: FNV-1a, then mixed (MurmurHash3's finaliser), so that both
/// its low bits, which place a name in the index, and its high ones, kept in the slot, vary
/// with every byte. Names are short, and one script's: a collision costs a little time,
/// never correctness.
private struct NameHash {
  private var state: UInt32 = 2_166_136_261

  mutating func add(_ byte: UInt8) { state = (state ^ UInt32(byte)) &* 16_777_619 }

  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    for byte in bytes { add(byte) }
  }

  var value: UInt32 {
    var hash = state
    hash ^= hash >> 16
    hash = hash &* 0x85eb_ca6b
    hash ^= hash >> 13
    hash = hash &* 0xc2b2_ae35
    hash ^= hash >> 16
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
      return (self.name(at: position), self.id(at: position))
    }
  }
}
