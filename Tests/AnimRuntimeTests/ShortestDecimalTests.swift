import AnimLanguage
import AnimTestSupport
import Testing

@testable import AnimRuntime

/// `TraceNumber.format(_:)` writes most numbers with `ShortestDecimal`, which must spell every
/// Double exactly as the reference (Swift's `description`, exponent normalized) does.
@Suite("Shortest decimals")
struct ShortestDecimalTests {
  /// Compares the two spellings of every value, `format` and `json` alike, and
  /// ShortestDecimal's own wherever it writes one (whole numbers and the extremes it leaves
  /// to the caller); the first few differences are returned.
  func differences(_ values: some Sequence<Double>, minimumShare: Double = 0) -> [String] {
    var found: [String] = []
    var count = 0
    var written = 0
    var buffer = [UInt8](repeating: 0, count: TraceNumber.maxLength)
    for value in values {
      count += 1
      let expected = TraceNumber.referenceFormat(value)
      let text = TraceNumber.format(value)
      let json = TraceNumber.json(value)
      var direct: String?
      if value.isFinite, value != 0 {
        direct = buffer.withUnsafeMutableBufferPointer { bytes in
          ShortestDecimal.write(value, to: bytes.baseAddress!).map {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[..<$0]), as: UTF8.self)
          }
        }
      }
      if direct != nil { written += 1 }
      if text != expected || json != (value.isFinite ? expected : "null") || (direct != nil && direct != expected) {
        found.append("\(value.bitPattern): \(text) (json \(json), direct \(direct ?? "-")), expected \(expected)")
        if found.count >= 10 { break }
      }
    }
    // The fast path is taken as often as the range of the values says it should be.
    if Double(written) < minimumShare * Double(count) {
      found.append("ShortestDecimal wrote only \(written) of \(count)")
    }
    return found
  }

  @Test func randomBitPatterns() {
    // Every exponent, sign and fraction alike: NaNs, infinities, subnormals, huge and tiny.
    var random = SeededRandom(seed: 0x5EED)
    let values = (0..<1_000_000).lazy.map { _ in Double(bitPattern: random.next()) }
    #expect(differences(values) == [])
  }

  @Test func randomFractionsOfTheFastRange() {
    // Random fractions with binary exponents from 2^-80 to 2^52, where ShortestDecimal
    // writes the digits (and a little beyond its bounds on both sides).
    var random = SeededRandom(seed: 7)
    let values = (0..<1_000_000).lazy.map { _ -> Double in
      let exponent = UInt64(1023 - 80) + random.next() % 133
      return Double(bitPattern: random.next() & (1 << 63 | (1 << 52 - 1)) | exponent << 52)
    }
    // 2^-73 ... 2^49 of 2^-80 ... 2^52.
    #expect(differences(values, minimumShare: 0.9) == [])
  }

  @Test func numbersAnAnimationWrites() {
    // Values between 0 and 100 such as an eased animation writes, and times in seconds.
    var random = SeededRandom(seed: 8)
    let values = (0..<300_000).lazy.map { i -> Double in
      let unit = Double(random.next() >> 11) / Double(1 << 53)
      return i % 2 == 0 ? unit * 100 : Double(Int64(unit * 1e11)) / 1e9
    }
    #expect(differences(values, minimumShare: 0.95) == [])
  }

  @Test func subnormalsZeroesAndTheExtremes() {
    var random = SeededRandom(seed: 9)
    var values: [Double] = [
      0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
      .nan, -.nan, .signalingNaN, .ulpOfOne, 1e23, 1e23.nextUp, 1e23.nextDown, 1e-4, 1e-4.nextDown,
      1e-4.nextUp, 1e-22, 1e-23, 1e-22.nextDown, 1e-21,
    ]
    for _ in 0..<100_000 {
      // Subnormals, and the largest and smallest normal magnitudes.
      values.append(Double(bitPattern: random.next() & (1 << 63 | (1 << 52 - 1))))
      values.append(
        Double(bitPattern: random.next() & (1 << 63 | (1 << 52 - 1)) | UInt64(2046 - random.next() % 8) << 52))
      values.append(Double(bitPattern: random.next() & (1 << 63 | (1 << 52 - 1)) | UInt64(1 + random.next() % 8) << 52))
    }
    #expect(differences(values) == [])
  }

  @Test func powersOfTwoAndTheirNeighbours() {
    // At a power of two the next Double down is nearer than the next one up.
    var values: [Double] = []
    for exponent in -1074...1023 {
      let power = Double(sign: .plus, exponent: exponent, significand: 1)
      values += [power, power.nextUp, power.nextDown, -power, 3 * power, power.nextUp.nextUp]
    }
    #expect(differences(values) == [])
  }

  @Test func wholeNumbersAround1e15() {
    // The whole-number path ends below 10^15; 2^53 is where Swift turns to exponents.
    var values: [Double] = []
    for center in [1e15, 9_007_199_254_740_992, 4.5e15, 1e16, 1e14] {
      var up = center
      var down = center
      for _ in 0..<20_000 {
        values += [up, down, -up, -down, up + 0.5, down - 0.25]
        up = up.nextUp
        down = down.nextDown
      }
    }
    var random = SeededRandom(seed: 10)
    for _ in 0..<100_000 { values.append(Double(Int64(random.next() % 4_000_000_000_000_000)) / 2) }
    #expect(differences(values) == [])
  }

  @Test func shortDecimalsAndTheirNeighbours() {
    // Decimals of one to three digits at every power of ten, as read by `Double(_:)`, and
    // the Doubles next to them: where a bound of the round-trip interval is itself a short
    // decimal (1e23 lies halfway between two Doubles) the spelling depends on whether the
    // bound counts.
    var values: [Double] = []
    var random = SeededRandom(seed: 11)
    for exponent in -325...308 {
      for digits in Array(1...20) + (0..<10).map({ _ in Int(random.next() % 999) + 1 }) {
        guard let value = Double("\(digits)e\(exponent)") else { continue }
        values += [value, value.nextUp, value.nextDown]
      }
    }
    #expect(differences(values) == [])
  }

  @Test func decimalExponentEstimate() {
    // ShortestDecimal takes floor(k · log10 2) as (k · 78913) >> 18.
    for k in -1100...1100 {
      let exact = Int((Double(k) * 0.30102999566398119521).rounded(.down))
      #expect((k * 78913) >> 18 == exact, "k = \(k)")
    }
  }
}
