// The `csv` trace format: a header and one row per sample.

import AnimCore

/// Writes a header `t,card.angle,card.position.x,card.position.y,card.tint` and then one
/// row per sample (RFC 4180, with `\n` line ends).
///
/// - `t` and every number are written by `TraceNumber.format(_:)`: the exact time in
///   seconds, the shortest form that reads back to the same Double; NaN and the infinities
///   as `nan`, `inf`, `-inf` (which spreadsheets keep as text and pandas, NumPy and Python's
///   `float` read as numbers).
/// - A vector takes one column per component, named `T.p.x`, `T.p.y` (`.z`, `.w`); a color
///   one column, `#rrggbbaa`.
/// - A column the sample has no value for (or a value of another kind) is an empty cell.
/// - **Events and prints are not written.** Every row of a CSV file has the same columns,
///   and tools that read CSV (spreadsheets, pandas, R, `csvkit`) take any other line for a
///   malformed row; comment lines are a convention that most of them need to be told
///   about. The csv format is for plotting and comparing values; `jsonl` (the default)
///   holds the events and prints in time order with the samples.
///
/// The header comes with the first record, or from `finish()` when there was none.
package struct CSVTraceWriter: TraceWriter, Sendable {
  package let columns: [TraceColumn]
  private var headerWritten = false

  package init(columns: [TraceColumn]) {
    self.columns = columns
  }

  /// The header line: `t` and every column's component names.
  package var header: String {
    (["t"] + columns.flatMap(\.componentNames)).map(Self.field).joined(separator: ",") + "\n"
  }

  package mutating func write(_ record: TraceRecord) -> String {
    var text = takeHeader()
    guard case .sample(let time, let values) = record else { return text }
    var fields = [TraceNumber.seconds(time)]
    for (column, value) in zip(columns, valuesInColumnOrder(values, columns: columns)) {
      fields += cells(of: value, in: column, number: TraceNumber.format).map { Self.field($0 ?? "") }
    }
    text += fields.joined(separator: ",") + "\n"
    return text
  }

  package mutating func finish() -> String { takeHeader() }

  private mutating func takeHeader() -> String {
    if headerWritten { return "" }
    headerWritten = true
    return header
  }

  /// A field as RFC 4180 writes it: quoted, with quotes doubled, when it holds a comma, a
  /// quote or a line break.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    var quoted = "\""
    for character in text {
      if character == "\"" { quoted += "\"" }
      quoted.append(character)
    }
    return quoted + "\""
  }
}
