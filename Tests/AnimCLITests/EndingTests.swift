import AnimTestSupport
import Foundation
import Testing

/// Issue 12, rules 7, 8, 11, 12 and 13 through the binary: exit codes, what standard output
/// holds, and how a run ends.
@Suite("anim run and trace: ending")
struct EndingTests {
  /// Rule 13: an unknown `--watch` name exits 64 with nothing on standard output, even when
  /// the script prints at time 0.
  @Test func anUnknownWatchNameWritesNothing() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("w.anim", "target a { x: 0 }\nprint \"hello\"\nemit \"e\"\n")
    for format in ["jsonl", "csv", "table", "svg"] {
      let run = try runAnim(["trace", path, "--watch", "a.y", "--format", format], input: "")
      #expect(run.status == 64, "\(format)")
      #expect(run.standardOutput.isEmpty, "\(format)")
      #expect(run.standardError.contains("no property 'a.y' to watch"))
    }
  }

  /// Rule 13: one whose statements at time 0 leave only something that repeats for ever
  /// writes nothing; one that turns endless later writes its output up to then.
  @Test func aRunThatNeverEndsWritesOnlyWhatCameBefore() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let atOnce = try scratch.file(
      "f.anim", "target a { x: 0 }\nprint \"hi\"\nanimate a.x to 1 over 1s repeat forever\n")
    for command in ["trace", "run"] {
      let run = try runAnim([command, atOnce], input: "")
      #expect(run.status == 65, "\(command)")
      #expect(run.standardOutput.isEmpty, "\(command): \(run.standardOutput)")
      #expect(run.standardError.contains("never ends"))
    }
    // A finite animation keeps it going to 0.5s, where it turns endless.
    let later = try scratch.file(
      "l.anim",
      "target a { x: 0, y: 0 }\nprint \"hi\"\nanimate a.x to 1 over 1s repeat forever\nanimate a.y to 1 over 500ms\n")
    let trace = try runAnim(["trace", later, "--fps", "4", "--watch", "a.y"], input: "")
    #expect(trace.status == 65)
    #expect(
      trace.outputLines.filter { !$0.isEmpty } == [
        #"{"t":0,"print":"hi"}"#, #"{"t":0,"event":"start","subject":"a.x"}"#,
        #"{"t":0,"event":"start","subject":"a.y"}"#, #"{"t":0,"values":{"a.y":0}}"#,
        #"{"t":0.25,"values":{"a.y":0.5}}"#,
      ])
    #expect(trace.standardError.contains("from 0.5s on"))
    let run = try runAnim(["run", later], input: "")
    #expect(run.status == 65)
    #expect(run.outputLines.filter { !$0.isEmpty } == ["[0s] hi", "[0s] start a.x", "[0s] start a.y"])
  }

  /// Rule 13: still busy after 24 h of virtual time without --until: an error that says so.
  @Test func aTimelineThatReplaysItselfStopsAfterADay() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("d.anim", "timeline t { wait 3600s }\non complete t { play t }\nplay t\n")
    let run = try runAnim(["trace", path, "--fps", "1"], input: "")
    #expect(run.status == 65)
    #expect(run.standardError.contains("still running after 24h"))
    let lines = run.outputLines.filter { !$0.isEmpty }
    #expect(lines.last == #"{"t":86399,"values":{}}"#)
    #expect(lines.contains(#"{"t":82800,"event":"complete","subject":"t"}"#))
  }

  /// Rule 13: `run` and `trace` stop at once when their standard output is closed.
  @Test(arguments: ["run", "trace"])
  func aClosedStandardOutputStopsTheRun(_ command: String) throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "p.anim", "target a { x: 0 }\nprint \"one\"\nanimate a.x to 1 over 30s\nat 29s print \"two\"\n")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "'\(CLI.executable.path)' \(command) --fps 100000 '\(path)' 2>/dev/null | head -1"]
    if command == "run" { process.arguments = ["-c", "'\(CLI.executable.path)' run '\(path)' | head -1"] }
    let output = Pipe()
    process.standardOutput = output
    let start = Date()
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    #expect(Date().timeIntervalSince(start) < 10, "it waited for the 30 s animation")
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(text.contains("one"))
  }

  /// Rule 13: a file over 256 MiB, or a stream that never ends, is refused at that size.
  @Test func aScriptTooLargeIsRefused() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("big.anim", "")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: UInt64(256 << 20) + 1)  // sparse: no disk, no memory
    try handle.close()
    for arguments in [["check", path], ["trace", path], ["run", path], ["check", "/dev/zero"]] {
      let run = try runAnim(arguments, input: "")
      #expect(run.status == 66, "\(arguments)")
      #expect(run.standardError.contains("larger than 256 MiB"), "\(arguments)")
      #expect(run.standardOutput.isEmpty)
    }
  }

  /// Rules 7, 8, 11 and 12 end to end: each runtime error located, with its time, exit 65.
  @Test func runtimeErrorsAreLocatedAndExit65() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(
      "e.anim",
      """
      target a { x: 0, big: 1e308 }
      let zero = 0
      on "go" { animate a.x to 1 / zero over 1s; emit "go" }
      emit "go"
      at 1s print "{a.big * 10}"
      at 2s print "{lerp(1s, 3s, 0.5)}"
      on "b" { emit "b"; emit "b" }
      at 3s emit "b"

      """)
    for command in ["trace", "run"] {
      let start = Date()
      let run = try runAnim([command, path], input: "")
      #expect(Date().timeIntervalSince(start) < 20)
      #expect(run.status == 65, "\(command)")
      #expect(run.standardError.contains("e.anim:3:26: error: division by zero (at 0s)"))
      #expect(run.standardError.contains("e.anim:5:15: error: overflow: the result is beyond the largest number"))
      #expect(run.standardError.contains("(at 1s)"))
      #expect(run.standardError.contains("e.anim:7:1: error: more than 10000 handler runs at one instant"))
      #expect(run.standardOutput.contains(command == "trace" ? #"{"t":2,"print":"2s"}"# : "[2s] 2s"))
    }
    #expect(try runAnim(["check", path], input: "").status == 0)
  }
}
