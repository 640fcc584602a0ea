// Every example in examples/ traced through the runtime and checked against values and event
// times computed here from the formulas (grammar.md, README's trace format, and each example's own
// comment), never against recorded output (issue 4).
//
// Each test traces its example twice: once at exact sample times (`--at`), some of them after
// the end, for the values; once at the default frame rate without `--until`, for the events,
// prints and the end of the run (its last sample). Events at one instant are checked in the
// order grammar.md § Events fixes: completes, repeats, starts, then script events and statements
// (`Instant` groups: a group is a set whose order no rule fixes, groups follow one another).

import AnimCore
import AnimLanguage
import Foundation
import Testing

@testable import AnimRuntime

// MARK: - Reading and tracing the examples

private enum ExampleFiles {
  /// examples/, found from this file: Tests/AnimRuntimeTests/ExampleTraceTests.swift.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples")

  /// Every example this file tests, one @Test each.
  static let covered: Set<String> = [
    "bouncing-ball.anim", "card-flip.anim", "colors-and-math.anim", "fade-handler.anim", "intro-fade.anim",
    "label-rotate.anim", "long-sweep.anim", "loop-counter.anim", "stagger-list.anim", "grid-ripple.anim",
    "flip-twice.anim", "chapters.anim", "scrub.anim", "meter.anim",
    "minute-clock.anim", "retarget-box.anim",
    "retarget-three.anim", "scoreboard.anim", "showcase.anim", "spin-paused.anim", "stopwatch-laps.anim",
    "stopwatch.anim", "tour.anim",
  ]

  /// Examples that repeat forever without ever stopping, traced with `--until` (none today:
  /// stopwatch.anim and stopwatch-laps.anim repeat forever but are paused or cancelled).
  static let endless: [String: Nanoseconds] = [:]

  static func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".anim") }.sorted()
  }

  static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }
}

private func nanoseconds(_ seconds: Double) -> Nanoseconds { Nanoseconds(seconds: seconds) }
private func seconds(of time: Nanoseconds) -> Double { Double(time) / 1e9 }

/// An example traced for the checks: its values at `times`, and a frame-rate run for events.
private struct ExampleRun {
  var name: String
  /// Sampled exactly at the times asked for (`--at`).
  var sampled: Traced
  /// Sampled at 60 fps (the default) until it ends by itself (no `--until`).
  var run: Traced

  init(_ name: String, times: [Nanoseconds], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    self.name = name
    let script = try ExampleFiles.text(name)
    sampled = try trace(script, TraceOptions(times: times))
    run = try trace(script, TraceOptions())
    for traced in [sampled, run] {
      #expect(
        traced.errors.isEmpty, "\(name): runtime errors \(traced.errors.map(\.message))",
        sourceLocation: sourceLocation)
    }
  }

  /// The run ends at `end`: its last sample, and nothing written after it.
  func expectEnd(_ end: Nanoseconds, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let last = run.sampleTimes.last.map(seconds(of:)) ?? -1
    #expect(
      run.sampleTimes.last == end, "\(name): the run ends at \(last) s, expected \(seconds(of: end)) s",
      sourceLocation: sourceLocation)
    #expect(run.records.allSatisfy { $0.time <= end }, "\(name): records after the end", sourceLocation: sourceLocation)
  }

  /// The value of `property` at each of `times` is `formula(t)` (numbers as one component,
  /// vectors as theirs, colors as premultiplied r, g, b, a), within `tolerance` (relative to
  /// values above 1 in magnitude).
  func expectValues(
    _ property: String, at times: [Nanoseconds], tolerance: Double = 1e-9,
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ formula: (Nanoseconds) -> [Double]
  ) {
    for time in times {
      let expected = formula(time)
      guard let value = sampled.value(property, at: time) else {
        Issue.record("\(name): no sample of \(property) at \(seconds(of: time)) s", sourceLocation: sourceLocation)
        continue
      }
      let actual = components(of: value)
      let matches =
        actual.count == expected.count
        && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
      #expect(
        matches, "\(name): \(property) at \(seconds(of: time)) s is \(actual), expected \(expected)",
        sourceLocation: sourceLocation)
    }
  }

  /// The records other than samples at each instant are `expected`; no other instant has any.
  /// `only`: check just these instants (expected and actual); `excluding`: all but these.
  func expectLog(
    _ expected: [Instant], only: Set<Nanoseconds>? = nil, excluding: Set<Nanoseconds> = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    func included(_ time: Nanoseconds) -> Bool { only.map { $0.contains(time) } ?? !excluding.contains(time) }
    var actual: [(time: Nanoseconds, entries: [String])] = []
    for record in run.records {
      guard let entry = logEntry(record), included(record.time) else { continue }
      if actual.last?.time == record.time {
        actual[actual.count - 1].entries.append(entry)
      } else {
        actual.append((record.time, [entry]))
      }
    }
    var matched: Set<Nanoseconds> = []
    for instant in expected where included(instant.time) {
      let found = actual.first { abs($0.time - instant.time) <= instant.tolerance && !matched.contains($0.time) }
      guard let found else {
        Issue.record(
          "\(name): nothing at \(seconds(of: instant.time)) s, expected \(instant.groups)",
          sourceLocation: sourceLocation)
        continue
      }
      matched.insert(found.time)
      var rest = found.entries[...]
      var ok = true
      for group in instant.groups {
        let taken = rest.prefix(group.count)
        rest = rest.dropFirst(group.count)
        if taken.sorted() != group.sorted() { ok = false }
      }
      if !rest.isEmpty { ok = false }
      #expect(
        ok, "\(name): at \(seconds(of: found.time)) s the log is \(found.entries), expected \(instant.groups)",
        sourceLocation: sourceLocation)
    }
    for unexpected in actual where !matched.contains(unexpected.time) {
      Issue.record(
        "\(name): unexpected records at \(seconds(of: unexpected.time)) s: \(unexpected.entries)",
        sourceLocation: sourceLocation)
    }
  }
}

/// What is written at one instant: groups in order, each a set in no fixed order.
private struct Instant {
  var time: Nanoseconds
  var groups: [[String]]
  /// How far the actual time may be from `time` (a spring's settling time rounded up to the
  /// nanosecond in Double).
  var tolerance: Nanoseconds = 0

  init(_ time: Nanoseconds, _ groups: [[String]], tolerance: Nanoseconds = 0) {
    self.time = time
    self.groups = groups
    self.tolerance = tolerance
  }
}

/// `start intro`, `complete box.x`, `"ready"` (a script's own event), `print: text`.
private func logEntry(_ record: TraceRecord) -> String? {
  switch record {
  case .sample, .control: nil
  case .event(_, let name, let subject?): "\(name) \(subject)"
  case .event(_, let name, nil): "\"\(name)\""
  case .print(_, let text): "print: \(text)"
  }
}

private func components(of value: AnimationValue) -> [Double] {
  switch value {
  case .number(let x): [x]
  case .vec2(let v): [v.x, v.y]
  case .vec3(let v): [v.x, v.y, v.z]
  case .vec4(let v): [v.x, v.y, v.z, v.w]
  case .color(let c): [c.premultipliedRed, c.premultipliedGreen, c.premultipliedBlue, c.alpha]
  }
}

// MARK: - Formulas

private func clamp01(_ x: Double) -> Double { min(max(x, 0), 1) }
private func mix(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }
private func mix(_ a: [Double], _ b: [Double], _ p: Double) -> [Double] { zip(a, b).map { mix($0, $1, p) } }

/// A straight color as premultiplied components (the engine blends colors premultiplied in
/// sRGB, AnimCore/Values/Color.swift).
private func premultiplied(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> [Double] {
  [r * a, g * a, b * a, a]
}

/// An under-damped spring (SwiftUI's response and damping fraction, mass 1): ω₀ = 2π / R,
/// β = ζ·ω₀, ω_d = ω₀·√(1 − ζ²). The displacement from the target of a motion starting d₀
/// away with velocity v₀ is d₀·P(t) + v₀·Q(t).
private struct UnderdampedSpring {
  let omega0: Double, beta: Double, omegaD: Double

  init(response: Double, dampingFraction zeta: Double) {
    omega0 = 2 * Double.pi / response
    beta = zeta * omega0
    omegaD = omega0 * (1 - zeta * zeta).squareRoot()
  }

  /// P(t) = e^(−βt)·(cos ω_d t + (β/ω_d)·sin ω_d t): released from unit displacement at rest.
  func p(_ t: Double) -> Double { exp(-beta * t) * (cos(omegaD * t) + beta / omegaD * sin(omegaD * t)) }
  /// Q(t) = e^(−βt)·sin(ω_d t)/ω_d: started at the target with unit velocity.
  func q(_ t: Double) -> Double { exp(-beta * t) * sin(omegaD * t) / omegaD }
  /// P'(t) = −ω₀²·Q(t).
  func pDot(_ t: Double) -> Double { -omega0 * omega0 * q(t) }

  /// grammar.md § Curves' settling time from its declared parameters (d₀ = −1, v₀ = 0): the t at which
  /// A·e^(−βt) = 0.001, A = √(1 + (β/ω_d)²), rounded up to the nanosecond.
  var settlingTime: Nanoseconds {
    let amplitude = (1 + (beta / omegaD) * (beta / omegaD)).squareRoot()
    return Nanoseconds((log(amplitude / 0.001) / beta * 1e9).rounded(.up))
  }
}

/// The settling time of a critically damped spring with ω₀ = `omega0` from rest (d₀ = −1,
/// v₀ = 0): |x(t) − to| = (1 + ω₀t)·e^(−ω₀t) falls (monotonically) to 0.001, by bisection,
/// rounded up to the nanosecond.
private func criticalSettlingTime(omega0: Double) -> Nanoseconds {
  func residual(_ t: Double) -> Double { (1 + omega0 * t) * exp(-omega0 * t) - 0.001 }
  var low = 0.0
  var high = 100 / omega0
  for _ in 0..<200 {
    let middle = (low + high) / 2
    if residual(middle) > 0 { low = middle } else { high = middle }
  }
  return Nanoseconds((high * 1e9).rounded(.up))
}

private let easeIn = CubicBezier.easeIn
private let easeOut = CubicBezier.easeOut
private let easeInOut = CubicBezier.easeInOut
private let ease = CubicBezier.ease

// MARK: - The examples

@Suite("Examples: each trace against its formulas")
struct ExampleTraceTests {
  @Test func everyExampleIsCoveredChecksCleanAndTracesWithoutRuntimeErrors() throws {
    let names = try ExampleFiles.names()
    #expect(names.count == 23)
    #expect(Set(names) == ExampleFiles.covered, "an example without a trace test, or a test without its example")
    for name in names {
      let text = try ExampleFiles.text(name)
      let diagnostics = diagnose(SourceText(name: name, contents: text))
      #expect(diagnostics.isEmpty, "\(name): \(diagnostics.map { "\($0.severity): \($0.message)" })")
      let traced = try trace(text, TraceOptions(until: ExampleFiles.endless[name]))
      #expect(traced.errors.isEmpty, "\(name): runtime errors \(traced.errors.map(\.message))")
      #expect(!traced.sampleTimes.isEmpty, "\(name): no samples")
    }
  }

  // MARK: The linear replays, with their formulas in their comments

  /// Paused on the property from 2 s to 5 s: 60·t, 120, 60·(t − 3), 360 from 9 s.
  @Test func labelRotate() throws {
    func angle(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 2 { return [60 * t] }
      if t <= 5 { return [120] }
      return [60 * min(t - 3, 6)]
    }
    let times = [0, 1, 2, 3.5, 5, 5.5, 6, 7.5, 9, 10].map(nanoseconds)
    let example = try ExampleRun("label-rotate.anim", times: times)
    example.expectValues("sign.angle", at: times, angle)
    #expect(example.sampled.number("sign.angle", at: 6 * s) == 180)
    example.expectLog([
      Instant(0, [["start sign.angle"]]),
      Instant(9 * s, [["complete sign.angle"], ["print: label upright again at 9s"]]),
    ])
    example.expectEnd(9 * s)
  }

  /// The same with the timeline `spin` paused: its start and complete too, at 0 s and 9 s.
  @Test func spinPaused() throws {
    func angle(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 2 { return [60 * t] }
      if t <= 5 { return [120] }
      return [60 * min(t - 3, 6)]
    }
    let times = [0, 1, 2, 3.5, 5, 5.5, 6, 7.5, 9, 10].map(nanoseconds)
    let example = try ExampleRun("spin-paused.anim", times: times)
    example.expectValues("sign.angle", at: times, angle)
    #expect(example.sampled.number("sign.angle", at: 6 * s) == 180)
    example.expectLog([
      Instant(0, [["start spin", "start sign.angle"]]),
      Instant(9 * s, [["complete sign.angle", "complete spin"], ["print: upright again at 9s, angle 360"]]),
    ])
    example.expectEnd(9 * s)
  }

  /// opacity = t / 0.8, offset.y = 24·(1 − t / 0.8) to 0.8 s; subtitle (t − 0.8) / 0.4 to 1.2 s.
  @Test func fadeHandler() throws {
    let times = [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.1, 1.2, 1.5].map(nanoseconds)
    let example = try ExampleRun("fade-handler.anim", times: times)
    example.expectValues("title.opacity", at: times) { [clamp01(seconds(of: $0) / 0.8)] }
    example.expectValues("title.offset", at: times) { [0, 24 * (1 - clamp01(seconds(of: $0) / 0.8))] }
    example.expectValues("subtitle.opacity", at: times) { [clamp01((seconds(of: $0) - 0.8) / 0.4)] }
    #expect(example.sampled.number("title.opacity", at: 400 * ms) == 0.5)
    #expect(example.sampled.number("subtitle.opacity", at: 1 * s) == 0.5)
    example.expectLog([
      Instant(0, [["start intro", "start title.opacity", "start title.offset"]]),
      Instant(
        800 * ms,
        [
          ["complete intro", "complete title.opacity", "complete title.offset"],
          ["print: intro complete at 0.8s, opacity 1"], ["start subtitle.opacity"], ["\"ready\""],
          ["print: ready for input"],
        ]),
      Instant(1200 * ms, [["complete subtitle.opacity"], ["print: subtitle in at 1.2s"]]),
    ])
    example.expectEnd(1200 * ms)
  }

  /// Three bounces of 500 ms counted by a `var` (the handler plays `hop` again while the
  /// count is under 3), then three blinks from a loop, 200 ms apart from 1.5 s, each
  /// lamp.opacity = (t − start) / 100 ms; the `if` after `wait 2s` reads the count then.
  @Test func loopCounter() throws {
    let times = [0.5, 1, 1.5, 1.55, 1.6, 1.65, 1.7, 1.75, 1.9, 1.95, 2].map(nanoseconds)
    let example = try ExampleRun("loop-counter.anim", times: times)
    example.expectValues("ball.y", at: [0.5, 1, 1.5, 2].map(nanoseconds)) { _ in [0] }
    example.expectValues("lamp.opacity", at: times) { time in
      let t = seconds(of: time)
      let starts = [1.5, 1.7, 1.9].filter { $0 <= t + 1e-12 }
      guard let start = starts.last else { return [0] }
      return [clamp01((t - start) / 0.1)]
    }
    let bounceLog = { (n: Int, time: Nanoseconds, shown: String) -> Instant in
      Instant(
        time,
        [["complete hop", "complete ball.y"], ["print: bounce \(n) at \(shown)"], ["start hop", "start ball.y"]])
    }
    example.expectLog(
      [
        Instant(0, [["start hop", "start ball.y"]]),
        Instant(250 * ms, [["repeat ball.y"]]),
        bounceLog(1, 500 * ms, "0.5s"),
        Instant(750 * ms, [["repeat ball.y"]]),
        bounceLog(2, 1 * s, "1s"),
        Instant(1250 * ms, [["repeat ball.y"]]),
        Instant(
          1500 * ms,
          [
            ["complete hop", "complete ball.y"], ["print: bounce 3 at 1.5s"], ["print: blink 1"],
            ["start lamp.opacity"],
          ]),
        Instant(1600 * ms, [["complete lamp.opacity"]]),
        Instant(1700 * ms, [["print: blink 2"], ["start lamp.opacity"]]),
        Instant(1800 * ms, [["complete lamp.opacity"]]),
        Instant(1900 * ms, [["print: blink 3"], ["start lamp.opacity"]]),
        Instant(2 * s, [["complete lamp.opacity"], ["print: three bounces"]]),
      ])
    example.expectEnd(2 * s)
  }

  /// Row k: p = clamp((t − 50 ms · k) / 400 ms, 0, 1), x = −200 · (1 − p), opacity = p; the
  /// group completes once, at 950 ms.
  @Test func staggerList() throws {
    let times = [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 0.95, 1.0].map(nanoseconds)
    let example = try ExampleRun("stagger-list.anim", times: times)
    for k in [0, 1, 5, 11] {
      func p(_ time: Nanoseconds) -> Double { clamp01((seconds(of: time) - 0.05 * Double(k)) / 0.4) }
      example.expectValues("rows[\(k)].x", at: times) { [-200 * (1 - p($0))] }
      example.expectValues("rows[\(k)].opacity", at: times) { [p($0)] }
      example.expectValues("rows[\(k)].y", at: times) { _ in [Double(40 * k)] }
    }
    #expect(example.run.prints.map(\.1) == ["all 12 rows in at 0.95s"])
    #expect(example.run.times("complete", "rows[11].x") == [950 * ms])
    example.expectEnd(950 * ms)
  }

  /// game.score climbs in ten whole steps over 2 s: 10·⌊t / 200 ms⌋, 100 from 2 s (steps(10),
  /// jumpEnd); runner k counts 0 to 4 laps over 2 s in whole steps, k · 500 ms late:
  /// ⌊4p⌋ = ⌊(t − k · 500 ms) / 500 ms⌋ within 0…4; the banner fades in over 300 ms, linear. The
  /// score's completion prints "final score 100" at 2 s; runner 2, the last, ends at 3 s.
  @Test func scoreboard() throws {
    let times = [0, 0.1, 0.3, 0.7, 1.1, 1.5, 1.99, 2, 2.2, 2.6, 2.99, 3, 3.5].map(nanoseconds)
    let example = try ExampleRun("scoreboard.anim", times: times)
    // (Whole nanoseconds: the step a time is in, by integer division.)
    example.expectValues("game.score", at: times) { time in [10 * Double(min(time / (200 * ms), 10))] }
    for k in 0..<3 {
      example.expectValues("runners[\(k)].laps", at: times) { time in
        [Double(min(max((time - Int64(k) * 500 * ms) / (500 * ms), 0), 4))]
      }
      example.expectValues("lanes[\(k)].y", at: times) { _ in [Double(50 * k - 20)] }
    }
    example.expectValues("banner.opacity", at: times) { [clamp01(seconds(of: $0) / 0.3)] }
    #expect(example.sampled.number("game.score", at: 700 * ms) == 30)
    #expect(example.sampled.number("runners[1].laps", at: 1500 * ms) == 2)
    #expect(example.run.prints.map(\.1) == ["final score 100"])
    example.expectLog([
      Instant(
        0,
        [
          [
            "start banner.opacity", "start game.score", "start runners[0].laps", "start runners[1].laps",
            "start runners[2].laps",
          ]
        ]),
      Instant(300 * ms, [["complete banner.opacity"]]),
      Instant(2 * s, [["complete game.score", "complete runners[0].laps"], ["print: final score 100"]]),
      Instant(2500 * ms, [["complete runners[1].laps"]]),
      Instant(3 * s, [["complete runners[2].laps"]]),
    ])
    example.expectEnd(3 * s)
  }

  /// Dot k at column k mod 5, row ⌊k / 5⌋, delayed by its distance from the centre cell times
  /// 100 ms; scale 1 → 1.5 → 1 over 600 ms, linear.
  @Test func gridRipple() throws {
    let times = [0, 0.1, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9].map(nanoseconds)
    let example = try ExampleRun("grid-ripple.anim", times: times)
    for k in 0..<25 {
      let (column, row) = (Double(k % 5), Double(k / 5))
      let delay = ((column - 2) * (column - 2) + (row - 2) * (row - 2)).squareRoot() * 0.1
      example.expectValues("dots[\(k)].scale", at: times, tolerance: 1e-8) { time in
        let p = clamp01((seconds(of: time) - delay) / 0.6)
        return [p <= 0.5 ? 1 + p : 2 - p]
      }
      example.expectValues("dots[\(k)].x", at: [0]) { _ in [(column - 2) * 60] }
      example.expectValues("dots[\(k)].y", at: [0]) { _ in [(row - 2) * 60] }
    }
    // The corners complete last, between two frames: the run's last record is theirs.
    #expect(example.run.records.last?.time == 882_842_712)
    #expect(example.run.times("complete", "dots[24].scale") == [882_842_712])
    #expect(example.run.sampleTimes.last == 866_666_667)
  }

  /// `flip` (angle 0 → 180 over 500 ms, scale 1 → 1.2 → 1) placed after a 250 ms fade with
  /// `repeat 2 autoreverse`: forwards from 250 ms, backwards from 750 ms to 1250 ms.
  @Test func flipTwice() throws {
    let times = [0, 0.125, 0.25, 0.375, 0.5, 0.75, 0.875, 1.0, 1.25, 1.5].map(nanoseconds)
    let example = try ExampleRun("flip-twice.anim", times: times)
    func pass(_ time: Nanoseconds) -> Double {
      let t = seconds(of: time)
      if t <= 0.25 { return 0 }
      if t <= 0.75 { return (t - 0.25) / 0.5 }
      return max(0, (1.25 - t) / 0.5)
    }
    example.expectValues("card.opacity", at: times) { [clamp01(seconds(of: $0) / 0.25)] }
    example.expectValues("card.angle", at: times) { [180 * pass($0)] }
    example.expectValues("card.scale", at: times) { time in
      let p = pass(time)
      return [p <= 0.5 ? 1 + 0.4 * p : 1 + 0.4 * (1 - p)]
    }
    example.expectLog([
      Instant(0, [["start scene", "start card.opacity"]]),
      Instant(250 * ms, [["complete card.opacity"], ["start flip", "start card.angle", "start card.scale"]]),
      Instant(750 * ms, [["complete flip"], ["start flip"]]),
      Instant(
        1250 * ms,
        [
          ["complete card.scale", "complete card.angle", "complete flip", "complete scene"],
          ["print: scene done at 1.25s, angle 0"],
        ]),
    ])
    example.expectEnd(1250 * ms)
  }

  /// Three segments of a deck played by its labels: forwards from `two` to `three`, back
  /// from `three + 500ms` to `two`, and from `one` to a pause point at `two + 500ms`.
  @Test func chapters() throws {
    let times = [0, 0.5, 1, 1.25, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5].map(nanoseconds)
    let example = try ExampleRun("chapters.anim", times: times)
    example.expectValues("slide.x", at: times) { time in
      let t = seconds(of: time)
      if t < 1 { return [-800 - 800 * t] }
      if t < 1.5 { return [-1600] }
      if t < 3 { return [-2000 + 800 * (t - 1.5)] }
      return [-800 * min(t - 3, 1.5)]
    }
    #expect(example.run.prints.map(\.1) == ["deck starts at 0s", "deck starts at 3s"])
    #expect(example.run.times("complete", "deck").isEmpty)
  }

  /// The formulas in scrub.anim's header: local time 2t to 1.5 s (x = 300 · t, then glow =
  /// 2t − 2), paused at 3 s, then back from 2.5 s: glow = 1 − 0.5 · easeOut(t − 2.5 s) to 3.5 s.
  @Test func scrub() throws {
    let times = [0, 0.5, 1, 1.25, 1.5, 2, 2.5, 2.75, 3, 3.25, 3.5, 4].map(nanoseconds)
    let example = try ExampleRun("scrub.anim", times: times)
    example.expectValues("hero.x", at: times) { time in [300 * min(seconds(of: time), 1)] }
    example.expectValues("hero.glow", at: times) { time in
      let t = seconds(of: time)
      if t < 1 { return [0] }
      if t <= 2.5 { return [min(2 * t - 2, 1)] }
      return [1 - 0.5 * TimingCurve.easeOut.progress(at: min(t - 2.5, 1))]
    }
    #expect(
      example.run.prints.map(\.1) == [
        "story starts at 0s", "middle reached at 1s", "story completes at 1.5s", "story starts at 2.5s",
      ])
  }

  /// seconds = t, hand = 6·t, to 60 s; prints at 15, 30, 45 s.
  @Test func minuteClock() throws {
    let times = [0, 7.5, 15, 30, 45, 59.5, 60, 61].map(nanoseconds)
    let example = try ExampleRun("minute-clock.anim", times: times)
    func played(_ time: Nanoseconds) -> Double { min(seconds(of: time), 60) }
    example.expectValues("clock.seconds", at: times) { [played($0)] }
    example.expectValues("clock.hand", at: times) { [6 * played($0)] }
    example.expectLog([
      Instant(0, [["start clock.seconds", "start clock.hand"]]),
      Instant(15 * s, [["print: a quarter: \(TraceNumber.format(played(15 * s)))"]]),
      Instant(30 * s, [["print: half: \(TraceNumber.format(played(30 * s)))"]]),
      Instant(45 * s, [["print: three quarters: \(TraceNumber.format(played(45 * s)))"]]),
      Instant(60 * s, [["complete clock.seconds", "complete clock.hand"], ["print: a minute played at 60s"]]),
    ])
    example.expectEnd(60 * s)
  }

  /// count = 100·frac(L / 10 s), L the seconds played (counted down when reversed):
  /// L = t to 25 s, 25 to 30 s, 55 − t from 30 s, −7 from 62 s (cancelled, the value kept).
  @Test func stopwatchLaps() throws {
    func count(_ time: Nanoseconds) -> [Double] {
      let played: Nanoseconds
      if time <= 25 * s {
        played = time
      } else if time <= 30 * s {
        played = 25 * s
      } else {
        played = 55 * s - min(time, 62 * s)
      }
      return [100 * fractionOfLap(played)]
    }
    let times = [0, 5, 10, 15, 20, 25, 27, 29, 30, 34, 35, 36, 40, 45, 54, 55, 56, 62, 65].map(nanoseconds)
    let example = try ExampleRun("stopwatch-laps.anim", times: times)
    example.expectValues("watch.count", at: times, count)
    for (t, reading) in [(25, 50.0), (27, 50), (35, 0), (36, 90), (40, 50), (54, 10), (56, 90), (62, 30), (65, 30)] {
      #expect(close(example.sampled.number("watch.count", at: Nanoseconds(t) * s), reading), "at \(t) s")
    }
    func lap(_ t: Nanoseconds) -> Instant {
      let reading = count(t)[0]
      return Instant(t, [["repeat watch.count"], ["print: lap at \(t / s)s: \(TraceNumber.format(reading))"]])
    }
    example.expectLog(
      [Instant(0, [["start watch.count"]]), lap(10 * s), lap(20 * s), lap(35 * s), lap(45 * s), lap(55 * s)])
    example.expectEnd(62 * s)
  }

  /// The same count on a timeline: L = t to 25 s, 25 to 30 s, 55 − t from 30 s, paused at
  /// 52 s (L = 3, 30), where the run ends.
  @Test func stopwatch() throws {
    func count(_ time: Nanoseconds) -> [Double] {
      let played: Nanoseconds
      if time <= 25 * s {
        played = time
      } else if time <= 30 * s {
        played = 25 * s
      } else {
        played = 55 * s - min(time, 52 * s)
      }
      return [100 * fractionOfLap(played)]
    }
    let times = [0, 5, 10, 15, 20, 25, 27, 30, 34, 36, 40, 44, 46, 50, 52, 60].map(nanoseconds)
    let boundaries = [35 * s, 45 * s]
    let example = try ExampleRun("stopwatch.anim", times: times + boundaries)
    example.expectValues("watch.count", at: times, count)
    func lap(_ t: Nanoseconds) -> Instant {
      Instant(t, [["repeat stopwatch"], ["print: lap at \(t / s)s: \(TraceNumber.format(count(t)[0]))"]])
    }
    example.expectLog(
      [Instant(0, [["start stopwatch", "start watch.count"]]), lap(10 * s), lap(20 * s)], excluding: Set(boundaries))
    example.expectValues("watch.count", at: boundaries, count)
    example.expectLog([lap(35 * s), lap(45 * s)], only: Set(boundaries))
    example.expectEnd(52 * s)
  }

  /// added.x = 300·p1 − 200·p2; sprung.x = 100·t, then (100 + 1100·τ)·e^(−10τ) until
  /// 1 s + T; replaced.x = 150·t, then 150 − 300·(t − 1).
  @Test func retargetThree() throws {
    let settling = criticalSettlingTime(omega0: 10)
    // The comment's T = 0.923341348 s.
    #expect(abs(settling - 923_341_348) <= 1)
    let settled = 1 * s + settling
    func added(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      let p1 = clamp01(t / 2)
      guard t >= 1 else { return [300 * p1] }
      let p2 = clamp01((t - 1) / 2)
      // newest target − Σ remaining changes: 100 − 300·(1 − p1) − (100 − 300)·(1 − p2).
      return [100 - 300 * (1 - p1) + 200 * (1 - p2)]
    }
    func sprung(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      guard t >= 1 else { return [100 * t] }
      guard time < settled else { return [0] }
      let tau = t - 1
      return [(100 + 1100 * tau) * exp(-10 * tau)]
    }
    func replaced(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      guard t >= 1 else { return [150 * t] }
      return [max(150 - 300 * (t - 1), 0)]
    }
    let times = [0, 0.5, 1, 1 + 1.0 / 110, 1.25, 1.5, 1.75, 1.9, 2, 2.5, 2.75, 3, 3.5].map(nanoseconds) + [settled]
    let example = try ExampleRun("retarget-three.anim", times: times)
    example.expectValues("added.x", at: times, added)
    example.expectValues("sprung.x", at: times, tolerance: 1e-6, sprung)
    example.expectValues("replaced.x", at: times, replaced)
    // Still rising after the retarget: 150 at 1 s, 175 at 1.5 s, 200 at 2 s, 100 from 3 s.
    #expect(close(example.sampled.number("added.x", at: 1500 * ms), 175))
    #expect(close(example.sampled.number("added.x", at: 2 * s), 200))
    // The spring's peak, at τ = 1/110 s, above where it started: (100 + 1100/110)·e^(−10/110) = 110·e^(−1/11).
    let peak = (100 + 1100.0 / 110) * exp(-10.0 / 110)
    #expect(close(example.sampled.number("sprung.x", at: nanoseconds(1 + 1.0 / 110)), peak, 1e-6))
    #expect((example.sampled.number("sprung.x", at: 1 * s) ?? 0) < peak)
    example.expectLog([
      Instant(0, [["start added.x", "start sprung.x", "start replaced.x"]]),
      Instant(1500 * ms, [["complete replaced.x"], ["print: replaced at rest: 0"]]),
      Instant(settled, [["complete sprung.x"], ["print: sprung at rest: 0"]], tolerance: 1),
      Instant(3 * s, [["complete added.x"], ["print: added at rest: 100"]]),
    ])
    example.expectEnd(3 * s)
  }

  /// The tour's table: linear items at the times its comment lists.
  @Test func tour() throws {
    func angle(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 0.75 { return [0] }
      if t <= 1.25 { return [90 * (t - 0.75) / 0.5] }
      if t <= 1.75 { return [90] }
      return [90 * (1 - clamp01(t - 1.75))]
    }
    func dot(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 2 || t >= 3 { return [0] }
      if t <= 2.5 { return [-80 * (t - 2)] }
      return [-40 + 80 * (t - 2.5)]
    }
    let times = [0, 0.5, 0.75, 1, 1.1, 1.25, 1.3, 1.35, 1.5, 1.75, 2, 2.25, 2.5, 2.6, 2.75, 3, 3.5].map(nanoseconds)
    let example = try ExampleRun("tour.anim", times: times)
    example.expectValues("logo.scale", at: times) { [clamp01(seconds(of: $0))] }
    example.expectValues("logo.angle", at: times, angle)
    example.expectValues("panel.x", at: times) { [-100 + 100 * clamp01((seconds(of: $0) - 1.25) / 0.5)] }
    example.expectValues("panel.opacity", at: times) { [clamp01((seconds(of: $0) - 1.35) / 0.4)] }
    example.expectValues("dot.y", at: times, dot)
    example.expectLog([
      Instant(0, [["start tour", "start logo.scale"], ["print: tour starts"]]),
      Instant(750 * ms, [["start logo.angle"]]),
      Instant(1 * s, [["complete logo.scale"]]),
      Instant(1250 * ms, [["complete logo.angle"], ["start panel.x"]]),
      Instant(1350 * ms, [["start panel.opacity"]]),
      Instant(
        1750 * ms,
        [["complete panel.x", "complete panel.opacity"], ["start logo.angle"], ["print: panel in at 1.75s, x 0"]]),
      Instant(2 * s, [["start dot.y"]]),
      Instant(2500 * ms, [["\"bounce-top\""], ["print: dot at -40"]]),
      Instant(2750 * ms, [["complete logo.angle"]]),
      Instant(3 * s, [["complete tour", "complete dot.y"], ["print: tour done at 3s"]]),
    ])
    example.expectEnd(3 * s)
  }

  // MARK: The other examples: formulas derived here from grammar.md

  /// Linear sweeps over 60 s: progress = 100·t / 60; hue red → blue with easeInOut.
  @Test func longSweep() throws {
    let times = [0, 10, 20, 30, 45, 59, 60, 61].map(nanoseconds)
    let example = try ExampleRun("long-sweep.anim", times: times)
    func p(_ time: Nanoseconds) -> Double { clamp01(seconds(of: time) / 60) }
    example.expectValues("sweep.progress", at: times) { [100 * p($0)] }
    example.expectValues("sweep.hue", at: times) {
      let e = easeInOut.progress(at: p($0))
      return premultiplied(1 - e, 0, e)
    }
    example.expectLog([
      Instant(0, [["start sweep.progress", "start sweep.hue"]]),
      Instant(30 * s, [["print: halfway: \(TraceNumber.format(100 * p(30 * s)))"]]),
      Instant(60 * s, [["complete sweep.progress", "complete sweep.hue"], ["print: swept at 60s"]]),
    ])
    example.expectEnd(60 * s)
  }

  /// Both over 800 ms with easeOut: opacity = E(t / 0.8), offset.y = 24·(1 − E).
  @Test func introFade() throws {
    let times = [0, 0.1, 0.2, 0.4, 0.6, 0.8, 1].map(nanoseconds)
    let example = try ExampleRun("intro-fade.anim", times: times)
    func e(_ time: Nanoseconds) -> Double { easeOut.progress(at: clamp01(seconds(of: time) / 0.8)) }
    example.expectValues("title.opacity", at: times) { [e($0)] }
    example.expectValues("title.offset", at: times) { [0, 24 * (1 - e($0))] }
    example.expectLog([
      Instant(0, [["start intro", "start title.opacity", "start title.offset"]]),
      Instant(
        800 * ms,
        [
          ["complete intro", "complete title.opacity", "complete title.offset"],
          ["print: intro complete at 0.8s, opacity 1"], ["\"ready\""], ["print: ready for input"],
        ]),
    ])
    example.expectEnd(800 * ms)
  }

  /// Keyframes repeated 3 times (0.6 s a pass) and steps(6, jumpNone) over 1.8 s, fill none.
  @Test func bouncingBall() throws {
    let pass: Nanoseconds = 600 * ms
    /// Progress through the current pass, 0...1, and 1 at the end of the last.
    func u(_ time: Nanoseconds) -> Double {
      time >= 3 * pass ? 1 : Double(time % pass) / Double(pass)
    }
    func height(_ time: Nanoseconds) -> [Double] {
      let p = u(time)
      // 0ms: 0, 300ms: 120 with easeOut, 600ms: 0 with easeIn.
      if p <= 0.5 { return [120 * easeOut.progress(at: p / 0.5)] }
      return [mix(120, 0, easeIn.progress(at: (p - 0.5) / 0.5))]
    }
    func squash(_ time: Nanoseconds) -> [Double] {
      let p = u(time)
      if p <= 0.5 { return mix([1.2, 0.8], [0.9, 1.1], easeOut.progress(at: p / 0.5)) }
      return mix([0.9, 1.1], [1.2, 0.8], easeIn.progress(at: (p - 0.5) / 0.5))
    }
    func light(_ time: Nanoseconds) -> [Double] {
      // steps(6, jumpNone): ⌊6x⌋ / 5, x = t / 1.8 s; fill none: the base value 0 after the end.
      guard time < 1800 * ms else { return [0] }
      return [Double(6 * time / (1800 * ms)) / 5]
    }
    let times = [0, 0.1, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.05, 1.2, 1.5, 1.65, 1.75, 1.8, 2].map(nanoseconds)
    let example = try ExampleRun("bouncing-ball.anim", times: times)
    example.expectValues("ball.height", at: times, height)
    example.expectValues("ball.squash", at: times, squash)
    example.expectValues("light.on", at: times, light)
    example.expectLog([
      Instant(0, [["start ball.height", "start ball.squash", "start light.on"]]),
      Instant(600 * ms, [["repeat ball.height", "repeat ball.squash"]]),
      Instant(1200 * ms, [["repeat ball.height", "repeat ball.squash"]]),
      Instant(
        1800 * ms,
        [["complete ball.height", "complete ball.squash", "complete light.on"], ["print: ball rests at 0"]]),
    ])
    example.expectEnd(1800 * ms)
  }

  /// `intro`'s local time L: t to 400 ms, held to 1 s, t − 0.6 to 1.2 s, then reversed:
  /// 1.8 − t down to 0 at 1.8 s. opacity = easeIn(L / 0.3), angle = 180·snap((L − 0.1) / 0.6);
  /// the tint and the badge (from 700 ms) are never reached.
  @Test func cardFlip() throws {
    let snap = try CubicBezier(0.2, 0.9, 0.1, 1)
    func local(_ time: Nanoseconds) -> Double {
      let t = seconds(of: time)
      if t <= 0.4 { return t }
      if t <= 1 { return 0.4 }
      if t <= 1.2 { return t - 0.6 }
      return max(1.8 - t, 0)
    }
    func angle(_ time: Nanoseconds) -> [Double] {
      let l = local(time)
      guard l > 0.1 else { return [0] }
      return [180 * snap.progress(at: clamp01((l - 0.1) / 0.6))]
    }
    let times = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.7, 1, 1.1, 1.2, 1.3, 1.5, 1.6, 1.7, 1.75, 1.8, 2].map(nanoseconds)
    let example = try ExampleRun("card-flip.anim", times: times)
    example.expectValues("card.opacity", at: times) { [easeIn.progress(at: clamp01(local($0) / 0.3))] }
    example.expectValues("card.angle", at: times, tolerance: 1e-8, angle)
    example.expectValues("card.position", at: times) { _ in [0, 0] }
    example.expectValues("card.tint", at: times) { _ in premultiplied(0, 0, 0) }
    example.expectValues("badge.scale", at: times) { _ in [0] }
    example.expectLog([
      Instant(0, [["start intro", "start card.opacity"]]),
      Instant(100 * ms, [["start card.angle"]]),
      Instant(300 * ms, [["complete card.opacity"]]),
      // Backwards: a start on reaching the end, a complete on reaching the start.
      Instant(1500 * ms, [["start card.opacity"]]),
      Instant(1700 * ms, [["complete card.angle"]]),
      Instant(1800 * ms, [["complete card.opacity", "complete intro"], ["\"intro-done\""], ["print: done"]]),
    ])
    example.expectEnd(1800 * ms)
  }

  /// width 320, margin 32, tempo 1.2 s, corner (288, 32), warm rgba(255, 120, 0, 0.8).
  @Test func colorsAndMath() throws {
    func fill(_ time: Nanoseconds) -> [Double] {
      let e = ease.progress(at: clamp01(seconds(of: time) / 1.2))
      return mix(premultiplied(0x33 / 255, 0x66 / 255, 0x99 / 255), premultiplied(1, 120.0 / 255, 0, 0.8), e)
    }
    func origin(_ time: Nanoseconds) -> [Double] {
      let e = easeInOut.progress(at: clamp01(seconds(of: time) / 2.4))
      return [288 * e, 32 * e]
    }
    func depth(_ time: Nanoseconds) -> [Double] {
      let q = clamp01((seconds(of: time) - 0.6) / 0.6)
      return [q, 2 * q, 3 * q]
    }
    func glow(_ time: Nanoseconds) -> [Double] {
      // clamp(lerp(0, 2, 0.75), 0, 1) = 1, up over 1.2 s and back down (repeat 2 autoreverse).
      let t = seconds(of: time)
      if t <= 1.2 { return [t / 1.2] }
      return [clamp01((2.4 - t) / 1.2)]
    }
    let times = [0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.4, 3].map(nanoseconds)
    let example = try ExampleRun("colors-and-math.anim", times: times)
    example.expectValues("swatch.fill", at: times, fill)
    example.expectValues("swatch.origin", at: times, origin)
    example.expectValues("swatch.depth", at: times, depth)
    example.expectValues("swatch.glow", at: times, glow)
    let delayed: Set<Nanoseconds> = [0, 600 * ms]
    example.expectLog(
      [
        // easeInOut is symmetric, so half-way in time is half-way: (144, 16). 0.8·255 = 204 = 0xcc.
        Instant(
          1200 * ms,
          [
            ["complete swatch.fill", "complete swatch.depth"], ["repeat swatch.glow"],
            ["print: origin (144, 16), fill #ff7800cc, depth z 3"],
          ]),
        Instant(
          2400 * ms,
          [
            ["complete swatch.origin", "complete swatch.glow"],
            ["print: glow back to 0; sqrt of margin \(TraceNumber.format((32.0).squareRoot())); alpha 0.8"],
          ]),
      ], excluding: delayed)
    example.expectLog(
      [
        Instant(0, [["start swatch.fill", "start swatch.origin", "start swatch.depth", "start swatch.glow"]])
      ], only: delayed)
    example.expectEnd(2400 * ms)
  }

  /// `sweep` (1 s a pass, 3 passes, autoreverse) at speed 2 from 500 ms: local time
  /// L = t, then 2t − 0.5, to 3 at 1.75 s (the seek at 1 s is to where it already is, 1.5 s).
  /// Directed progress p = L, 2 − L, L − 2 in the three passes: level = p,
  /// angle = −90 + 180·easeInOut(p). Then needle.angle 90 → 0 over 2 s from 3.1 s, finished at 4 s.
  @Test func meter() throws {
    func progress(_ time: Nanoseconds) -> Double {
      let t = seconds(of: time)
      // Double speed from 0.5 s, a seek back to 0.5 at 1 s, paused from 1.25 s to 1.75 s.
      let local =
        t <= 0.5 ? t : t < 1 ? 2 * t - 0.5 : t <= 1.25 ? 0.5 + 2 * (t - 1) : t <= 1.75 ? 1 : min(1 + 2 * (t - 1.75), 3)
      if local <= 1 { return local }
      if local <= 2 { return 2 - local }
      return local - 2
    }
    func level(_ time: Nanoseconds) -> [Double] {
      // The complete handler sets it to 0 at 2.75 s.
      time >= 2750 * ms ? [0] : [progress(time)]
    }
    func needle(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if time < 2750 * ms { return [-90 + 180 * easeInOut.progress(at: progress(time))] }
      // fill both: 90 through the delay (3 s to 3.1 s); `finish` at 4 s jumps to the end, 0.
      if time >= 4 * s { return [0] }
      return [90 - 90 * clamp01((t - 3.1) / 2)]
    }
    let times = [
      0, 0.25, 0.5, 0.6, 0.75, 0.9, 0.99, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 2.9, 3, 3.05, 3.1, 3.5, 3.9, 4,
      4.5,
    ]
    .map(nanoseconds)
    let example = try ExampleRun("meter.anim", times: times)
    example.expectValues("meter.level", at: times, level)
    example.expectValues("needle.angle", at: times, needle)
    func boundary(_ t: Nanoseconds) -> Instant {
      Instant(
        t,
        [
          ["repeat sweep"],
          ["print: pass boundary at \(TraceNumber.seconds(t))s, level \(TraceNumber.format(level(t)[0]))"],
          ["\"tick\""], ["print: tick"],
        ])
    }
    let delayed: Set<Nanoseconds> = [3 * s, 3100 * ms]
    example.expectLog(
      [
        Instant(0, [["start sweep", "start needle.angle", "start meter.level"], ["print: sweep starts"]]),
        boundary(750 * ms), boundary(1250 * ms), boundary(2250 * ms),
        Instant(
          2750 * ms,
          [["complete sweep", "complete needle.angle", "complete meter.level"], ["print: sweep done at 2.75s"]]),
        Instant(4 * s, [["complete needle.angle"]]),
      ], excluding: delayed)
    example.expectLog([Instant(3 * s, [["start needle.angle"]])], only: delayed)
    example.expectEnd(4 * s)
  }

  /// box.x adds (easeInOut): 300·E(t/2) − 200·E(t − 1); box.y a spring retargeted at 400 ms
  /// to a bouncy one keeping its velocity; box.size replaced at 1 s from 80 to 20 over 500 ms.
  @Test func retargetBox() throws {
    let first = UnderdampedSpring(response: 0.6, dampingFraction: 0.7)
    let bouncy = UnderdampedSpring(response: 0.5, dampingFraction: 1 - 0.3)
    let retarget: Nanoseconds = 400 * ms
    let settled = retarget + bouncy.settlingTime
    // The first spring, 0 → 200 from rest: 200 − 200·P₁(t); at 400 ms its value and velocity.
    let y0 = 200 - 200 * first.p(0.4)
    let v0 = -200 * first.pDot(0.4)
    func x(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      let first = 300 * easeInOut.progress(at: clamp01(t / 2))
      guard t >= 1 else { return [first] }
      return [first + (100 - 300) * easeInOut.progress(at: clamp01(t - 1))]
    }
    func y(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if time <= retarget { return [200 - 200 * first.p(t)] }
      guard time < settled else { return [-50] }
      let tau = t - 0.4
      return [-50 + (y0 + 50) * bouncy.p(tau) + v0 * bouncy.q(tau)]
    }
    func size(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 1 { return [40 + 40 * t] }
      return [max(80 - 120 * (t - 1), 20)]
    }
    let times = [0, 0.1, 0.2, 0.4, 0.45, 0.6, 0.8, 1, 1.2, 1.25, 1.5, 1.75, 2, 2.5].map(nanoseconds) + [settled]
    let example = try ExampleRun("retarget-box.anim", times: times)
    example.expectValues("box.x", at: times, tolerance: 1e-8, x)
    // The engine takes the velocity by a finite difference over 100 µs: 1e-3 is well above its error.
    example.expectValues("box.y", at: times, tolerance: 1e-3, y)
    example.expectValues("box.size", at: times, size)
    example.expectLog([
      Instant(0, [["start box.x", "start box.y", "start box.size"]]),
      Instant(settled, [["complete box.y"], ["print: y at rest: -50"]], tolerance: 1),
      Instant(1500 * ms, [["complete box.size"]]),
      Instant(2 * s, [["complete box.x"], ["print: x at rest: 100"]]),
    ])
    example.expectEnd(2 * s)
  }

  /// One timeline: scale with pop (0 to 0.6 s), angle with easeOut (0.3 s to 1.2 s), the panel
  /// group at logoDone = 1.2 s (position: snappy stretched to 500 ms; opacity 400 ms), the dot's
  /// keyframes from 1.7 s + 250 ms, the print at 1.2 s + 500 ms, the tint in 4 steps from 3 s.
  @Test func showcase() throws {
    let pop = try CubicBezier(0.34, 1.56, 0.64, 1)
    let snappy = UnderdampedSpring(response: 0.5, dampingFraction: 1 - 0.15)
    let snappySettling = seconds(of: snappy.settlingTime)
    func scale(_ time: Nanoseconds) -> [Double] { [pop.progress(at: clamp01(seconds(of: time) / 0.6))] }
    func angle(_ time: Nanoseconds) -> [Double] {
      [360 * easeOut.progress(at: clamp01((seconds(of: time) - 0.3) / 0.9))]
    }
    func position(_ time: Nanoseconds) -> [Double] {
      let t = seconds(of: time)
      if t <= 1.2 { return [0, -100] }
      if t >= 1.7 { return [0, 0] }
      // `over 500ms` stretches the spring: progress x runs x·T of its physics.
      return [0, -100 * snappy.p((t - 1.2) / 0.5 * snappySettling)]
    }
    func dot(_ time: Nanoseconds) -> [Double] {
      let u = seconds(of: time) - 1.95
      if u <= 0 || u >= 1 { return [0] }
      if u <= 0.4 { return [mix(0, -60, easeOut.progress(at: u / 0.4))] }
      if u <= 0.7 { return [mix(-60, 0, easeIn.progress(at: (u - 0.4) / 0.3))] }
      if u <= 0.85 { return [mix(0, -15, easeOut.progress(at: (u - 0.7) / 0.15))] }
      return [mix(-15, 0, easeIn.progress(at: (u - 0.85) / 0.15))]
    }
    func tint(_ time: Nanoseconds) -> [Double] {
      // steps(4, jumpEnd): ⌊4x⌋ / 4, x = t − 3 s; 1 from the end on.
      let step = time >= 4 * s ? 1 : Double(max(time - 3 * s, 0) * 4 / s) / 4
      return mix(premultiplied(0x22 / 255, 0x22 / 255, 0x22 / 255), premultiplied(1, 136.0 / 255, 0), step)
    }
    let times = [
      0, 0.15, 0.3, 0.45, 0.6, 0.9, 1.2, 1.3, 1.45, 1.6, 1.7, 1.8, 1.95, 2.15, 2.35, 2.5, 2.65, 2.75, 2.8, 2.9,
      2.95, 3, 3.2, 3.25, 3.5, 3.75, 3.9, 4, 4.5,
    ].map(nanoseconds)
    let example = try ExampleRun("showcase.anim", times: times)
    example.expectValues("logo.scale", at: times, tolerance: 1e-8, scale)
    example.expectValues("logo.angle", at: times, tolerance: 1e-8, angle)
    example.expectValues("logo.tint", at: times, tint)
    example.expectValues("panel.position", at: times, tolerance: 1e-6, position)
    example.expectValues("panel.opacity", at: times) { [clamp01((seconds(of: $0) - 1.2) / 0.4)] }
    example.expectValues("dot.y", at: times, tolerance: 1e-8, dot)
    example.expectLog([
      Instant(0, [["start show", "start logo.scale"], ["print: show starts"]]),
      Instant(300 * ms, [["start logo.angle"]]),
      Instant(600 * ms, [["complete logo.scale"]]),
      Instant(1200 * ms, [["complete logo.angle"], ["start panel.position", "start panel.opacity"]]),
      Instant(1600 * ms, [["complete panel.opacity"]]),
      Instant(1700 * ms, [["complete panel.position"], ["print: panel in; logo at 360 degrees"]]),
      Instant(1950 * ms, [["start dot.y"]]),
      Instant(2950 * ms, [["complete dot.y"]]),
      Instant(3 * s, [["start logo.tint"]]),
      Instant(4 * s, [["complete show", "complete logo.tint"], ["print: show ends at 4s"]]),
    ])
    example.expectEnd(4 * s)
  }
}

/// frac(L / 10 s), L in nanoseconds (negative below the first lap): an exact remainder.
private func fractionOfLap(_ played: Nanoseconds) -> Double {
  let lap = 10 * s
  return Double(((played % lap) + lap) % lap) / Double(lap)
}
