import Testing

@testable import AnimCore

/// What a view asks of an animation beyond its value: whether it is held or runs backwards
/// once its timelines are counted, and the values it moves between.
@Suite struct EngineInspectionTests {
  let s: Nanoseconds = 1_000_000_000

  @Test func aTimelinesPauseAndReversalReachItsItems() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 4 * s))
    let item = try engine.animate(
      x, with: .tween(to: .number(1), duration: 2 * s), placement: .timeline(timeline, at: 0))
    try engine.play(timeline)
    try engine.advance(to: s)
    #expect(try engine.effectivePlayback(of: item) == .init(isPaused: false, isReversed: false))
    try engine.pause(timeline)
    #expect(try engine.effectivePlayback(of: item).isPaused)
    try engine.resume(timeline)
    try engine.reverse(timeline)
    #expect(try engine.effectivePlayback(of: item) == .init(isPaused: false, isReversed: true))
    // Reversed twice over (the item and its timeline): forwards again.
    try engine.reverse(item)
    #expect(try engine.effectivePlayback(of: item).isReversed == false)
    #expect(try engine.effectivePlayback(of: timeline).isReversed)
  }

  @Test func theEndpointsAreFromToOrTheKeyframesValues() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(3))
    let tween = try engine.animate(
      x, with: .tween(from: .number(-2), to: .number(8), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 0)  // started: its `from` is settled
    #expect(try engine.endpoints(of: tween) == [.number(-2), .number(8)])
    let frames = [
      Keyframe(offset: 0.5, value: .number(40), curve: .linear),
      Keyframe(offset: 1, value: .number(-7), curve: .linear),
    ]
    let track = try engine.animate(
      x, with: Animation(shape: .keyframes(frames), timing: EffectTiming(duration: s)), placement: .engine(at: 2 * s))
    try engine.advance(to: 2 * s)
    // Without a keyframe at 0 the track starts from the property's value when it starts.
    let endpoints = try engine.endpoints(of: track)
    #expect(endpoints.suffix(2) == [.number(40), .number(-7)])
    #expect(endpoints.count == 3)
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: s))
    #expect(try engine.endpoints(of: timeline) == [])
  }

  /// The properties under a timeline: its items' and its nested timelines' items', each once,
  /// in item order.
  @Test func thePropertiesUnderATimelineAreItsItemsProperties() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(0))
    let z = engine.addProperty(.number(0))
    let outer = try engine.addTimeline(timing: EffectTiming(duration: 4 * s))
    _ = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .timeline(outer, at: 0))
    let inner = try engine.addTimeline(timing: EffectTiming(duration: s), placement: .timeline(outer, at: s))
    _ = try engine.animate(z, with: .tween(to: .number(1), duration: s), placement: .timeline(inner, at: 0))
    _ = try engine.animate(y, with: .tween(to: .number(1), duration: s), placement: .timeline(outer, at: 2 * s))
    let again = try engine.animate(x, with: .tween(to: .number(2), duration: s), placement: .timeline(outer, at: 3 * s))
    #expect(try engine.properties(under: outer) == [x, z, y])
    #expect(try engine.properties(under: inner) == [z])
    #expect(try engine.properties(under: again) == [x])
  }
}
