// The engine's figures, as issue 3 defines them.
//
// - engine.sample.linear / .cubic / .spring / .mixed: ns per animation-sample = single-thread
//   time for all frames / (animations × frames). 100,000 number-valued animations (0 → 100),
//   each on its own property, starting at random (seeded) times over 0–7 s, lasting 1–3 s;
//   600 frames at 60 fps (frame k at frameTime(k, fps: 60)). Each frame advances the engine
//   to the frame's time, which refreshes every animated property's current value, and then
//   reads every property through the public fast read `currentNumber(of:)` into a checksum
//   (printed to stderr, so the work cannot be optimised away). Events due in the frame
//   (starts, completes) are part of the time. Best of 3 runs, each on a freshly built engine
//   (building it is not timed).
//     linear: every curve linear; cubic: random cubic-bezier curves (x1, x2 in 0...1, y1, y2
//     in -0.5...1.5); spring: random springs; mixed: a quarter each of linear, the CSS presets
//     (ease, ease-in, ease-out, ease-in-out), random cubic-bezier and springs, shuffled.
// - engine.events: ns per event scheduled and fired: 1,000,000 callbacks scheduled with
//   `schedule(callback:at:)` at random times over 10 s, then fired by advancing the engine
//   frame by frame at 60 fps; the handler counts them to be sure all fired. Best of 3.
// - engine.memory: bytes per number-valued animation at 100,000: the heap in use
//   (mallinfo2: uordblks + hblkhd, the mmapped blocks large arrays live in) after adding
//   100,000 animations to 100,000 existing properties, minus before, divided by 100,000.
//   It includes the engine's arrays' spare capacity, as an embedder's process would see it.
import AnimCore
import AnimLanguage
import AnimTestSupport
import CHeapInfo
import Foundation

let engineAnimationCount = 100_000
let engineFrameCount = 600
let engineFramesPerSecond: Int64 = 60
let engineEventCount = 1_000_000
let engineSecond: Nanoseconds = 1_000_000_000

func runEngineBenchmarks() {
  let samplings: [(name: String, mix: EngineCurveMix)] = [
    ("engine.sample.linear", .linear), ("engine.sample.cubic", .cubic),
    ("engine.sample.spring", .spring), ("engine.sample.mixed", .mixed),
  ]
  for (name, mix) in samplings where wants(name) {
    report(name, bestSamplingTime(mix), "ns")
  }
  if wants("engine.events") { report("engine.events", bestEventTime(), "ns") }
  if wants("engine.memory") { report("engine.memory", bytesPerAnimation(), "bytes") }
}

/// The curves of a sampling figure.
enum EngineCurveMix {
  case linear, cubic, spring, mixed
}

/// Builds the sampling workload: one property per animation, every animation on the engine.
func makeSamplingEngine(_ mix: EngineCurveMix, seed: UInt64) -> (AnimationEngine, [PropertyID]) {
  var random = SeededRandom(seed: seed)
  // Which kind of curve each animation gets: 0 linear, 1 CSS preset, 2 random cubic-bezier,
  // 3 spring. Mixed: exactly a quarter each, in a random order.
  var kinds: [Int]
  switch mix {
  case .linear: kinds = Array(repeating: 0, count: engineAnimationCount)
  case .cubic: kinds = Array(repeating: 2, count: engineAnimationCount)
  case .spring: kinds = Array(repeating: 3, count: engineAnimationCount)
  case .mixed:
    kinds = (0..<engineAnimationCount).map { $0 % 4 }
    kinds.shuffle(using: &random)
  }
  let presets: [TimingCurve] = [.ease, .easeIn, .easeOut, .easeInOut]
  var engine = AnimationEngine()
  var properties: [PropertyID] = []
  properties.reserveCapacity(engineAnimationCount)
  for kind in kinds {
    let property = engine.addProperty(.number(0))
    properties.append(property)
    let start = Nanoseconds.random(in: 0...(7 * engineSecond), using: &random)
    let duration = Nanoseconds.random(in: engineSecond...(3 * engineSecond), using: &random)
    let animation: Animation
    switch kind {
    case 0:
      animation = .tween(to: .number(100), duration: duration, curve: .linear)
    case 1:
      animation = .tween(to: .number(100), duration: duration, curve: presets[Int.random(in: 0..<4, using: &random)])
    case 2:
      let curve = try! CubicBezier(
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random),
        Double.random(in: 0...1, using: &random), Double.random(in: -0.5...1.5, using: &random))
      animation = .tween(to: .number(100), duration: duration, curve: .cubicBezier(curve))
    default:
      // A spring's length is its own settling time (duration: nil), so "durations 1–3 s"
      // applies to the timing curves only; these springs settle in about 0.4 to 3.3 s.
      let spring = try! Spring(
        response: Double.random(in: 0.3...1.2, using: &random),
        dampingFraction: Double.random(in: 0.4...1.0, using: &random))
      animation = .tween(to: .number(100), duration: nil, curve: .spring(try! SpringCurve(spring: spring)))
    }
    _ = try! engine.animate(property, with: animation, placement: .engine(at: start))
  }
  return (engine, properties)
}

/// ns per animation-sample, the best of 3 runs of all frames.
func bestSamplingTime(_ mix: EngineCurveMix) -> Double {
  var best = Double.infinity
  for _ in 0..<3 {
    var (engine, properties) = makeSamplingEngine(mix, seed: 2026)
    var checksum = 0.0
    let elapsed = ContinuousClock().measure {
      checksum = sampleAllFrames(&engine, properties)
    }
    FileHandle.standardError.write("engine.sample checksum \(checksum)\n".data(using: .utf8)!)
    best = min(best, nanoseconds(elapsed) / Double(engineAnimationCount * engineFrameCount))
  }
  return best
}

/// Advances through every frame and reads every property after each; returns the sum of
/// the values read. A function of its own with the engine `inout`: reading a variable that a
/// closure captures would copy the whole engine (every array's reference) for each call.
func sampleAllFrames(_ engine: inout AnimationEngine, _ properties: [PropertyID]) -> Double {
  var checksum = 0.0
  for k in 0..<engineFrameCount {
    try! engine.advance(to: frameTime(Int64(k), fps: engineFramesPerSecond))
    checksum += sumOfCurrentNumbers(engine, properties)
  }
  return checksum
}

/// Every property's current value read through `currentNumber(of:)`, summed.
///
/// Into four partial sums, as a host summing many values would write it: one running sum
/// makes every read wait for the previous floating-point addition (a chain of 100,000
/// additions per frame, which measured the adder's latency, not the engine).
@inline(__always)
func sumOfCurrentNumbers(_ engine: borrowing AnimationEngine, _ properties: [PropertyID]) -> Double {
  var sums = (0.0, 0.0, 0.0, 0.0)
  var i = 0
  while i + 4 <= properties.count {
    sums.0 += engine.currentNumber(of: properties[i]) ?? 0
    sums.1 += engine.currentNumber(of: properties[i + 1]) ?? 0
    sums.2 += engine.currentNumber(of: properties[i + 2]) ?? 0
    sums.3 += engine.currentNumber(of: properties[i + 3]) ?? 0
    i += 4
  }
  while i < properties.count {
    sums.0 += engine.currentNumber(of: properties[i]) ?? 0
    i += 1
  }
  return (sums.0 + sums.1) + (sums.2 + sums.3)
}

/// ns per callback scheduled and fired, the best of 3 runs.
func bestEventTime() -> Double {
  var random = SeededRandom(seed: 2027)
  let times = (0..<engineEventCount).map { _ in Nanoseconds.random(in: 0..<(10 * engineSecond), using: &random) }
  var best = Double.infinity
  for _ in 0..<3 {
    var engine = AnimationEngine()
    var fired = 0
    let elapsed = ContinuousClock().measure {
      for (key, time) in times.enumerated() {
        engine.schedule(callback: key, at: time)
      }
      for k in 0...engineFrameCount {
        try! engine.advance(to: frameTime(Int64(k), fps: engineFramesPerSecond)) { _, event in
          if case .callback = event.kind { fired += 1 }
        }
      }
    }
    precondition(fired == engineEventCount, "only \(fired) of \(engineEventCount) callbacks fired")
    best = min(best, nanoseconds(elapsed) / Double(engineEventCount))
  }
  return best
}

/// Bytes of heap per number-valued animation, adding 100,000 to as many existing properties.
func bytesPerAnimation() -> Double {
  var random = SeededRandom(seed: 2028)
  var engine = AnimationEngine()
  let properties = (0..<engineAnimationCount).map { _ in engine.addProperty(.number(0)) }
  let plans = (0..<engineAnimationCount).map { _ in
    (
      start: Nanoseconds.random(in: 0...(7 * engineSecond), using: &random),
      duration: Nanoseconds.random(in: engineSecond...(3 * engineSecond), using: &random)
    )
  }
  let before = heapInUse()
  for (property, plan) in zip(properties, plans) {
    _ = try! engine.animate(
      property, with: .tween(to: .number(100), duration: plan.duration), placement: .engine(at: plan.start))
  }
  let after = heapInUse()
  // All three live to here: Swift frees a value after its last use, and the plans and the
  // property list (2.4 MB) freed before `after` made the figure 24 bytes too small.
  withExtendedLifetime((engine, properties, plans)) {}
  return Double(after - before) / Double(engineAnimationCount)
}

/// The bytes malloc has handed out and not had back: small blocks plus mmapped ones.
func heapInUse() -> Int {
  Int(anim_bench_heap_in_use())
}

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) * 1e-9
}
