import Testing

@testable import AnimCore

/// Where a keyframe track ends when its last pass is fractional: Web Animations' progress
/// there is the fraction of the iteration count, whose time in the pass need not be a whole
/// nanosecond. A track with one keyframe at 100% is the tween to that value, and ends where
/// the tween does (issue 12, seed 1022193: 88.5000002 for 88.5).
@Suite struct KeyframeEndTests {
  /// From 6 to 171 over an odd number of nanoseconds, `repeat 1.5 autoreverse`: the second
  /// pass runs backwards and stops half-way, so the value at rest is 6 + 165 · 0.5 = 88.5,
  /// for the tween and for the track alike.
  @Test func aOneKeyframeTrackEndsWhereTheTweenDoes() throws {
    let duration: Nanoseconds = 426_314_263
    let timing = EffectTiming(duration: duration, iterations: 1.5, direction: .alternate, fill: .forwards)
    var engine = AnimationEngine()
    let tweened = engine.addProperty(.number(6))
    let tracked = engine.addProperty(.number(6))
    _ = try engine.animate(
      tweened, with: Animation(shape: .tween(from: nil, to: .number(171), curve: .linear), timing: timing),
      placement: .engine(at: 0))
    _ = try engine.animate(
      tracked,
      with: Animation(shape: .keyframes([Keyframe(offset: 1, value: .number(171), curve: .linear)]), timing: timing),
      placement: .engine(at: 0))
    try engine.advance(to: 2 * duration)
    #expect(engine.value(of: tweened) == .number(88.5))
    #expect(engine.value(of: tracked) == .number(88.5))
  }

  /// While a pass runs, the time in it is the whole nanosecond it is: a track of two
  /// segments at a time that is not a segment's end gives (t − a) / (b − a) on integers.
  @Test func whileAPassRunsItsTimeIsWhole() throws {
    let duration: Nanoseconds = 1_000_000_007
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let frames = [
      Keyframe(offset: 0, value: .number(0), curve: .linear),
      Keyframe(offset: 0.5, value: .number(100), curve: .linear),
      Keyframe(offset: 1, value: .number(0), curve: .linear),
    ]
    _ = try engine.animate(
      x, with: Animation(shape: .keyframes(frames), timing: EffectTiming(duration: duration)), placement: .engine(at: 0)
    )
    let t: Nanoseconds = 123_456_789
    try engine.advance(to: t)
    // The 50% position is round(0.5 · 1,000,000,007) = 500,000,004 (halves up).
    let expected = 100 * Double(t) / 500_000_004
    #expect(abs((engine.value(of: x).number ?? .nan) - expected) < 1e-12)
  }
}
