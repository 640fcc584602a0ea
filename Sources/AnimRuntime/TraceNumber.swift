// TraceNumber: how the trace (and the REPL) writes numbers and times.
//
// One spelling for every number that leaves the interpreter: the shortest decimal that
// reads back to the same Double, whole numbers without a fraction, so a trace can be
// compared with values computed on paper and parsed back without loss.

import AnimCore

/// Numbers and times written the way `anim trace` writes them.
public enum TraceNumber {
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
  public static func format(_ value: Double) -> String {
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

  /// `format(_:)` for JSON: the same text for finite numbers, and `null` for NaN and the
  /// infinities, which JSON cannot write.
  public static func json(_ value: Double) -> String {
    value.isFinite ? format(value) : "null"
  }

  /// A time in seconds: the exact nanosecond count divided by 10⁹ (one correctly rounded
  /// division), written by `format(_:)`: 500 ms is `0.5`, 1/60 s (16 666 667 ns) is
  /// `0.016666667`, 2 s is `2`.
  public static func seconds(_ nanoseconds: Nanoseconds) -> String {
    format(AnimCore.seconds(nanoseconds))
  }

  /// `value` rounded to `places` decimal places for people (the `table` format), then
  /// written by `format(_:)`: `16.666666` is `16.667` at 3 places. Numbers too large for the
  /// rounding to mean anything (10¹⁵ and beyond) are written as they are.
  public static func rounded(_ value: Double, places: Int) -> String {
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
