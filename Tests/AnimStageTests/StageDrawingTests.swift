import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation
import Testing

@testable import AnimStage

/// The drawing rules of issue 16 ("What a target looks like"), each case's expected
/// attributes worked out from the rule's words.
@Suite struct StageDrawingTests {
  typealias Properties = [(name: String, value: AnimationValue)]

  func draw(_ properties: Properties, kind: StageKind = .rect, slot: Int = 0, size: StageSize = StageSize())
    -> DrawnTarget
  {
    StageDrawing.draw("card", kind: kind, properties: properties, slot: slot, size: size)
  }

  func attribute(_ name: String, _ attributes: [StageAttribute]) -> String? {
    attributes.first { $0.name == name }?.value
  }

  @Test func aTargetWithoutPositionOrSizeIsADefaultRectInItsSlot() {
    let drawn = draw([("speed", .number(3))], slot: 2)
    #expect(drawn.element == "rect")
    // y = -300 + 80 · (2 + ½) = -100
    #expect(attribute("transform", drawn.group) == "translate(0 -100) rotate(0) scale(1 1)")
    #expect(attribute("opacity", drawn.group) == "1")
    #expect(attribute("width", drawn.shape) == "100")
    #expect(attribute("height", drawn.shape) == "60")
    #expect(attribute("x", drawn.shape) == "-50")
    #expect(attribute("y", drawn.shape) == "-30")
    #expect(drawn.gauges == ["card.speed"])
  }

  /// A target's kind comes from its declaration: `: circle`, `: text "…"` (read now, a
  /// group member's with its own `index`), `: none`; a rect without one.
  @Test func theDeclaredKindChoosesTheShape() throws {
    let source = SourceText(
      name: "kinds.anim",
      contents: """
        target dot: circle { x: 0 }
        target title: text "Hi {1 + 1}" { x: 0 }
        target holder: none { v: 0 }
        target plain { x: 0 }
        target rows[3]: text "row {index} of {count}" { y: index * 40 }

        """)
    var environment = Environment()
    let checked = parseAndCheck(source, in: &environment, mode: .script)
    let program = try #require(checked.program)
    let runtime = Runtime()
    _ = runtime.run(program, of: source, at: 0)
    #expect(StageDrawing.kind(of: "dot", in: runtime) == .circle)
    #expect(StageDrawing.kind(of: "title", in: runtime) == .text("Hi 2"))
    #expect(StageDrawing.kind(of: "holder", in: runtime) == StageKind.none)
    #expect(StageDrawing.kind(of: "plain", in: runtime) == .rect)
    #expect(StageDrawing.kind(of: "rows[2]", in: runtime) == .text("row 2 of 3"))
    let scene = StageScene(runtime, size: StageSize())
    #expect(scene.targets.first { $0.name == "dot" }?.element == "circle")
    #expect(scene.targets.first { $0.name == "rows[1]" }?.text == "row 1 of 3")
  }

  /// examples/scoreboard.anim drawn at several instants: the banner's text reads the `none`
  /// holder's score, 10·⌊t / 200 ms⌋ (100 from 2 s), and lane k's its runner's laps,
  /// ⌊(t − k · 500 ms) / 500 ms⌋ within 0…4, with its own `index` and `count`; the holders
  /// are not drawn and take no slot.
  @Test(arguments: [0, 100, 700, 1100, 1500, 1990, 2600, 3000] as [Int64])
  func theScoreboardsTextsReadTheirHolders(milliseconds: Int64) throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/scoreboard.anim")
    let source = SourceText(name: "scoreboard.anim", contents: try String(contentsOf: file, encoding: .utf8))
    guard case .started(let runtime, _, _) = Runtime.start(source, tracksGauges: true) else {
      Issue.record("scoreboard.anim did not start")
      return
    }
    let ms: Nanoseconds = 1_000_000
    let time = milliseconds * ms
    _ = runtime.advance(to: time)
    let scene = StageScene(runtime, size: StageSize())
    let drawn = Dictionary(uniqueKeysWithValues: scene.targets.map { ($0.name, $0) })
    let score = 10 * min(time / (200 * ms), 10)
    #expect(drawn["banner"]?.element == "text")
    #expect(drawn["banner"]?.text == "Score: \(score)", "at \(milliseconds) ms")
    for k in 0..<3 {
      let laps = min(max((time - Int64(k) * 500 * ms) / (500 * ms), 0), 4)
      #expect(drawn["lanes[\(k)]"]?.text == "Lane \(k + 1) of 3: \(laps) of 4 laps", "at \(milliseconds) ms")
      // Its own y, 50·k − 20: no slot.
      #expect(
        attribute("transform", drawn["lanes[\(k)]"]?.group ?? [])
          == "translate(0 \(50 * k - 20)) rotate(0) scale(1 1)")
      #expect(drawn["runners[\(k)]"]?.element == nil)
    }
    #expect(drawn["game"]?.element == nil)
    #expect(!scene.svg.contains("data-target=\"game\"") && !scene.svg.contains("data-target=\"runners["))
    #expect(scene.svg.contains(">Score: \(score)</text>"))
  }

  @Test func theSlotsFollowTheViewBoxTop() {
    let drawn = draw([], slot: 0, size: StageSize(width: 400, height: 200))
    // y = -100 + 80 · ½ = -60
    #expect(attribute("transform", drawn.group) == "translate(0 -60) rotate(0) scale(1 1)")
    #expect(StageSize(width: 400, height: 200).viewBox == "-200 -100 400 200")
    #expect(StageSize().viewBox == "-400 -300 800 600")
  }

  @Test func positionThenPosThenXAndY() {
    let both = draw([("x", .number(5)), ("pos", .vec2(Vec2(x: 1, y: 2))), ("position", .vec2(Vec2(x: 3, y: 4)))])
    #expect(attribute("transform", both.group) == "translate(3 4) rotate(0) scale(1 1)")
    #expect(both.gauges == ["card.x", "card.pos"])
    let numbers = draw([("x", .number(12.5)), ("y", .number(-7))])
    #expect(attribute("transform", numbers.group) == "translate(12.5 -7) rotate(0) scale(1 1)")
    #expect(numbers.gauges.isEmpty)
    // A position of another type is only a gauge; `pos` gives the position.
    let mistyped = draw([("position", .number(1)), ("pos", .vec2(Vec2(x: 8, y: 9)))])
    #expect(attribute("transform", mistyped.group) == "translate(8 9) rotate(0) scale(1 1)")
    #expect(mistyped.gauges == ["card.position"])
  }

  @Test func anXWithoutYKeepsItsSlot() {
    let drawn = draw([("x", .number(40))], slot: 1)
    #expect(attribute("transform", drawn.group) == "translate(40 -180) rotate(0) scale(1 1)")
    #expect(StageDrawing.needsSlot(.rect, [("x", .number(40))]))
    #expect(!StageDrawing.needsSlot(.rect, [("y", .number(40))]))
    #expect(!StageDrawing.needsSlot(.rect, [("pos", .vec2(.zero))]))
    #expect(StageDrawing.needsSlot(.rect, [("pos", .number(1))]))
    #expect(!StageDrawing.needsSlot(.none, []))
  }

  @Test func sizeAsVectorNumberOrWidthAndHeight() {
    let vector = draw([("size", .vec2(Vec2(x: 40, y: 20))), ("width", .number(7))])
    #expect(attribute("width", vector.shape) == "40")
    #expect(attribute("height", vector.shape) == "20")
    #expect(attribute("x", vector.shape) == "-20")
    #expect(vector.gauges == ["card.width"])
    let square = draw([("size", .number(30))])
    #expect(attribute("width", square.shape) == "30")
    #expect(attribute("height", square.shape) == "30")
    let width = draw([("width", .number(200))])
    #expect(attribute("width", width.shape) == "200")
    #expect(attribute("height", width.shape) == "60")
  }

  @Test func angleScaleAndOpacity() {
    let drawn = draw([
      ("rotation", .number(10)), ("angle", .number(45)), ("scale", .vec2(Vec2(x: 2, y: 0.5))),
      ("opacity", .number(0.25)),
    ])
    #expect(attribute("transform", drawn.group) == "translate(0 -260) rotate(45) scale(2 0.5)")
    #expect(attribute("opacity", drawn.group) == "0.25")
    #expect(drawn.gauges == ["card.rotation"])
    let uniform = draw([("scale", .number(1.5))])
    #expect(attribute("transform", uniform.group) == "translate(0 -260) rotate(0) scale(1.5 1.5)")
  }

  @Test func numbersAreShortestRoundTrip() {
    let drawn = draw([("x", .number(0.1 + 0.2)), ("y", .number(1e-7))])
    #expect(attribute("transform", drawn.group) == "translate(0.30000000000000004 1e-7) rotate(0) scale(1 1)")
  }

  @Test func fillIsHexWithItsAlphaAsFillOpacity() {
    let drawn = draw([
      ("color", .color(Color(red8: 1, green8: 2, blue8: 3))),
      ("tint", .color(Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))),
    ])
    // `tint` comes before `color` in the list: it wins.
    #expect(attribute("fill", drawn.shape) == "#ff8000")
    #expect(attribute("fill-opacity", drawn.shape) == "0.5")
    #expect(attribute("stroke", drawn.shape) == "none")
    #expect(drawn.gauges == ["card.color"])
  }

  @Test func strokeAndCorners() {
    let drawn = draw([
      ("stroke", .color(Color(red8: 0xff, green8: 0, blue8: 0, alpha8: 0xff))), ("strokeWidth", .number(3)),
      ("radius", .number(8)),
    ])
    #expect(attribute("stroke", drawn.shape) == "#ff0000")
    #expect(attribute("stroke-opacity", drawn.shape) == "1")
    #expect(attribute("stroke-width", drawn.shape) == "3")
    #expect(attribute("rx", drawn.shape) == "8")
  }

  @Test func circlesAreSixtyAcrossOrTheirSizeOrTwiceTheirRadius() {
    #expect(attribute("r", draw([], kind: .circle).shape) == "30")
    #expect(attribute("r", draw([("radius", .number(12))], kind: .circle).shape) == "12")
    #expect(
      attribute("r", draw([("size", .vec2(Vec2(x: 50, y: 10))), ("radius", .number(2))], kind: .circle).shape) == "25")
  }

  @Test func aTargetOfKindNoneIsNotDrawn() {
    let drawn = draw([("x", .number(1))], kind: .none)
    #expect(drawn.element == nil)
    #expect(drawn.gauges == ["card.x"])
  }

  @Test func namesAreEscapedInSVGAndJSON() throws {
    let source = SourceText(name: "t.anim", contents: "target box { x: 1 }\n")
    guard case .started(let runtime, _, _) = Runtime.start(source) else {
      Issue.record("did not start")
      return
    }
    let scene = StageScene(runtime, size: StageSize())
    #expect(scene.svgBody.hasPrefix("<g data-target=\"box\" transform=\"translate(1 -260) rotate(0) scale(1 1)\""))
    #expect(StageEscaping.attribute("dots[3]\"<&>'") == "dots[3]&quot;&lt;&amp;&gt;&#39;")
  }

  @Test func sizesParse() {
    #expect(StageSize(parsing: "1280×720") == StageSize(width: 1280, height: 720))
    #expect(StageSize(parsing: "640x480") == StageSize(width: 640, height: 480))
    #expect(StageSize(parsing: "0x480") == nil)
    #expect(StageSize(parsing: "wide") == nil)
  }
}
