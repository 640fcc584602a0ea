import AnimTestSupport
import Testing

@testable import AnimCore

/// The project's one seeded generator is SplitMix64 exactly: seeds printed by failing tests,
/// differential runs and benchmarks name the same cases on every machine and for ever.
@Suite struct SplitMix64Tests {
  /// Rosetta Code's "Pseudo-random numbers/Splitmix64": the first five outputs for 1234567.
  static let referenceOutputs: [UInt64] = [
    6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
    4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
  ]

  @Test func theGeneratorGivesTheReferenceSequence() {
    var generator = SplitMix64(seed: 1_234_567)
    #expect((0..<5).map { _ in generator.next() } == Self.referenceOutputs)
  }

  @Test func theTestSupportWrapperIsTheSameSequence() {
    var random = SeededRandom(seed: 1_234_567)
    #expect((0..<5).map { _ in random.next() } == Self.referenceOutputs)
  }

  /// The draws are the remainder and the top 53 bits, so that a seed's cases do not depend on
  /// the standard library's algorithms.
  @Test func theDrawsFollowFromTheOutputs() {
    var random = SeededRandom(seed: 1_234_567)
    let integer = random.int(10...19)
    let unit = random.unit()
    let wide = random.int(Int64.min...Int64.max)
    let picked = random.pick(["a", "b", "c"])
    let certain = random.chance(1.0)
    let impossible = random.chance(0.0)
    #expect(integer == 10 + Int(Self.referenceOutputs[0] % 10))
    #expect(unit == Double(Self.referenceOutputs[1] >> 11) / 9_007_199_254_740_992)
    #expect(wide == Int64(bitPattern: Self.referenceOutputs[2]))
    #expect(picked == ["a", "b", "c"][Int(Self.referenceOutputs[3] % 3)])
    #expect(certain && !impossible)
  }
}
