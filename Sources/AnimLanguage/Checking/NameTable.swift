// NameTable: the checker's tables of names (the environment's symbols, the names a
// statement-by-statement check assumed undeclared, the newest animation on each property).
// Names are short and looked up very often, and a script may declare a million of them.

import AnimCore

/// A key with a cheap hash, for `NameTable`.
protocol CheapKey: Equatable, Sendable {
  /// A hash of the key's bytes (FNV-1a), never 0.
  var cheapHash: UInt32 { get }
}

/// FNV-1a of a string's bytes, continuing from `hash`.
func fnv1a(_ text: String, from hash: UInt32 = 2_166_136_261) -> UInt32 {
  var hash = hash
  let done = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return true
  }
  if done == nil {
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
  }
  return hash
}

/// Whether `a` and `b` are the same bytes (not `==`, which compares canonically, a
/// precomposed é equal to a decomposed one, and takes its slow path for two short strings
/// that differ). Lengths first, then the two buffers: the UTF-8 views compared element by
/// element took about 130 instructions a name.
func hasSameBytes(_ a: String, _ b: String) -> Bool {
  let (a, b) = (a.utf8, b.utf8)
  guard a.count == b.count else { return false }
  let compared = a.withContiguousStorageIfAvailable { first in
    b.withContiguousStorageIfAvailable { second in first.elementsEqual(second) }
  }
  return (compared ?? nil) ?? a.elementsEqual(b)
}

extension String: CheapKey {
  var cheapHash: UInt32 {
    let hash = fnv1a(self)
    return hash == 0 ? 1 : hash
  }
}

/// An entry of an `EntryTable`: a value that holds its own key (a symbol its name).
protocol KeyedEntry: Sendable {
  associatedtype Key: CheapKey
  var key: Key { get }
}

/// A table of entries by their keys: the entries in a list in the order added, and an
/// open-addressed index into it keyed by a cheap hash of the key's bytes, where a `Dictionary`
/// would hash each key with seeded SipHash. Names are short and looked up very often; the
/// keys are one script's names, so a collision costs a little time and never correctness.
///
/// The entries are kept in chunks (AnimCore's `ChunkedArray`): a script may declare a
/// million names, and an array of them that doubles as it fills holds up to twice what it
/// needs, and three times while it moves, for the whole check. An entry that holds its key
/// is not kept beside a copy of it: the environment's symbols each hold their name, and a
/// list of the names as well held 16 bytes a name, 3.6 MB for a script of 225,000 targets.
/// The index is four bytes a slot, filled up to three quarters, as AnimRuntime's
/// `PropertyTable` keeps its own: a slot's position and its key's hash side by side, at most
/// half full, were 4.2 MB for those targets.
struct EntryTable<Entry: KeyedEntry>: Sendable {
  typealias Key = Entry.Key

  /// Per slot: 0 when empty, else 1 + the index of its entry in the bits the slot's index
  /// takes (`mask`), and the bits of its key's hash above them in the others, compared
  /// before the key itself. Its count is a power of two, at least a third more than the
  /// entries, so that 1 + an index fits under the mask.
  private var slots: [UInt32] = []
  private(set) var entries = ChunkedArray<Entry>()

  var count: Int { entries.count }
  var isEmpty: Bool { entries.count == 0 }

  /// The bits of a slot that its index takes: those of its entry's position.
  private var mask: UInt32 { UInt32(truncatingIfNeeded: slots.count - 1) }

  /// The slot of `key`, whose hash is `hash`, or the empty slot where it would go.
  private func slot(of key: Key, hash: UInt32) -> Int {
    let mask = self.mask
    let high = hash & ~mask
    var index = Int(hash & mask)
    while true {
      let slot = slots[index]
      if slot == 0 || (slot & ~mask == high && entries[Int(slot & mask) - 1].key == key) { return index }
      index = (index + 1) & Int(mask)
    }
  }

  /// The entry whose key is `key`, if any.
  subscript(key: Key) -> Entry? {
    if entries.count == 0 { return nil }
    let slot = slots[slot(of: key, hash: key.cheapHash)]
    return slot == 0 ? nil : entries[Int(slot & mask) - 1]
  }

  /// Puts `entry` in the table, in place of the one with its key; returns the one it replaces.
  @discardableResult
  mutating func update(_ entry: Entry) -> Entry? {
    if (entries.count + 1) * 4 > slots.count * 3 { rebuild(capacity: max(16, slots.count * 2)) }
    let key = entry.key
    let hash = key.cheapHash
    let index = slot(of: key, hash: hash)
    let found = slots[index]
    if found != 0 {
      let position = Int(found & mask) - 1
      let old = entries[position]
      entries[position] = entry
      return old
    }
    entries.append(entry)
    slots[index] = (hash & ~mask) | UInt32(entries.count)
    return nil
  }

  /// Puts `entry` in the table unless one with its key is there; returns whether it did.
  /// (Where the entry's key is all that matters: nothing is copied out or replaced when it
  /// is there, as `update` would.)
  mutating func insert(_ entry: Entry) -> Bool {
    if (entries.count + 1) * 4 > slots.count * 3 { rebuild(capacity: max(16, slots.count * 2)) }
    let key = entry.key
    let hash = key.cheapHash
    let index = slot(of: key, hash: hash)
    guard slots[index] == 0 else { return false }
    entries.append(entry)
    slots[index] = (hash & ~mask) | UInt32(entries.count)
    return true
  }

  /// Removes the entry whose key is `key` (rare: the entries are rebuilt).
  mutating func remove(_ key: Key) {
    if entries.count == 0 { return }
    var all = entries.array
    guard let position = all.firstIndex(where: { $0.key == key }) else { return }
    all.remove(at: position)
    entries = ChunkedArray(all)
    rebuild(capacity: slots.count)
  }

  mutating func removeAll() {
    if entries.count == 0 { return }
    entries = ChunkedArray()
    for index in slots.indices { slots[index] = 0 }
  }

  /// Rebuilds the index with `capacity` slots (a power of two).
  private mutating func rebuild(capacity: Int) {
    slots = Array(repeating: 0, count: capacity)
    let mask = self.mask
    for position in 0..<entries.count {
      // (The keys are distinct: each goes in the first empty slot from its hash's.)
      let hash = entries[position].key.cheapHash
      var index = Int(hash & mask)
      while slots[index] != 0 { index = (index + 1) & Int(mask) }
      slots[index] = (hash & ~mask) | UInt32(position + 1)
    }
  }
}

/// A key and its value, as a `NameTable` holds them.
struct KeyAndValue<Key: CheapKey, Value: Sendable>: KeyedEntry {
  let key: Key
  var value: Value
}

/// A table from keys (names) to values, in the order they were added: an `EntryTable` of
/// keys and values.
struct NameTable<Key: CheapKey, Value: Sendable>: Sendable {
  private var table = EntryTable<KeyAndValue<Key, Value>>()

  var count: Int { table.count }
  var isEmpty: Bool { table.isEmpty }
  /// The keys, in the order they were added.
  var allKeys: [Key] { table.entries.map(\.key) }

  subscript(key: Key) -> Value? {
    get { table[key]?.value }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        table.remove(key)
      }
    }
  }

  /// Sets the value of `key`; returns the one it replaces.
  @discardableResult
  mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    table.update(KeyAndValue(key: key, value: value))?.value
  }

  /// Adds `key` with `value` unless the table has `key`; returns whether it added it.
  mutating func insert(_ value: Value, forKey key: Key) -> Bool {
    table.insert(KeyAndValue(key: key, value: value))
  }

  mutating func removeAll() { table.removeAll() }
}
