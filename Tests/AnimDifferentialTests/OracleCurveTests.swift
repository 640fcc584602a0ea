// The oracle's curves against values worked out by hand, where plain floating point is not
// enough to solve them.

import AnimOracle
import Testing

@Suite struct OracleCurveTests {
  /// cubic(1, 0.51, 0, 0.4) at x = 0.5: x(t) = 3t(1 − t)² + t³ is 0.5 at t = 0.5 with
  /// x′(0.5) = x″(0.5) = 0 (a triple root), so y = 3·0.5·0.25·0.51 + 3·0.5·0.25·0.4 + 0.125
  /// = 0.46625 exactly. In plain doubles every t within ~1e-5 of 0.5 rounds to x = 0.5, and
  /// the oracle read 0.4662501 (seed 1031528: 31.2937598 for 31.29375).
  @Test func aCubicIsSolvedWhereItsXIsFlatAtTheRoot() {
    let y = OracleCurve.cubic(1, 0.51, 0, 0.4).progress(0.5)
    #expect(abs(y - 0.46625) < 1e-12, "\(y)")
  }

  /// The CSS presets at a few points, against y(t) at the t that solves x(t) = x, worked out
  /// here by Newton's method from t = x (an independent solution of the same equation).
  @Test(arguments: [0.1, 0.25, 0.5, 0.75, 0.9])
  func presetsAgreeWithNewtonsSolution(_ x: Double) {
    for (x1, y1, x2, y2) in [(0.25, 0.1, 0.25, 1.0), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1)] {
      func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
      }
      func slope(_ t: Double) -> Double {
        3 * (1 - t) * (1 - t) * x1 + 6 * (1 - t) * t * (x2 - x1) + 3 * t * t * (1 - x2)
      }
      var t = x
      for _ in 0..<60 { t -= (coordinate(t, x1, x2) - x) / slope(t) }
      let expected = coordinate(t, y1, y2)
      let y = OracleCurve.cubic(x1, y1, x2, y2).progress(x)
      #expect(abs(y - expected) < 1e-12, "cubic(\(x1), \(y1), \(x2), \(y2)) at \(x): \(y) against \(expected)")
    }
  }
}
