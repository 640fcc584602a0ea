import Testing

@testable import AnimCore

/// The stagger rule (grammar.md § Groups and stagger) against its worked examples: member k's
/// extra delay is round((d_k − d_min) × step) ns, halves up.
@Suite struct StaggerTests {
  let ms: Int64 = 1_000_000

  @Test func sevenFromTheCenterAt40ms() {
    let delays = Stagger(spacing: .step(40 * ms), origin: .center).delays(count: 7)
    #expect(delays == [120, 80, 40, 0, 40, 80, 120].map { $0 * ms })
  }

  @Test func twelveFromTheCenterAt50ms() {
    // Distances 5.5, 4.5, ..., 0.5, 0.5, ..., 5.5; the smallest, 0.5, is subtracted.
    let delays = Stagger(spacing: .step(50 * ms), origin: .center).delays(count: 12)
    #expect(delays == [250, 200, 150, 100, 50, 0, 0, 50, 100, 150, 200, 250].map { $0 * ms })
  }

  @Test func sixWithATotalOfOneSecond() {
    let delays = Stagger(spacing: .total(1_000 * ms)).delays(count: 6)
    #expect(delays == [0, 200, 400, 600, 800, 1_000].map { $0 * ms })
  }

  @Test func aFourByThreeGridFromItsCenterAt100ms() {
    let delays = Stagger(spacing: .step(100 * ms), origin: .center, grid: (4, 3)).delays(count: 12)
    // Cells 5 and 6 are nearest the centre (1.5, 1); cells 1, 2, 9 and 10 are √1.25 − 0.5
    // cells further, cells 4 and 7 one cell, the corners √3.25 − 0.5.
    #expect(delays[5] == 0 && delays[6] == 0)
    for cell in [1, 2, 9, 10] { #expect(delays[cell] == 61_803_399, "cell \(cell)") }
    for cell in [4, 7] { #expect(delays[cell] == 100 * ms, "cell \(cell)") }
    for cell in [0, 3, 8, 11] { #expect(delays[cell] == 130_277_564, "cell \(cell)") }
  }

  @Test func aGridFromItsCorners() {
    // From the start cell (0, 0) of a 3 × 2 grid at 10 ms: distances 0, 1, 2, 1, √2, √5.
    let start = Stagger(spacing: .step(10 * ms), origin: .start, grid: (3, 2)).delays(count: 6)
    #expect(start == [0, 10 * ms, 20 * ms, 10 * ms, 14_142_136, 22_360_680])
    // From the end cell (2, 1): the same distances mirrored.
    let end = Stagger(spacing: .step(10 * ms), origin: .end, grid: (3, 2)).delays(count: 6)
    #expect(end == start.reversed())
  }

  @Test func theOtherOriginsAlongALine() {
    let step = Stagger.Spacing.step(10 * ms)
    #expect(Stagger(spacing: step, origin: .start).delays(count: 4) == [0, 10, 20, 30].map { $0 * ms })
    #expect(Stagger(spacing: step, origin: .end).delays(count: 4) == [30, 20, 10, 0].map { $0 * ms })
    #expect(Stagger(spacing: step, origin: .edges).delays(count: 5) == [0, 10, 20, 10, 0].map { $0 * ms })
    #expect(Stagger(spacing: step, origin: .member(1)).delays(count: 4) == [10, 0, 10, 20].map { $0 * ms })
  }

  @Test func halvesRoundUpToTheNanosecond() {
    // From the centre of 2 members at 3 ns: distances 0.5 and 0.5, both 0; of 4 at 3 ns:
    // 1.5, 0.5, 0.5, 1.5, so 3 ns for the outer ones; with a total of 5 ns over 3 members:
    // 0, 2.5 → 3, 5.
    #expect(Stagger(spacing: .step(3), origin: .center).delays(count: 4) == [3, 0, 0, 3])
    #expect(Stagger(spacing: .total(5)).delays(count: 3) == [0, 3, 5])
  }

  @Test func oneMemberOrNoSpreadHasNoDelay() {
    #expect(Stagger(spacing: .step(50 * ms)).delays(count: 1) == [0])
    #expect(Stagger(spacing: .total(s)).delays(count: 1) == [0])
    #expect(Stagger(spacing: .step(50 * ms), origin: .edges).delays(count: 2) == [0, 0])
    #expect(Stagger(spacing: .step(50 * ms)).delays(count: 0) == [])
  }

  @Test func aCurveReshapesTheSpread() throws {
    // easeIn (CSS cubic-bezier(0.42, 0, 1, 1)) over a spread of 3 × 100 ms.
    let easeIn = TimingCurve.cubicBezier(try CubicBezier(0.42, 0, 1, 1))
    let delays = Stagger(spacing: .step(100 * ms), curve: easeIn).delays(count: 4)
    #expect(delays.first == 0 && delays.last == 300 * ms)
    for k in 1...2 {
      let expected = easeIn.progress(at: Double(k) / 3) * Double(300 * ms)
      #expect(abs(Double(delays[k]) - expected) <= 0.5, "member \(k)")
    }
    #expect(delays[1] < 100 * ms)  // easing in: the early members bunch up
  }

  /// A curve that dips below 0 gives a negative extra delay, by the formula (the oracle
  /// found it clamped to 0): cubic-bezier(0.3, −0.4, 0.7, 1.4) over 11 members, 100 ms apart.
  @Test func aCurveBelowZeroGivesANegativeDelay() throws {
    let dipping = TimingCurve.cubicBezier(try CubicBezier(0.3, -0.4, 0.7, 1.4))
    let delays = Stagger(spacing: .step(100 * ms), curve: dipping).delays(count: 11)
    for k in 0...10 {
      let expected = dipping.progress(at: Double(k) / 10) * Double(1000 * ms)
      #expect(abs(Double(delays[k]) - expected) <= 0.5, "member \(k)")
    }
    #expect(delays[1] < 0)
  }

  @Test func aSeededShuffleIsFisherYatesOnSplitMix64() {
    // The ranks by the rule, from the generator itself.
    var random = SplitMix64(seed: 7)
    var expected = Array(0..<8)
    for i in stride(from: 7, through: 1, by: -1) {
      let j = Int(random.next() % UInt64(i + 1))
      expected.swapAt(i, j)
    }
    let ranks = Stagger.shuffledRanks(count: 8, seed: 7)
    #expect(ranks == expected)
    #expect(ranks.sorted() == Array(0..<8))
    let delays = Stagger(spacing: .step(10 * ms), origin: .random(seed: 7)).delays(count: 8)
    #expect(delays == expected.map { Int64($0) * 10 * ms })
  }

  let s: Int64 = 1_000_000_000
}
