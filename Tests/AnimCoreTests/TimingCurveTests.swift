import Foundation
import Testing

@testable import AnimCore

@Suite("Timing curves")
struct TimingCurveTests {
  @Test func dispatchesToEachCurve() throws {
    #expect(TimingCurve.linear.progress(at: 0.3) == 0.3)
    #expect(TimingCurve.linear.progress(at: 1.7) == 1.7)
    for x in stride(from: -0.5, through: 1.5, by: 0.125) {
      #expect(TimingCurve.ease.progress(at: x) == CubicBezier.ease.progress(at: x))
      #expect(TimingCurve.easeIn.progress(at: x) == CubicBezier.easeIn.progress(at: x))
      #expect(TimingCurve.easeOut.progress(at: x) == CubicBezier.easeOut.progress(at: x))
      #expect(TimingCurve.easeInOut.progress(at: x) == CubicBezier.easeInOut.progress(at: x))
    }
    let steps = try Steps(count: 4, position: .jumpEnd)
    #expect(TimingCurve.steps(steps).progress(at: 0.5) == 0.5)
    #expect(TimingCurve.steps(steps).progress(at: 0.5, beforeFlag: true) == 0.25)
    let spring = try SpringCurve(spring: .bouncy, initialVelocity: 1)
    #expect(TimingCurve.spring(spring).progress(at: 0.4) == spring.progress(at: 0.4))
    #expect(TimingCurve.spring(spring).progress(at: 1) == 1)
  }

  @Test func intrinsicDurationAndKind() throws {
    let spring = try SpringCurve(spring: .smooth)
    #expect(TimingCurve.spring(spring).intrinsicDuration == spring.settlingTime)
    #expect(TimingCurve.spring(spring).isSpring)
    let stretched = try SpringCurve(spring: .smooth, stretchedDuration: 300_000_000)
    #expect(TimingCurve.spring(stretched).intrinsicDuration == 300_000_000)
    #expect(TimingCurve.ease.intrinsicDuration == nil)
    #expect(!TimingCurve.linear.isSpring)
  }

  @Test func codableRoundTrip() throws {
    let curves: [TimingCurve] = [
      .linear, .ease, .cubicBezier(try CubicBezier(0.68, -0.55, 0.265, 1.55)),
      .steps(try Steps(count: 3, position: .jumpBoth)),
      .spring(try SpringCurve(spring: .bouncy, initialVelocity: -2)),
      .spring(
        try SpringCurve(spring: try Spring(mass: 2, stiffness: 30, damping: 40), stretchedDuration: 1_500_000_000)),
    ]
    let data = try JSONEncoder().encode(curves)
    let back = try JSONDecoder().decode([TimingCurve].self, from: data)
    #expect(back == curves)
    for (a, b) in zip(curves, back) {
      #expect(a.progress(at: 0.42) == b.progress(at: 0.42))
      #expect(a.hashValue == b.hashValue)
    }
  }

  /// Equal curves hash equally (a dictionary finds one by the other), 0 and -0 included;
  /// curves that differ in any number are other keys.
  @Test func equalCurvesAreOneKey() throws {
    let curve = TimingCurve.cubicBezier(try CubicBezier(0, 0.5, 0.25, 1))
    let negativeZero = TimingCurve.cubicBezier(try CubicBezier(-0.0, 0.5, 0.25, 1))
    #expect(curve == negativeZero && curve.hashValue == negativeZero.hashValue)
    #expect(curve._rawHashValue(seed: 7) == negativeZero._rawHashValue(seed: 7))
    var index: [TimingCurve: Int] = [curve: 1]
    #expect(index[negativeZero] == 1)
    let others: [TimingCurve] = [
      .cubicBezier(try CubicBezier(0.5, 0.5, 0.25, 1)), .cubicBezier(try CubicBezier(0, 0.25, 0.25, 1)),
      .cubicBezier(try CubicBezier(0, 0.5, 0.5, 1)), .cubicBezier(try CubicBezier(0, 0.5, 0.25, 0.75)), .linear,
      .spring(try SpringCurve(spring: try Spring(response: 0.5, dampingFraction: 0.8))),
    ]
    for (offset, other) in others.enumerated() { index[other] = offset + 2 }
    #expect(index.count == others.count + 1 && index[curve] == 1)
    for (offset, other) in others.enumerated() { #expect(index[other] == offset + 2) }
  }
}
