import Testing

@testable import AnimCore

/// A refresh computes the properties with more than one effect side by side, their walks
/// interleaved (EffectWalk.swift): each property's value must be its own list's fold, however
/// long the lists around it are and whenever a lane takes the next property.
@Suite("Engine: properties' lists walked side by side")
struct EffectWalkTests {
  let s: Nanoseconds = 1_000_000_000
  let ms: Nanoseconds = 1_000_000

  /// Twenty-one properties (more than the lanes, not a multiple of them), property p with
  /// p + 2 tweens placed in turn with the others' (p + 2 effects, so the lists end at
  /// different steps), each to 2j (j = 1…p + 2) over 1 s, linear, from 0. All are counted
  /// from their placement, so each starts additively from where the property heads, a
  /// change of 2: halfway, the value is (p + 2) × 2 × 0.5 = p + 2; at the end, 2(p + 2).
  /// Every third property also has three tweens that wait 10 s without a fill (read by the
  /// walk, adding nothing), and every fifth, placed first, a tween from 100 to 300 that
  /// waits 10 s filling backwards: it shows its `from`, 100, in place of the base value, and
  /// the property heads for its target, 300, so the first of the others changes it by
  /// 2 − 300: 100 + (2(p + 2) − 300) × progress (grammar.md § Retargeting).
  @Test func eachPropertyIsItsOwnListsFold() throws {
    var engine = AnimationEngine()
    let count = 21
    let properties = (0..<count).map { _ in engine.addProperty(.number(0)) }
    func tween(to value: Double, delay: Nanoseconds = 0, fill: FillMode = .forwards, from: Double? = nil) -> Animation {
      .tween(from: from.map { .number($0) }, to: .number(value), duration: s, delay: delay, fill: fill)
    }
    for (p, property) in properties.enumerated() where p % 5 == 0 {
      _ = try engine.animate(
        property, with: tween(to: 300, delay: 10 * s, fill: .both, from: 100), placement: .engine(at: 0))
    }
    for j in 1...(count + 1) {
      for (p, property) in properties.enumerated() where j <= p + 2 {
        _ = try engine.animate(property, with: tween(to: Double(2 * j)), placement: .engine(at: 0))
        if p % 3 == 0 && j <= 3 {
          _ = try engine.animate(property, with: tween(to: -50, delay: 10 * s, fill: .none), placement: .engine(at: 0))
        }
      }
    }
    func expected(_ p: Int, progress: Double) -> Double {
      p % 5 == 0 ? 100 + (Double(2 * (p + 2)) - 300) * progress : Double(p + 2) * 2 * progress
    }
    for (time, progress) in [(0, 0.0), (500 * ms, 0.5), (750 * ms, 0.75), (2 * s, 1.0)] as [(Nanoseconds, Double)] {
      try engine.advance(to: time)
      for (p, property) in properties.enumerated() {
        #expect(engine.currentValue(of: property) == .number(expected(p, progress: progress)), "p \(p) at \(time)")
        #expect(engine.currentValue(of: property) == engine.value(of: property), "p \(p) at \(time)")
      }
    }
  }
}
