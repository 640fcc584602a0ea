// The `svg` trace format: a chart of the watched numbers over time.

import AnimCore

/// Draws the trace as an SVG chart that a browser scales to its window (a `viewBox`, no
/// fixed size): one line per number and per vector component (`T.p.x`, `T.p.y`, ...) over
/// time, axes with labelled ticks, a legend naming every line, a dashed vertical marker at
/// the time of each event and print, and a title.
///
/// - **Colors are not charted** (a color has no single value to plot); the chart names the
///   color properties it leaves out under its title.
/// - **Axes.** x is the time in seconds, y the value. Each axis runs from one tick to
///   another, ticks at a round step (1, 2 or 5 × 10ᵏ) chosen so that there are at most 10
///   intervals across time and 8 up the values; the range holds every sample, event and
///   print time and every charted value.
/// - **The transform.** A sample at time t (seconds: nanoseconds / 10⁹) with value v is the
///   point
///
///       x = left + (t − t0) / (t1 − t0) · width
///       y = top  + (v1 − v) / (v1 − v0) · height
///
///   each coordinate rounded to 3 decimal places. [t0, t1] and [v0, v1] are the axes'
///   first and last ticks, and left, top, width, height the plot area; all eight are written
///   on the plot's group as `data-t0`, `data-t1`, `data-v0`, `data-v1`, `data-left`,
///   `data-top`, `data-width`, `data-height`, so that a reader can map points back to
///   values. Every sample of a series is a point of its polyline (`data-series="T.p"`), in
///   time order; a NaN, an infinity or a value beyond ±10³⁰⁰ is not drawn and breaks the
///   line in two.
/// - **Markers.** Events and prints at the same instant share one marker, labelled with all
///   of them (`complete intro`, `"intro-done"` for a script's own event, `print: TEXT`),
///   the label cut at 60 characters; the marker's `<title>` holds the full text.
/// - Text is escaped for XML; characters XML cannot hold become U+FFFD, control characters
///   in a print are shown as escapes.
///
/// The writer keeps the times and charted numbers until `finish()`, which returns the whole
/// document; `write(_:)` returns nothing.
package struct SVGTraceWriter: TraceWriter, Sendable {
  package let columns: [TraceColumn]
  package let title: String

  /// One charted line: a number column, or one component of a vector column.
  struct Series: Sendable {
    var name: String
    var column: Int
    var component: Int
  }

  struct Marker: Sendable {
    var time: Nanoseconds
    var labels: [String]
  }

  private let series: [Series]
  private var times: [Nanoseconds] = []
  /// values[s][i]: series s at times[i] (NaN where the sample had no value).
  private var values: [[Double]]
  private var markers: [Marker] = []

  // The plot area, in viewBox units.
  static let left = 80.0
  static let top = 64.0
  static let width = 720.0
  static let height = 400.0
  static let maxTimeIntervals = 10
  static let maxValueIntervals = 8
  static let labelLimit = 60
  static let palette = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
  ]
  static let dashes = ["", "6 3", "2 2", "8 3 2 3"]

  package init(columns: [TraceColumn], title: String = "anim trace") {
    self.columns = columns
    self.title = title
    var series: [Series] = []
    for (index, column) in columns.enumerated() where column.kind != .color {
      for (component, name) in column.componentNames.enumerated() {
        series.append(Series(name: name, column: index, component: component))
      }
    }
    self.series = series
    self.values = Array(repeating: [], count: series.count)
  }

  package mutating func write(_ record: TraceRecord) -> String {
    switch record {
    case .sample(let time, let sampleValues):
      let ordered = valuesInColumnOrder(sampleValues, columns: columns)
      times.append(time)
      for (index, line) in series.enumerated() {
        var number = Double.nan
        if let value = ordered[line.column], value.kind == columns[line.column].kind,
          let components = value.numericComponents, line.component < components.count
        {
          number = components[line.component]
        }
        values[index].append(number)
      }
    case .event(let time, let name, let subject):
      let label = subject.map { "\(name) \($0)" } ?? "\"\(name)\""
      addMarker(time, TableTraceWriter.visible(label))
    case .print(let time, let text):
      addMarker(time, "print: " + TableTraceWriter.visible(text))
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

  package mutating func finish() -> String {
    // The ranges.
    let allTimes = times.map(AnimCore.seconds) + markers.map { AnimCore.seconds($0.time) }
    let timeScale = NiceScale(
      lower: allTimes.min() ?? 0, upper: allTimes.max() ?? 1, maxIntervals: Self.maxTimeIntervals)
    var lowest = Double.infinity
    var highest = -Double.infinity
    for line in values {
      for v in line where Self.plottable(v) {
        lowest = min(lowest, v)
        highest = max(highest, v)
      }
    }
    if lowest > highest { (lowest, highest) = (0, 1) }
    let valueScale = NiceScale(lower: lowest, upper: highest, maxIntervals: Self.maxValueIntervals)
    let t0 = timeScale.lower
    let t1 = timeScale.upper
    let v0 = valueScale.lower
    let v1 = valueScale.upper
    func x(_ t: Double) -> Double { Self.left + (t - t0) / (t1 - t0) * Self.width }
    func y(_ v: Double) -> Double { Self.top + (v1 - v) / (v1 - v0) * Self.height }
    func n(_ value: Double) -> String { TraceNumber.rounded(value, places: 3) }

    // The canvas: the plot, the legend to its right.
    let longestName = series.map(\.name.count).max() ?? 0
    let legendX = Self.left + Self.width + 24
    let legendWidth = Double(max(120, 36 + 7 * longestName + 16))
    let canvasWidth = legendX + legendWidth
    let legendBottom = Self.top + Double(series.count) * 20 + 16
    let canvasHeight = max(Self.top + Self.height + 56, legendBottom)

    var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(canvasWidth)) \(n(canvasHeight))\""
    svg += " font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
    svg += "<title>\(Self.xml(title))</title>\n"
    svg += "<rect x=\"0\" y=\"0\" width=\"\(n(canvasWidth))\" height=\"\(n(canvasHeight))\" fill=\"#ffffff\"/>\n"
    svg +=
      "<text class=\"title\" x=\"\(n(Self.left))\" y=\"28\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">"
    svg += Self.xml(title) + "</text>\n"
    let skipped = columns.filter { $0.kind == .color }.map(\.name)
    var notes: [String] = []
    if !skipped.isEmpty { notes.append("colors not charted: " + skipped.joined(separator: ", ")) }
    if series.isEmpty { notes.append("no numeric properties to chart") }
    if !notes.isEmpty {
      svg += "<text class=\"note\" x=\"\(n(Self.left))\" y=\"46\" font-size=\"11\" fill=\"#666666\">"
      svg += Self.xml(notes.joined(separator: "; ")) + "</text>\n"
    }

    // Grid, ticks and axes.
    let bottom = Self.top + Self.height
    let right = Self.left + Self.width
    svg += "<g class=\"axis x\" fill=\"#444444\" text-anchor=\"middle\">\n"
    for tick in timeScale.ticks {
      let tx = n(x(tick))
      svg += "<g class=\"tick\" data-value=\"\(TraceNumber.format(tick))\">"
      svg += "<line x1=\"\(tx)\" y1=\"\(n(Self.top))\" x2=\"\(tx)\" y2=\"\(n(bottom))\" stroke=\"#e6e6e6\"/>"
      svg += "<line x1=\"\(tx)\" y1=\"\(n(bottom))\" x2=\"\(tx)\" y2=\"\(n(bottom + 5))\" stroke=\"#444444\"/>"
      svg += "<text x=\"\(tx)\" y=\"\(n(bottom + 19))\">\(TraceNumber.format(tick))</text></g>\n"
    }
    svg += "<text class=\"label\" x=\"\(n(Self.left + Self.width / 2))\" y=\"\(n(bottom + 42))\">time (s)</text>\n"
    svg += "</g>\n"
    svg += "<g class=\"axis y\" fill=\"#444444\" text-anchor=\"end\">\n"
    for tick in valueScale.ticks {
      let ty = n(y(tick))
      svg += "<g class=\"tick\" data-value=\"\(TraceNumber.format(tick))\">"
      svg += "<line x1=\"\(n(Self.left))\" y1=\"\(ty)\" x2=\"\(n(right))\" y2=\"\(ty)\" stroke=\"#e6e6e6\"/>"
      svg += "<line x1=\"\(n(Self.left - 5))\" y1=\"\(ty)\" x2=\"\(n(Self.left))\" y2=\"\(ty)\" stroke=\"#444444\"/>"
      svg += "<text x=\"\(n(Self.left - 8))\" y=\"\(n(y(tick) + 4))\">\(TraceNumber.format(tick))</text></g>\n"
    }
    svg +=
      "<text class=\"label\" text-anchor=\"middle\" transform=\"translate(18 \(n(Self.top + Self.height / 2))) rotate(-90)\">value</text>\n"
    svg += "</g>\n"
    svg +=
      "<rect class=\"frame\" x=\"\(n(Self.left))\" y=\"\(n(Self.top))\" width=\"\(n(Self.width))\" height=\"\(n(Self.height))\""
    svg += " fill=\"none\" stroke=\"#444444\"/>\n"

    // The lines.
    svg += "<g class=\"plot\" data-t0=\"\(TraceNumber.format(t0))\" data-t1=\"\(TraceNumber.format(t1))\""
    svg += " data-v0=\"\(TraceNumber.format(v0))\" data-v1=\"\(TraceNumber.format(v1))\""
    svg += " data-left=\"\(n(Self.left))\" data-top=\"\(n(Self.top))\""
    svg += " data-width=\"\(n(Self.width))\" data-height=\"\(n(Self.height))\""
    svg += " fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
    let seconds = times.map(AnimCore.seconds)
    for (index, line) in series.enumerated() {
      let style = Self.style(index)
      var run: [String] = []
      func flush() {
        guard !run.isEmpty else { return }
        svg += "<polyline class=\"series\" data-series=\"\(Self.xml(line.name))\" stroke=\"\(style.color)\""
        if !style.dash.isEmpty { svg += " stroke-dasharray=\"\(style.dash)\"" }
        svg += " points=\"\(run.joined(separator: " "))\"/>\n"
        if run.count == 1 {
          let point = run[0].split(separator: ",")
          svg += "<circle cx=\"\(point[0])\" cy=\"\(point[1])\" r=\"2\" fill=\"\(style.color)\" stroke=\"none\"/>\n"
        }
        run.removeAll()
      }
      for (i, v) in values[index].enumerated() {
        if Self.plottable(v) {
          run.append(n(x(seconds[i])) + "," + n(y(v)))
        } else {
          flush()
        }
      }
      flush()
    }
    svg += "</g>\n"

    // Markers, over the lines, their labels haloed.
    svg += "<g class=\"markers\" fill=\"#555555\" font-size=\"10\">\n"
    for marker in markers {
      let mx = n(x(AnimCore.seconds(marker.time)))
      let full = marker.labels.joined(separator: ", ")
      var label = full
      if label.count > Self.labelLimit { label = String(label.prefix(Self.labelLimit - 1)) + "…" }
      svg += "<g class=\"marker\" data-t=\"\(TraceNumber.seconds(marker.time))\">"
      svg += "<title>\(Self.xml(TraceNumber.seconds(marker.time) + "s: " + full))</title>"
      svg +=
        "<line x1=\"\(mx)\" y1=\"\(n(Self.top))\" x2=\"\(mx)\" y2=\"\(n(bottom))\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>"
      svg += "<text transform=\"translate(\(n(x(AnimCore.seconds(marker.time)) + 3)) \(n(Self.top + 4))) rotate(90)\""
      svg += " stroke=\"#ffffff\" stroke-width=\"3\" stroke-opacity=\"0.8\" paint-order=\"stroke\">"
      svg += Self.xml(label) + "</text></g>\n"
    }
    svg += "</g>\n"

    // The legend.
    svg += "<g class=\"legend\" fill=\"#222222\">\n"
    for (index, line) in series.enumerated() {
      let style = Self.style(index)
      let ly = Self.top + 8 + Double(index) * 20
      svg += "<g class=\"legend-item\" data-series=\"\(Self.xml(line.name))\">"
      svg +=
        "<line x1=\"\(n(legendX))\" y1=\"\(n(ly))\" x2=\"\(n(legendX + 24))\" y2=\"\(n(ly))\" stroke=\"\(style.color)\" stroke-width=\"2\""
      if !style.dash.isEmpty { svg += " stroke-dasharray=\"\(style.dash)\"" }
      svg += "/><text x=\"\(n(legendX + 30))\" y=\"\(n(ly + 4))\">\(Self.xml(line.name))</text></g>\n"
    }
    svg += "</g>\n"
    svg += "</svg>\n"
    return svg
  }

  /// The color and dash pattern of the line at `index`: ten colors, then the same ten
  /// dashed, and so on.
  static func style(_ index: Int) -> (color: String, dash: String) {
    (palette[index % palette.count], dashes[(index / palette.count) % dashes.count])
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
