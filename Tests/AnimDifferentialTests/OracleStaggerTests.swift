// The oracle's stagger against grammar.md § Stagger's worked examples, then AnimCore's
// `Stagger` (what the runtime uses) against the oracle over many random clauses.

import AnimCore
import AnimOracle
import AnimTestSupport
import Testing

@testable import AnimCore

@Suite struct OracleStaggerTests {
  let ms: OracleTime = 1_000_000

  @Test func theRulesWorkedExamples() {
    // 7 members from center, 40 ms: 120, 80, 40, 0, 40, 80, 120 ms.
    #expect(
      OracleStagger(amount: 40 * ms, origin: .center).offsets(count: 7)
        == [120, 80, 40, 0, 40, 80, 120].map { $0 * ms })
    // 12 members from center, 50 ms: 250, 200, 150, 100, 50, 0, 0, 50, ..., 250 ms.
    #expect(
      OracleStagger(amount: 50 * ms, origin: .center).offsets(count: 12)
        == [250, 200, 150, 100, 50, 0, 0, 50, 100, 150, 200, 250].map { $0 * ms })
    // 6 members, total 1 s: 0, 200, 400, 600, 800, 1000 ms.
    #expect(
      OracleStagger(amount: 1000 * ms, isTotal: true).offsets(count: 6)
        == [0, 200, 400, 600, 800, 1000].map { $0 * ms })
    // A 4×3 grid from its centre at 100 ms: cells 5 and 6 at 0; 1, 2, 9 and 10 at 61,803,399
    // ns; 4 and 7 at 100 ms; the corners at 130,277,564 ns.
    let grid = OracleStagger(amount: 100 * ms, origin: .center, grid: (4, 3)).offsets(count: 12)
    #expect(grid[5] == 0 && grid[6] == 0)
    #expect([1, 2, 9, 10].allSatisfy { grid[$0] == 61_803_399 })
    #expect(grid[4] == 100 * ms && grid[7] == 100 * ms)
    #expect([0, 3, 8, 11].allSatisfy { grid[$0] == 130_277_564 })
    // `edges`: min(k, count − 1 − k); `N`: |k − N|; `end`: count − 1 − k.
    #expect(OracleStagger(amount: 10 * ms, origin: .edges).offsets(count: 5) == [0, 10, 20, 10, 0].map { $0 * ms })
    #expect(OracleStagger(amount: 10 * ms, origin: .member(1)).offsets(count: 4) == [10, 0, 10, 20].map { $0 * ms })
    #expect(OracleStagger(amount: 10 * ms, origin: .end).offsets(count: 3) == [20, 10, 0].map { $0 * ms })
    // One member: 0.
    #expect(OracleStagger(amount: 10 * ms, origin: .center).offsets(count: 1) == [0])
  }

  /// `from random(SEED)`: a permutation of 0…count − 1, steps apart, the same for a seed.
  @Test func randomOriginIsAPermutationOfRanks() {
    let offsets = OracleStagger(amount: 10 * ms, origin: .random(seed: 42)).offsets(count: 9)
    #expect(offsets.sorted() == (0..<9).map { Int64($0) * 10 * ms })
    #expect(offsets == OracleStagger(amount: 10 * ms, origin: .random(seed: 42)).offsets(count: 9))
    #expect(offsets != OracleStagger(amount: 10 * ms, origin: .random(seed: 43)).offsets(count: 9))
  }

  /// AnimCore's `Stagger` gives exactly the oracle's offsets for random clauses: every
  /// origin, steps in whole and odd nanoseconds, totals, curves, grids.
  @Test func animCoreAgreesWithTheOracle() throws {
    var random = SeededRandom(seed: 2026)
    let curves: [OracleCurve] = [
      .linear, .ease, .easeIn, .easeOut, .easeInOut, .cubic(0.3, -0.4, 0.7, 1.4), .steps(3, .jumpEnd),
    ]
    for _ in 0..<3000 {
      let count = random.int(1...24)
      var stagger = OracleStagger(amount: random.int(0...400) * ms + (random.chance(0.3) ? random.int(1...999_999) : 0))
      stagger.isTotal = random.chance(0.25)
      let origins: [OracleStagger.Origin] = [
        .start, .end, .center, .edges, .member(random.int(0...(count - 1))),
        .random(seed: UInt64(random.int(0...1_000_000))),
      ]
      stagger.origin = random.pick(origins)
      if random.chance(0.3), stagger.origin != .edges {
        let divisors = (1...count).filter { count % $0 == 0 }
        let columns = random.pick(divisors)
        stagger.grid = (columns, count / columns)
      }
      if random.chance(0.3) { stagger.curve = random.pick(curves) }
      let expected = stagger.offsets(count: count)
      let engine = engineStagger(stagger).delays(count: count)
      #expect(engine == expected, "\(stagger) of \(count)")
      if engine != expected { return }
    }
  }
}

extension OracleStaggerTests {
  /// The clauses the generator makes: AnimCore agrees with the oracle on every member's
  /// offset (seeds 9000825 and 9001053 of a long run found two a nanosecond apart).
  @Test func theGeneratorsClausesAgree() {
    for seed in [UInt64(9_000_825), 9_001_053] + (1...400).map(UInt64.init) {
      var generator = CaseGenerator(seed: seed)
      let c = generator.generate()
      for step in c.steps {
        guard case .add(.staggered(let member), _) = step.operation else { continue }
        let oracle = member.stagger.offsets(count: member.count)
        let engine = engineStagger(member.stagger).delays(count: member.count)
        #expect(oracle == engine, "seed \(seed): \(member.stagger) of \(member.count) member \(member.member)")
        if oracle != engine { return }
      }
    }
  }
}
