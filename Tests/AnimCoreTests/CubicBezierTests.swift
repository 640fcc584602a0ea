import AnimTestSupport
import Foundation
import Testing

@testable import AnimCore

#if arch(x86_64) || arch(i386)
  /// The reference is computed in 80-bit floats where the machine has them, so that its own
  /// rounding is far below the tolerance being tested.
  typealias ReferenceFloat = Float80
#else
  typealias ReferenceFloat = Double
#endif

/// y for a given x on cubic-bezier(x1, y1, x2, y2), by bisection on t (monotonic x(t)) from
/// the Bernstein form, independent of the code under test.
func referenceCubic(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
  let (px1, py1, px2, py2) = (ReferenceFloat(x1), ReferenceFloat(y1), ReferenceFloat(x2), ReferenceFloat(y2))
  func bernstein(_ p1: ReferenceFloat, _ p2: ReferenceFloat, _ t: ReferenceFloat) -> ReferenceFloat {
    let s = 1 - t
    return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
  }
  // The end points are P0 and P3 by definition. (Bisection cannot find t = 1 itself when
  // x'(1) = 0: x(t) rounds to 1 from t ≈ 1 − 3e-10 on, which would be the reference's error.)
  if x == 0 { return 0 }
  if x == 1 { return 1 }
  let target = ReferenceFloat(x)
  var low: ReferenceFloat = 0
  var high: ReferenceFloat = 1
  while high - low > 1e-15 {
    let middle = (low + high) / 2
    if bernstein(px1, px2, middle) < target { low = middle } else { high = middle }
  }
  return Double(bernstein(py1, py2, (low + high) / 2))
}

@Suite("Cubic Bézier curves")
struct CubicBezierTests {
  static let curves: [(String, CubicBezier, (Double, Double, Double, Double))] = [
    ("ease", .ease, (0.25, 0.1, 0.25, 1)),
    ("easeIn", .easeIn, (0.42, 0, 1, 1)),
    ("easeOut", .easeOut, (0, 0, 0.58, 1)),
    ("easeInOut", .easeInOut, (0.42, 0, 0.58, 1)),
    ("backInOut", try! CubicBezier(0.68, -0.55, 0.265, 1.55), (0.68, -0.55, 0.265, 1.55)),
    ("steep", try! CubicBezier(0.1, 0.7, 1, 0.1), (0.1, 0.7, 1, 0.1)),
    ("vertical ends", try! CubicBezier(0, 1, 1, 0), (0, 1, 1, 0)),
    ("snap", try! CubicBezier(0.2, 0.9, 0.1, 1), (0.2, 0.9, 0.1, 1)),
  ]

  @Test(arguments: 0..<curves.count)
  func matchesReferenceWithin1eMinus7(_ index: Int) {
    let (name, curve, p) = Self.curves[index]
    #expect((curve.x1, curve.y1, curve.x2, curve.y2) == p)
    var worst = 0.0
    var worstX = 0.0
    for i in 0...10_000 {
      let x = Double(i) / 10_000
      let error = abs(curve.progress(at: x) - referenceCubic(p.0, p.1, p.2, p.3, at: x))
      if error > worst { (worst, worstX) = (error, x) }
    }
    // And next to the ends, where x'(t) may vanish and t moves like √x.
    for x in [1e-15, 1e-12, 1e-9, 1e-6, 1 - 1e-6, 1 - 1e-9, 1 - 1e-12, 1 - 1e-15] {
      let error = abs(curve.progress(at: x) - referenceCubic(p.0, p.1, p.2, p.3, at: x))
      if error > worst { (worst, worstX) = (error, x) }
    }
    print("cubic \(name): max error \(worst) at x = \(worstX)")
    #expect(worst <= 1e-7, "\(name): max error \(worst) at x = \(worstX)")
  }

  /// Random curves over the whole allowed range, and curves whose x′(t) vanishes at an end or
  /// inside (where t(x) is steepest and the table's guess is worst), against the reference
  /// at random inputs and next to the table's nodes k/39, where the guess changes interval.
  @Test func randomAndDegenerateCurvesMatchTheReference() throws {
    var random = SeededRandom(seed: 41)
    var curves: [(Double, Double, Double, Double)] = (0..<150).map { _ in
      (
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random),
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random)
      )
    }
    curves += [
      (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0), (0, 1, 1, 0), (0, -5, 1, 7), (1, 2, 1, -1),
      (0, 0, 0, 1), (1, 0, 1, 1), (0.5, 0.5, 0.5, 0.5), (1e-9, 0.3, 1 - 1e-9, 0.7),
    ]
    var worst = 0.0
    for p in curves {
      let curve = try CubicBezier(p.0, p.1, p.2, p.3)
      var inputs = (0..<60).map { _ in Double.random(in: 0...1, using: &random) }
      for k in 1..<39 {
        let node = Double(k) / 39
        inputs += [node, node.nextDown, node.nextUp]
      }
      for x in inputs {
        let got = curve.progress(at: x)
        let want = referenceCubic(p.0, p.1, p.2, p.3, at: x)
        let error = abs(got - want)
        worst = max(worst, error)
        #expect(error <= 1e-7, "cubic\(p) at \(x): \(got), want \(want)")
      }
    }
    print("cubic random and degenerate curves: max error \(worst)")
  }

  /// Every table entry brackets the t of its x, to within the margin the solver allows for.
  @Test func tableBracketsTheSolution() throws {
    var random = SeededRandom(seed: 42)
    for _ in 0..<50 {
      let p = (
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random),
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random)
      )
      let curve = try CubicBezier(p.0, p.1, p.2, p.3)
      let n = CubicBezier.tableIntervals
      for k in 0..<n {
        let (below, above) = curve.tableBracket(k)
        #expect(below <= above)
        let x = Double(k) / Double(n)
        // The reference in t: bisection for x's t, read back through x(t) = x.
        let coefficients = CubicBezier.coefficients(p.0, p.2)
        var low = 0.0
        var high = 1.0
        for _ in 0..<60 {
          let middle = 0.5 * (low + high)
          if CubicBezier.cubic(coefficients, at: middle, minus: x) < 0 { low = middle } else { high = middle }
        }
        #expect(abs(below / CubicBezier.tableScale - low) <= CubicBezier.tableMargin / 2, "curve \(p) entry \(k)")
      }
      #expect(curve.tableBracket(0).below == 0)
      #expect(curve.tableBracket(n - 1).above == CubicBezier.tableScale)
    }
  }

  @Test func staysSmallEnoughToBeStoredInline() {
    #expect(MemoryLayout<CubicBezier>.size <= 112)
    #expect(MemoryLayout<TimingCurve>.size <= 128)
  }

  @Test(arguments: 0..<curves.count)
  func endpointsAreExact(_ index: Int) {
    let curve = Self.curves[index].1
    #expect(curve.progress(at: 0) == 0)
    #expect(curve.progress(at: 1) == 1)
  }

  @Test(arguments: 0..<curves.count)
  func extrapolatesAlongTheEndTangents(_ index: Int) {
    let (_, curve, (x1, y1, x2, y2)) = Self.curves[index]
    // CSS Easing Level 1: before 0, the line through P0 and P1 if x1 > 0, else through P0 and
    // P2 if x2 > 0, else 0; after 1, through P2 and P3 if x2 < 1, else P1 and P3 if x1 < 1.
    let startSlope = x1 > 0 ? y1 / x1 : (x2 > 0 ? y2 / x2 : 0)
    let endSlope = x2 < 1 ? (y2 - 1) / (x2 - 1) : (x1 < 1 ? (y1 - 1) / (x1 - 1) : 0)
    for x in [-2.0, -0.5, -1e-9] {
      #expect(abs(curve.progress(at: x) - startSlope * x) <= 1e-15)
    }
    for x in [1 + 1e-9, 1.5, 3.0] {
      #expect(abs(curve.progress(at: x) - (1 + endSlope * (x - 1))) <= 1e-14)
    }
  }

  @Test func tangentFallbacks() throws {
    // x1 = 0: the start tangent is vertical, so CSS uses P2's direction.
    let c = try CubicBezier(0, 0.5, 0.5, 0.25)
    #expect(c.progress(at: -1) == -0.5)
    // Both control points on the start's vertical: flat before 0.
    let flat = try CubicBezier(0, 0.3, 0, 0.6)
    #expect(flat.progress(at: -1) == 0)
    // Both on the end's vertical: flat after 1.
    let flatEnd = try CubicBezier(1, 0.3, 1, 0.6)
    #expect(flatEnd.progress(at: 2) == 1)
    // easeIn has x2 = 1: after 1 the line through P1 = (0.42, 0) and (1, 1).
    #expect(abs(CubicBezier.easeIn.progress(at: 1.58) - (1 + 0.58 / 0.58)) < 1e-15)
  }

  @Test func rejectsControlPointsThatFoldBack() {
    #expect(throws: CurveParameterError.self) { try CubicBezier(1.1, 0, 0.5, 1) }
    #expect(throws: CurveParameterError.self) { try CubicBezier(0.5, 0, -0.01, 1) }
    #expect(throws: CurveParameterError.self) { try CubicBezier(0.5, .nan, 0.5, 1) }
    #expect(throws: CurveParameterError.self) { try CubicBezier(0.5, 0, 0.5, .infinity) }
    do {
      _ = try CubicBezier(1.5, 0, 0.5, 1)
    } catch {
      #expect(error.parameter == "x1")
      #expect(error.description == "'x1' must be in 0...1, not 1.5")
    }
    #expect((try? CubicBezier(0, -5, 1, 7)) != nil)
  }

  @Test func codableRoundTripAndValidation() throws {
    let curve = try CubicBezier(0.68, -0.55, 0.265, 1.55)
    let data = try JSONEncoder().encode(curve)
    let back = try JSONDecoder().decode(CubicBezier.self, from: data)
    #expect(back == curve)
    #expect(back.progress(at: 0.3) == curve.progress(at: 0.3))
    let bad = Data(#"{"x1": 2, "y1": 0, "x2": 0.5, "y2": 1}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(CubicBezier.self, from: bad) }
  }

  @Test func nanInNanOut() {
    #expect(CubicBezier.ease.progress(at: .nan).isNaN)
  }

  /// Where x(t) is flat at the root: cubic(1, 0.51, 0, 0.4) has x(t) = 3t − 6t² + 4t³, so
  /// x(t) − 0.5 = 4 (t − 0.5)³, a triple root at t = 0.5, where y = 3 · 0.25 · 0.5 · 0.51 +
  /// 3 · 0.5 · 0.25 · 0.4 + 0.125 = 0.46625 (the differential test's seed 1031528).
  @Test func aCurveFlatAtItsRootIsSolvedThere() throws {
    #expect(abs(try CubicBezier(1, 0.51, 0, 0.4).progress(at: 0.5) - 0.46625) < 1e-12)
  }
}
