import AnimCore
import AnimRuntime
import Foundation
import Testing

@testable import AnimREPL

@Suite("Session: save and restore")
struct SaveRestoreTests {
  /// A session with a tween half-way, a paused timeline, a handler and a pending statement.
  func busySession() -> Transcript {
    let transcript = Transcript()
    transcript.type(
      "target b { x: 0, tint: #000000 }",
      "target c { y: 0 }",
      "let step = 10",
      "timeline t {\n  animate c.y to 100 over 2s\n  print \"t at {now}\"\n}",
      "on complete b.x { print \"b landed at {now} with {b.x}\" }",
      "animate b.x to 100 over 1s",
      "play t",
      "at 3s print \"three, step {step}\"",
      ":tick 400ms")
    return transcript
  }

  @Test func aRestoredSessionContinuesExactlyWhereItWasPausedUntilResume() throws {
    let original = busySession()
    let path = NSTemporaryDirectory() + "anim-session-\(UUID().uuidString).json"
    original.type(":save \(path)")
    #expect(original.standardError.isEmpty)
    // The original goes on: this is what the restored one must reproduce.
    original.clear()
    original.type(":tick 3s", "b.x", "c.y")
    let expected = original.standardOutput

    let restored = Transcript()
    restored.type(":tick 5s")  // another process's clock, somewhere else
    restored.clear()
    restored.type(":restore \(path)", "b.x", "c.y")
    #expect(restored.standardError.isEmpty)
    #expect(restored.standardOutput.contains("restored the session"))
    #expect(restored.standardOutput.hasSuffix("b.x = 40\nc.y = 20\n"))
    // Paused until resume: time passes and nothing moves.
    restored.clear()
    restored.type(":tick 1s", "b.x")
    #expect(restored.standardOutput == "b.x = 40\n")
    restored.clear()
    restored.type("resume", ":tick 3s", "b.x", "c.y")
    // The same events at the same engine times, the handler bound again, the same values.
    #expect(restored.standardOutput == expected)
    #expect(expected.contains("[1s] b landed at 1s with 100"))
    #expect(expected.contains("[3s] three, step 10"))
    #expect(expected.hasSuffix("b.x = 100\nc.y = 100\n"))
    // Names are known again: later input checks against them.
    restored.clear()
    restored.type("animate c.y to 0 over 1s")
    #expect(restored.standardError.isEmpty)
  }

  @Test(arguments: ["truncated", "corrupt", "newer", "older", "missing", "empty"])
  func aBadFileIsRefusedAndTheSessionIsUnchanged(_ kind: String) throws {
    let source = busySession()
    let good = NSTemporaryDirectory() + "anim-session-\(UUID().uuidString).json"
    source.type(":save \(good)")
    let text = try String(contentsOfFile: good, encoding: .utf8)
    let bad = NSTemporaryDirectory() + "anim-session-\(UUID().uuidString).json"
    switch kind {
    case "truncated": try String(text.prefix(text.count / 2)).write(toFile: bad, atomically: true, encoding: .utf8)
    case "corrupt":
      try text.replacingOccurrences(of: "\"entries\"", with: "\"entrees\"").write(toFile: bad, atomically: true, encoding: .utf8)
    case "newer":
      // Every version in the file (the session's and its engine's) from a newer anim.
      let newer = text.replacingOccurrences(of: #""version":[0-9]+"#, with: #""version":99"#, options: .regularExpression)
      #expect(newer != text)
      try newer.write(toFile: bad, atomically: true, encoding: .utf8)
    case "older":
      // The session's own version is its last key (the keys are sorted).
      let current = "\"version\":\(Runtime.sessionFormatVersion)}"
      #expect(text.hasSuffix(current))
      try (text.dropLast(current.count) + "\"version\":1}").write(toFile: bad, atomically: true, encoding: .utf8)
    case "empty": try "".write(toFile: bad, atomically: true, encoding: .utf8)
    default: break
    }
    let session = Transcript()
    session.type("target keep { z: 0 }", "animate keep.z to 10 over 1s", ":tick 500ms")
    session.clear()
    session.type(":restore \(bad)")
    #expect(session.standardError.hasPrefix("error: cannot "))
    if kind == "newer" { #expect(session.standardError.contains("newer")) }
    if kind == "older" { #expect(session.standardError.contains("older")) }
    session.clear()
    session.type(":tick 100ms", "keep.z")
    #expect(session.standardOutput == "keep.z = 6\n")
    #expect(session.session.environment.target(named: "keep") != nil)
  }
}
