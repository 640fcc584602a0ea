// ActionTable: what each engine callback key does (`Runtime.actions`). Keys are handed out
// in increasing order (`Runtime.newKey`), and most are taken when their callback runs; a
// large script holds a hundred thousand statements for later, each with its key. A
// dictionary kept each entry in a table at most three quarters full, doubled as it grew:
// about 180 bytes an entry where the entry is 80. Here the entries sit in blocks of 256
// consecutive keys, found by position (no hashing), and a block goes as soon as its last
// entry is taken, so a long session keeps only the blocks of keys still waiting.

struct ActionTable<Value> {
  /// Keys per block: `key >> blockShift` is its block, `key & slotMask` its slot.
  private static var blockShift: Int { 8 }
  private static var slotMask: Int { 255 }

  private struct Block {
    var slots: [Value?] = Array(repeating: nil, count: 256)
    /// How many slots hold an entry.
    var held = 0
  }

  /// The blocks by `key >> blockShift`, each while any of its keys holds an entry. (By
  /// number, not in a list from the first: a session that keeps one early key while its
  /// keys count on to the billions holds two blocks, not a list of millions.)
  private var blocks: [Int: Block] = [:]
  /// The number of entries.
  private(set) var count = 0

  init() {}

  /// The number of blocks kept (for tests: the memory held).
  var blocksKept: Int { blocks.count }

  subscript(key: Int) -> Value? {
    get { blocks[key >> Self.blockShift]?.slots[key & Self.slotMask] }
    set { update(key, to: newValue) }
  }

  /// Removes the entry of `key`; returns it.
  @discardableResult
  mutating func removeValue(forKey key: Int) -> Value? { update(key, to: nil) }

  /// The entry of `key`, removed unless `keeps` says it stays: what a callback does when it
  /// runs, with one look-up of its block (a script's callbacks run by the hundred thousand).
  /// The entry is moved out of its slot, not copied and then destroyed there: a copy of a
  /// statement's entry retains every reference it holds (about 3 % of runtime.sample.mixed's
  /// time in a profile), and one that stays is put back.
  mutating func take(_ key: Int, unless keeps: (Value) -> Bool) -> Value? {
    let slot = key & Self.slotMask
    guard let index = blocks.index(forKey: key >> Self.blockShift), let value = blocks.values[index].slots[slot].take()
    else { return nil }
    if keeps(value) {
      blocks.values[index].slots[slot] = value
      return value
    }
    blocks.values[index].held -= 1
    count -= 1
    if blocks.values[index].held == 0 { blocks.remove(at: index) }
    return value
  }

  /// The entries in order of their keys.
  var entries: [(key: Int, value: Value)] {
    var entries: [(key: Int, value: Value)] = []
    entries.reserveCapacity(count)
    for (block, held) in blocks.sorted(by: { $0.key < $1.key }) {
      for (slot, value) in held.slots.enumerated() {
        if let value { entries.append((block << Self.blockShift | slot, value)) }
      }
    }
    return entries
  }

  @discardableResult
  private mutating func update(_ key: Int, to value: Value?) -> Value? {
    let block = key >> Self.blockShift
    var found = blocks.index(forKey: block)
    if found == nil {
      guard value != nil else { return nil }
      blocks[block] = Block()
      found = blocks.index(forKey: block)
    }
    // (Through the index: one look-up of the block, and its slots changed in place.)
    let index = found!
    let slot = key & Self.slotMask
    // Swapped in: the old entry moved out, not copied and then destroyed in its slot (a copy
    // retained what it holds: a held statement's context).
    var old = value
    swap(&old, &blocks.values[index].slots[slot])
    let change = (value == nil ? 0 : 1) - (old == nil ? 0 : 1)
    count += change
    blocks.values[index].held += change
    if blocks.values[index].held == 0 { blocks.remove(at: index) }
    return old
  }
}
