import AnimTestSupport
import Testing

@testable import AnimCore

let ms: Nanoseconds = 1_000_000
let s: Nanoseconds = 1_000_000_000

/// Events as (time, kind, subject) for assertions.
struct Log {
  var entries: [(time: Nanoseconds, kind: EngineEvent.Kind, subject: EngineEvent.Subject, reversed: Bool)] = []
  mutating func record(_ e: EngineEvent) { entries.append((e.time, e.kind, e.subject, e.isReversed)) }
  func times(of kind: EngineEvent.Kind, _ subject: EngineEvent.Subject) -> [Nanoseconds] {
    entries.filter { $0.kind == kind && $0.subject == subject }.map(\.time)
  }
}

func number(_ engine: AnimationEngine, _ p: PropertyID) -> Double {
  guard case .number(let x) = engine.value(of: p) else { return .nan }
  return x
}

func advance(_ engine: inout AnimationEngine, to t: Nanoseconds, log: inout Log) throws {
  try engine.advance(to: t) { _, e in log.record(e) }
}

@Suite("Engine: tweens on the clock")
struct EngineTweenTests {
  @Test func linearTweenReadsTheFormulaAtEveryFrame() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: 2 * s), placement: .engine(at: 0))
    for k in 0...150 {
      let t = frameTime(Int64(k), fps: 60)
      try engine.advance(to: t)
      let expected = min(Double(t) / Double(2 * s), 1) * 100
      #expect(abs(number(engine, x) - expected) < 1e-9, "at \(t)")
    }
    // Completed: the value is now the base value, and the animation is gone.
    #expect(engine.baseValue(of: x) == .number(100))
    #expect(engine.animations(on: x).isEmpty)
    #expect(!engine.isAnimating(x))
  }

  @Test func fromDefaultsToTheValueWhenTheAnimationStarts() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(10))
    _ = try engine.animate(x, with: .tween(to: .number(20), duration: s, delay: s), placement: .engine(at: 0))
    try engine.advance(to: 500 * ms)
    try engine.set(x, to: .number(0))  // ends the delayed animation: set ends animations
    #expect(engine.animations(on: x).isEmpty)
    _ = try engine.animate(x, with: .tween(to: .number(20), duration: s, delay: s), placement: .engine(at: 500 * ms))
    try engine.advance(to: 1_000 * ms)
    try engine.set(x, to: .number(5))
    #expect(number(engine, x) == 5)
  }

  @Test func easedTweenUsesTheCurve() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    _ = try engine.animate(x, with: .tween(to: .number(100), duration: s, curve: .easeIn), placement: .engine(at: 0))
    try engine.advance(to: 400 * ms)
    #expect(abs(number(engine, x) - 100 * CubicBezier.easeIn.progress(at: 0.4)) < 1e-9)
  }

  @Test func vectorsAndColorsAnimateComponentWise() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.vec2(Vec2(0, 0)))
    let c = engine.addProperty(.color(Color(red: 1, green: 0, blue: 0)))
    _ = try engine.animate(p, with: .tween(to: .vec2(Vec2(10, -20)), duration: s), placement: .engine(at: 0))
    _ = try engine.animate(
      c, with: .tween(to: .color(Color(red: 0, green: 0, blue: 1)), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 250 * ms)
    #expect(engine.value(of: p) == .vec2(Vec2(2.5, -5)))
    guard case .color(let color) = engine.value(of: c) else {
      Issue.record("not a color")
      return
    }
    #expect(abs(color.premultipliedRed - 0.75) < 1e-12 && abs(color.premultipliedBlue - 0.25) < 1e-12)
  }

  @Test func aValueOfTheWrongTypeIsRefused() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    #expect(throws: EngineError.typeMismatch(expected: .number, found: .vec2)) {
      try engine.animate(x, with: .tween(to: .vec2(Vec2(1, 1)), duration: s), placement: .engine(at: 0))
    }
    #expect(throws: EngineError.typeMismatch(expected: .number, found: .color)) {
      try engine.set(x, to: .color(.zero))
    }
  }
}

@Suite("Engine: playback control")
struct EnginePlaybackTests {
  @Test func pauseAndResumeContinueExactlyWhereTheyStopped() throws {
    // A label rotating 0 → 360 over 6 s, paused from 2 s to 5 s, reads 180 at 6 s and
    // completes at 9 s.
    var engine = AnimationEngine()
    let angle = engine.addProperty(.number(0))
    let spin = try engine.animate(angle, with: .tween(to: .number(360), duration: 6 * s), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 2 * s, log: &log)
    try engine.pause(spin)
    try advance(&engine, to: 5 * s, log: &log)
    #expect(number(engine, angle) == 120)
    try engine.resume(spin)
    try advance(&engine, to: 6 * s, log: &log)
    #expect(number(engine, angle) == 180)
    try advance(&engine, to: 10 * s, log: &log)
    #expect(log.times(of: .complete, .node(spin)) == [9 * s])
    #expect(log.times(of: .complete, .property(angle)) == [9 * s])
    #expect(number(engine, angle) == 360)
  }

  @Test func aMillionRandomPausesLeaveNoDrift() throws {
    var random = SeededRandom(seed: 7)
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let duration: Nanoseconds = 3_600 * s
    let node = try engine.animate(x, with: .tween(to: .number(1), duration: duration), placement: .engine(at: 0))
    var t: Nanoseconds = 0
    var paused: Nanoseconds = 0
    var played: Nanoseconds = 0
    for _ in 0..<1_000_000 {
      // Play a random stretch that does not reach the end, then pause for a random stretch.
      let run = Nanoseconds(random.next() % 3_000) + 1
      guard played + run < duration else { break }
      played += run
      t += run
      try engine.advance(to: t)
      try engine.pause(node)
      let rest = Nanoseconds(random.next() % 5_000) + 1
      t += rest
      paused += rest
      try engine.advance(to: t)
      try engine.resume(node)
    }
    var completed: Nanoseconds?
    try engine.advance(to: .max / 2) { _, e in
      if e.kind == .complete, e.subject == .node(node) { completed = e.time }
    }
    #expect(completed == duration + paused)
  }

  @Test func reverseRetracesThePathAndCompletesAtTheStart() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(
      x, with: .tween(to: .number(100), duration: s, curve: .easeInOut), placement: .engine(at: 0))
    var forward: [Double] = []
    for k in 0...6 {
      try engine.advance(to: Nanoseconds(k) * 100 * ms)
      forward.append(number(engine, x))
    }
    try engine.reverse(node)
    var log = Log()
    var backward: [Double] = []
    for k in 1...6 {
      try advance(&engine, to: 600 * ms + Nanoseconds(k) * 100 * ms, log: &log)
      backward.append(number(engine, x))
    }
    // The reversed path is exactly the forward path, mirrored in time.
    #expect(backward == forward.reversed().dropFirst().map { $0 })
    #expect(log.times(of: .complete, .node(node)) == [1_200 * ms])
    #expect(log.entries.first { $0.kind == .complete }?.reversed == true)
    #expect(engine.baseValue(of: x) == .number(0))
  }

  @Test func reversingWhilePausedFlipsTheDirectionForResume() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: 0))
    try engine.advance(to: 400 * ms)
    try engine.pause(node)
    try engine.reverse(node)
    try engine.advance(to: 900 * ms)
    #expect(number(engine, x) == 40)
    try engine.resume(node)
    try engine.advance(to: 1_000 * ms)
    #expect(number(engine, x) == 30)
  }

  @Test func rateChangesDoNotJumpAndMultiplyThroughTimelines() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 4 * s, fill: .forwards), rate: 2)
    _ = try engine.animate(
      x, with: .tween(to: .number(100), duration: 4 * s, rate: 0.5), placement: .timeline(timeline, at: 0))
    try engine.play(timeline)
    try engine.advance(to: s)
    // Timeline time 2 s; the child at half speed is at 1 s of 4 s.
    #expect(number(engine, x) == 25)
    try engine.setRate(4, of: timeline)
    #expect(number(engine, x) == 25)
    try engine.advance(to: 1_500 * ms)
    #expect(number(engine, x) == 50)
  }

  @Test func seekIsSilent() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let timeline = try engine.addTimeline(timing: EffectTiming(duration: 3 * s, fill: .forwards))
    let a = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .timeline(timeline, at: s))
    _ = try engine.addCallback(key: 1, to: timeline, at: 500 * ms, firesBackwards: true)
    try engine.play(timeline)
    var log = Log()
    try advance(&engine, to: 100 * ms, log: &log)
    log = Log()
    try engine.seek(timeline, to: 2_500 * ms)
    try advance(&engine, to: 200 * ms, log: &log)
    #expect(!log.entries.contains { $0.subject == .node(a) || $0.kind == .callback(1) })
    #expect(number(engine, x) == 100)
  }

  @Test func finishJumpsToTheEndAndFiresComplete() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(x, with: .tween(to: .number(100), duration: 10 * s), placement: .engine(at: 0))
    try engine.advance(to: s)
    var log = Log()
    try engine.finish(node) { _, e in log.record(e) }
    #expect(log.times(of: .complete, .node(node)) == [s])
    #expect(number(engine, x) == 100)
    let forever = try engine.animate(
      x, with: .tween(to: .number(0), duration: s, iterations: .infinity), placement: .engine(at: s))
    #expect(throws: EngineError.finishesNever) { try engine.finish(forever) }
  }

  @Test func cancelKeepsTheCurrentValueAndFiresNothing() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(x, with: .tween(to: .number(100), duration: s), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 300 * ms, log: &log)
    try engine.cancel(node)
    try advance(&engine, to: 2 * s, log: &log)
    #expect(number(engine, x) == 30)
    #expect(engine.baseValue(of: x) == .number(30))
    #expect(!log.entries.contains { $0.kind == .complete })
  }
}

@Suite("Engine: repeats and loops")
struct EngineRepeatTests {
  @Test func repeatEventsAtEachPassBoundaryInEitherDirection() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let node = try engine.animate(
      x, with: .tween(to: .number(100), duration: s, iterations: 3, direction: .alternate), placement: .engine(at: 0))
    var log = Log()
    try advance(&engine, to: 2_500 * ms, log: &log)
    #expect(log.times(of: .repeat, .node(node)) == [s, 2 * s])
    #expect(number(engine, x) == 50)
    try engine.reverse(node)
    try advance(&engine, to: 5 * s, log: &log)
    // Backwards from 2.5 s: boundaries at 2 s and 1 s are crossed at engine 3 s and 4 s.
    #expect(log.times(of: .repeat, .node(node)).dropFirst(2).map { $0 } == [3 * s, 4 * s])
    #expect(log.times(of: .complete, .node(node)) == [5 * s])
  }

  @Test func repeatForeverLoopsDownThroughItsPassesWhenReversed() throws {
    // A stopwatch counting 0 → 100 over 10 s, looping: at 25 s it reads 50; reversed there,
    // it counts down, wraps from 0 back to 100 and keeps going.
    var engine = AnimationEngine()
    let count = engine.addProperty(.number(0))
    let node = try engine.animate(
      count, with: .tween(to: .number(100), duration: 10 * s, iterations: .infinity), placement: .engine(at: 0))
    try engine.advance(to: 25 * s)
    #expect(number(engine, count) == 50)
    try engine.pause(node)
    try engine.reverse(node)
    try engine.advance(to: 30 * s)
    #expect(number(engine, count) == 50)
    try engine.resume(node)
    var log = Log()
    try advance(&engine, to: 60 * s, log: &log)
    // 35 s of counting down from 25 s of local time: local −10 s, which reads 100 − ... =
    // the same as local 0 mod 10 s.
    #expect(abs(number(engine, count) - 100 * Double((((25 - 30) % 10) + 10) % 10) / 10) < 1e-9)
    #expect(log.times(of: .complete, .node(node)).isEmpty)
    #expect(log.times(of: .repeat, .node(node)).count == 3)
    try engine.advance(to: 62 * s)
    #expect(abs(number(engine, count) - 30) < 1e-9)
  }
}
