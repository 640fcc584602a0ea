import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation
import Testing

@testable import AnimRuntime

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG document read back with XMLParser: every element with its attributes, text and
/// the classes of the elements around it.
final class SVGDocument: NSObject, XMLParserDelegate {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""
    /// The `class` attributes of the enclosing elements, outermost first.
    var within: [String]
  }

  var elements: [Element] = []
  private var open: [Int] = []
  /// Whether the text parsed as XML, and the parser's complaint when it did not.
  private(set) var ok = false
  private(set) var parseError: String?

  init(_ text: String) {
    super.init()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = self
    ok = parser.parse()
    parseError = parser.parserError.map { "\($0)" }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String]
  ) {
    let within = open.compactMap { elements[$0].attributes["class"] }
    elements.append(Element(name: name, attributes: attributes, within: within))
    open.append(elements.count - 1)
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    open.removeLast()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    for index in open { elements[index].text += string }
  }

  func all(_ name: String, class className: String? = nil) -> [Element] {
    elements.filter { $0.name == name && (className == nil || $0.attributes["class"] == className) }
  }
}

@Suite("Trace format: svg")
struct SVGTraceTests {
  let columns = [
    TraceColumn(name: "box.x", kind: .number),
    TraceColumn(name: "box.pos", kind: .vec2),
    TraceColumn(name: "box.tint", kind: .color),
    TraceColumn(name: "box.q", kind: .vec3),
  ]

  /// A 3 s trace at 30 fps: x goes 0 → 360, pos a circle, q a slow drift, with events and
  /// prints along the way.
  func records() -> [TraceRecord] {
    var records: [TraceRecord] = []
    for k in 0...90 {
      let time = Nanoseconds(seconds: Double(k) / 30)
      let t = seconds(time)
      if k == 30 {
        records.append(.event(time: time, name: "complete", subject: "intro"))
        records.append(.event(time: time, name: "intro-done", subject: nil))
      }
      if k == 75 { records.append(.print(time: time, text: "a <b> & \"c\" 'd'\n\u{1}")) }
      records.append(
        sample(
          time, ("box.x", .number(120 * t)), ("box.pos", .vec2(Vec2(50 * cos(t), -50 * sin(t)))),
          ("box.tint", .color(Color(red8: 255, green8: 0, blue8: 0))), ("box.q", .vec3(Vec3(t, -t, 0.5)))))
    }
    return records
  }

  /// The numbers a series should draw: (seconds, value) for every sample.
  func expectedPoints(_ records: [TraceRecord], series: String) -> [(Double, Double)] {
    var points: [(Double, Double)] = []
    for record in records {
      guard case .sample(let time, let values) = record else { continue }
      for named in values {
        if named.name == series, case .number(let x) = named.value { points.append((seconds(time), x)) }
        for (index, suffix) in ["x", "y", "z", "w"].enumerated() where "\(named.name).\(suffix)" == series {
          if let components = named.value.numericComponents, index < components.count {
            points.append((seconds(time), components[index]))
          }
        }
      }
    }
    return points
  }

  func parse(points: String) -> [(Double, Double)] {
    points.split(separator: " ").map { pair in
      let xy = pair.split(separator: ",").map { Double($0)! }
      return (xy[0], xy[1])
    }
  }

  struct Transform {
    var t0, t1, v0, v1, left, top, width, height: Double
    init(_ plot: SVGDocument.Element) {
      func d(_ key: String) -> Double { Double(plot.attributes[key] ?? "") ?? .nan }
      (t0, t1, v0, v1) = (d("data-t0"), d("data-t1"), d("data-v0"), d("data-v1"))
      (left, top, width, height) = (d("data-left"), d("data-top"), d("data-width"), d("data-height"))
    }
    func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * width }
    func y(_ v: Double) -> Double { top + (v1 - v) / (v1 - v0) * height }
  }

  @Test func isWellFormedXML() {
    let svg = render(.svg, records(), columns: columns, title: "intro <fade> & \"more\"")
    let document = SVGDocument(svg)
    #expect(document.ok, "\(document.parseError ?? "")")
    let root = document.elements.first
    #expect(root?.name == "svg")
    #expect(root?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    #expect(root?.attributes["viewBox"]?.hasPrefix("0 0 ") == true)
    #expect(root?.attributes["width"] == nil && root?.attributes["height"] == nil)
    // The title, escaped on the way in, reads back as written.
    #expect(document.all("title").first?.text == "intro <fade> & \"more\"")
    #expect(document.all("text", class: "title").first?.text == "intro <fade> & \"more\"")
  }

  /// The lane's plot group of a property.
  func plot(_ document: SVGDocument, _ property: String) throws -> SVGDocument.Element {
    try #require(document.all("g", class: "plot").first { $0.attributes["data-property"] == property })
  }

  /// The property a series belongs to: `box.pos.x` is `box.pos`'s.
  func property(of series: String) -> String {
    columns.map(\.name).filter { series == $0 || series.hasPrefix($0 + ".") }.max { $0.count < $1.count } ?? series
  }

  @Test func polylinePointsAreTheSamplesThroughTheirLanesTransform() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let lines = document.all("polyline", class: "series")
    for series in ["box.x", "box.pos.x", "box.pos.y", "box.q.x", "box.q.y", "box.q.z"] {
      let transform = Transform(try plot(document, property(of: series)))
      let drawn = lines.filter { $0.attributes["data-series"] == series }.flatMap {
        parse(points: $0.attributes["points"] ?? "")
      }
      let expected = expectedPoints(records, series: series)
      #expect(drawn.count == expected.count, "\(series)")
      for (point, (t, v)) in zip(drawn, expected) {
        // Rounded to 3 decimals: within half a thousandth (and a hair for the arithmetic).
        #expect(abs(point.0 - transform.x(t)) <= 0.0005 + 1e-9, "\(series) x at \(t)")
        #expect(abs(point.1 - transform.y(v)) <= 0.0005 + 1e-9, "\(series) y at \(t): \(v)")
        // Inside its lane.
        #expect(point.1 >= transform.top - 0.0005 && point.1 <= transform.top + transform.height + 0.0005)
      }
    }
  }

  @Test func eachLaneHasItsOwnRoundScaleAndTheyShareTheTime() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let xTicks = document.all("g", class: "tick").filter { $0.within.last == "axis x" }
    let xValues = xTicks.map { Double($0.attributes["data-value"]!)! }
    expectRoundTicks(xValues, maxIntervals: 10, covering: 0...3, "x")
    for tick in xTicks { #expect(tick.text == tick.attributes["data-value"]) }
    var tops: [Double] = []
    for column in columns where column.kind != .color {
      let transform = Transform(try plot(document, column.name))
      #expect(transform.t0 == xValues.first && transform.t1 == xValues.last, "\(column.name)")
      let values =
        expectedPoints(records, series: column.name).map(\.1)
        + ["x", "y", "z"].flatMap { expectedPoints(records, series: "\(column.name).\($0)").map(\.1) }
      // The lane's y ticks: the ones inside its lane group.
      let lane = document.elements.firstIndex {
        $0.name == "g" && $0.attributes["class"] == "lane" && $0.attributes["data-property"] == column.name
      }!
      let next = document.elements[(lane + 1)...].firstIndex { $0.name == "g" && $0.attributes["class"] == "lane" }
      let yValues = document.elements[lane..<(next ?? document.elements.count)].filter {
        $0.name == "g" && $0.attributes["class"] == "tick" && $0.within.last == "axis y"
      }.map { Double($0.attributes["data-value"]!)! }
      expectRoundTicks(yValues, maxIntervals: 4, covering: values.min()!...values.max()!, column.name)
      #expect(transform.v0 == yValues.first && transform.v1 == yValues.last, "\(column.name)")
      tops.append(transform.top)
    }
    // Lanes in column order, top to bottom, none overlapping.
    #expect(tops == tops.sorted())
    for (a, b) in zip(tops, tops.dropFirst()) { #expect(b - a >= SVGTraceWriter.numberLaneHeight) }
  }

  /// A property that moves by a hundredth beside one that moves by a thousand: each lane's
  /// axis spans its own values, so both fill their lanes.
  @Test func aSmallMotionBesideALargeOneIsReadable() throws {
    let small = TraceColumn(name: "a.small", kind: .number)
    let large = TraceColumn(name: "a.large", kind: .number)
    let records = (0...10).map { k in
      sample(
        Nanoseconds(k) * 100_000_000, ("a.small", .number(Double(k) / 1000)), ("a.large", .number(100 * Double(k))))
    }
    let document = SVGDocument(render(.svg, records, columns: [small, large]))
    let smallScale = Transform(try plot(document, "a.small"))
    let largeScale = Transform(try plot(document, "a.large"))
    #expect(smallScale.v0 <= 0 && smallScale.v1 >= 0.01 && smallScale.v1 - smallScale.v0 <= 0.02)
    #expect(largeScale.v0 <= 0 && largeScale.v1 >= 1000 && largeScale.v1 - largeScale.v0 <= 2000)
  }

  @Test func lanesAreTitledAndAVectorsComponentsKeyed() {
    let document = SVGDocument(render(.svg, records(), columns: columns))
    #expect(document.all("g", class: "lane").map { $0.attributes["data-property"] ?? "" } == columns.map(\.name))
    #expect(document.all("text", class: "lane-title").map(\.text) == columns.map(\.name))
    let keys = document.all("g", class: "key").map { $0.attributes["data-series"] ?? "" }
    #expect(keys == ["box.pos.x", "box.pos.y", "box.q.x", "box.q.y", "box.q.z"])
    #expect(document.all("g", class: "key").map(\.text) == ["x", "y", "x", "y", "z"])
    // Each key has its line's color, and a lane's lines have different colors.
    let strokes = Dictionary(
      document.all("polyline", class: "series").map {
        ($0.attributes["data-series"] ?? "", $0.attributes["stroke"] ?? "")
      },
      uniquingKeysWith: { a, _ in a })
    let keyLines = document.elements.filter { $0.name == "line" && $0.within.last == "key" }
    #expect(keyLines.map { $0.attributes["stroke"] ?? "" } == keys.map { strokes[$0] ?? "?" })
    #expect(Set(["box.q.x", "box.q.y", "box.q.z"].map { strokes[$0] ?? "" }).count == 3)
  }

  /// A color lane: a swatch from each change of color to the next, with the straight color
  /// and its alpha.
  @Test func colorsAreAStripOfSwatches() throws {
    let tint = TraceColumn(name: "box.tint", kind: .color)
    let red = Color(red8: 255, green8: 0, blue8: 0)
    let halfBlue = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
    // Red for 0 to 0.4 s, half-transparent blue from 0.5 s to the end at 1 s.
    let records = (0...10).map { k in
      sample(Nanoseconds(k) * 100_000_000, ("box.tint", .color(k < 5 ? red : halfBlue)))
    }
    let document = SVGDocument(render(.svg, records, columns: [tint, columns[0]]))
    let swatches = document.all("rect", class: "swatch")
    #expect(swatches.map { $0.attributes["data-color"] ?? "" } == ["#ff0000ff", "#0000ff80"])
    #expect(swatches.map { $0.attributes["fill"] ?? "" } == ["#ff0000", "#0000ff"])
    #expect(swatches.map { $0.attributes["fill-opacity"] } == [nil, "0.502"])
    // The time axis is the chart's: read it from the number lane's plot.
    let transform = Transform(try plot(document, "box.x"))
    let starts = swatches.map { Double($0.attributes["x"]!)! }
    let widths = swatches.map { Double($0.attributes["width"]!)! }
    #expect(abs(starts[0] - transform.x(0)) <= 0.0005 + 1e-9)
    #expect(abs(starts[1] - transform.x(0.5)) <= 0.0005 + 1e-9)
    #expect(abs(widths[0] - (transform.x(0.5) - transform.x(0))) <= 0.001 + 1e-9)
    // The last swatch runs from 0.5 s through its last sample at 1 s, and 2 px past it.
    #expect(abs(widths[1] - (transform.x(1) - transform.x(0.5) + 2)) <= 0.001 + 1e-9)
    #expect(!document.all("polyline").contains { $0.attributes["data-series"]?.hasPrefix("box.tint") == true })
  }

  @Test func eventsAndPrintsAreDashedMarkersAcrossTheLanes() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let transform = Transform(try plot(document, "box.x"))
    let markers = document.all("g", class: "marker")
    #expect(markers.map { $0.attributes["data-t"] ?? "" } == ["1", "2.5"])
    let lines = document.elements.filter { $0.name == "line" && $0.within.last == "marker" }
    let frames = document.all("rect", class: "frame")
    let bottom = frames.map { Double($0.attributes["y"]!)! + Double($0.attributes["height"]!)! }.max()!
    #expect(lines.count == 2)
    for (line, t) in zip(lines, [1.0, 2.5]) {
      #expect(line.attributes["stroke-dasharray"] != nil)
      #expect(abs(Double(line.attributes["x1"]!)! - transform.x(t)) <= 0.0005 + 1e-9)
      // From the label row down through every lane.
      #expect(Double(line.attributes["y1"]!)! < frames.map { Double($0.attributes["y"]!)! }.min()!)
      #expect(abs(Double(line.attributes["y2"]!)! - bottom) <= 0.0005 + 1e-9)
    }
    let labels = document.all("text", class: "marker-label").map(\.text)
    #expect(labels == ["complete intro, \"intro-done\"", "print: a <b> & \"c\" 'd'\\n\\u{1}"])
  }

  /// Labels never overlap: each drawn label and each `+N` is an interval [x, x + 6.5 px per
  /// character] at least 6 px from the next, within the canvas; every marker is either
  /// labelled or counted in exactly one `+N`, whose title lists it.
  @Test func markerLabelsNeverOverlapAndTheRestAreCounted() {
    var random = SeededRandom(seed: 21)
    for round in 0..<60 {
      var records: [TraceRecord] = []
      let count = random.int(1...40)
      var times = Set<Int64>()
      for _ in 0..<count { times.insert(random.int(0...3_000) * 1_000_000) }
      for time in times.sorted() {
        let name = String(repeating: "e", count: random.int(1...30))
        records.append(.event(time: time, name: name, subject: random.chance(0.5) ? "a.b" : nil))
        records.append(sample(time, ("box.x", .number(Double(time)))))
      }
      let svg = render(.svg, records, columns: [columns[0]])
      let document = SVGDocument(svg)
      #expect(document.ok, "round \(round)")
      let root = document.elements[0].attributes["viewBox"]!.split(separator: " ").map { Double($0)! }
      var intervals: [(Double, Double)] = []
      for text in document.all("text", class: "marker-label") {
        let x = Double(text.attributes["x"]!)!
        intervals.append((x, x + 6.5 * Double(text.text.count)))
      }
      var counted = 0
      for (index, more) in document.elements.enumerated() where more.attributes["class"] == "more" {
        let n = Int(more.attributes["data-count"]!)!
        counted += n
        // Its text: the group's `<text>`, after its `<title>`.
        let text = document.elements[index...].first { $0.name == "text" && $0.within.last == "more" }
        #expect(text?.text == "+\(n)")
        let x = Double(text!.attributes["x"]!)!
        intervals.append((x, x + 6.5 * Double("+\(n)".count)))
        #expect(more.text.split(separator: "\n").count >= n, "round \(round)")
      }
      intervals.sort { $0.0 < $1.0 }
      for (a, b) in zip(intervals, intervals.dropFirst()) {
        #expect(b.0 >= a.1 + 6 - 1e-9, "round \(round): \(a) and \(b) overlap")
      }
      for interval in intervals { #expect(interval.1 <= root[2] + 1e-9, "round \(round)") }
      let markers = document.all("g", class: "marker").count
      #expect(markers == times.count)
      #expect(document.all("text", class: "marker-label").count + counted == markers, "round \(round)")
    }
  }

  /// Two markers a hair apart: the first is labelled, the second is one `+1`; a third far
  /// enough on is labelled again.
  @Test func aCrowdedLabelBecomesAPlusOne() {
    let records: [TraceRecord] = [
      .event(time: 0, name: "start", subject: "a.b"), .event(time: 10_000_000, name: "start", subject: "c.d"),
      .event(time: 2_000_000_000, name: "complete", subject: "a.b"), sample(0, ("box.x", .number(0))),
      sample(2_000_000_000, ("box.x", .number(1))),
    ]
    let document = SVGDocument(render(.svg, records, columns: [columns[0]]))
    #expect(document.all("text", class: "marker-label").map(\.text) == ["start a.b", "complete a.b"])
    #expect(document.all("g", class: "more").map { $0.attributes["data-count"] ?? "" } == ["1"])
    #expect(document.all("g", class: "more").first?.text.contains("0.01s: start c.d") == true)
  }

  /// (k · m · 10^e for whole k, m in 1, 2, 5): a tick step and its ticks.
  func expectRoundTicks(_ values: [Double], maxIntervals: Int, covering range: ClosedRange<Double>, _ axis: String) {
    #expect(values.count >= 2, "\(axis)")
    guard values.count >= 2 else { return }
    let step = values[1] - values[0]
    let exponent = (log10(step) + 1e-9).rounded(.down)
    let mantissa = step / pow(10, exponent)
    #expect([1.0, 2, 5].contains { abs(mantissa - $0) < 1e-9 }, "\(axis): step \(step)")
    for (a, b) in zip(values, values.dropFirst()) { #expect(abs((b - a) - step) <= 1e-9 * step, "\(axis)") }
    for value in values {
      let k = value / step
      #expect(abs(k - k.rounded()) < 1e-9, "\(axis): \(value) is not a multiple of \(step)")
      // Written as a round decimal: no more significant digits than k · m needs.
      let text = TraceNumber.format(value)
      #expect(!text.contains("000000") && !text.contains("99999"), "\(axis): \(text)")
    }
    #expect(values.count - 1 <= maxIntervals, "\(axis)")
    #expect(values.first! <= range.lowerBound && values.last! >= range.upperBound, "\(axis)")
  }

  @Test func niceScalesAreRoundAndTight() {
    var random = SeededRandom(seed: 11)
    for _ in 0..<2_000 {
      let magnitude = pow(10, Double.random(in: -6...9, using: &random))
      let a = Double.random(in: -1...1, using: &random) * magnitude
      let b = a + Double.random(in: 0...1, using: &random) * magnitude
      let limit = Int.random(in: 2...12, using: &random)
      let scale = NiceScale(lower: a, upper: b, maxIntervals: limit)
      #expect([1, 2, 5].contains(scale.mantissa))
      #expect(scale.lower <= a && scale.upper >= b, "\(a)...\(b)")
      #expect(scale.lastIndex - scale.firstIndex <= Double(limit))
      // The next smaller round step would need more intervals (or not cover the range).
      let (m, e) = scale.mantissa == 1 ? (5, scale.exponent - 1) : (scale.mantissa == 2 ? 1 : 2, scale.exponent)
      if b > a {
        let smaller = NiceScale.value(1, mantissa: m, exponent: e)
        let intervals = (b / smaller).rounded(.up) - (a / smaller).rounded(.down)
        #expect(
          intervals > Double(limit) - 1e-9 || scale.lastIndex - scale.firstIndex <= 1, "\(a)...\(b) limit \(limit)")
      }
    }
    #expect(NiceScale(lower: 0, upper: 9, maxIntervals: 10).ticks == (0...9).map(Double.init))
    #expect(
      NiceScale(lower: 0, upper: 0.3, maxIntervals: 10).ticks.map(TraceNumber.format)
        == ["0", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3"])
    #expect(NiceScale(lower: -7.5, upper: 118, maxIntervals: 8).ticks == [-20, 0, 20, 40, 60, 80, 100, 120])
    // Nothing to span: 0...1 at zero, half the value either side elsewhere.
    #expect(
      NiceScale(lower: 0, upper: 0, maxIntervals: 8).ticks.map(TraceNumber.format) == [
        "0", "0.2", "0.4", "0.6", "0.8", "1",
      ])
    let flat = NiceScale(lower: 5, upper: 5, maxIntervals: 8)
    #expect(flat.lower <= 2.5 && flat.upper >= 7.5)
  }

  @Test func aNonFiniteValueBreaksTheLine() throws {
    let records = (0...4).map { k in
      sample(Nanoseconds(k) * 250_000_000, ("box.x", .number(k == 2 ? .nan : Double(k))))
    }
    let document = SVGDocument(render(.svg, records, columns: [columns[0]]))
    #expect(document.ok)
    let lines = document.all("polyline", class: "series").map { parse(points: $0.attributes["points"]!) }
    #expect(lines.map(\.count) == [2, 2])
  }

  @Test func emptyAndFlatTracesStillDraw() throws {
    for records in [[], [sample(0, ("box.x", .number(5)))], [TraceRecord.print(time: 0, text: "only")]] {
      let document = SVGDocument(render(.svg, records, columns: [columns[0], columns[2]]))
      #expect(document.ok)
      let transform = Transform(try plot(document, "box.x"))
      #expect(transform.t1 > transform.t0 && transform.v1 > transform.v0)
    }
    let nothing = SVGDocument(render(.svg, [], columns: []))
    #expect(nothing.ok)
    #expect(nothing.all("text", class: "note").first?.text == "no properties to chart")
  }

  /// Control statements are marked on the lanes of the properties whose animations they act
  /// on, at their time, by their verb; the other formats write nothing for them.
  @Test func controlsAreMarkedOnTheLanesTheyActOn() throws {
    let script = """
      target b { x: 0, y: 0 }
      timeline t { animate b.x to 10 over 4s }
      play t
      animate b.y to 10 over 4s
      at 1s pause t
      at 1.5s resume t
      at 2s reverse b.y
      at 2.5s seek t to 500ms
      """
    var options = TraceOptions(fps: 10)
    options.marksControls = true
    let traced = try trace(script, options)
    let controls = traced.records.compactMap { record -> String? in
      guard case .control(let time, let statement, let properties) = record else { return nil }
      return "\(seconds(time)) \(statement) \(properties)"
    }
    #expect(
      controls == [
        "0.0 play t [\"b.x\"]", "1.0 pause t [\"b.x\"]", "1.5 resume t [\"b.x\"]", "2.0 reverse b.y [\"b.y\"]",
        "2.5 seek t to 500ms [\"b.x\"]",
      ])
    let columns = [TraceColumn(name: "b.x", kind: .number), TraceColumn(name: "b.y", kind: .number)]
    let document = SVGDocument(render(.svg, traced.records, columns: columns))
    let transform = Transform(try plot(document, "b.x"))
    let marks = document.all("g", class: "control")
    // Which lane each is on: the lane group around it.
    func lane(of mark: SVGDocument.Element) -> String? {
      let index = document.elements.firstIndex { $0.attributes == mark.attributes && $0.name == "g" }!
      return document.elements[..<index].last { $0.attributes["class"] == "lane" }?.attributes["data-property"]
    }
    #expect(marks.map { $0.attributes["data-action"] ?? "" } == ["play", "pause", "resume", "seek", "reverse"])
    #expect(marks.map(lane) == ["b.x", "b.x", "b.x", "b.x", "b.y"])
    for (mark, t) in zip(marks, [0, 1, 1.5, 2.5, 2]) {
      #expect(abs(Double(mark.attributes["data-x"]!)! - transform.x(t)) <= 0.0005 + 1e-9)
    }
    #expect(marks[1].text == "1s: pause t")
    // Not a line of the other formats.
    for format in [TraceFormat.jsonl, .csv, .table] {
      let text = render(format, traced.records, columns: columns)
      #expect(!text.contains("pause"), "\(format)")
    }
  }
}
