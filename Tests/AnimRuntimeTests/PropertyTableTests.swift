import AnimCore
import AnimLanguage
import Foundation
import Testing

@testable import AnimRuntime

/// The runtime's table of properties by name (`PropertyTable`): what a dictionary from
/// names to ids with a list of the names in order gave, in every case the runtime uses.
@Suite struct PropertyTableTests {
  /// Distinct ids to store (the table only keeps them).
  static func ids(_ count: Int) -> [PropertyID] {
    var engine = AnimationEngine()
    return (0..<count).map { engine.addProperty(.number(Double($0))) }
  }

  @Test func namesAreFoundAndListedInTheOrderAdded() {
    let ids = Self.ids(4)
    var table = PropertyTable()
    #expect(table.isEmpty && table["card.x"] == nil)
    table["card.x"] = ids[0]
    table["card.xx"] = ids[1]
    table["car.dx"] = ids[2]
    table["café.y"] = ids[3]
    #expect(table.count == 4)
    #expect(table.names == ["card.x", "card.xx", "car.dx", "café.y"])
    #expect(table.idsInOrder == ids)
    #expect(table["card.x"] == ids[0] && table["card.xx"] == ids[1] && table["car.dx"] == ids[2])
    #expect(table["café.y"] == ids[3])
    // Prefixes, extensions and names of the same length are other names.
    #expect(table["card."] == nil && table["card.xxx"] == nil && table["card.y"] == nil && table[""] == nil)
    #expect(table.map(\.name) == table.names && table.map(\.id) == ids)
  }

  @Test func aNameGivenANewIdKeepsItsPlace() {
    let ids = Self.ids(4)
    var table = PropertyTable()
    table["a.x"] = ids[0]
    table["a.y"] = ids[1]
    table["b.x"] = ids[2]
    table["a.y"] = ids[3]
    #expect(table.names == ["a.x", "a.y", "b.x"])
    #expect(table.idsInOrder == [ids[0], ids[3], ids[2]])
  }

  /// `update`, one look-up for a declaration's find-or-add: it is told the id a name has (nil
  /// when new), adds a new name at the end, gives a name a new id in its place, or leaves it;
  /// across the index's growth, as the subscript's get and set do.
  @Test func anUpdateFindsAddsOrLeavesAName() {
    let ids = Self.ids(1_000)
    var table = PropertyTable()
    var reference = PropertyTable()
    for (n, id) in ids.enumerated() {
      let name = "t\(n % 700).p"
      var seen: PropertyID?? = .none
      // Every third name already there is left as it is; the others take the new id.
      let set = table.update(name) { existing in
        seen = .some(existing)
        return existing != nil && n % 3 == 0 ? nil : id
      }
      #expect(seen == .some(reference[name]), "\(name): told the id it has")
      #expect(set == (reference[name] == nil || n % 3 != 0))
      if set { reference[name] = id }
    }
    #expect(table.names == reference.names && table.idsInOrder == reference.idsInOrder)
    #expect(table.names.allSatisfy { table[$0] == reference[$0] })
    var empty = PropertyTable()
    #expect(!empty.update("a.x") { _ in nil } && empty.isEmpty)
  }

  /// A name given as its target and its property is the name `T.p`; names added without a
  /// look-up (`appendNew`, a new target's) are found once a look-up puts them in the index,
  /// however many came since the last one.
  @Test func namesInTwoPartsAndNamesAppendedUnlookedAreFound() {
    let count = 5_000
    let ids = Self.ids(count + 2)
    var table = PropertyTable()
    table.appendNew(target: "a", property: "x", ids[0])
    #expect(table["a.x"] == ids[0] && table[target: "a", property: "x"] == ids[0])
    #expect(table[target: "a", property: "y"] == nil && table[target: "a.x", property: ""] == nil)
    #expect(table.update(target: "a", property: "y") { $0 == nil ? ids[1] : nil })
    #expect(!table.update(target: "a", property: "y") { $0 == nil ? ids[1] : nil })
    for k in 0..<count { table.appendNew(target: "box\(k)", property: k % 2 == 0 ? "x" : "opacity", ids[k + 2]) }
    #expect(table.count == count + 2)
    #expect(table.names.prefix(3) == ["a.x", "a.y", "box0.x"])
    for k in 0..<count {
      let property = k % 2 == 0 ? "x" : "opacity"
      #expect(table[target: "box\(k)", property: property] == ids[k + 2])
      #expect(table["box\(k).\(property)"] == ids[k + 2])
    }
    #expect(table["box1.x"] == nil && table[target: "box\(count)", property: "x"] == nil)
  }

  /// A new target's names added in one step (`appendNew(target:properties:ids:)`), as a
  /// target of a run (TargetRuns.swift): each `T.p` in order with its id, across the chunks
  /// of the table's lists (names of every length, none, a property with a dot, a target of
  /// many properties, runs broken by another list, and ids of several kinds), found by
  /// look-up as names added one by one, written as a sample writes them, and kept by a move.
  @Test func aTargetsNamesAppendedTogetherAreFoundInOrder() {
    var engine = AnimationEngine()
    var table = PropertyTable()
    var expected: [(String, PropertyID)] = []
    let lists = [
      ["x", "y", "opacity"], ["a_much_longer_property_name"], [], ["é", "x"], ["p.q", "x"],
      (0..<150).map { "p\($0)" },
    ]
    for k in 0..<3_000 {
      let properties = lists[k % lists.count]
      let ids = properties.indices.map { index in
        index == 1 ? engine.addProperty(.vec2(Vec2(1, 2))) : engine.addProperty(.number(Double(k)))
      }
      ids.withUnsafeBufferPointer { table.appendNew(target: "box\(k)", properties: properties, ids: $0) }
      for (property, id) in zip(properties, ids) { expected.append(("box\(k).\(property)", id)) }
    }
    #expect(table.count == expected.count)
    #expect(table.names == expected.map(\.0))
    #expect(table.idsInOrder == expected.map(\.1))
    for (position, (name, _)) in expected.enumerated() {
      var written: [UInt8] = []
      table.appendName(at: position, to: &written)
      #expect(written == Array(name.utf8), "\(name)")
    }
    for (name, id) in expected { #expect(table[name] == id, "\(name)") }
    #expect(table[target: "box3", property: "é"] == expected.first { $0.0 == "box3.é" }?.1)
    #expect(table[target: "box4.p", property: "q"] == expected.first { $0.0 == "box4.p.q" }?.1)
    #expect(table["box2.x"] == nil && table["box0.opacit"] == nil && table["box0.y."] == nil)
    #expect(table[target: "box", property: "0.y"] == nil && table["box5.p149"] != nil)
    // The first name of each of two targets moved to the end: the others keep their names.
    let moved = [expected[0].1, expected[expected.count - 150].1]
    table.moveToEnd(moved)
    let kept = expected.filter { !moved.contains($0.1) } + expected.filter { moved.contains($0.1) }
    #expect(table.names == kept.map(\.0))
    #expect(table.idsInOrder == kept.map(\.1))
    for (name, id) in expected { #expect(table[name] == id, "\(name)") }
  }

  /// `forEachName(in:_:)` walks the names of any range in order, each as its two parts (a
  /// run's target and its property with a dot, or an entry's whole name and nothing), and
  /// says when the head is the last call's target again: over runs of targets broken by
  /// names stored whole, runs of one list after another, a target with no property, names
  /// across the chunks they are kept in, and ranges that start and end inside a target.
  @Test func everyRangeOfNamesIsWalkedInOrderInTwoParts() {
    var engine = AnimationEngine()
    var table = PropertyTable()
    // Per position: the name's two parts.
    var parts: [(head: String, tail: String)] = []
    for k in 0..<2_500 {
      if k % 7 == 3 {
        // Stored whole.
        table.appendNew(target: "whole\(k)", property: "x", engine.addProperty(.number(1)))
        parts.append(("whole\(k).x", ""))
        continue
      }
      let properties = k % 5 == 0 ? ["x", "long_property_name"] : k % 11 == 0 ? [] : ["x", "y", "opacity"]
      let ids = properties.map { _ in engine.addProperty(.number(Double(k))) }
      ids.withUnsafeBufferPointer { table.appendNew(target: "box\(k)", properties: properties, ids: $0) }
      for property in properties { parts.append(("box\(k)", "." + property)) }
    }
    #expect(table.count == parts.count)
    let ranges = [0..<parts.count, 0..<0, 5..<5, 1..<2, 2..<9, 100..<4_000, parts.count - 3..<parts.count]
    for range in ranges {
      var walked: [(head: String, tail: String, sameHead: Bool)] = []
      table.forEachName(in: range) { head, tail, sameHead in
        walked.append((String(decoding: head, as: UTF8.self), String(decoding: tail, as: UTF8.self), sameHead))
      }
      #expect(walked.count == range.count)
      for (offset, position) in range.enumerated() where offset < walked.count {
        let (head, tail, sameHead) = walked[offset]
        #expect(head == parts[position].head && tail == parts[position].tail, "\(position)")
        #expect(head + tail == table.name(at: position))
        // The same head as the last call's: a run's target, after its first property (in the range).
        let isSame = offset > 0 && !parts[position].tail.isEmpty && parts[position - 1].head == parts[position].head
        #expect(sameHead == isSame, "\(position)")
      }
    }
  }

  /// `withBuffer(in:_:)` hands over the elements of a range in one buffer, whether they sit
  /// in one chunk or across two, or are none.
  @Test func aRangeOfAChunkedArrayIsHandedOverInOneBuffer() {
    var array = ChunkedArray<UInt8>()
    for k in 0..<10_000 { array.append(UInt8(truncatingIfNeeded: k * 7)) }
    for range in [0..<5, 4_090..<4_100, 4_096..<4_097, 8_000..<8_200, 3..<3, 9_999..<10_000] {
      var calls = 0
      array.withBuffer(in: range) { buffer in
        calls += 1
        #expect(Array(buffer) == range.map { UInt8(truncatingIfNeeded: $0 * 7) }, "\(range)")
      }
      #expect(calls == 1)
    }
  }

  @Test func aRemovedNameIsGoneAndTheOthersKeepTheirOrder() {
    let ids = Self.ids(4)
    var table = PropertyTable()
    table["a.x"] = ids[0]
    table["a.y"] = ids[1]
    table["b.x"] = ids[2]
    table["a.y"] = nil
    table["nothing.x"] = nil
    #expect(table.names == ["a.x", "b.x"])
    #expect(table["a.y"] == nil && table["a.x"] == ids[0] && table["b.x"] == ids[2])
    table["a.y"] = ids[3]
    #expect(table.names == ["a.x", "b.x", "a.y"] && table["a.y"] == ids[3])
    table["a.x"] = nil
    table["b.x"] = nil
    table["a.y"] = nil
    #expect(table.isEmpty && table.names.isEmpty && table["a.x"] == nil)
  }

  /// Names moved to the end (the properties two-step targets' statements added, read
  /// statement by statement) go there in the order given, the others keep theirs, every name
  /// keeps its id and is found again, across chunks of names and a grown index.
  @Test func namesMovedToTheEndTakeTheOrderGivenAndKeepTheirIds() {
    let count = 3_000
    let ids = Self.ids(count)
    var table = PropertyTable()
    for k in 0..<count { table.appendNew(target: "box\(k)", property: "x", ids[k]) }
    #expect(table["box0.x"] == ids[0])  // indexed before the move
    let moved = [ids[2_999], ids[7], ids[1_500], ids[8]]
    table.moveToEnd(moved)
    var expected = (0..<count).filter { ![2_999, 7, 1_500, 8].contains($0) }.map { "box\($0).x" }
    expected += ["box2999.x", "box7.x", "box1500.x", "box8.x"]
    #expect(table.names == expected)
    #expect(table.idsInOrder == expected.map { ids[Int($0.dropFirst(3).dropLast(2))!] })
    for k in 0..<count { #expect(table[target: "box\(k)", property: "x"] == ids[k]) }
    table.moveToEnd([])
    #expect(table.names == expected)
  }

  /// Many names: the index grows many times, and the names' bytes cross the chunks they
  /// are kept in (4,096 bytes each).
  @Test func everyOfManyNamesIsFound() {
    let count = 20_000
    let ids = Self.ids(count)
    var table = PropertyTable()
    for k in 0..<count { table["box\(k).\(k % 3 == 0 ? "opacity" : "x")"] = ids[k] }
    #expect(table.count == count)
    for k in 0..<count {
      let name = "box\(k).\(k % 3 == 0 ? "opacity" : "x")"
      #expect(table[name] == ids[k], "\(name)")
      #expect(table.name(at: k) == name)
    }
    #expect(table["box\(count).x"] == nil && table["box1.opacity"] == nil)
  }

  /// A session saved with properties and read back has the same properties in the same
  /// order, after a redeclaration that removed one.
  @Test func aRestoredSessionHasTheSamePropertiesInOrder() throws {
    let runtime = Runtime()
    var environment = Environment()
    for text in ["target a { x: 1, y: 2 }\ntarget b { x: 3 }\n", "target a { y: 5, z: 6 }\n"] {
      let source = SourceText(name: "entry", contents: text)
      let program = try #require(parseAndCheck(source, in: &environment, mode: .session).program)
      _ = runtime.run(program, of: source, at: 0)
    }
    #expect(runtime.propertyNames == ["a.y", "b.x", "a.z"])
    let (restored, _) = try Runtime.restored(from: try runtime.sessionData())
    #expect(restored.propertyNames == runtime.propertyNames)
    #expect(restored.sample().map(\.value) == [.number(5), .number(3), .number(6)])
  }
}
