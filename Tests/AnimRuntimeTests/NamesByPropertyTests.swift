import AnimCore
import Testing

@testable import AnimRuntime

/// Names by engine id (`NamesByProperty`): what the dictionary built from the table,
/// `Dictionary(table.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })`, gave.
@Suite struct NamesByPropertyTests {
  @Test func eachIdHasItsNameAcrossKinds() {
    var engine = AnimationEngine()
    var table = PropertyTable()
    var expected: [PropertyID: String] = [:]
    // Kinds interleaved, so that each kind's ids are dense while the positions are not.
    let values: [AnimationValue] = [
      .number(0), .vec2(Vec2(0, 0)), .number(1), .color(Color(red: 0, green: 0, blue: 0, alpha: 1)), .number(2),
    ]
    for (index, value) in values.enumerated() {
      let id = engine.addProperty(value)
      let name = "target\(index).a-name-longer-than-fifteen-bytes\(index)"
      table[name] = id
      expected[id] = name
    }
    let names = NamesByProperty(table)
    #expect(!names.isEmpty && NamesByProperty().isEmpty)
    for (id, name) in expected { #expect(names[id] == name) }
    // An id the table does not name, of a kind it has and of one it lacks.
    let unnamed = engine.addProperty(.number(3))
    let otherKind = engine.addProperty(.vec3(Vec3(0, 0, 0)))
    #expect(names[unnamed] == nil && names[otherKind] == nil)
  }

  @Test func aNameGivenANewIdIsFoundByTheNewOneOnly() {
    var engine = AnimationEngine()
    let old = engine.addProperty(.number(0))
    let new = engine.addProperty(.number(1))
    var table = PropertyTable()
    table["a.x"] = old
    table["a.x"] = new
    let names = NamesByProperty(table)
    #expect(names[new] == "a.x" && names[old] == nil)
  }

  @Test func twoNamesWithOneIdGiveTheFirst() {
    var engine = AnimationEngine()
    let id = engine.addProperty(.number(0))
    var table = PropertyTable()
    table["b.x"] = id
    table["a.x"] = id
    #expect(NamesByProperty(table)[id] == "b.x")
  }
}
