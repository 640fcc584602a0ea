// A seeded generator of its own (SplitMix64), so that a seed names the same sequence forever.

struct SplitMix64 {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
    let span = UInt64(range.upperBound - range.lowerBound) &+ 1
    if span == 0 { return Int64(bitPattern: next()) }
    return range.lowerBound + Int64(next() % span)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int(int(Int64(range.lowerBound)...Int64(range.upperBound))) }

  /// A uniform Double in 0..<1.
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { unit() < p }

  mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
