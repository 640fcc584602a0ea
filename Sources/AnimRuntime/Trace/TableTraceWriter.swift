// The `table` trace format: aligned columns for people.

import AnimCore

/// Writes the trace as a table for people to read in a terminal:
///
///            t     box.x  box.pos.x  box.pos.y   box.tint
///     --------  --------  ---------  ---------  ---------
///        0         0          0        120      #ff8800ff
///        0.5      40          0        122.5    #ff8800ff
///        1.3    > complete intro
///        1.3    > "intro-done"
///        1.3    > print: landed at 1.3s
///        1.3     100         12.346    130      #ff8800ff
///
/// - The first column is the time in seconds; then one column per number, per vector
///   component (`T.p.x`, `T.p.y`, ...) and per color (`#rrggbbaa`), as in `csv`.
/// - Times and numbers are rounded to 3 decimal places (milliseconds, thousandths) and
///   lined up on the decimal point; whole numbers have no point. The exact values are in
///   `jsonl` and `csv`. NaN and the infinities read `nan`, `inf`, `-inf`.
/// - Events and prints are lines of their own, in time order between the rows, marked
///   `>` after their time: `> complete intro` (an event and its subject), `> "intro-done"`
///   (a script's own event, quoted as `emit` writes it), `> print: TEXT`. Control
///   characters in a print (a `\n` in its string) are shown as escapes (`\n`, `\u{1B}`), so
///   that each record is one line and nothing reaches the terminal as a control sequence.
/// - The table streams: column widths are fixed by the header and room for 4 digits
///   before the point. A value that needs more widens its column for good, and the header
///   is written again above that row, so every row under a header is aligned.
package struct TableTraceWriter: TraceWriter, Sendable {
  package let columns: [TraceColumn]

  /// One column of the table: its header, and how its cells line up.
  struct Layout: Sendable {
    var header: String
    /// False for colors: plain text, right-aligned.
    var numeric: Bool
    /// The whole width.
    var width: Int
    /// Room for `.ddd` after the integer part (numeric columns).
    var fraction: Int

    var integer: Int { width - fraction }
  }

  private var layouts: [Layout]
  private var headerPending = true

  /// The decimal places of times and numbers.
  package static let places = 3
  static let gap = "  "

  package init(columns: [TraceColumn]) {
    self.columns = columns
    let fraction = Self.places + 1
    let initialInteger = 4
    var layouts = [Layout(header: "t", numeric: true, width: fraction + initialInteger, fraction: fraction)]
    for column in columns {
      for name in column.componentNames {
        let numeric = column.kind != .color
        let minimum = numeric ? fraction + initialInteger : 9
        layouts.append(Layout(header: name, numeric: numeric, width: max(name.count, minimum), fraction: fraction))
      }
    }
    self.layouts = layouts
  }

  package mutating func write(_ record: TraceRecord) -> String {
    switch record {
    case .sample(let time, let values):
      var texts: [String?] = [Self.number(seconds(time))]
      for (column, value) in zip(columns, valuesInColumnOrder(values, columns: columns)) {
        texts += cells(of: value, in: column, number: Self.number)
      }
      var widened = false
      for index in layouts.indices {
        guard let text = texts[index] else { continue }
        let needed = Self.neededWidth(text, in: layouts[index])
        if needed > layouts[index].width {
          layouts[index].width = needed
          widened = true
        }
      }
      var out = takeHeader(force: widened)
      let rendered = layouts.indices.map { Self.render(texts[$0], in: layouts[$0]) }
      out += Self.trimmed(rendered.joined(separator: Self.gap)) + "\n"
      return out
    case .event(let time, let name, let subject):
      let what = subject.map { "\(Self.visible(name)) \(Self.visible($0))" } ?? "\"\(Self.visible(name))\""
      return mark(time, what)
    case .print(let time, let text):
      return mark(time, "print: " + Self.visible(text))
    case .control:
      return ""  // the chart's only
    }
  }

  package mutating func finish() -> String { takeHeader(force: false) }

  /// An event or print line: its time in the time column, then `> what`.
  private mutating func mark(_ time: Nanoseconds, _ what: String) -> String {
    let text = Self.number(seconds(time))
    var out = ""
    if Self.neededWidth(text, in: layouts[0]) > layouts[0].width {
      layouts[0].width = Self.neededWidth(text, in: layouts[0])
      out += takeHeader(force: true)
    } else {
      out += takeHeader(force: false)
    }
    return out + Self.render(text, in: layouts[0]) + Self.gap + "> " + what + "\n"
  }

  private mutating func takeHeader(force: Bool) -> String {
    guard headerPending || force else { return "" }
    headerPending = false
    let names = layouts.map { String(repeating: " ", count: $0.width - $0.header.count) + $0.header }
    let rules = layouts.map { String(repeating: "-", count: $0.width) }
    return names.joined(separator: Self.gap) + "\n" + rules.joined(separator: Self.gap) + "\n"
  }

  /// A number for the table: rounded to `places` decimals.
  static func number(_ value: Double) -> String {
    TraceNumber.rounded(value, places: places)
  }

  /// Splits a decimal at its point; nil for text that does not line up on one
  /// (exponent forms, `nan`, `inf`, colors).
  static func decimalParts(_ text: String) -> (integer: Substring, fraction: Substring)? {
    guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
    if let point = text.firstIndex(of: ".") { return (text[..<point], text[point...]) }
    return (Substring(text), "")
  }

  /// The width a cell needs in `layout`.
  static func neededWidth(_ text: String, in layout: Layout) -> Int {
    if layout.numeric, let parts = decimalParts(text), parts.fraction.count <= layout.fraction {
      return parts.integer.count + layout.fraction
    }
    return text.count
  }

  /// A cell padded to its column's width: numbers aligned on the point, other text (and a
  /// missing value's blank) to the right.
  static func render(_ text: String?, in layout: Layout) -> String {
    guard let text else { return String(repeating: " ", count: layout.width) }
    if layout.numeric, let parts = decimalParts(text), parts.fraction.count <= layout.fraction {
      return String(repeating: " ", count: max(0, layout.integer - parts.integer.count)) + parts.integer
        + parts.fraction + String(repeating: " ", count: layout.fraction - parts.fraction.count)
    }
    return String(repeating: " ", count: max(0, layout.width - text.count)) + text
  }

  /// A line without the spaces that pad its last cell.
  static func trimmed(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }

  /// Text with its control characters written as escapes, so it stays on its line and
  /// sends nothing to the terminal.
  static func visible(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
