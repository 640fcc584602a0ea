// The `jsonl` trace format: one JSON object per line, the default of `anim trace`.

import AnimCore

/// Writes each record as one JSON object on a line of its own (README, Using anim: `anim trace`):
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
/// the order the sample holds them; the writer needs no columns. The only thing it keeps is
/// each position's key (`"box.x":`) as escaped bytes, reused while the samples name the same
/// properties in the same order.
package struct JSONLTraceWriter: TraceWriter, Sendable {
  private var keys = SampleKeys()

  package init() {}

  package mutating func write(_ record: TraceRecord) -> String {
    if case .sample(let time, let values) = record { return keys.line(time: time, values: values) }
    return Self.line(record)
  }

  package mutating func finish() -> String { "" }

  /// The line for `record`, ending in `\n`.
  package static func line(_ record: TraceRecord) -> String {
    if case .control = record { return "" }  // the chart's only
    if case .sample(let time, let values) = record {
      var keys = SampleKeys()
      return keys.line(time: time, values: values)
    }
    var line = "{\"t\":" + TraceNumber.json(seconds(record.time))
    switch record {
    case .sample: break
    case .event(_, let name, let subject):
      line += ",\"event\":" + TraceJSON.string(name)
      if let subject { line += ",\"subject\":" + TraceJSON.string(subject) }
    case .print(_, let text):
      line += ",\"print\":" + TraceJSON.string(text)
    case .control:
      break
    }
    return line + "}\n"
  }
}

/// The keys of a sample's values, `"T.p":` escaped once, by position; and the sample's line
/// written as bytes straight into the string's storage.
struct SampleKeys: Sendable {
  /// The name at each position, and where its key ends in `bytes` (it starts where the one
  /// before ends).
  private var names: [String] = []
  private var ends: [Int] = []
  private var bytes: [UInt8] = []

  /// Makes the keys those of `values`, keeping those that are already right.
  private mutating func update(_ values: [NamedValue]) {
    var position = 0
    while position < min(names.count, values.count), names[position] == values[position].name { position += 1 }
    if position == values.count && position == names.count { return }
    names.removeSubrange(position...)
    ends.removeSubrange(position...)
    bytes.removeSubrange((position == 0 ? 0 : ends[position - 1])...)
    for named in values[position...] {
      names.append(named.name)
      bytes += TraceJSON.string(named.name).utf8
      bytes.append(UInt8(ascii: ":"))
      ends.append(bytes.count)
    }
  }

  /// `{"t":…,"values":{…}}` and a newline.
  mutating func line(time: Nanoseconds, values: [NamedValue]) -> String {
    update(values)
    let number = TraceNumber.maxLength
    var capacity = 32 + number + bytes.count
    for named in values {
      switch named.value {
      case .number: capacity += number + 1
      case .color: capacity += 12
      case .vec2: capacity += 2 * number + 4
      case .vec3: capacity += 3 * number + 5
      case .vec4: capacity += 4 * number + 6
      }
    }
    return bytes.withUnsafeBufferPointer { keys in
      String(unsafeUninitializedCapacity: capacity) { buffer in
        let start = buffer.baseAddress!
        var out = start
        func put(_ text: StaticString) {
          out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
          out += text.utf8CodeUnitCount
        }
        func put(_ x: Double) {
          out += TraceNumber.writeJSON(x, to: out)
        }
        put("{\"t\":")
        put(seconds(time))
        put(",\"values\":{")
        var keyStart = 0
        for (index, named) in values.enumerated() {
          if index > 0 { put(",") }
          let keyEnd = ends[index]
          out.update(from: keys.baseAddress! + keyStart, count: keyEnd - keyStart)
          out += keyEnd - keyStart
          keyStart = keyEnd
          switch named.value {
          case .number(let x):
            put(x)
          case .color(let color):
            var hex = "\"" + color.hexString() + "\""
            hex.withUTF8 { text in
              precondition(text.count <= 11, "a color is #rrggbbaa")
              out.update(from: text.baseAddress!, count: text.count)
              out += text.count
            }
          case .vec2(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put("]")
          case .vec3(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put(",")
            put(v.z)
            put("]")
          case .vec4(let v):
            put("[")
            put(v.x)
            put(",")
            put(v.y)
            put(",")
            put(v.z)
            put(",")
            put(v.w)
            put("]")
          }
        }
        put("}}\n")
        return out - start
      }
    }
  }
}

/// JSON text for the trace's values and strings.
package enum TraceJSON {
  /// `text` as a JSON string literal, quotes included. `"` and `\` are escaped, the control
  /// characters U+0000–U+001F as `\b \f \n \r \t` or `\u00XX`, and U+007F, U+2028 and
  /// U+2029 as `\u` escapes too (legal in JSON, but they break JavaScript source and
  /// terminals). Everything else is written as itself, in UTF-8.
  package static func string(_ text: String) -> String {
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
  package static func value(_ value: AnimationValue) -> String {
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
