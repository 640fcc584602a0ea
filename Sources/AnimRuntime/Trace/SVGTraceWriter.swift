// The `svg` trace format: a chart of the watched properties over time, one lane each.

import AnimCore

/// Draws the trace as an SVG chart that a browser scales to its window (a `viewBox`, no
/// fixed size): small multiples, one lane per watched property over a shared time axis, and
/// the events and prints as markers across all of them.
///
/// - **Lanes.** A number's lane draws one line; a vector's draws one line per component
///   (`T.p.x`, `T.p.y`, ...), keyed in the lane's heading; each lane has its own value axis,
///   so a property that moves by 0.01 is as readable as one that moves by 1,000. A color's
///   lane is a strip of swatches: each sample's color (straight `#rrggbb`, its alpha as
///   `fill-opacity`) from its time to the next sample's, neighbours of one color merged.
/// - **Axes.** x is the time in seconds, shared; each lane's y its values. An axis runs from
///   one tick to another, ticks at a round step (1, 2 or 5 × 10ᵏ) chosen so that there are at
///   most 10 intervals across time and 4 up a lane; the time axis holds every sample, event
///   and print time, and a lane's axis every value it draws.
/// - **The transform.** In a lane, a sample at time t (seconds: nanoseconds / 10⁹) with value
///   v is the point
///
///       x = left + (t − t0) / (t1 − t0) · width
///       y = top  + (v1 − v) / (v1 − v0) · height
///
///   each coordinate rounded to 3 decimal places. [t0, t1] and [v0, v1] are the axes' first
///   and last ticks, and left, top, width, height the lane's plot area; all eight are written
///   on the lane's `plot` group (`data-t0` ... `data-height`, with `data-property`), so that a
///   reader can map points back to values. Every sample of a series is a point of its
///   polyline (`data-series="T.p"`), in time order; a NaN, an infinity or a value beyond
///   ±10³⁰⁰ is not drawn and breaks the line in two.
/// - **Markers.** Events and prints at the same instant share one marker, a dashed line
///   across every lane, labelled with all of them (`complete intro`, `"intro-done"` for a
///   script's own event, `print: TEXT`), the label cut at 60 characters; the marker's
///   `<title>` holds the full text. The labels stand in one row above the lanes and never
///   overlap: a label is taken as 6.5 px per character at 11 px, and one that does not fit
///   after the labels before it is left out; each run of labels left out between two drawn
///   ones is one `+N` (N of them), whose `<title>` lists them.
/// - Text is escaped for XML; characters XML cannot hold become U+FFFD, control characters
///   in a print are shown as escapes.
///
/// The writer keeps the times and values until `finish()`, which returns the whole document;
/// `write(_:)` returns nothing.
package struct SVGTraceWriter: TraceWriter, Sendable {
  package let columns: [TraceColumn]
  package let title: String

  struct Marker: Sendable {
    var time: Nanoseconds
    var labels: [String]
  }

  /// A control statement on some properties' animations.
  struct ControlMark: Sendable {
    var time: Nanoseconds
    var statement: String
    var properties: [String]
  }

  private var times: [Nanoseconds] = []
  /// samples[c][i]: column c's value at times[i] (nil where the sample had none of its kind).
  private var samples: [[AnimationValue?]]
  private var markers: [Marker] = []
  private var controls: [ControlMark] = []

  // The layout, in viewBox units.
  static let left = 96.0
  static let width = 720.0
  static let rightMargin = 32.0
  static let labelRowTop = 56.0
  static let lanesTop = 84.0
  static let laneHeading = 20.0
  static let numberLaneHeight = 110.0
  static let colorLaneHeight = 24.0
  static let laneGap = 16.0
  static let maxTimeIntervals = 10
  static let maxValueIntervals = 4
  static let labelLimit = 60
  /// Marker labels: 11 px text, taken as 6.5 px a character, at least 6 px apart.
  static let labelFontSize = 11.0
  static let labelCharacterWidth = 6.5
  static let labelGap = 6.0
  static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]

  package init(columns: [TraceColumn], title: String = "anim trace") {
    self.columns = columns
    self.title = title
    self.samples = Array(repeating: [], count: columns.count)
  }

  package mutating func write(_ record: TraceRecord) -> String {
    switch record {
    case .sample(let time, let sampleValues):
      let ordered = valuesInColumnOrder(sampleValues, columns: columns)
      times.append(time)
      for (index, column) in columns.enumerated() {
        let value = ordered[index].flatMap { $0.kind == column.kind ? $0 : nil }
        samples[index].append(value)
      }
    case .event(let time, let name, let subject):
      let label = subject.map { "\(name) \($0)" } ?? "\"\(name)\""
      addMarker(time, TableTraceWriter.visible(label))
    case .print(let time, let text):
      addMarker(time, "print: " + TableTraceWriter.visible(text))
    case .control(let time, let statement, let properties):
      controls.append(ControlMark(time: time, statement: TableTraceWriter.visible(statement), properties: properties))
    }
    return ""
  }

  private mutating func addMarker(_ time: Nanoseconds, _ label: String) {
    if let last = markers.indices.last, markers[last].time == time {
      markers[last].labels.append(label)
    } else {
      markers.append(Marker(time: time, labels: [label]))
    }
  }

  /// A value the chart can draw.
  static func plottable(_ v: Double) -> Bool { v.isFinite && v.magnitude <= 1e300 }

  /// Column `column`'s component `component` at every sample (NaN where it has none).
  private func series(_ column: Int, component: Int) -> [Double] {
    samples[column].map { value in
      guard let components = value?.numericComponents, component < components.count else { return .nan }
      return components[component]
    }
  }

  package mutating func finish() -> String {
    let allTimes = times.map(AnimCore.seconds) + markers.map { AnimCore.seconds($0.time) }
    let timeScale = NiceScale(
      lower: allTimes.min() ?? 0, upper: allTimes.max() ?? 1, maxIntervals: Self.maxTimeIntervals)
    let t0 = timeScale.lower
    let t1 = timeScale.upper
    func x(_ t: Double) -> Double { Self.left + (t - t0) / (t1 - t0) * Self.width }
    func n(_ value: Double) -> String { TraceNumber.rounded(value, places: 3) }
    let seconds = times.map(AnimCore.seconds)

    // The lanes, top to bottom.
    var lanesBottom = Self.lanesTop
    var body = ""
    for (index, column) in columns.enumerated() {
      let top = lanesBottom + Self.laneHeading
      let height = column.kind == .color ? Self.colorLaneHeight : Self.numberLaneHeight
      body += "<g class=\"lane\" data-property=\"\(Self.xml(column.name))\">\n"
      body += "<text class=\"lane-title\" x=\"\(n(Self.left))\" y=\"\(n(top - 6))\" font-weight=\"bold\""
      body += " fill=\"#222222\">\(Self.xml(column.name))</text>\n"
      for tick in timeScale.ticks {
        let tx = n(x(tick))
        body += "<line class=\"grid\" x1=\"\(tx)\" y1=\"\(n(top))\" x2=\"\(tx)\" y2=\"\(n(top + height))\""
        body += " stroke=\"#e6e6e6\"/>\n"
      }
      if column.kind == .color {
        body += swatches(index, top: top, height: height, t0: t0, t1: t1, seconds: seconds)
      } else {
        body += numberLane(index, column, top: top, height: height, t0: t0, t1: t1, seconds: seconds)
      }
      body += controlMarks(on: column.name, top: top, x: x)
      body += "<rect class=\"frame\" x=\"\(n(Self.left))\" y=\"\(n(top))\" width=\"\(n(Self.width))\""
      body += " height=\"\(n(height))\" fill=\"none\" stroke=\"#444444\"/>\n"
      body += "</g>\n"
      lanesBottom = top + height + Self.laneGap
    }
    let plotBottom = columns.isEmpty ? Self.lanesTop + 40 : lanesBottom - Self.laneGap

    // The canvas.
    let canvasWidth = Self.left + Self.width + Self.rightMargin
    let canvasHeight = plotBottom + 56
    var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(canvasWidth)) \(n(canvasHeight))\""
    svg += " font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
    svg += "<title>\(Self.xml(title))</title>\n"
    svg += "<rect x=\"0\" y=\"0\" width=\"\(n(canvasWidth))\" height=\"\(n(canvasHeight))\" fill=\"#ffffff\"/>\n"
    svg +=
      "<text class=\"title\" x=\"\(n(Self.left))\" y=\"28\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">"
    svg += Self.xml(title) + "</text>\n"
    if columns.isEmpty {
      svg += "<text class=\"note\" x=\"\(n(Self.left))\" y=\"46\" font-size=\"11\" fill=\"#666666\">"
      svg += "no properties to chart</text>\n"
    }
    svg += body

    // The time axis, under the last lane.
    svg += "<g class=\"axis x\" fill=\"#444444\" text-anchor=\"middle\">\n"
    for tick in timeScale.ticks {
      let tx = n(x(tick))
      svg += "<g class=\"tick\" data-value=\"\(TraceNumber.format(tick))\">"
      svg += "<line x1=\"\(tx)\" y1=\"\(n(plotBottom))\" x2=\"\(tx)\" y2=\"\(n(plotBottom + 5))\" stroke=\"#444444\"/>"
      svg += "<text x=\"\(tx)\" y=\"\(n(plotBottom + 19))\">\(TraceNumber.format(tick))</text></g>\n"
    }
    svg += "<text class=\"label\" x=\"\(n(Self.left + Self.width / 2))\" y=\"\(n(plotBottom + 42))\">time (s)</text>\n"
    svg += "</g>\n"

    // Markers across every lane, their labels in one row above them.
    let labels = Self.placeLabels(
      markers.map { (x(AnimCore.seconds($0.time)) + 3, Self.cut($0.labels.joined(separator: ", "))) },
      right: canvasWidth - 4)
    let labelY = n(Self.labelRowTop + Self.labelFontSize)
    svg += "<g class=\"markers\" fill=\"#555555\" font-size=\"\(n(Self.labelFontSize))\">\n"
    for (index, marker) in markers.enumerated() {
      let mx = n(x(AnimCore.seconds(marker.time)))
      let full = marker.labels.joined(separator: ", ")
      svg += "<g class=\"marker\" data-t=\"\(TraceNumber.seconds(marker.time))\">"
      svg += "<title>\(Self.xml(TraceNumber.seconds(marker.time) + "s: " + full))</title>"
      svg += "<line x1=\"\(mx)\" y1=\"\(n(Self.labelRowTop))\" x2=\"\(mx)\" y2=\"\(n(plotBottom))\""
      svg += " stroke=\"#999999\" stroke-dasharray=\"4 3\"/>"
      if let labelX = labels.drawn[index] {
        svg += "<text class=\"marker-label\" x=\"\(n(labelX))\" y=\"\(labelY)\">"
        svg += Self.xml(Self.cut(full)) + "</text>"
      }
      svg += "</g>\n"
    }
    for more in labels.more {
      let hidden = more.markers.map { markers[$0] }
      let list = hidden.map { TraceNumber.seconds($0.time) + "s: " + $0.labels.joined(separator: ", ") }
      svg += "<g class=\"more\" data-count=\"\(hidden.count)\"><title>\(Self.xml(list.joined(separator: "\n")))</title>"
      svg += "<text x=\"\(n(more.x))\" y=\"\(labelY)\" font-weight=\"bold\">+\(hidden.count)</text></g>\n"
    }
    svg += "</g>\n"
    svg += "</svg>\n"
    return svg
  }

  /// A number's or a vector's lane: its value axis and one line per component.
  private func numberLane(
    _ index: Int, _ column: TraceColumn, top: Double, height: Double, t0: Double, t1: Double, seconds: [Double]
  ) -> String {
    func n(_ value: Double) -> String { TraceNumber.rounded(value, places: 3) }
    let names = column.componentNames
    let lines = names.indices.map { series(index, component: $0) }
    var lowest = Double.infinity
    var highest = -Double.infinity
    for line in lines {
      for v in line where Self.plottable(v) {
        lowest = min(lowest, v)
        highest = max(highest, v)
      }
    }
    if lowest > highest { (lowest, highest) = (0, 1) }
    let scale = NiceScale(lower: lowest, upper: highest, maxIntervals: Self.maxValueIntervals)
    let (v0, v1) = (scale.lower, scale.upper)
    func x(_ t: Double) -> Double { Self.left + (t - t0) / (t1 - t0) * Self.width }
    func y(_ v: Double) -> Double { top + (v1 - v) / (v1 - v0) * height }

    var svg = ""
    // The components' key, after the lane's title.
    if names.count > 1 {
      var keyX = Self.left + Self.labelCharacterWidth * 1.1 * Double(column.name.count) + 16
      for (component, name) in names.enumerated() {
        let suffix = String(name.dropFirst(column.name.count + 1))
        let color = Self.palette[component % Self.palette.count]
        svg += "<g class=\"key\" data-series=\"\(Self.xml(name))\">"
        svg += "<line x1=\"\(n(keyX))\" y1=\"\(n(top - 10))\" x2=\"\(n(keyX + 16))\" y2=\"\(n(top - 10))\""
        svg += " stroke=\"\(color)\" stroke-width=\"2\"/>"
        svg += "<text x=\"\(n(keyX + 20))\" y=\"\(n(top - 6))\" fill=\"#444444\">\(Self.xml(suffix))</text></g>\n"
        keyX += 20 + 8 * Double(suffix.count) + 12
      }
    }
    svg += "<g class=\"axis y\" fill=\"#444444\" text-anchor=\"end\">\n"
    for tick in scale.ticks {
      let ty = n(y(tick))
      svg += "<g class=\"tick\" data-value=\"\(TraceNumber.format(tick))\">"
      svg +=
        "<line x1=\"\(n(Self.left))\" y1=\"\(ty)\" x2=\"\(n(Self.left + Self.width))\" y2=\"\(ty)\" stroke=\"#e6e6e6\"/>"
      svg += "<line x1=\"\(n(Self.left - 5))\" y1=\"\(ty)\" x2=\"\(n(Self.left))\" y2=\"\(ty)\" stroke=\"#444444\"/>"
      svg += "<text x=\"\(n(Self.left - 8))\" y=\"\(n(y(tick) + 4))\">\(TraceNumber.format(tick))</text></g>\n"
    }
    svg += "</g>\n"
    svg += "<g class=\"plot\" data-property=\"\(Self.xml(column.name))\""
    svg += " data-t0=\"\(TraceNumber.format(t0))\" data-t1=\"\(TraceNumber.format(t1))\""
    svg += " data-v0=\"\(TraceNumber.format(v0))\" data-v1=\"\(TraceNumber.format(v1))\""
    svg += " data-left=\"\(n(Self.left))\" data-top=\"\(n(top))\""
    svg += " data-width=\"\(n(Self.width))\" data-height=\"\(n(height))\""
    svg += " fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
    for (component, line) in lines.enumerated() {
      let color = Self.palette[component % Self.palette.count]
      var run: [String] = []
      func flush() {
        guard !run.isEmpty else { return }
        svg += "<polyline class=\"series\" data-series=\"\(Self.xml(names[component]))\" stroke=\"\(color)\""
        svg += " points=\"\(run.joined(separator: " "))\"/>\n"
        if run.count == 1 {
          let point = run[0].split(separator: ",")
          svg += "<circle cx=\"\(point[0])\" cy=\"\(point[1])\" r=\"2\" fill=\"\(color)\" stroke=\"none\"/>\n"
        }
        run.removeAll()
      }
      for (i, v) in line.enumerated() {
        if Self.plottable(v) {
          run.append(n(x(seconds[i])) + "," + n(y(v)))
        } else {
          flush()
        }
      }
      flush()
    }
    svg += "</g>\n"
    return svg
  }

  /// A color's lane: each sample's color from its time to the next sample's (the last one
  /// reaching 2 px past its time), samples of one color in a row drawn as one swatch.
  private func swatches(
    _ index: Int, top: Double, height: Double, t0: Double, t1: Double, seconds: [Double]
  ) -> String {
    func n(_ value: Double) -> String { TraceNumber.rounded(value, places: 3) }
    func x(_ t: Double) -> Double { Self.left + (t - t0) / (t1 - t0) * Self.width }
    var svg = "<g class=\"swatches\" data-property=\"\(Self.xml(columns[index].name))\">\n"
    var i = 0
    let values = samples[index]
    while i < values.count {
      guard case .color(let color)? = values[i] else {
        i += 1
        continue
      }
      let hex = color.hexString()
      var j = i + 1
      while j < values.count, case .color(let next)? = values[j], next.hexString() == hex { j += 1 }
      let start = x(seconds[i])
      let end = j < values.count ? x(seconds[j]) : x(seconds[j - 1]) + 2
      let alpha = Int(hex.suffix(2), radix: 16) ?? 255
      svg += "<rect class=\"swatch\" data-t=\"\(TraceNumber.format(seconds[i]))\" data-color=\"\(hex)\""
      svg += " x=\"\(n(start))\" y=\"\(n(top))\" width=\"\(n(max(end - start, 0)))\" height=\"\(n(height))\""
      svg += " fill=\"\(hex.prefix(7))\""
      if alpha < 255 { svg += " fill-opacity=\"\(TraceNumber.rounded(Double(alpha) / 255, places: 3))\"" }
      svg += "/>\n"
      i = j
    }
    return svg + "</g>\n"
  }

  /// The control statements on a lane's property, each a glyph on the lane's top edge at its
  /// time: `pause` two bars, `play` and `resume` a triangle pointing on, `reverse` one
  /// pointing back, `seek` a diamond, the others (`speed`, `finish`, `cancel`) a dot; the
  /// statement in its `<title>`.
  private func controlMarks(on property: String, top: Double, x: (Double) -> Double) -> String {
    func n(_ value: Double) -> String { TraceNumber.rounded(value, places: 3) }
    var svg = ""
    for mark in controls where mark.properties.contains(property) {
      let cx = x(AnimCore.seconds(mark.time))
      let action = mark.statement.split(separator: " ").first.map(String.init) ?? ""
      let shape: String
      switch action {
      case "pause":
        shape =
          "<rect x=\"\(n(cx - 4))\" y=\"\(n(top + 2))\" width=\"3\" height=\"9\"/>"
          + "<rect x=\"\(n(cx + 1))\" y=\"\(n(top + 2))\" width=\"3\" height=\"9\"/>"
      case "play", "resume":
        shape = "<path d=\"M\(n(cx - 3)) \(n(top + 2)) L\(n(cx + 5)) \(n(top + 6.5)) L\(n(cx - 3)) \(n(top + 11)) Z\"/>"
      case "reverse":
        shape = "<path d=\"M\(n(cx + 3)) \(n(top + 2)) L\(n(cx - 5)) \(n(top + 6.5)) L\(n(cx + 3)) \(n(top + 11)) Z\"/>"
      case "seek":
        shape =
          "<path d=\"M\(n(cx)) \(n(top + 1)) L\(n(cx + 5)) \(n(top + 6.5)) L\(n(cx)) \(n(top + 12)) L\(n(cx - 5)) \(n(top + 6.5)) Z\"/>"
      default:
        shape = "<circle cx=\"\(n(cx))\" cy=\"\(n(top + 6.5))\" r=\"3.5\"/>"
      }
      svg += "<g class=\"control\" data-action=\"\(Self.xml(action))\" data-t=\"\(TraceNumber.seconds(mark.time))\""
      svg += " data-x=\"\(n(cx))\" fill=\"#333333\">"
      svg += "<title>\(Self.xml(TraceNumber.seconds(mark.time) + "s: " + mark.statement))</title>"
      svg += "<line x1=\"\(n(cx))\" y1=\"\(n(top))\" x2=\"\(n(cx))\" y2=\"\(n(top + 14))\" stroke=\"#333333\"/>"
      svg += shape + "</g>\n"
    }
    return svg
  }

  /// A label cut at `labelLimit` characters.
  static func cut(_ label: String) -> String {
    label.count > labelLimit ? String(label.prefix(labelLimit - 1)) + "…" : label
  }

  /// The width a label is taken to have.
  static func labelWidth(_ text: String) -> Double { labelCharacterWidth * Double(text.count) }

  /// Which marker labels (each at its marker's x, in time order) stand in the row, where,
  /// and where the `+N` of each run left out goes. A label starts at its marker, or further
  /// left where it would pass `right`. Going left to right, a label is drawn when it starts at
  /// least `labelGap` after what is drawn before it: the label before, or the `+N` of the run
  /// left out since, which stands `labelGap` after that label (at the first left-out marker
  /// when nothing is drawn before). Otherwise it joins the run. When the last run's `+N`
  /// would pass `right`, the label drawn last joins that run (with the run before it), until
  /// the `+N` fits.
  static func placeLabels(
    _ labels: [(x: Double, text: String)], right: Double
  ) -> (drawn: [Double?], more: [(x: Double, markers: [Int])]) {
    var drawn: [Double?] = Array(repeating: nil, count: labels.count)
    var more: [(x: Double, markers: [Int])] = []
    var drawnOrder: [Int] = []
    /// For each drawn label, the run whose `+N` stands just before it (an index into `more`).
    var runBefore: [Int: Int] = [:]
    var hidden: [Int] = []
    /// Where a label starts: at its marker, or further left so that it ends by `right`.
    func position(_ label: (x: Double, text: String)) -> Double { min(label.x, right - labelWidth(label.text)) }
    func end(of index: Int?) -> Double {
      index.map { position(labels[$0]) + labelWidth(labels[$0].text) } ?? -.infinity
    }
    /// Where the pending run's `+N` starts, after what is drawn.
    func runStart() -> Double {
      let cursor = end(of: drawnOrder.last)
      return cursor.isFinite ? cursor + labelGap : position((labels[hidden[0]].x, "+\(hidden.count)"))
    }
    for (index, label) in labels.enumerated() {
      let earliest =
        hidden.isEmpty
        ? end(of: drawnOrder.last) + labelGap : runStart() + labelWidth("+\(hidden.count)") + labelGap
      guard position(label) >= earliest else {
        hidden.append(index)
        continue
      }
      if !hidden.isEmpty {
        more.append((runStart(), hidden))
        runBefore[index] = more.count - 1
        hidden = []
      }
      drawn[index] = position(label)
      drawnOrder.append(index)
    }
    while !hidden.isEmpty {
      let width = labelWidth("+\(hidden.count)")
      if runStart() + width <= right || drawnOrder.isEmpty {
        more.append((runStart(), hidden))
        break
      }
      let last = drawnOrder.removeLast()
      drawn[last] = nil
      var run = [last] + hidden
      if let before = runBefore.removeValue(forKey: last) {
        run = more[before].markers + run
        more.remove(at: before)
      }
      hidden = run
    }
    return (drawn, more)
  }

  /// Text for XML content or a quoted attribute: `& < > " '` as entities, tabs and line
  /// breaks as character references, and the characters XML 1.0 cannot hold as U+FFFD.
  package static func xml(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t": out += "&#9;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\u{00}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// An axis range from one round tick to another: ticks at k · step for whole k, where the
/// step is 1, 2 or 5 × 10ᵉ, the smallest such that [lower, upper] (rounded out to ticks)
/// takes at most `maxIntervals` steps.
package struct NiceScale: Sendable, Hashable {
  /// The step's leading digit: 1, 2 or 5.
  package let mantissa: Int
  /// The step's power of ten.
  package let exponent: Int
  /// The first tick is `firstIndex` steps from zero, the last `lastIndex`.
  package let firstIndex: Double
  package let lastIndex: Double

  /// The scale for values in `lower...upper` (finite, within ±10³⁰⁰). An empty range
  /// (lower == upper) is widened first: by half the value each way, or to 0...1 at 0.
  package init(lower: Double, upper: Double, maxIntervals: Int) {
    var (lower, upper) = (min(lower, upper), max(lower, upper))
    if upper - lower < 1e-300 {
      let spread = lower == 0 ? 1 : lower.magnitude / 2
      (lower, upper) = lower == 0 ? (0, 1) : (lower - spread, upper + spread)
    }
    let span = upper - lower
    let limit = Double(max(1, maxIntervals))
    let raw = span / limit
    // The power of ten at or below the raw step.
    var exponent = 0
    var power = 1.0
    while power > raw {
      power /= 10
      exponent -= 1
    }
    while power * 10 <= raw {
      power *= 10
      exponent += 1
    }
    var mantissa = 1
    while true {
      let step = Self.value(1, mantissa: mantissa, exponent: exponent)
      var first = (lower / step).rounded(.down)
      if Self.value(first + 1, mantissa: mantissa, exponent: exponent) <= lower { first += 1 }
      if Self.value(first, mantissa: mantissa, exponent: exponent) > lower { first -= 1 }
      var last = (upper / step).rounded(.up)
      if Self.value(last - 1, mantissa: mantissa, exponent: exponent) >= upper { last -= 1 }
      if Self.value(last, mantissa: mantissa, exponent: exponent) < upper { last += 1 }
      if last - first <= limit {
        self.mantissa = mantissa
        self.exponent = exponent
        self.firstIndex = first
        self.lastIndex = last
        return
      }
      switch mantissa {
      case 1: mantissa = 2
      case 2: mantissa = 5
      default:
        mantissa = 1
        exponent += 1
      }
    }
  }

  /// k steps: k · mantissa · 10^exponent, computed so that a round tick is the Double
  /// nearest its decimal (0.3, not 0.30000000000000004).
  package static func value(_ k: Double, mantissa: Int, exponent: Int) -> Double {
    let units = k * Double(mantissa)
    var power = 1.0
    for _ in 0..<exponent.magnitude { power *= 10 }
    return exponent >= 0 ? units * power : units / power
  }

  /// The step between ticks.
  package var step: Double { Self.value(1, mantissa: mantissa, exponent: exponent) }
  /// The first tick.
  package var lower: Double { Self.value(firstIndex, mantissa: mantissa, exponent: exponent) }
  /// The last tick.
  package var upper: Double { Self.value(lastIndex, mantissa: mantissa, exponent: exponent) }
  /// Every tick, lower to upper.
  package var ticks: [Double] {
    stride(from: firstIndex, through: lastIndex, by: 1).map {
      Self.value($0, mantissa: mantissa, exponent: exponent)
    }
  }
}
