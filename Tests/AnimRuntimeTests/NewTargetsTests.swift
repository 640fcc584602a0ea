import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// The targets declared new (`NewTargets`), kept as runs of the property table's positions
/// where it can: read back, they are every target with its properties, in order.
@Suite struct NewTargetsTests {
  /// A table holding `target.p` for each property, as `declareTarget` adds a new target's.
  static func add(
    _ target: String, _ properties: [String], to table: inout PropertyTable, engine: inout AnimationEngine
  ) {
    for property in properties { table.appendNew(target: target, property: property, engine.addProperty(.number(1))) }
  }

  static func read(_ targets: NewTargets, _ table: PropertyTable) -> [String] {
    var read: [String] = []
    targets.forEach(in: table) { read.append($0 + ":" + $1.joined(separator: ",")) }
    return read
  }

  @Test func runsAndSingleTargetsReadBackInOrder() {
    var engine = AnimationEngine()
    var table = PropertyTable()
    var targets = NewTargets()
    #expect(targets.isEmpty)
    let xy = ["x", "y"]
    // Three targets in one run (one list, names one after another).
    for name in ["a", "b.c", "café"] {
      targets.append(name, properties: xy, namesAt: table.count)
      Self.add(name, xy, to: &table, engine: &engine)
    }
    // A target with no property, and one whose value comes later: not in the table.
    targets.append("empty", properties: [], namesAt: table.count)
    targets.append("later", properties: ["x"], namesAt: nil)
    // An equal list, not the same array: still a run, after a name the run does not hold.
    table["other.z"] = engine.addProperty(.number(2))
    let copied = ["x"] + ["y"]
    targets.append("d", properties: copied, namesAt: table.count)
    Self.add("d", copied, to: &table, engine: &engine)
    // Another list ends the run, and its first property's name is longer.
    targets.append("e", properties: ["opacity", "x"], namesAt: table.count)
    Self.add("e", ["opacity", "x"], to: &table, engine: &engine)
    targets.append("f", properties: xy, namesAt: table.count)
    Self.add("f", xy, to: &table, engine: &engine)
    #expect(!targets.isEmpty)
    #expect(
      Self.read(targets, table) == [
        "a:x,y", "b.c:x,y", "café:x,y", "empty:", "later:x", "d:x,y", "e:opacity,x", "f:x,y",
      ])
  }

  /// What the runtime's `targets` holds after a script started statement by statement:
  /// each target with its properties, whether its names were added at once or not.
  @Test func theRuntimesTargetsAreEveryDeclaredTarget() throws {
    let script = """
      let n = 3
      target a { x: 1, y: 2 }
      target b { x: 1, y: 2 }
      target c { }
      target d { x: n * 2, y: 1 }
      target e { x: 1, y: 2 }
      target g[2] { x: index }
      target h { opacity: 1 }
      """
    guard case .started(let runtime, _, _) = Runtime.start(SourceText(name: "test.anim", contents: script)) else {
      Issue.record("the script does not start")
      return
    }
    #expect(
      runtime.targets == [
        "a": ["x", "y"], "b": ["x", "y"], "c": [], "d": ["x", "y"], "e": ["x", "y"], "g[0]": ["x"], "g[1]": ["x"],
        "h": ["opacity"],
      ])
    #expect(
      runtime.propertyNames == [
        "a.x", "a.y", "b.x", "b.y", "d.x", "d.y", "e.x", "e.y", "g[0].x", "g[1].x", "h.opacity",
      ])
  }
}
