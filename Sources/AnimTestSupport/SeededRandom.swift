// SeededRandom: AnimCore's SplitMix64 for tests, benchmarks and fuzz seeds, with the few
// draws they all need. One generator for all of them, so that a seed printed by a failing
// test or a differential run names the same case everywhere and for ever.

import AnimCore

/// A seeded random source: equal seeds give equal sequences on every run and machine.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let count = random.int(1...10)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var generator: SplitMix64

  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  public mutating func next() -> UInt64 { generator.next() }

  /// A uniform integer in `range` (by the remainder, whose slight bias tests do not mind and
  /// which keeps the sequence of a seed independent of the standard library's algorithm).
  public mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
    let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
    if span == 0 { return Int64(bitPattern: next()) }
    return range.lowerBound &+ Int64(bitPattern: next() % span)
  }

  /// A uniform integer in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int(int(Int64(range.lowerBound)...Int64(range.upperBound)))
  }

  /// A uniform number in 0..<1 (53 random bits).
  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// True with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  /// One of `choices`, which must not be empty.
  public mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }
}
