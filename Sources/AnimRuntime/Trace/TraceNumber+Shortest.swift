// ShortestDecimal: the shortest decimal that reads back to a Double, written as bytes, for
// the numbers a trace is full of (fractions between about 10^-22 and 10^15), with exact
// integer arithmetic and no strings.
//
// It writes exactly what `TraceNumber.referenceFormat(_:)` (Swift's `description`, with the
// exponent normalized) writes: the fewest significant digits that read back to the same
// Double, and of those the digits closest to its exact value; decimal notation from 10^-4 on
// (`0.00015000000000000001`, `123.456`) and below it `d.ddde-N` (`9.999e-5`, `1e-7`).
// TraceNumberTests compares the two over millions of values of every magnitude.

enum ShortestDecimal {
  /// Writes the text of `value` at `out` (room for `TraceNumber.maxLength` bytes) and
  /// returns its length. Nil (with the bytes at `out` left undefined) unless `value` is a
  /// finite number that is not whole, with a magnitude from about 10^-22 up to 10^15: the
  /// caller checks the upper bound and wholeness, and writes the others another way.
  static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    // value = c · 2^q with 2^52 ≤ c < 2^53 (normal numbers only: subnormals are far below
    // the range).
    let bits = value.bitPattern
    let biasedExponent = Int((bits &>> 52) & 0x7FF)
    let fraction = bits & (1 &<< 52 &- 1)
    guard biasedExponent != 0 else { return nil }
    let c = fraction | 1 &<< 52
    let q = biasedExponent - 1075
    // The decimal exponent of 2^(q + 52), the binary order of the value, rounded down;
    // 78913 / 2^18 is log10(2) to within 2·10^-6, exact enough for |q + 52| < 1650.
    let e10 = ((q + 52) &* 78913) &>> 18
    // Scaled by 10^m the value has 17 or 18 digits before the point: enough, since 17
    // significant digits always read back.
    let m = 16 - e10
    guard m >= 0, m <= 38, q < 0 else { return nil }
    // The Doubles that read back to this one are those within half a unit in the last place
    // (a quarter below a power of two, where the next Double down is nearer), the ends
    // themselves too when c is even (a decimal halfway reads back to the even neighbour;
    // in this range no bound is a decimal short enough for that to matter, but 1e23 is).
    // In units of 2^(q-2) the value is 4c, the bounds 4c - 2 (or - 1) and 4c + 2; times 10^m
    // they stay exact integers (below 2^55 · 10^38 < 2^182), and a shift by n = 2 - q bits
    // divides them by 2^(2-q).
    let inclusive = c & 1 == 0
    let lowerGap: UInt64 = fraction == 0 && biasedExponent > 1 ? 1 : 2
    let power = powerOfTen128(m)
    let n = 2 - q
    let center = UInt192(4 &* c, times: power).shiftedRight(n)
    let above = UInt192(4 &* c &+ 2, times: power).shiftedRight(n)
    let below = UInt192(4 &* c &- lowerGap, times: power).shiftedRight(n)
    // The candidates, in units of 10^-m: every integer in lower...upper reads back.
    var upper = above.quotient
    if !inclusive && above.isExact { upper &-= 1 }
    var lower = below.quotient
    if !below.isExact || !inclusive { lower &+= 1 }
    // The fewest digits: drop the last digit while a multiple of ten is left in the range.
    var dropped = 0
    while true {
      let nextUpper = upper / 10
      let nextLower = (lower &+ 9) / 10
      if nextLower > nextUpper { break }
      upper = nextUpper
      lower = nextLower
      dropped &+= 1
    }
    // Of those, the nearest to the value: the value rounded to 10^dropped (half to even, a
    // case that does not arise), kept within the range.
    let scaled = center.quotient
    var digits: UInt64
    let roundUp: Bool
    if dropped == 0 {
      digits = scaled
      roundUp = center.half && (center.sticky || digits & 1 == 1)
    } else {
      let unit = powerOfTen(dropped)
      digits = scaled / unit
      let remainder = scaled &- digits &* unit
      let half = unit / 2
      roundUp = remainder > half || (remainder == half && (center.half || center.sticky || digits & 1 == 1))
    }
    if roundUp { digits &+= 1 }
    digits = min(max(digits, lower), upper)
    return layOut(digits: digits, exponent: dropped - m, negative: value < 0, to: out)
  }

  /// Writes `digits` · 10^exponent the way Swift's `description` does, exponent normalized.
  static func layOut(digits: UInt64, exponent: Int, negative: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    var p = out
    if negative {
      p.pointee = UInt8(ascii: "-")
      p += 1
    }
    let count = digitCount(digits)
    // The power of ten of the first digit.
    let leading = exponent + count - 1
    if leading >= 0 {
      // ddd.ddd (never whole here: the caller writes those).
      guard leading + 1 < count else { return nil }
      writeDigits(digits, count: count, to: p + 1)
      for i in 0...leading { p[i] = p[i + 1] }
      p[leading + 1] = UInt8(ascii: ".")
      p += count + 1
    } else if leading >= -4 {
      // 0.000ddd
      p[0] = UInt8(ascii: "0")
      p[1] = UInt8(ascii: ".")
      let zeros = -leading - 1
      for i in 0..<zeros { p[2 + i] = UInt8(ascii: "0") }
      writeDigits(digits, count: count, to: p + 2 + zeros)
      p += 2 + zeros + count
    } else {
      // d.ddde-N, or de-N for one digit.
      writeDigits(digits, count: count, to: p + 1)
      p[0] = p[1]
      if count > 1 {
        p[1] = UInt8(ascii: ".")
        p += count + 1
      } else {
        p += 1
      }
      p[0] = UInt8(ascii: "e")
      p[1] = UInt8(ascii: "-")
      p += 2
      p += writeDigits(UInt64(-leading), to: p)
    }
    return p - out
  }

  /// Writes the decimal digits of `value` at `out` and returns how many.
  @inline(__always)
  static func writeDigits(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let count = digitCount(value)
    writeDigits(value, count: count, to: out)
    return count
  }

  /// Writes the `count` decimal digits of `value` at `out`.
  @inline(__always)
  static func writeDigits(_ value: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>) {
    var value = value
    var i = count
    while i >= 2 {
      let rest = value / 100
      let pair = Int(truncatingIfNeeded: value &- rest &* 100)
      value = rest
      i &-= 2
      out[i] = UInt8(truncatingIfNeeded: 48 &+ pair / 10)
      out[i &+ 1] = UInt8(truncatingIfNeeded: 48 &+ pair % 10)
    }
    if i == 1 { out[0] = UInt8(truncatingIfNeeded: 48 &+ value) }
  }

  /// The number of decimal digits of `value` (1 for 0).
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    // log10(2^bits) rounded down, then one more when value reaches the next power.
    let bits = 64 &- value.leadingZeroBitCount
    let guess = (bits &* 1233) &>> 12
    return guess &+ (value >= powerOfTen(guess) ? 1 : 0)
  }

  /// 10^i for i in 0...19, and UInt64.max for 20 (so that `digitCount` can look one past
  /// 10^19). A switch, which the compiler turns into a constant table: a global array would
  /// be checked for its lazy initialization on every use.
  @inline(__always)
  static func powerOfTen(_ i: Int) -> UInt64 {
    switch i {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    case 19: 10_000_000_000_000_000_000
    default: .max
    }
  }

  /// 10^m, m ≤ 38, as 128 bits.
  @inline(__always)
  static func powerOfTen128(_ m: Int) -> (high: UInt64, low: UInt64) {
    if m <= 19 { return (0, powerOfTen(m)) }
    let product = powerOfTen(19).multipliedFullWidth(by: powerOfTen(m &- 19))
    return (product.high, product.low)
  }
}

/// A 192-bit unsigned integer, just enough for ShortestDecimal.
struct UInt192 {
  var low: UInt64
  var middle: UInt64
  var high: UInt64

  /// x · p.
  @inline(__always)
  init(_ x: UInt64, times p: (high: UInt64, low: UInt64)) {
    let a = x.multipliedFullWidth(by: p.low)
    let b = x.multipliedFullWidth(by: p.high)
    let (middle, carry) = a.high.addingReportingOverflow(b.low)
    low = a.low
    self.middle = middle
    high = b.high &+ (carry ? 1 : 0)
  }

  @inline(__always)
  func word(_ i: Int) -> UInt64 {
    switch i {
    case 0: low
    case 1: middle
    case 2: high
    default: 0
    }
  }

  /// self / 2^n rounded down, for 1 ≤ n < 192 and a quotient below 2^64; `half`: bit n - 1
  /// of the remainder, `sticky`: whether any bit below it is set.
  @inline(__always)
  func shiftedRight(_ n: Int) -> (quotient: UInt64, half: Bool, sticky: Bool, isExact: Bool) {
    let index = n &>> 6
    let shift = n & 63
    var quotient = word(index) &>> UInt64(shift)
    if shift != 0 { quotient |= word(index &+ 1) &<< UInt64(64 &- shift) }
    let halfIndex = (n &- 1) &>> 6
    let halfShift = UInt64((n &- 1) & 63)
    let halfWord = word(halfIndex)
    let half = (halfWord &>> halfShift) & 1 == 1
    var sticky = halfWord & ((1 &<< halfShift) &- 1) != 0
    if halfIndex >= 1 && low != 0 { sticky = true }
    if halfIndex >= 2 && middle != 0 { sticky = true }
    return (quotient, half, sticky, !half && !sticky)
  }
}
