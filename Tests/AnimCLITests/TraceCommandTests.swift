import AnimTestSupport
import Foundation
import Testing

/// `anim trace`: the virtual-clock run, end to end through the binary.
@Suite("anim trace")
struct TraceCommandTests {
  /// Each test's scripts, removed when the test's instance of the suite goes.
  let scratch: ScratchDirectory

  init() throws { scratch = try ScratchDirectory(prefix: "anim-trace") }

  func script(_ text: String) throws -> String { try scratch.newFile(text) }

  @Test func jsonlSamplesEventsAndPrintsInTimeOrder() throws {
    let path = try script(
      """
      target box { x: 0, pos: (0, 0), tint: #ff8800 }
      animate box.x to 100 over 1s
      animate box.pos to (0, 120) over 1s
      at 500ms print "half at {now}"
      """)
    let run = try runAnim(["trace", path, "--fps", "2"], input: "")
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let lines = run.outputLines.filter { !$0.isEmpty }
    #expect(lines.contains(##"{"t":0.5,"values":{"box.x":50,"box.pos":[0,60],"box.tint":"#ff8800ff"}}"##))
    #expect(lines.contains(#"{"t":0.5,"print":"half at 0.5s"}"#))
    #expect(lines.contains(#"{"t":1,"event":"complete","subject":"box.x"}"#))
    // A print or event comes before the sample of its own time.
    let print = lines.firstIndex(of: #"{"t":0.5,"print":"half at 0.5s"}"#)!
    let sample = lines.firstIndex { $0.hasPrefix(#"{"t":0.5,"values""#) }!
    #expect(print < sample)
    // It ends when nothing is playing: the last sample is at 1 s.
    #expect(lines.last == ##"{"t":1,"values":{"box.x":100,"box.pos":[0,120],"box.tint":"#ff8800ff"}}"##)
  }

  @Test func atSamplesExactlyTheGivenTimesAndWatchLimitsColumns() throws {
    let path = try script("target a { x: 0, y: 5 }\nanimate a.x to 10 over 1s\n")
    let run = try runAnim(["trace", path, "--at", "0.4s,1s,1500ms", "--watch", "a.x", "--format", "csv"], input: "")
    #expect(run.status == 0)
    #expect(run.outputLines.filter { !$0.isEmpty } == ["t,a.x", "0.4,4", "1,10", "1.5,10"])
  }

  @Test func svgIsAChartOfTheSamples() throws {
    let path = try script("target a { x: 0 }\nanimate a.x to 10 over 1s\n")
    let run = try runAnim(["trace", path, "--fps", "4", "--format", "svg"], input: "")
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix("<?xml") || run.standardOutput.hasPrefix("<svg"))
    #expect(run.standardOutput.contains("<polyline"))
    #expect(run.standardOutput.contains("a.x"))
  }

  @Test func aScriptThatNeverEndsNeedsUntil() throws {
    let path = try script("target a { x: 0 }\nanimate a.x to 1 over 1s repeat forever\n")
    let run = try runAnim(["trace", path], input: "")
    #expect(run.status == 65)
    #expect(run.standardError.contains("never ends"))
    #expect(run.standardError.contains("--until"))
    let bounded = try runAnim(["trace", path, "--until", "2s", "--fps", "1"], input: "")
    #expect(bounded.status == 0)
    #expect(bounded.outputLines.filter { $0.contains("values") }.count == 3)
  }

  @Test func wrongUsageAndBadFiles() throws {
    let path = try script("target a { x: 0 }\n")
    #expect(try runAnim(["trace", path, "--until", "2"], input: "").status == 64)
    #expect(try runAnim(["trace", path, "--format", "xml"], input: "").status == 64)
    let watch = try runAnim(["trace", path, "--watch", "a.y"], input: "")
    #expect(watch.status == 64)
    #expect(watch.standardError.contains("no property 'a.y' to watch"))
    #expect(try runAnim(["trace", "/nonexistent/x.anim"], input: "").status == 66)
    let bad = try script("target a { x: 0 }\nanimate a.x to 1 ovr 1s\n")
    #expect(try runAnim(["trace", bad], input: "").status == 65)
  }

  @Test func aRuntimeErrorIsReportedAndTheTraceGoesOn() throws {
    let path = try script("target a { x: 0 }\nlet zero = 0\nat 1s print \"{1 / zero}\"\nat 2s print \"after\"\n")
    let run = try runAnim(["trace", path, "--fps", "1"], input: "")
    #expect(run.status == 65)
    #expect(run.standardError.contains("3:15: error: division by zero (at 1s)"))
    #expect(run.outputLines.contains(#"{"t":2,"print":"after"}"#))
  }
}
