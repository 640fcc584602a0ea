// The trace formats: one streaming writer per format, all behind `TraceWriter`.
//
// A trace can be long (a minute at 60 fps is 3 600 samples; `--until 1h` far more), so a
// writer turns records into text one at a time and keeps no more than its format needs:
// `jsonl`, `csv` and `table` keep nothing but column widths, `svg` keeps the numbers it will
// draw. The columns (the watched properties and their kinds) are known before the first
// record: `anim trace` knows them from the script's targets and `--watch`.

import AnimCore

/// A watched property: its name `T.p` and the kind of value it holds.
public struct TraceColumn: Sendable, Hashable {
  package var name: String
  package var kind: ValueKind

  /// A column for the property `name` (`T.p`) holding values of `kind`.
  public init(name: String, kind: ValueKind) {
    self.name = name
    self.kind = kind
  }

  /// The names of the scalar columns it takes in `csv` and `table`: `T.p` for a number or
  /// a color, `T.p.x`, `T.p.y` (`.z`, `.w`) for a vector, one per component.
  package var componentNames: [String] {
    switch kind {
    case .number, .color: [name]
    case .vec2: ["x", "y"].map { "\(name).\($0)" }
    case .vec3: ["x", "y", "z"].map { "\(name).\($0)" }
    case .vec4: ["x", "y", "z", "w"].map { "\(name).\($0)" }
    }
  }

  /// The columns of a sample's values, in their order.
  package static func columns(of values: [NamedValue]) -> [TraceColumn] {
    values.map { TraceColumn(name: $0.name, kind: $0.value.kind) }
  }
}

/// Turns trace records into the text of one format, one record at a time.
///
/// Call `write(_:)` for each record in time order and append what it returns to the output,
/// then append what `finish()` returns, once. A writer that has a header writes it with the
/// first record (or from `finish()` when there were none).
public protocol TraceWriter {
  /// The text for `record`: zero or more whole lines, each ending in `\n`.
  mutating func write(_ record: TraceRecord) -> String
  /// The text that ends the trace; the writer is done afterwards.
  mutating func finish() -> String
}

extension TraceWriter {
  /// The whole text for `records`: every `write` and then `finish`.
  package mutating func render(_ records: some Sequence<TraceRecord>) -> String {
    var text = ""
    for record in records { text += write(record) }
    text += finish()
    return text
  }
}

/// The formats `anim trace --format` offers.
public enum TraceFormat: String, Sendable, Hashable, CaseIterable {
  /// One JSON object per line (the default). See `JSONLTraceWriter`.
  case jsonl
  /// A header and one row per sample, one column per number, component or color. See
  /// `CSVTraceWriter`.
  case csv
  /// Aligned columns for people, events and prints on lines of their own. See
  /// `TableTraceWriter`.
  case table
  /// A chart of the numeric columns over time, with event markers. See `SVGTraceWriter`.
  case svg

  /// A writer of this format for `columns`; `title` heads the svg chart (the other formats
  /// have no title).
  public func writer(columns: [TraceColumn], title: String = "anim trace") -> any TraceWriter {
    switch self {
    case .jsonl: JSONLTraceWriter()
    case .csv: CSVTraceWriter(columns: columns)
    case .table: TableTraceWriter(columns: columns)
    case .svg: SVGTraceWriter(columns: columns, title: title)
    }
  }

  /// The whole text of `records` in this format.
  package func render(_ records: some Sequence<TraceRecord>, columns: [TraceColumn], title: String = "anim trace")
    -> String
  {
    var writer = writer(columns: columns, title: title)
    return writer.render(records)
  }
}

extension AnimationValue {
  /// The components of a number or vector, in order; nil for a color.
  var numericComponents: [Double]? {
    switch self {
    case .number(let x): [x]
    case .vec2(let v): [v.x, v.y]
    case .vec3(let v): [v.x, v.y, v.z]
    case .vec4(let v): [v.x, v.y, v.z, v.w]
    case .color: nil
    }
  }
}

/// A sample's values in column order: the value named by each column, or nil where the
/// sample has none. Samples normally carry exactly the columns, in order (the fast path).
func valuesInColumnOrder(_ values: [NamedValue], columns: [TraceColumn]) -> [AnimationValue?] {
  if values.count == columns.count, zip(values, columns).allSatisfy({ $0.name == $1.name }) {
    return values.map(\.value)
  }
  var byName: [String: AnimationValue] = [:]
  for value in values where byName[value.name] == nil { byName[value.name] = value.value }
  return columns.map { byName[$0.name] }
}

/// The cells a value takes under `column`: one per component name, numbers in `format`,
/// a color as `#rrggbbaa`. A missing value, or one of another kind than the column's, leaves
/// its cells nil.
func cells(of value: AnimationValue?, in column: TraceColumn, number format: (Double) -> String) -> [String?] {
  guard let value, value.kind == column.kind else {
    return Array(repeating: nil, count: column.componentNames.count)
  }
  if case .color(let color) = value { return [color.hexString()] }
  return (value.numericComponents ?? []).map(format)
}
