import AnimCore
import Testing

@testable import AnimRuntime

/// The ids of a property table by position (`PropertyIDList`): a prefix of number ids that
/// follow their positions is kept as its length; reading, writing and appending give what a
/// plain list of the ids gives.
@Suite struct PropertyIDListTests {
  static func number(_ index: Int) -> PropertyID { PropertyID(packed: UInt32(index)) }
  static func vec2(_ index: Int) -> PropertyID { PropertyID(packed: 1 << 29 | UInt32(index)) }

  static func read(_ list: PropertyIDList) -> [PropertyID] { (0..<list.count).map { list[$0] } }

  @Test func numbersInOrderThenOthers() {
    var list = PropertyIDList()
    var plain: [PropertyID] = []
    for index in 0..<5_000 {
      list.append(Self.number(index))
      plain.append(Self.number(index))
    }
    // A vec2 ends the prefix; a number that would have followed it is kept as it is.
    for id in [Self.vec2(0), Self.number(5_000), Self.number(7)] {
      list.append(id)
      plain.append(id)
    }
    let more = [Self.number(9_000), Self.vec2(1)]
    more.withUnsafeBufferPointer { list.append(contentsOf: $0) }
    plain += more
    #expect(list.count == plain.count && Self.read(list) == plain)
    // The id it has, written at a position of the prefix, changes nothing; another sets the
    // prefix out, and the others keep their ids.
    list[10] = Self.number(10)
    list[20] = Self.vec2(2)
    plain[20] = Self.vec2(2)
    list[5_001] = Self.number(1)
    plain[5_001] = Self.number(1)
    #expect(Self.read(list) == plain)
    list.append(Self.number(5_004))
    plain.append(Self.number(5_004))
    #expect(Self.read(list) == plain)
  }

  @Test func appendedTogetherAsOneByOne() {
    var together = PropertyIDList()
    var oneByOne = PropertyIDList()
    let batches = [
      [Self.number(0), Self.number(1)], [], [Self.number(2), Self.vec2(0), Self.number(3)], [Self.number(4)],
    ]
    for batch in batches {
      batch.withUnsafeBufferPointer { together.append(contentsOf: $0) }
      for id in batch { oneByOne.append(id) }
    }
    #expect(Self.read(together) == batches.flatMap { $0 })
    #expect(Self.read(oneByOne) == batches.flatMap { $0 })
    // Starting with another kind: no prefix at all.
    var other = PropertyIDList()
    other.append(Self.vec2(0))
    other.append(Self.number(1))
    other[0] = Self.number(0)
    #expect(Self.read(other) == [Self.number(0), Self.number(1)])
  }
}
