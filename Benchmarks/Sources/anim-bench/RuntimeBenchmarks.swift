// The runtime's figures, as issue 4 defines them.
//
// - runtime.sample.mixed: the engine's mixed workload (engine.sample.mixed: 100,000
//   number-valued animations 0 → 100, starts over 0–7 s, timing-curve durations 1–3 s, a
//   quarter each linear, CSS presets, random cubic-bezier and springs) written as a `.anim`
//   script, checked, and played through the runtime: ns per animation-sample over 600 frames
//   at 60 fps, each frame advancing the runtime and reading every property's value. Checking
//   and starting the script are not timed. Best of 3. Goal: at most 1.5× engine.sample.mixed.
// - trace.jsonl: MB/s of `anim trace`'s jsonl output for the same kind of workload, written
//   into memory (the time includes running the script and formatting every line). With
//   10,000 animations (100,000 would write about a gigabyte), 600 frames. Best of 3.
import AnimCore
import AnimLanguage
import AnimRuntime
import AnimTestSupport
import Foundation

func runRuntimeBenchmarks() {
  if wants("runtime.sample.mixed") { report("runtime.sample.mixed", bestRuntimeSamplingTime(), "ns") }
  if wants("trace.jsonl") { report("trace.jsonl", bestTraceThroughput(), "MB/s") }
}

/// The mixed workload as a script: every target first, then each animation placed at its
/// start time on the root timeline.
func mixedWorkloadScript(animations: Int, seed: UInt64 = 11) -> String {
  var random = SeededRandom(seed: seed)
  func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
  var text = ""
  text.reserveCapacity(animations * 90)
  for i in 0..<animations { text += "target a\(i) { x: 0 }\n" }
  let presets = ["ease", "easeIn", "easeOut", "easeInOut"]
  for i in 0..<animations {
    let start = Int(unit() * 7_000)
    let duration = 1_000 + Int(unit() * 2_000)
    let curve: String
    switch i % 4 {
    case 0: curve = "over \(duration)ms"
    case 1: curve = "over \(duration)ms with \(presets[Int(random.next() % 4)])"
    case 2:
      curve = String(
        format: "over %dms with cubic(%.3f, %.3f, %.3f, %.3f)", duration, unit(), unit() * 2 - 0.5, unit(),
        unit() * 2 - 0.5)
    default:
      curve = String(
        format: "with spring(response: %.3f, dampingFraction: %.3f)", 0.2 + unit() * 0.8, 0.3 + unit() * 0.7)
    }
    text += "at \(start)ms animate a\(i).x to 100 \(curve)\n"
  }
  return text
}

/// A checked program for `text`.
func checkedProgram(_ text: String) -> (CheckedProgram, SourceText) {
  let source = SourceText(name: "workload.anim", contents: text)
  var environment = Environment()
  let result = parseAndCheck(source, in: &environment, mode: .script)
  guard result.isRunnable, let program = result.program else {
    fatalError("the benchmark's script does not check: \(result.diagnostics.prefix(3).map(\.message))")
  }
  return (program, source)
}

func bestRuntimeSamplingTime() -> Double {
  let (program, source) = checkedProgram(mixedWorkloadScript(animations: engineAnimationCount))
  var best = Double.infinity
  for _ in 0..<3 {
    let runtime = Runtime()
    _ = runtime.run(program, of: source, at: 0)
    let ids = runtime.propertyNames.compactMap { runtime.propertyID(named: $0) }
    var checksum = 0.0
    let start = DispatchTime.now().uptimeNanoseconds
    for frame in 0..<engineFrameCount {
      _ = runtime.advance(to: frameTime(Int64(frame), fps: engineFramesPerSecond))
      // One read of the engine per frame (a copy of the value shares its storage).
      checksum += sumOfCurrentNumbers(runtime.engine, ids)
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    FileHandle.standardError.write("runtime.sample.mixed checksum \(checksum)\n".data(using: .utf8)!)
    best = min(best, elapsed / Double(engineAnimationCount * engineFrameCount))
  }
  return best
}

func bestTraceThroughput() -> Double {
  let (program, source) = checkedProgram(mixedWorkloadScript(animations: 10_000))
  var best = 0.0
  for _ in 0..<3 {
    let runtime = Runtime()
    var writer: (any TraceWriter)?
    var bytes = 0
    var chunk = ""
    let start = DispatchTime.now().uptimeNanoseconds
    try? runtime.trace(
      program, of: source, options: TraceOptions(fps: engineFramesPerSecond, until: 9_983_333_333),
      emit: { record in
        if writer == nil {
          let columns = runtime.propertyNames.map { TraceColumn(name: $0, kind: .number) }
          writer = TraceFormat.jsonl.writer(columns: columns)
        }
        chunk += writer!.write(record)
        if chunk.utf8.count > 1 << 20 {
          bytes += chunk.utf8.count
          chunk = ""
        }
      },
      report: { _, _ in })
    bytes += chunk.utf8.count
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    best = max(best, Double(bytes) / 1e6 / seconds)
  }
  return best
}
