import AnimCore
import Testing

@testable import AnimRuntime

@Suite("Trace records")
struct TraceRecordTests {
  @Test func everyRecordKnowsItsTime() {
    let records: [TraceRecord] = [
      .sample(time: 5, values: [NamedValue(name: "b.x", value: .number(1))]),
      .event(time: 6, name: "complete", subject: "intro"),
      .print(time: 7, text: "hi"),
    ]
    #expect(records.map(\.time) == [5, 6, 7])
  }
}
