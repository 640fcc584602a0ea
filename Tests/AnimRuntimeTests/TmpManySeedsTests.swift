import AnimCore
import AnimLanguage
import AnimTestSupport
import Testing

@testable import AnimRuntime

@Test func tmpManySeedsStreamedAsWhole() throws {
  var streamedCount = 0
  for seed in 1_000..<1_600 {
    var generator = ScriptGenerator(seed: UInt64(seed))
    let script = generator.script(bytes: 3_000)
    for options in [TraceOptions(fps: 10, until: 3_000_000_000), TraceOptions(until: 0)] {
      let streamed = try trace(script, options)
      let whole = try traceWhole(script, options)
      #expect(streamed.records == whole.records, "seed \(seed)")
      #expect(streamed.errors.map { "\($0.message) \($0.span) \($0.time)" } == whole.errors.map { "\($0.message) \($0.span) \($0.time)" }, "seed \(seed)")
    }
    if Runtime().runStatementByStatement(SourceText(name: "g.anim", contents: script)) != nil { streamedCount += 1 }
  }
  print("STREAMED \(streamedCount) of 600")
}
