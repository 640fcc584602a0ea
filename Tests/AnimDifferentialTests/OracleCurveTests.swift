// The oracle's curves against an independent solution of the same equations (the flat root
// that double-double arithmetic solves is pinned in OracleFindingsTests).

import AnimOracle
import Testing

@Suite struct OracleCurveTests {
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
