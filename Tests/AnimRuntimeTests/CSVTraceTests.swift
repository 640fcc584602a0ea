import AnimCore
import Testing

@testable import AnimRuntime

@Suite("Trace format: csv")
struct CSVTraceTests {
  let columns = [
    TraceColumn(name: "card.angle", kind: .number),
    TraceColumn(name: "card.position", kind: .vec2),
    TraceColumn(name: "card.depth", kind: .vec3),
    TraceColumn(name: "card.quat", kind: .vec4),
    TraceColumn(name: "card.tint", kind: .color),
  ]

  @Test func headerHasAColumnPerComponent() {
    let text = render(.csv, [], columns: columns)
    #expect(
      lines(text) == [
        "t,card.angle,card.position.x,card.position.y,card.depth.x,card.depth.y,card.depth.z,"
          + "card.quat.x,card.quat.y,card.quat.z,card.quat.w,card.tint"
      ])
  }

  @Test func rowsHoldTheExactValues() {
    // A tween 0 → 360 over 6 s, sampled at 60 fps: angle = 60 · t.
    var records: [TraceRecord] = []
    var expected: [String] = []
    for k in 0...6 {
      let time = Nanoseconds(seconds: Double(k) / 60)
      let t = Double(time) / 1e9
      let angle = 60 * t
      let position = Vec2(t, -2 * t)
      records.append(
        sample(
          time, ("card.angle", .number(angle)), ("card.position", .vec2(position)),
          ("card.depth", .vec3(Vec3(1, 2, 3))), ("card.quat", .vec4(Vec4(0, 0, 0, 1))),
          ("card.tint", .color(Color(red8: 0x12, green8: 0x34, blue8: 0x56, alpha8: 0x78)))))
      expected.append(
        [
          TraceNumber.seconds(time), TraceNumber.format(angle), TraceNumber.format(position.x),
          TraceNumber.format(position.y), "1", "2", "3", "0", "0", "0", "1", "#12345678",
        ].joined(separator: ","))
    }
    let text = render(.csv, records, columns: columns)
    #expect(Array(lines(text).dropFirst()) == expected)
    #expect(lines(text)[2].hasPrefix("0.016666667,"))
  }

  @Test func eventsAndPrintsAreNotRows() {
    let records: [TraceRecord] = [
      .event(time: 0, name: "start", subject: "intro"),
      sample(0, ("b.x", .number(0))),
      .print(time: 500_000_000, text: "half, \"way\""),
      .event(time: 500_000_000, name: "ping", subject: nil),
      sample(500_000_000, ("b.x", .number(50))),
    ]
    let text = render(.csv, records, columns: [TraceColumn(name: "b.x", kind: .number)])
    #expect(lines(text) == ["t,b.x", "0,0", "0.5,50"])
  }

  @Test func missingValuesAreEmptyCells() {
    let columns = [TraceColumn(name: "b.x", kind: .number), TraceColumn(name: "b.p", kind: .vec2)]
    let records = [
      sample(0, ("b.p", .vec2(Vec2(1, 2)))),  // no b.x, and out of order
      sample(1_000_000_000, ("b.x", .number(.nan)), ("b.p", .vec2(Vec2(-.infinity, .infinity)))),
      sample(2_000_000_000, ("b.x", .vec2(Vec2(1, 1))), ("b.p", .vec2(Vec2(3, 4)))),  // wrong kind
    ]
    #expect(
      lines(render(.csv, records, columns: columns)) == ["t,b.x,b.p.x,b.p.y", "0,,1,2", "1,nan,-inf,inf", "2,,3,4"])
  }

  @Test func fieldsAreQuotedWhenTheyNeedIt() {
    #expect(CSVTraceWriter.field("plain") == "plain")
    #expect(CSVTraceWriter.field("a,b") == "\"a,b\"")
    #expect(CSVTraceWriter.field("say \"x\"") == "\"say \"\"x\"\"\"")
    #expect(CSVTraceWriter.field("two\nlines") == "\"two\nlines\"")
  }

  @Test func theHeaderComesOnce() {
    var writer = CSVTraceWriter(columns: [TraceColumn(name: "b.x", kind: .number)])
    #expect(writer.write(.print(time: 0, text: "x")) == "t,b.x\n")
    #expect(writer.write(sample(0, ("b.x", .number(1)))) == "0,1\n")
    #expect(writer.finish() == "")
  }
}
