// The curves' own cost, apart from the engine's.
//
// - curve.cubic.preset / curve.cubic.random / curve.spring: ns per evaluation of
//   `progress(at:)`. 4,096 curves in an array (the CSS presets ease, ease-in, ease-out,
//   ease-in-out, a quarter each; random cubic-bezier(x1, x2 in 0...1, y1, y2 in -0.5...1.5);
//   random `SpringCurve`s of `Spring(response: 0.3...1.2, dampingFraction: 0.4...1.0)`), as
//   the engine's workload draws them, evaluated at 1,048,576 random inputs in 0...1, curve
//   i mod 4,096 at input i, so that neither curve nor input repeats in a predictable way.
//   Best of 5 passes; the sum of the results goes to stderr so nothing is optimised away.
import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation

let curveCount = 4_096
let curveInputCount = 1 << 20

func runCurveBenchmarks() {
  if wants("curve.cubic.preset") {
    let presets: [CubicBezier] = [.ease, .easeIn, .easeOut, .easeInOut]
    let curves = (0..<curveCount).map { presets[$0 % 4] }
    report("curve.cubic.preset", bestCurveTime("curve.cubic.preset", curves) { $0.progress(at: $1) }, "ns")
  }
  if wants("curve.cubic.random") {
    var random = SeededRandom(seed: 3031)
    let curves = (0..<curveCount).map { _ in
      try! CubicBezier(
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random),
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random))
    }
    report("curve.cubic.random", bestCurveTime("curve.cubic.random", curves) { $0.progress(at: $1) }, "ns")
  }
  if wants("curve.spring") {
    var random = SeededRandom(seed: 3032)
    let curves = (0..<curveCount).map { _ in
      try! SpringCurve(
        spring: Spring(
          response: Double.random(in: 0.3...1.2, using: &random),
          dampingFraction: Double.random(in: 0.4...1.0, using: &random)))
    }
    report("curve.spring", bestCurveTime("curve.spring", curves) { $0.progress(at: $1) }, "ns")
  }
}

/// ns per evaluation, the best of 5 passes over all inputs.
@inline(__always)
func bestCurveTime<Curve>(_ name: String, _ curves: [Curve], _ evaluate: (Curve, Double) -> Double) -> Double {
  var random = SeededRandom(seed: 3033)
  let inputs = (0..<curveInputCount).map { _ in Double.random(in: 0...1, using: &random) }
  var best = Double.infinity
  for _ in 0..<5 {
    var checksum = 0.0
    let elapsed = ContinuousClock().measure {
      curves.withUnsafeBufferPointer { curves in
        inputs.withUnsafeBufferPointer { inputs in
          for i in 0..<inputs.count {
            checksum += evaluate(curves[i & (curveCount - 1)], inputs[i])
          }
        }
      }
    }
    FileHandle.standardError.write("\(name) checksum \(checksum)\n".data(using: .utf8)!)
    best = min(best, nanoseconds(elapsed) / Double(curveInputCount))
  }
  return best
}
