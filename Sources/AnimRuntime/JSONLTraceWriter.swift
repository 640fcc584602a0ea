// The `jsonl` trace format: one JSON object per line, the default of `anim trace`.

import AnimCore

/// Writes each record as one JSON object on a line of its own (cli.md, `anim trace`):
///
///     {"t":0.5,"values":{"box.x":40,"box.pos":[0,120],"box.tint":"#ff8800ff"}}
///     {"t":1.3,"event":"complete","subject":"intro"}
///     {"t":1.3,"event":"intro-done"}
///     {"t":1.3,"print":"landed at 1.3s"}
///
/// `t` is the exact nanosecond time / 10⁹ and every number is written by
/// `TraceNumber.json(_:)`: the shortest form that reads back to the same Double, whole
/// numbers without a fraction, and `null` for NaN and the infinities (which JSON cannot
/// write). A vector is an array of its components, a color `#rrggbbaa` (un-premultiplied,
/// each channel round(c · 255) with halves rounded up). An event of a timeline or property
/// has its `subject`; a script's own event (from `emit`) has none. Values are written in
/// the order the sample holds them; the writer needs no columns and keeps no state.
public struct JSONLTraceWriter: TraceWriter, Sendable {
  public init() {}

  public mutating func write(_ record: TraceRecord) -> String {
    Self.line(record)
  }

  public mutating func finish() -> String { "" }

  /// The line for `record`, ending in `\n`.
  public static func line(_ record: TraceRecord) -> String {
    var line = "{\"t\":" + TraceNumber.json(seconds(record.time))
    switch record {
    case .sample(_, let values):
      line += ",\"values\":{"
      for (index, named) in values.enumerated() {
        if index > 0 { line += "," }
        line += TraceJSON.string(named.name) + ":" + TraceJSON.value(named.value)
      }
      line += "}"
    case .event(_, let name, let subject):
      line += ",\"event\":" + TraceJSON.string(name)
      if let subject { line += ",\"subject\":" + TraceJSON.string(subject) }
    case .print(_, let text):
      line += ",\"print\":" + TraceJSON.string(text)
    }
    return line + "}\n"
  }
}

/// JSON text for the trace's values and strings.
public enum TraceJSON {
  /// `text` as a JSON string literal, quotes included. `"` and `\` are escaped, the control
  /// characters U+0000–U+001F as `\b \f \n \r \t` or `\u00XX`, and U+007F, U+2028 and
  /// U+2029 as `\u` escapes too (legal in JSON, but they break JavaScript source and
  /// terminals). Everything else is written as itself, in UTF-8.
  public static func string(_ text: String) -> String {
    var out = "\""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
        out += "\\u" + hex4(scalar.value)
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
    return out
  }

  /// A value as JSON: a number, an array of components, or a color's `#rrggbbaa` string.
  public static func value(_ value: AnimationValue) -> String {
    switch value {
    case .number(let x): return TraceNumber.json(x)
    case .color(let color): return "\"" + color.hexString() + "\""
    case .vec2, .vec3, .vec4:
      let components = value.numericComponents ?? []
      return "[" + components.map(TraceNumber.json).joined(separator: ",") + "]"
    }
  }

  static func hex4(_ value: UInt32) -> String {
    let digits = Array("0123456789abcdef")
    return String([12, 8, 4, 0].map { digits[Int((value >> UInt32($0)) & 0xF)] })
  }
}
