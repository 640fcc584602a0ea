import Foundation
import Testing

@testable import AnimCore

@Suite("Engine: retargeting")
struct EngineRetargetTests {
  /// Samples a property every millisecond over [from, to] and returns the values.
  func samples(_ engine: inout AnimationEngine, _ p: PropertyID, from: Nanoseconds, to: Nanoseconds) throws -> [Double]
  {
    var values: [Double] = []
    var t = from
    while t <= to {
      try engine.advance(to: t)
      values.append(number(engine, p))
      t += ms
    }
    return values
  }

  /// The largest jump between neighbouring samples, and the largest jump in their slope.
  func roughness(_ v: [Double]) -> (value: Double, slope: Double) {
    var value = 0.0
    var slope = 0.0
    for i in 1..<v.count {
      value = max(value, abs(v[i] - v[i - 1]))
      if i >= 2 { slope = max(slope, abs((v[i] - v[i - 1]) - (v[i - 1] - v[i - 2]))) }
    }
    return (value, slope)
  }

  @Test func additiveRetargetingHasNoJumpAndFollowsTheFormula() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s, curve: .easeInOut), placement: .engine(at: 0))
    try engine.advance(to: 400 * ms)
    let before = number(engine, x)
    _ = try engine.animate(
      x, with: .tween(to: .number(300), duration: s, curve: .easeInOut), placement: .engine(at: 400 * ms))
    #expect(number(engine, x) == before)
    // value = newest target − Σ remaining changes.
    try engine.advance(to: 900 * ms)
    let e1 = CubicBezier.easeInOut.progress(at: 0.9)
    let e2 = CubicBezier.easeInOut.progress(at: 0.5)
    let expected = 300 - 100 * (1 - e1) - 200 * (1 - e2)
    #expect(abs(number(engine, x) - expected) < 1e-9)
    try engine.advance(to: 2 * s)
    #expect(number(engine, x) == 300)
    #expect(engine.baseValue(of: x) == .number(300))
  }

  @Test func additiveRetargetingIsContinuousInValueAndVelocity() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s, curve: .ease), placement: .engine(at: 0))
    var values = try samples(&engine, x, from: 0, to: 500 * ms)
    // A curve that starts at rest (as SwiftUI's additive animations need for a smooth
    // handover): the old animation's velocity carries on unbroken.
    _ = try engine.animate(
      x, with: .tween(to: .number(-50), duration: s, curve: .easeInOut), placement: .engine(at: 500 * ms))
    values += try samples(&engine, x, from: 501 * ms, to: 1_600 * ms)
    let rough = roughness(values)
    // Per millisecond, the value moves at most ~0.2; a jump would show as a large step, a
    // velocity break as a large change of step.
    #expect(rough.value < 0.3)
    #expect(rough.slope < 0.01)
  }

  @Test func aSpringKeepsTheVelocityItTakesOver() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let spring = try SpringCurve(spring: Spring(response: 0.5, dampingFraction: 0.7))
    _ = try engine.animate(x, with: .tween(to: .number(100), curve: .spring(spring)), placement: .engine(at: 0))
    var values = try samples(&engine, x, from: 0, to: 150 * ms)
    let velocity = engine.velocity(of: x)
    _ = try engine.animate(x, with: .tween(to: .number(-100), curve: .spring(spring)), placement: .engine(at: 150 * ms))
    try engine.advance(to: 150 * ms)
    // The new spring starts with the old motion's velocity.
    let after = engine.velocity(of: x)
    guard case .number(let v0) = velocity, case .number(let v1) = after else {
      Issue.record()
      return
    }
    #expect(abs(v1 - v0) < 1e-3 * abs(v0))
    values += try samples(&engine, x, from: 151 * ms, to: 2 * s)
    // Around the retarget (the settling snap at the very end, ≤ 0.1% of the distance, is by
    // definition and left out).
    let rough = roughness(Array(values[50...400]))
    #expect(rough.slope < 0.05)
    #expect(number(engine, x) == -100)
    #expect(engine.animations(on: x).count <= 1)
  }

  /// A spring retargeted mid-flight keeps its velocity aside (ValueStore.springVelocities):
  /// once it completes and its slot is freed, a new animation there starts without it.
  @Test(arguments: [true, false])
  func aFreedSpringSlotDoesNotPassItsVelocityOn(reusedBySpring: Bool) throws {
    let spring = try SpringCurve(spring: Spring(response: 0.5, dampingFraction: 0.7))
    let curve: TimingCurve = reusedBySpring ? .spring(spring) : .easeInOut
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), curve: .spring(spring)), placement: .engine(at: 0))
    try engine.advance(to: 150 * ms)
    _ = try engine.animate(x, with: .tween(to: .number(-100), curve: .spring(spring)), placement: .engine(at: 150 * ms))
    try engine.advance(to: 150 * ms)
    let retargeted = try #require(engine.stores.numbers.springVelocities.first)
    #expect(retargeted.value != 0)
    try engine.advance(to: 10 * s)
    #expect(engine.animations(on: x).isEmpty)
    #expect(engine.stores.numbers.springVelocities.isEmpty)
    #expect(engine.stores.numbers.freeEffects.contains(retargeted.key))

    // The same animation on a fresh engine and on the one whose freed slot it takes.
    var fresh = AnimationEngine()
    let y = fresh.addProperty(.number(0))
    let z = engine.addProperty(.number(0))
    let start = 10 * s
    try fresh.advance(to: start)
    let animation = Animation.tween(to: .number(50), duration: reusedBySpring ? nil : s, curve: curve)
    _ = try fresh.animate(y, with: animation, placement: .engine(at: start))
    _ = try engine.animate(z, with: animation, placement: .engine(at: start))
    #expect(engine.stores.numbers.effects[Int(retargeted.key)].property == z.index)
    for k in 0...60 {
      let t = start + frameTime(Int64(k), fps: 60)
      try fresh.advance(to: t)
      try engine.advance(to: t)
      #expect(fresh.value(of: y) == engine.value(of: z))
    }
  }

  @Test func mergeReplaceStartsFromTheCurrentValue() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 250 * ms)
    _ = try engine.animate(
      x, with: .tween(to: .number(0), duration: s, composition: .replace), placement: .engine(at: 250 * ms))
    try engine.advance(to: 750 * ms)
    #expect(engine.animations(on: x).count == 1)
    #expect(abs(number(engine, x) - 12.5) < 1e-9)
  }

  @Test func keyframesPassThroughEachValueWithTheirSegmentCurves() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(5))
    let frames = [
      Keyframe(offset: 0.4, value: .number(50), curve: .easeOut),
      Keyframe(offset: 1, value: .number(0), curve: .linear),
    ]
    _ = try engine.animate(
      x, with: Animation(shape: .keyframes(frames), timing: EffectTiming(duration: s, fill: .forwards)),
      placement: .engine(at: 0))
    try engine.advance(to: 200 * ms)
    // Without a first keyframe at 0 the track starts from the current value, 5.
    #expect(abs(number(engine, x) - (5 + 45 * CubicBezier.easeOut.progress(at: 0.5))) < 1e-9)
    try engine.advance(to: 400 * ms)
    #expect(number(engine, x) == 50)
    try engine.advance(to: 700 * ms)
    #expect(abs(number(engine, x) - 25) < 1e-9)
    try engine.advance(to: 2 * s)
    #expect(number(engine, x) == 0)
  }

  @Test func valuesResolvedAtStartAreAskedForThen() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    var animation = Animation.tween(to: .number(0), duration: s, delay: s)
    animation.resolvesValuesAtStart = true
    let node = try engine.animate(x, with: animation, placement: .engine(at: 0))
    var askedAt: Nanoseconds?
    try engine.advance(to: 1_500 * ms) { engine, e in
      if e.kind == .needsValues, e.subject == .node(node) {
        askedAt = engine.now
        try? engine.setValues(of: node, from: nil, to: [.number(40)])
      }
    }
    #expect(askedAt == s)
    #expect(number(engine, x) == 20)
  }
}

@Suite("Engine: a property's rest")
struct EnginePropertyRestTests {
  @Test(arguments: [Composition.replace, .automatic])
  func aTakeoverDoesNotMakeThePropertyLeaveRestAgain(_ composition: Composition) throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let spring = try SpringCurve(spring: Spring(response: 0.4, dampingFraction: 1))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: 0))
    // A spring (takes over, keeping velocity) or a replacing tween, at 0.5 s.
    let curve: TimingCurve = composition == .replace ? .linear : .spring(spring)
    _ = try engine.animate(
      x,
      with: .tween(to: .number(0), duration: composition == .replace ? s : nil, curve: curve, composition: composition),
      placement: .engine(at: 500 * ms))
    var log = Log()
    try advance(&engine, to: 5 * s, log: &log)
    #expect(log.times(of: .start, .property(x)) == [0])
    #expect(log.times(of: .complete, .property(x)).count == 1)
  }
}
