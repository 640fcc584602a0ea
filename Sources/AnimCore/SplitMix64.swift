// SplitMix64: the one seeded random source of the project. The engine will use it at run time
// for seeded orders (a stagger `from random`), so it lives here with package access; tests,
// benchmarks and fuzz seeds use it through AnimTestSupport's public `SeededRandom`.

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state advanced by a constant and mixed.
/// The same seed names the same sequence on every run and machine, unlike the system
/// generator (which also costs a system call per value on Linux).
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
