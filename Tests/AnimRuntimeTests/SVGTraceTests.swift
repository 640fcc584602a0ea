import AnimCore
import AnimLanguage
import Foundation
import Testing

@testable import AnimRuntime

#if canImport(FoundationXML)
  import FoundationXML
  import AnimTestSupport
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

  @Test func polylinePointsAreTheSamplesThroughTheTransform() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let plot = try #require(document.all("g", class: "plot").first)
    let transform = Transform(plot)
    let lines = document.all("polyline", class: "series")
    for series in ["box.x", "box.pos.x", "box.pos.y", "box.q.x", "box.q.y", "box.q.z"] {
      let drawn = lines.filter { $0.attributes["data-series"] == series }.flatMap {
        parse(points: $0.attributes["points"] ?? "")
      }
      let expected = expectedPoints(records, series: series)
      #expect(drawn.count == expected.count, "\(series)")
      for (point, (t, v)) in zip(drawn, expected) {
        // Rounded to 3 decimals: within half a thousandth (and a hair for the arithmetic).
        #expect(abs(point.0 - transform.x(t)) <= 0.0005 + 1e-9, "\(series) x at \(t)")
        #expect(abs(point.1 - transform.y(v)) <= 0.0005 + 1e-9, "\(series) y at \(t): \(v)")
      }
    }
    // Every sample lies inside the plot area.
    let all = lines.flatMap { parse(points: $0.attributes["points"] ?? "") }
    for (x, y) in all {
      #expect(x >= transform.left - 0.0005 && x <= transform.left + transform.width + 0.0005)
      #expect(y >= transform.top - 0.0005 && y <= transform.top + transform.height + 0.0005)
    }
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

  @Test func ticksAreRoundNumbersAtTheAxisEnds() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let transform = Transform(try #require(document.all("g", class: "plot").first))
    let xTicks = document.all("g", class: "tick").filter { $0.within.last == "axis x" }
    let yTicks = document.all("g", class: "tick").filter { $0.within.last == "axis y" }
    let xValues = xTicks.map { Double($0.attributes["data-value"]!)! }
    let yValues = yTicks.map { Double($0.attributes["data-value"]!)! }
    let values = records.compactMap { record -> [Double]? in
      guard case .sample(_, let values) = record else { return nil }
      return values.compactMap(\.value.numericComponents).flatMap { $0 }
    }.flatMap { $0 }
    expectRoundTicks(xValues, maxIntervals: 10, covering: 0...3, "x")
    expectRoundTicks(yValues, maxIntervals: 8, covering: values.min()!...values.max()!, "y")
    // The label says the value, and the axis ends at the first and last ticks.
    for tick in xTicks + yTicks { #expect(tick.text == tick.attributes["data-value"]) }
    #expect(transform.t0 == xValues.first && transform.t1 == xValues.last)
    #expect(transform.v0 == yValues.first && transform.v1 == yValues.last)
    // Each tick's grid line stands where the transform puts its value.
    let xLines = document.elements.filter { $0.name == "line" && $0.within.suffix(2) == ["axis x", "tick"] }
    #expect(xLines.count == 2 * xValues.count)
    for (index, value) in xValues.enumerated() {
      #expect(abs(Double(xLines[2 * index].attributes["x1"]!)! - transform.x(value)) <= 0.0005 + 1e-9)
    }
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

  @Test func theLegendNamesEverySeries() {
    let document = SVGDocument(render(.svg, records(), columns: columns))
    let expected = ["box.x", "box.pos.x", "box.pos.y", "box.q.x", "box.q.y", "box.q.z"]
    let items = document.all("g", class: "legend-item")
    #expect(items.map { $0.attributes["data-series"] ?? "" } == expected)
    #expect(items.map(\.text) == expected)
    #expect(Set(document.all("polyline", class: "series").compactMap { $0.attributes["data-series"] }) == Set(expected))
    // Each legend swatch has its line's color.
    let swatches = document.elements.filter { $0.name == "line" && $0.within.last == "legend-item" }
    let strokes = Dictionary(
      document.all("polyline", class: "series").map {
        ($0.attributes["data-series"] ?? "", $0.attributes["stroke"] ?? "")
      },
      uniquingKeysWith: { a, _ in a })
    #expect(swatches.map { $0.attributes["stroke"] ?? "" } == expected.map { strokes[$0] ?? "?" })
    #expect(Set(swatches.map { $0.attributes["stroke"] ?? "" }).count == expected.count)
  }

  @Test func colorsAreLeftOutAndSaidSo() {
    let document = SVGDocument(render(.svg, records(), columns: columns))
    #expect(document.all("text", class: "note").first?.text == "colors not charted: box.tint")
    #expect(!document.all("polyline").contains { $0.attributes["data-series"]?.hasPrefix("box.tint") == true })
  }

  @Test func eventsAndPrintsAreDashedMarkers() throws {
    let records = records()
    let document = SVGDocument(render(.svg, records, columns: columns))
    let transform = Transform(try #require(document.all("g", class: "plot").first))
    let markers = document.all("g", class: "marker")
    #expect(markers.map { $0.attributes["data-t"] ?? "" } == ["1", "2.5"])
    let lines = document.elements.filter { $0.name == "line" && $0.within.last == "marker" }
    #expect(lines.count == 2)
    for (line, t) in zip(lines, [1.0, 2.5]) {
      #expect(line.attributes["stroke-dasharray"] != nil)
      #expect(abs(Double(line.attributes["x1"]!)! - transform.x(t)) <= 0.0005 + 1e-9)
    }
    let labels = document.elements.filter { $0.name == "text" && $0.within.last == "marker" }.map(\.text)
    #expect(labels == ["complete intro, \"intro-done\"", "print: a <b> & \"c\" 'd'\\n\\u{1}"])
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

  @Test func emptyAndFlatTracesStillDraw() {
    for records in [[], [sample(0, ("box.x", .number(5)))], [TraceRecord.print(time: 0, text: "only")]] {
      let document = SVGDocument(render(.svg, records, columns: [columns[0], columns[2]]))
      #expect(document.ok)
      let plot = document.all("g", class: "plot").first
      let transform = plot.map(Transform.init)
      #expect(transform.map { $0.t1 > $0.t0 && $0.v1 > $0.v0 } == true)
    }
    let onlyColors = SVGDocument(render(.svg, [], columns: [columns[2]]))
    #expect(
      onlyColors.all("text", class: "note").first?.text
        == "colors not charted: box.tint; no numeric properties to chart")
  }
}
