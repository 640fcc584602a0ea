import AnimCore
import AnimLanguage
import Testing

@testable import AnimREPL

/// A runtime that records what the session asks of it and answers from a table, to test
/// the seam: what the session sends, when, and what it does with the answers.
final class RecordingRuntime: SessionBackend {
  var ran: [(statements: Int, source: String, at: Nanoseconds)] = []
  var advancedTo: [Nanoseconds] = []
  var values: [String: String] = [:]
  var linesOnAdvance: [SessionOutput] = []

  func run(_ program: CheckedProgram, of source: SourceText, at now: Nanoseconds) -> [SessionOutput] {
    ran.append((program.file.statements.count, String(decoding: source.bytes, as: UTF8.self), now))
    return []
  }

  func advance(to time: Nanoseconds) -> [SessionOutput] {
    advancedTo.append(time)
    return linesOnAdvance
  }

  func status(at now: Nanoseconds) -> [String] { ["intro playing"] }

  func value(ofTarget target: String, property: String) -> String? { values["\(target).\(property)"] }

  func save(to path: String) throws(SessionFileError) { throw SessionFileError("disk full") }

  func restore(from path: String) throws(SessionFileError) -> RestoredSession {
    RestoredSession(environment: Environment(), time: 0)
  }
  var isHeld: Bool { false }
  func reset() {}
  func setPrecision(_ precision: Precision) {}
}

@Suite("The runtime seam")
struct RuntimeSeamTests {
  @Test func checkedInputRunsAtTheClockTime() {
    let transcript = Transcript()
    let runtime = RecordingRuntime()
    transcript.session.runtime = runtime
    transcript.type(":tick 250ms", "target b { x: 0 }\nanimate b.x to 1 over 1s")
    #expect(runtime.ran.count == 1)
    #expect(runtime.ran.first?.statements == 2)
    #expect(runtime.ran.first?.at == 250_000_000)
    #expect(!transcript.standardError.contains("nothing runs"))
  }

  @Test func anErrorRunsNothing() {
    let transcript = Transcript()
    let runtime = RecordingRuntime()
    transcript.session.runtime = runtime
    transcript.type("animate b.x tu 1")
    #expect(runtime.ran.isEmpty)
  }

  @Test func tickAdvancesTheRuntimeAndShowsWatchedValues() {
    let transcript = Transcript()
    let runtime = RecordingRuntime()
    runtime.values["b.x"] = "40"
    runtime.linesOnAdvance = [.line("[0.4s] landed")]
    transcript.session.runtime = runtime
    transcript.type("target b { x: 0 }", ":watch b.x")
    transcript.clear()
    transcript.type(":tick 400ms")
    #expect(runtime.advancedTo.last == 400_000_000)
    #expect(transcript.standardOutput == "[0.4s] landed\nb.x = 40\n")
  }

  @Test func statusAndSaveGoToTheRuntime() {
    let transcript = Transcript()
    transcript.session.runtime = RecordingRuntime()
    transcript.type(":status", ":save /tmp/x.json")
    #expect(transcript.standardOutput == "intro playing\n")
    #expect(transcript.standardError == "error: disk full\n")
  }
}
