import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation
import Testing

@testable import AnimRuntime

@Suite("Trace numbers")
struct TraceNumberTests {
  @Test func wholeNumbersHaveNoFraction() {
    #expect(TraceNumber.format(40) == "40")
    #expect(TraceNumber.format(-3) == "-3")
    #expect(TraceNumber.format(360) == "360")
    #expect(TraceNumber.format(0) == "0")
    #expect(TraceNumber.format(-0.0) == "0")
    #expect(TraceNumber.format(123_456_789_012_345) == "123456789012345")
  }

  @Test func fractionsAreShortest() {
    #expect(TraceNumber.format(0.5) == "0.5")
    #expect(TraceNumber.format(1.3) == "1.3")
    #expect(TraceNumber.format(-122.5) == "-122.5")
    #expect(TraceNumber.format(0.1 + 0.2) == "0.30000000000000004")
    #expect(TraceNumber.format(1.0 / 3) == "0.3333333333333333")
  }

  @Test func exponentsHaveNoPlusOrLeadingZero() {
    #expect(TraceNumber.format(1e-5) == "1e-5")
    #expect(TraceNumber.format(-2.5e-7) == "-2.5e-7")
    #expect(TraceNumber.format(1e16) == "1e16")
    #expect(TraceNumber.format(1e300) == "1e300")
    #expect(TraceNumber.format(.leastNonzeroMagnitude) == "5e-324")
    #expect(TraceNumber.format(.greatestFiniteMagnitude) == "1.7976931348623157e308")
  }

  @Test func nonFiniteNumbers() {
    #expect(TraceNumber.format(.nan) == "nan")
    #expect(TraceNumber.format(.infinity) == "inf")
    #expect(TraceNumber.format(-.infinity) == "-inf")
    #expect(TraceNumber.json(.nan) == "null")
    #expect(TraceNumber.json(.infinity) == "null")
    #expect(TraceNumber.json(-.infinity) == "null")
    #expect(TraceNumber.json(2.5) == "2.5")
  }

  @Test func secondsAreTheNanosecondsOverABillion() {
    #expect(TraceNumber.seconds(500_000_000) == "0.5")
    #expect(TraceNumber.seconds(1_300_000_000) == "1.3")
    #expect(TraceNumber.seconds(16_666_667) == "0.016666667")  // 1/60 s
    #expect(TraceNumber.seconds(2_000_000_000) == "2")
    #expect(TraceNumber.seconds(0) == "0")
    #expect(TraceNumber.seconds(1) == "1e-9")
    #expect(TraceNumber.seconds(-250_000_000) == "-0.25")
  }

  @Test func roundedForPeople() {
    #expect(TraceNumber.rounded(16.666666, places: 3) == "16.667")
    #expect(TraceNumber.rounded(0.0005, places: 3) == "0.001")  // half away from zero
    #expect(TraceNumber.rounded(-0.0004, places: 3) == "0")
    #expect(TraceNumber.rounded(180, places: 3) == "180")
    #expect(TraceNumber.rounded(2.5e20, places: 3) == "2.5e20")
    #expect(TraceNumber.rounded(.nan, places: 3) == "nan")
  }

  /// Every finite Double reads back from its text to itself (negative zero to zero), and
  /// the text has no more significant digits than the shortest round trip needs.
  @Test func everyFiniteNumberReadsBack() {
    var random = SeededRandom(seed: 4)
    var cases: [Double] = [0.1, 1e15 - 1, 1e15, 1e15 + 1, 9_007_199_254_740_992, -1e-300, .leastNormalMagnitude]
    for _ in 0..<20_000 { cases.append(Double(bitPattern: random.next())) }
    for _ in 0..<5_000 { cases.append(Double(Int64.random(in: -1_000_000...1_000_000, using: &random)) / 8) }
    for value in cases where value.isFinite {
      let text = TraceNumber.format(value)
      #expect(Double(text) == value, "\(value) written \(text)")
      #expect(digitCount(text) <= digitCount(value.description), "\(value) written \(text)")
      if value.magnitude < 1e15, value == value.rounded() {
        #expect(!text.contains(".") && !text.contains("e"), "\(value) written \(text)")
      }
      // It is a JSON number (RFC 8259's grammar). Linux Foundation's JSONSerialization is
      // no reference for its value: it misreads the last digit of many 17-digit numbers.
      #expect(isJSONNumber(text), "\(text) is not a JSON number")
    }
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  func isJSONNumber(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "-" { rest = rest.dropFirst() }
    let integer = rest.prefix { $0.isASCII && $0.isNumber }
    guard !integer.isEmpty, integer == "0" || integer.first != "0" else { return false }
    rest = rest.dropFirst(integer.count)
    if rest.first == "." {
      let fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
      guard !fraction.isEmpty else { return false }
      rest = rest.dropFirst(1 + fraction.count)
    }
    if rest.first == "e" || rest.first == "E" {
      rest = rest.dropFirst()
      if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
      let exponent = rest.prefix { $0.isASCII && $0.isNumber }
      guard !exponent.isEmpty else { return false }
      rest = rest.dropFirst(exponent.count)
    }
    return rest.isEmpty
  }

  /// The significant digits of a decimal (leading zeros and the exponent left out).
  func digitCount(_ text: String) -> Int {
    let mantissa = text.prefix { $0 != "e" }
    return mantissa.drop { !$0.isNumber || $0 == "0" }.filter(\.isNumber).count
  }
}
