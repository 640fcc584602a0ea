import Foundation
import Testing

@testable import AnimCore

/// Nothing ends after the end of time, 2⁶² ns (grammar.md § Timing): what would is refused at
/// the control that would make it so, and changes nothing. And every engine the API can reach
/// saves and restores, however long its clock then runs (the restore fuzzer's promise).
@Suite("Engine: the end of time")
struct EndOfTimeTests {
  let endOfTime = AnimationEngine.endOfTime

  /// A 3 s timeline (one 3 s animation in it), played from 0.
  func playing() throws -> (AnimationEngine, NodeID) {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(1), duration: 3 * s, curve: .linear), placement: .timeline(timeline, at: 0))
    try engine.play(timeline)
    return (engine, timeline)
  }

  /// Saved and read back: refused or not, with the refusal's words.
  func restores(_ engine: AnimationEngine) -> Result<AnimationEngine, Error> {
    Result { try JSONDecoder().decode(AnimationEngine.self, from: try JSONEncoder().encode(engine)) }
  }

  /// The restore fuzzer's finding (`scrub` saved at 1.7 s, its timeline's rate set to
  /// 1e-300): a timeline paused at its end may take any speed (it has nothing left to play),
  /// and a playhead tween may then carry it back. Resumed there it would end after the end
  /// of time, so `resume` refuses; but as it stands it is a state the API reached, and a
  /// session saved with it restores (it was refused: "it would end after the end of time").
  @Test func aPausedTimelineCarriedBackAtASlowSpeedSavesAndRestores() throws {
    var (engine, timeline) = try playing()
    try engine.advance(to: 3 * s)
    try engine.pause(timeline)
    try engine.setRate(1e-300, of: timeline)
    try engine.tween(timeline, to: 500 * ms, over: s)
    try engine.advance(to: 5 * s)
    #expect(try engine.status(of: timeline).localTime == 500 * ms)
    let restored = try restores(engine).get()
    #expect(try restored.status(of: timeline) == engine.status(of: timeline))

    // 2.5 s left at 1e-300 is 2.5e309 ns: resuming is refused and leaves it paused there.
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.resume(timeline) }
    #expect(try engine.status(of: timeline).state == .paused)
    #expect(try engine.status(of: timeline).localTime == 500 * ms)
  }

  /// A seek that leaves a slow timeline more to play than the end of time allows is refused
  /// and moves nothing; paused at its end it had nothing left, so the speed itself was allowed.
  @Test func aSeekBackAtASlowSpeedIsRefusedAndMovesNothing() throws {
    var (engine, timeline) = try playing()
    try engine.advance(to: 3 * s)
    try engine.pause(timeline)
    try engine.setRate(1e-300, of: timeline)
    let before = try engine.status(of: timeline)
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.seek(timeline, to: 0) }
    #expect(try engine.status(of: timeline) == before)
    #expect(throws: Never.self) { try restores(engine).get() }
  }

  /// A speed at which a node's place has no clock time (its local time 0 would lie 3e309 ns
  /// away) is refused where it would move on, and nothing jumps: a finished 3 s timeline set to
  /// speed 1e-300 read 0 s, played, and completed again half a second later.
  @Test func aSpeedAtWhichTheNodesPlaceHasNoClockTimeIsRefused() throws {
    var (engine, timeline) = try playing()
    try engine.advance(to: 3 * s)
    let before = try engine.status(of: timeline)
    #expect(before.state == .finished && before.localTime == 3 * s)
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.setRate(1e-300, of: timeline) }
    #expect(try engine.status(of: timeline) == before)
    var events: [EngineEvent] = []
    try engine.advance(to: 3_500 * ms) { _, event in events.append(event) }
    #expect(events.isEmpty)
    #expect(try engine.status(of: timeline).localTime == 3 * s)
    // Paused, it may take the speed (it does not move); resuming is what is refused.
    try engine.pause(timeline)
    try engine.setRate(1e-300, of: timeline)
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.resume(timeline) }
    #expect(try engine.status(of: timeline).localTime == 3 * s)
    // The same speed at local time 0 is a place with a clock time: a seek there is not
    // refused for its start (though the whole length is, for its end).
    #expect(engine.startProblem(local: 0, rate: 1e-300) == nil)
    #expect(engine.startProblem(local: 1, rate: 1e-300) == .endsAfterEndOfTime)
    #expect(engine.startProblem(local: 4 * s, rate: 1e-9) == nil)
    #expect(engine.startProblem(local: 5 * s, rate: 1e-9) == .endsAfterEndOfTime)
  }

  /// Backwards, a node plays toward its start. Played from 3e18 ns, at 2 s of its 3 s at speed
  /// 1e-9, its end is 1e18 ns ahead (4e18, in time) and its start 2e18 ns behind: reversed,
  /// it would get there at 5e18, past 2⁶² (4.6e18). Reversing, or a negative speed, is refused.
  @Test func playingBackwardsPastTheEndOfTimeIsRefused() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    _ = try engine.animate(
      p, with: .tween(to: .number(1), duration: 3 * s, curve: .linear), placement: .timeline(timeline, at: 0))
    let start: Nanoseconds = 3_000_000_000 * s
    try engine.advance(to: start)
    try engine.play(timeline)
    try engine.advance(to: start + 2 * s)
    try engine.setRate(1e-9, of: timeline)
    let before = try engine.status(of: timeline)
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.reverse(timeline) }
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.setRate(-1e-9, of: timeline) }
    #expect(try engine.status(of: timeline) == before)
    // Fast enough, it may: 2 s at 1e-8 is 2e17 ns.
    try engine.setRate(1e-8, of: timeline)
    try engine.reverse(timeline)
    #expect(try engine.status(of: timeline).rate == -1e-8)
  }

  /// Time passing while a node stands moves its end: paused at its start at speed 1e-9 (3 s
  /// is then 3e18 ns), it may resume at once, but not after 2e18 ns more (5e18 > 2⁶²). The
  /// session saved then still restores.
  @Test func aPausedNodeWhoseEndTimeHasPassedRestoresAndCannotResume() throws {
    var (engine, timeline) = try playing()
    try engine.pause(timeline)
    try engine.setRate(1e-9, of: timeline)
    var early = engine
    try early.resume(timeline)
    try engine.advance(to: 2_000_000_000 * s)
    #expect(throws: Never.self) { try restores(engine).get() }
    #expect(throws: EngineError.endsAfterEndOfTime) { try engine.resume(timeline) }
    #expect(try engine.status(of: timeline).state == .paused)
  }

  /// Where a playing node ends is exact and fixed while the clock runs: one that ends k ns
  /// before the end of time is accepted, and restores after every step its clock then takes,
  /// at rates that round. (Counted from the clock in `Double`s, 512 ns apart near 2⁶², one a
  /// few hundred ns short was refused, and another accepted at one instant was refused at
  /// the next.) The end, at rate r from 0, is round(duration / r) (rule 6), here in integers.
  @Test(arguments: [1.0, 0.75, 0.3, 0.001])
  func aNodeThatEndsJustInTimeStaysInTime(_ rate: Double) throws {
    let steps: [Nanoseconds] = [1, ms, 16_666_667, 250 * ms, s, 3 * s]
    for k: Int128 in [1, 2, 100, 255, 256, 511, 512, 513, 1_000, 1_024, 4_000] {
      // The duration whose end at this rate is closest to (and not after) 2⁶² − k.
      let target = Int128(endOfTime) - k
      var duration = Int64(Double(target) * rate)
      func end(_ d: Int64) -> Int128 { exactEnd(d, rate) }
      while end(duration) > target { duration -= 1 }
      while end(duration + 1) <= target { duration += 1 }
      guard duration < endOfTime else { continue }
      var engine = AnimationEngine()
      let p = engine.addProperty(.number(0))
      _ = try engine.animate(
        p, with: .tween(to: .number(1), duration: duration, curve: .linear, rate: rate), placement: .engine(at: 0))
      for step in steps {
        try engine.advance(to: step)
        #expect(throws: Never.self, "k \(k), rate \(rate), at \(step)") { try restores(engine).get() }
      }
    }
  }

  /// round(d / r), halves away from zero, from r's exact binary value.
  func exactEnd(_ d: Int64, _ r: Double) -> Int128 {
    let significand = Int128(r.significandBitPattern | (1 << 52))
    let exponent = Int(r.exponent) - 52
    // d / (significand · 2^exponent)
    let numerator = exponent < 0 ? Int128(d) << -exponent : Int128(d)
    let denominator = exponent < 0 ? significand : significand << exponent
    return (2 * numerator + denominator) / (2 * denominator)
  }
}
