// TraceNumber: how the trace (and the REPL) writes numbers and times.
//
// One spelling for every number that leaves the interpreter: the shortest decimal that
// reads back to the same Double, whole numbers without a fraction, so a trace can be
// compared with values computed on paper and parsed back without loss.

import AnimCore
import Foundation

/// Numbers and times written the way `anim trace` writes them.
package enum TraceNumber {
  /// A value as a session shows it: numbers as the trace writes them, vectors as the
  /// language writes them, colors as `#rrggbbaa`.
  package static func text(_ value: AnimationValue) -> String { text(value, style: .exact) }

  /// The shortest text that reads back (with any correct decimal parser, `Double(_:)`,
  /// JSON's, Python's `float`) to the same Double.
  ///
  /// - whole numbers below 10¹⁵ in magnitude have no fraction: `40`, `-3`, not `40.0`;
  /// - other numbers take Swift's shortest round-trip digits, `0.5`, `0.016666667`,
  ///   `1.2345678901234568e17`, with the exponent written without `+` or leading zeros
  ///   (`1e-7`, `1e16`), which JSON, CSV readers and the language's lexer all accept;
  /// - negative zero is written `0` (it compares equal to zero; a `-0` in a trace is noise
  ///   from arithmetic such as `0 * -1`, not information);
  /// - the non-finite values are `nan`, `inf` and `-inf` (no JSON: see `json(_:)`).
  ///
  /// The digits come from `ShortestDecimal` (TraceNumber+Shortest.swift) where it applies,
  /// which writes the same text as `referenceFormat(_:)` (Swift's `description`) without
  /// building strings; tests compare the two over millions of values.
  package static func format(_ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength) { buffer in
      let count = write(value, to: buffer.baseAddress!)
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
  }

  /// `format(_:)` for JSON: the same text for finite numbers, and `null` for NaN and the
  /// infinities, which JSON cannot write.
  package static func json(_ value: Double) -> String {
    value.isFinite ? format(value) : "null"
  }

  /// The most bytes `write(_:to:)` and `writeJSON(_:to:)` write (`-1.7976931348623157e308`
  /// is 23).
  static let maxLength = 32

  /// Writes `format(value)` as UTF-8 at `out` (room for `maxLength` bytes) and returns its
  /// length.
  @inline(__always)
  static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    guard value.isFinite else {
      if value.isNaN { return copy("nan", to: out) }
      return copy(value < 0 ? "-inf" : "inf", to: out)
    }
    return writeFinite(value, to: out)
  }

  /// Writes `json(value)` as UTF-8 at `out` (room for `maxLength` bytes) and returns its
  /// length.
  @inline(__always)
  static func writeJSON(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    value.isFinite ? writeFinite(value, to: out) : copy("null", to: out)
  }

  static func writeFinite(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    if value == 0 {
      out[0] = UInt8(ascii: "0")
      return 1
    }
    let magnitude = value.magnitude
    if magnitude < 1e15 {
      if value == value.rounded(.towardZero) { return writeInteger(Int64(value), to: out) }
      if let count = ShortestDecimal.write(value, to: out) { return count }
    }
    // Whole numbers from 10^15 on, and magnitudes too small for `ShortestDecimal`'s
    // arithmetic (below about 10^-22): Swift's own spelling.
    return copy(referenceFormat(value), to: out)
  }

  /// The decimal digits of `value`, with `-` for a negative one.
  static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var start = 0
    if value < 0 {
      out[0] = UInt8(ascii: "-")
      start = 1
    }
    return start + ShortestDecimal.writeDigits(value.magnitude, to: out + start)
  }

  static func copy(_ text: String, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var text = text
    return text.withUTF8 { bytes in
      let count = min(bytes.count, maxLength)
      out.update(from: bytes.baseAddress!, count: count)
      return count
    }
  }

  /// `format(_:)` as it was first written, on Swift's `description`: the reference the fast
  /// path is tested against, and what it falls back on.
  static func referenceFormat(_ value: Double) -> String {
    guard value.isFinite else {
      if value.isNaN { return "nan" }
      return value < 0 ? "-inf" : "inf"
    }
    if value == 0 { return "0" }
    if value.magnitude < 1e15, value == value.rounded(.towardZero) {
      return String(Int64(value))
    }
    return normalizedExponent(value.description)
  }

  /// How a session shows numbers: exact (the trace's spelling: piped, `anim trace`,
  /// `:precision full`) or short for a person at a terminal (6 significant digits, times to
  /// the millisecond).
  package enum Style: Sendable {
    case exact, short
  }

  /// A number in `style`: short is `%g` with 6 significant digits (no exponent for
  /// 1e-4 ≤ |x| < 1e6), `-0` as `0`.
  package static func format(_ value: Double, style: Style) -> String {
    guard style == .short, value.isFinite else { return format(value) }
    if value == 0 { return "0" }
    var text = String(format: "%.6g", value)
    if text.hasPrefix("-0") && Double(text) == 0 { text = "0" }
    return text
  }

  /// A time in seconds in `style`: short is rounded to the millisecond.
  package static func seconds(_ nanoseconds: Nanoseconds, style: Style) -> String {
    guard style == .short else { return seconds(nanoseconds) }
    let milliseconds = (Double(nanoseconds) / 1e6).rounded()
    return format(milliseconds / 1e3)
  }

  /// A value in `style` (see `text(_:)`).
  package static func text(_ value: AnimationValue, style: Style) -> String {
    func f(_ x: Double) -> String { format(x, style: style) }
    switch value {
    case .number(let x): return f(x)
    case .vec2(let v): return "(\(f(v.x)), \(f(v.y)))"
    case .vec3(let v): return "(\(f(v.x)), \(f(v.y)), \(f(v.z)))"
    case .vec4(let v): return "(\([v.x, v.y, v.z, v.w].map(f).joined(separator: ", ")))"
    case .color(let c): return c.hexString()
    }
  }

  /// A time in seconds: the exact nanosecond count divided by 10⁹ (one correctly rounded
  /// division), written by `format(_:)`: 500 ms is `0.5`, 1/60 s (16 666 667 ns) is
  /// `0.016666667`, 2 s is `2`.
  package static func seconds(_ nanoseconds: Nanoseconds) -> String {
    format(AnimCore.seconds(nanoseconds))
  }

  /// `value` rounded to `places` decimal places for people (the `table` format), then
  /// written by `format(_:)`: `16.666666` is `16.667` at 3 places. Numbers too large for the
  /// rounding to mean anything (10¹⁵ and beyond) are written as they are.
  package static func rounded(_ value: Double, places: Int) -> String {
    guard value.isFinite, value.magnitude < 1e15 else { return format(value) }
    var scale = 1.0
    for _ in 0..<max(0, places) { scale *= 10 }
    let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
    // Dividing by an exact power of ten gives the Double nearest the decimal, whose
    // shortest form is that decimal.
    return format(scaled / scale)
  }

  /// Swift writes `1e-05` and `1e+16`; the trace writes `1e-5` and `1e16`.
  static func normalizedExponent(_ text: String) -> String {
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
    let mantissa = text[..<e]
    var exponent = Substring(text[text.index(after: e)...])
    var negative = false
    if exponent.first == "+" {
      exponent = exponent.dropFirst()
    } else if exponent.first == "-" {
      negative = true
      exponent = exponent.dropFirst()
    }
    let digits = exponent.drop { $0 == "0" }
    return mantissa + "e" + (negative ? "-" : "") + (digits.isEmpty ? "0" : digits)
  }
}
