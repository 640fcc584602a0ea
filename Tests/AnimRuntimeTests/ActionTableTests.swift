import Testing

@testable import AnimRuntime

/// The runtime's table of what each callback key does (`ActionTable`): a dictionary's
/// answers, with a block of keys kept only while one of its keys holds an entry.
@Suite struct ActionTableTests {
  @Test func entriesAreFoundRemovedAndListedInKeyOrder() {
    var table = ActionTable<String>()
    #expect(table[1] == nil && table.count == 0 && table.entries.isEmpty)
    for key in [3, 1, 700, 256, 255, 100_000] { table[key] = "a\(key)" }
    #expect(table.count == 6)
    #expect(table.entries.map(\.key) == [1, 3, 255, 256, 700, 100_000])
    #expect(table.entries.map(\.value) == ["a1", "a3", "a255", "a256", "a700", "a100000"])
    #expect(table[255] == "a255" && table[256] == "a256" && table[2] == nil && table[99_999] == nil)
    table[3] = "b3"
    #expect(table[3] == "b3" && table.count == 6)
    #expect(table.removeValue(forKey: 700) == "a700" && table.removeValue(forKey: 700) == nil)
    #expect(table.removeValue(forKey: 12_345) == nil)
    #expect(table.count == 5 && table[700] == nil)
  }

  /// A block of 256 keys goes with its last entry: keys taken as their callbacks run leave
  /// nothing behind, and one early key kept while later ones come and go holds one block.
  @Test func aBlockGoesWithItsLastEntry() {
    var table = ActionTable<Int>()
    table[5] = 5
    for key in 6..<10_000 { table[key] = key }
    #expect(table.blocksKept == 10_000 / 256 + 1)
    for key in 6..<10_000 { table[key] = nil }
    #expect(table.count == 1 && table.blocksKept == 1 && table[5] == 5)
    table[1 << 40] = 1
    #expect(table.blocksKept == 2 && table.entries.map(\.key) == [5, 1 << 40])
    table.removeValue(forKey: 5)
    table.removeValue(forKey: 1 << 40)
    #expect(table.count == 0 && table.blocksKept == 0 && table.entries.isEmpty)
  }

  /// Keys a saved file may hold (a corrupt one too, refused after it is read): below zero
  /// and far apart.
  @Test func anyKeyIsKept() {
    var table = ActionTable<Int>()
    for key in [-1, -256, -257, Int.min, Int.max, 0] { table[key] = key }
    #expect(table.entries.map(\.key) == [Int.min, -257, -256, -1, 0, Int.max])
    #expect(table.entries.allSatisfy { table[$0.key] == $0.value })
  }

  /// `take` moves an entry out: it is gone unless `keeps` says it stays, and a block goes
  /// with the last entry taken from it.
  @Test func takeRemovesUnlessKept() {
    var table = ActionTable<String>()
    table[300] = "statement"
    table[301] = "item"
    #expect(table.take(300, unless: { $0 == "item" }) == "statement")
    #expect(table[300] == nil && table.count == 1)
    #expect(table.take(301, unless: { $0 == "item" }) == "item")
    #expect(table[301] == "item" && table.count == 1 && table.blocksKept == 1)
    #expect(table.take(302, unless: { _ in false }) == nil && table.count == 1)
    #expect(table.take(301, unless: { _ in false }) == "item")
    #expect(table.count == 0 && table.blocksKept == 0 && table[301] == nil)
  }
}
