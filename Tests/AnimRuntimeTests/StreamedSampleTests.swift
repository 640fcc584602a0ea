import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// A trace's samples handed out as `TraceSample`s (`emitSample`, what `anim trace` writes in
/// jsonl) write the same text as the same trace's sample records.
@Suite struct StreamedSampleTests {
  /// Targets enough for a sample of several pieces (`SampleKeys.valuesPerPiece`), animations
  /// that move some values between frames, a target declared after a `wait` (created with
  /// the others before anything runs: a column from the start), and one whose value is read
  /// from another's then (created there: a column from then on).
  static let script: String = {
    let count = SampleKeys.valuesPerPiece + 9
    var lines = (0..<count).map { "target box\($0) { x: \($0 % 7), tint: #ff8800 }" }
    lines.append("animate box3.x to 100 over 40ms with easeIn")
    lines.append("at 10ms animate box\(count - 1).tint to #0000ff over 20ms")
    lines.append("wait 15ms")
    lines.append("target late { y: 4 }")
    lines.append("animate late.y to 8 over 10ms")
    lines.append("target later { z: box3.x }")
    lines.append("animate later.z to 0 over 20ms")
    return lines.joined(separator: "\n") + "\n"
  }()

  /// The jsonl text of a trace of `script`, its samples streamed (`emitSample`) or records.
  static func jsonl(_ options: TraceOptions, streamed: Bool) throws -> String {
    guard case .started(let runtime, let first, _) = Runtime.start(SourceText(name: "test.anim", contents: script))
    else {
      Issue.record("the script does not start")
      return ""
    }
    var writer = JSONLTraceWriter()
    var text = ""
    try runtime.trace(
      startedWith: first, options: options,
      emit: { record in writer.write(record) { text += $0 } },
      emitSample: streamed ? { sample in writer.write(sample) { text += $0 } } : nil,
      report: { error, _ in Issue.record("runtime error: \(error.message)") })
    return text
  }

  @Test(arguments: [
    TraceOptions(fps: 100, until: 50_000_000),
    TraceOptions(times: [0, 12_000_000, 30_000_000]),
    TraceOptions(fps: 100, until: 50_000_000, watch: ["box3.x", "box\(SampleKeys.valuesPerPiece + 8).tint", "box0.x"]),
    TraceOptions(fps: 100, until: 0),
  ])
  func streamedSamplesWriteTheRecordsText(options: TraceOptions) throws {
    let records = try Self.jsonl(options, streamed: false)
    let streamed = try Self.jsonl(options, streamed: true)
    #expect(!records.isEmpty)
    #expect(streamed == records)
  }

  /// Without an end time samples wait until the run is known to go on: they stay records,
  /// and the text is the same.
  @Test func heldSamplesStayRecords() throws {
    let options = TraceOptions(fps: 100)
    #expect(try Self.jsonl(options, streamed: true) == (try Self.jsonl(options, streamed: false)))
  }

  /// A target made after the trace started (its value read from another's at 15 ms) is in
  /// every sample from then on, and in none before; its values follow its animation.
  @Test func aTargetMadeLaterJoinsTheSamples() throws {
    for options in [TraceOptions(fps: 100, until: 50_000_000), TraceOptions(fps: 100)] {
      let traced = try trace(Self.script, options)
      for time in traced.sampleTimes {
        #expect((traced.value("later.z", at: time) != nil) == (time >= 15 * ms), "at \(time)")
      }
      // box3.x: 100 · easeIn(t / 40 ms); later.z starts there at 15 ms and goes to 0 over 20 ms.
      let atFifteen = 3 + (100 - 3) * CubicBezier.easeIn.progress(at: 15.0 / 40)
      #expect(close(traced.number("later.z", at: 20 * ms), atFifteen * (1 - 5.0 / 20), 1e-6))
      #expect(traced.number("later.z", at: 40 * ms) == 0)
    }
  }
}
