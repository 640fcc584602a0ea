import AnimCore
import AnimLanguage
import AnimTestSupport
import Testing

@testable import AnimREPL

/// A session whose output is collected, stream by stream.
final class Transcript {
  var standardOutput = ""
  var standardError = ""
  let session: Session

  init(clock: ClockChoice = .virtual, sourceName: String = "<repl>") {
    var sink: ((Session.Stream, String) -> Void)?
    session = Session(clock: clock, sourceName: sourceName) { stream, text in sink?(stream, text) }
    sink = { [unowned self] stream, text in
      switch stream {
      case .standardOutput: self.standardOutput += text
      case .standardError: self.standardError += text
      }
    }
  }

  /// Evaluates entries in order and returns the outcome of the last.
  @discardableResult
  func type(_ entries: String...) -> Session.Outcome {
    var outcome = Session.Outcome.proceed
    for entry in entries { outcome = session.evaluate(entry) }
    return outcome
  }

  func clear() {
    standardOutput = ""
    standardError = ""
  }
}

/// The caret line the renderer draws under `needle` in `line`: spaces up to its column,
/// then `^` and a `~` under each further character.
func caretLine(under needle: String, in line: String) -> String {
  let start = line.range(of: needle)!.lowerBound
  let column = line.distance(from: line.startIndex, to: start)
  return String(repeating: " ", count: column) + "^" + String(repeating: "~", count: needle.count - 1)
}

/// 1-based column of `needle` in `line`.
func column(of needle: String, in line: String) -> Int {
  line.distance(from: line.startIndex, to: line.range(of: needle)!.lowerBound) + 1
}

@Suite("Session: clock commands")
struct ClockCommandTests {
  @Test func virtualClockStartsAtZero() {
    let transcript = Transcript()
    transcript.type(":clock")
    #expect(transcript.standardOutput.hasPrefix("virtual clock at 0s"))
    #expect(transcript.standardError.isEmpty)
  }

  @Test(arguments: [
    (["400ms"], Int64(400_000_000)),
    (["1.5s", "1.5s"], Int64(3_000_000_000)),
    (["1ms", "1ms", "1ms"], Int64(3_000_000)),
    (["0s"], Int64(0)),
  ])
  func tickAdvancesTheVirtualClockExactly(ticks: [String], total: Int64) {
    let transcript = Transcript()
    for tick in ticks { transcript.type(":tick \(tick)") }
    #expect(transcript.standardError.isEmpty)
    #expect(transcript.session.now == total)
    transcript.type(":clock")
    // Seconds written as the shortest Double that reads back: total / 1e9.
    let seconds = Double(total) / 1e9
    let shown = seconds == seconds.rounded() ? String(Int64(seconds)) : "\(seconds)"
    #expect(transcript.standardOutput.contains("virtual clock at \(shown)s"))
  }

  @Test func clockShowsPointFourSecondsAfterTick() {
    let transcript = Transcript()
    transcript.type(":tick 400ms", ":clock")
    #expect(transcript.standardOutput == "virtual clock at 0.4s (moves only on :tick)\n")
  }

  @Test(arguments: [
    (":tick 400", "400", "a plain number has no unit"),
    (":tick -1s", "-1s", "cannot go back"),
    (":tick card.x", "card.x", "expected a duration"),
  ])
  func tickRejectsWhatIsNotADuration(line: String, culprit: String, message: String) {
    let transcript = Transcript()
    transcript.type(line)
    let lines = transcript.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0].hasPrefix("<repl>:1:\(column(of: culprit, in: line)): error: "))
    #expect(lines[0].contains(message))
    #expect(lines[1] == line)
    #expect(lines[2] == caretLine(under: culprit, in: line))
    #expect(transcript.session.now == 0)
  }

  @Test func tickWithoutDurationPointsAtTheEndOfTheLine() {
    let transcript = Transcript()
    transcript.type(":tick")
    #expect(transcript.standardError.hasPrefix("<repl>:1:6: error: expected a duration after ':tick'"))
  }

  @Test func tickOnTheRealClockIsAnError() {
    let transcript = Transcript(clock: .real)
    transcript.type(":tick 1s")
    #expect(transcript.standardError.hasPrefix("<repl>:1:1: error: ':tick' advances a virtual clock"))
    transcript.clear()
    transcript.type(":clock")
    #expect(transcript.standardOutput.hasPrefix("real clock at "))
  }
}

@Suite("Session: commands")
struct CommandTests {
  @Test func helpListsEveryCommand() {
    let transcript = Transcript()
    transcript.type(":help")
    for command in Command.allCases {
      #expect(transcript.standardOutput.contains(command.usage))
    }
  }

  @Test(arguments: ["animate", "pause", "timeline", ":tick", "tick", "commands", "keys"])
  func helpTopicsExist(topic: String) {
    let transcript = Transcript()
    transcript.type(":help \(topic)")
    #expect(!transcript.standardOutput.isEmpty)
    #expect(transcript.standardError.isEmpty)
  }

  /// `:help curves` names every curve preset and constructor of the language's table.
  @Test func curveHelpNamesEveryCurveOfTheTable() {
    let transcript = Transcript()
    transcript.type(":help curves")
    for name in CurvePreset.allCases.map(\.rawValue) + CurveConstructor.allCases.map(\.rawValue) {
      #expect(transcript.standardOutput.contains(name), "\(name)")
    }
  }

  /// `:help options`, `events`, `placement` and `control` print every row of the language's
  /// reference tables (the rows grammar.md's tables are tested equal to), and each verb,
  /// option word or placement word finds its table.
  @Test(arguments: ReferenceTable.allCases)
  func tableTopicsPrintEveryRowOfTheirTable(table: ReferenceTable) {
    let transcript = Transcript()
    transcript.type(":help \(table.rawValue)")
    let lines = transcript.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "\(table.rawValue): \(table.summary)")
    for row in table.rows {
      #expect(lines.contains { $0.hasPrefix("  \(row.form) ") && $0.hasSuffix("  \(row.meaning)") }, "\(row.form)")
    }
    for name in Help.tableTopics.first(where: { $0.table == table })!.names {
      let other = Transcript()
      other.type(":help \(name)")
      #expect(other.standardOutput == transcript.standardOutput, "\(name)")
    }
    #expect(Help.overview.contains(table.rawValue))
  }

  /// `:help curves` writes each preset as the checker reads it back to the same curve.
  @Test func curveHelpWritesEachPresetAsItsValue() {
    let transcript = Transcript()
    transcript.type(":help springs")
    for preset in CurvePreset.allCases {
      #expect(transcript.standardOutput.contains("  \(preset.rawValue)"))
      #expect(transcript.standardOutput.contains(preset.written))
      var environment = Environment()
      let result = parseAndCheck(
        SourceText(name: "h", contents: "curve c = \(preset.written)"), in: &environment, mode: .script)
      #expect(result.diagnostics.isEmpty && environment.curve(named: "c")?.value == preset.curve, "\(preset)")
    }
    for form in SpringForm.allCases { #expect(transcript.standardOutput.contains(form.written)) }
  }

  @Test func unknownHelpTopicSuggestsTheNearOne() {
    let transcript = Transcript()
    transcript.type(":help animat")
    #expect(transcript.standardError.contains("error: no help on 'animat'; did you mean 'animate'?"))
  }

  /// Every example `:help` shows is valid language.
  @Test(arguments: Help.languageTopics.flatMap(\.examples) + Help.tableTopics.flatMap(\.examples))
  func helpExamplesParse(example: String) {
    let result = parse(SourceText(name: "example", contents: example))
    #expect(result.diagnostics.isEmpty, "\(example)")
    #expect(!result.file.statements.isEmpty)
  }

  @Test func unknownCommandSuggestsTheNearOne() {
    let transcript = Transcript()
    transcript.type(":hepl")
    let lines = transcript.standardError.split(separator: "\n").map(String.init)
    #expect(lines[0] == "<repl>:1:1: error: unknown command ':hepl'; did you mean ':help'? (:help lists them)")
    #expect(lines[2] == "^~~~~")
  }

  @Test func quitEndsAndExtraArgumentsAreAnError() {
    let transcript = Transcript()
    #expect(transcript.type(":quit now") == .proceed)
    #expect(transcript.standardError.contains("error: ':quit' takes no arguments"))
    #expect(transcript.type("  :quit") == .quit)
  }

  @Test func statusShowsWhatPlaysAndAMissingSessionFileIsRefused() {
    let transcript = Transcript()
    transcript.type(":status")
    #expect(transcript.standardOutput == "nothing is playing or paused\n")
    transcript.clear()
    transcript.type("target b { x: 0 }", "animate b.x to 100 over 1s", ":tick 250ms", ":status")
    // An animation shows its property's value now (issue 13): linear, a quarter of 100.
    #expect(transcript.standardOutput.contains("animation of b.x = 25: playing, forwards, speed 1, 0.25s / 1s (25%)"))

    transcript.clear()
    transcript.type(":restore /nonexistent/never-read.json", "b.x")
    #expect(transcript.standardError.hasPrefix("error: cannot read '/nonexistent/never-read.json'"))
    #expect(transcript.standardOutput == "b.x = 25\n")
    transcript.clear()
    // One that repeats shows its pass (issue 13): 1.25 s into passes of 1 s, the second.
    transcript.type("animate b.x to 0 over 1s repeat 3 merge replace", ":tick 1250ms", ":status")
    #expect(transcript.standardOutput.contains(", pass 2 of 3, 1.25s / 3s"))
  }

  /// `tween` in a session: the playhead moves as the virtual clock ticks, what it crosses
  /// prints, and `:status` says the timeline is paused with its playhead tweening, then paused
  /// at its place. intro: b.x 0 → 100 over 1 s, a print at 1 s; `tween intro to 1s over 2s`:
  /// local time t / 2.
  @Test func tweenMovesThePlayheadAsTheClockTicks() {
    let transcript = Transcript()
    transcript.type(
      "target b { x: 0 }", "timeline intro { animate b.x to 100 over 1s; print \"there\"; wait 1s }",
      "tween intro to 1s over 2s", ":tick 1s", ":status")
    #expect(
      transcript.standardOutput.contains("timeline intro: paused, its playhead tweening, forwards, speed 1, 0.5s / 2s"))
    #expect(!transcript.standardOutput.contains("there"))
    transcript.clear()
    transcript.type(":tick 1s", ":status", "b.x")
    #expect(transcript.standardOutput.contains("there"))
    #expect(transcript.standardOutput.contains("timeline intro: paused, forwards, speed 1, 1s / 2s (50%)"))
    #expect(transcript.standardOutput.hasSuffix("b.x = 100\n"))
  }

  @Test func watchChecksNamesAgainstDeclarations() {
    let transcript = Transcript()
    transcript.type("target b { x: 0 }")
    transcript.clear()
    transcript.type(":watch b.y")
    #expect(transcript.standardError.contains("error: target 'b' has no property 'y'"))
    transcript.type(":watch c.x")
    #expect(transcript.standardError.contains("error: unknown target 'c'"))
    #expect(transcript.session.watched.isEmpty)
    transcript.type(":watch b.x b.x")
    #expect(transcript.session.watched == ["b.x"])
    transcript.type(":unwatch")
    #expect(transcript.session.watched.isEmpty)
  }
}

@Suite("Session: language input")
struct LanguageInputTests {
  @Test func anErrorShowsTheLineWithACaretAndChangesNothing() {
    let transcript = Transcript()
    let line = "target b { x 0 }"
    transcript.type(line)
    let lines = transcript.standardError.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("<repl>:1:\(column(of: "0", in: line)): error: "))
    #expect(lines[1] == line)
    #expect(lines[2] == caretLine(under: "0", in: line))
    #expect(transcript.session.environment.order.isEmpty)
  }

  @Test func errorsInLaterLinesOfAnEntryNameTheirLine() {
    let transcript = Transcript()
    transcript.type("timeline t {\n  animate b.x tu 1\n}")
    #expect(transcript.standardError.hasPrefix("<repl>:2:15: error: expected 'to'"))
    #expect(transcript.session.environment.order.isEmpty)
  }

  @Test func statementsRunOnTheSessionClock() {
    let transcript = Transcript()
    transcript.type("target b { x: 0 }", "animate b.x to 100 over 1s", ":tick 400ms", "b.x")
    #expect(transcript.standardError.isEmpty)
    #expect(transcript.standardOutput.hasSuffix("b.x = 40\n"))
    transcript.clear()
    transcript.type("pause", ":tick 1s", "b.x")
    #expect(transcript.standardOutput == "b.x = 40\n")
  }

  @Test func namesAreCheckedAgainstEarlierEntries() {
    let transcript = Transcript()
    transcript.type("target card { x: 0 }")
    transcript.clear()
    let line = "animate crad.x to 1 over 1s"
    transcript.type(line)
    let lines = transcript.standardError.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("<repl>:1:\(column(of: "crad", in: line)): error: "))
    #expect(lines[0].contains("did you mean 'card'?"))
  }

  @Test func aReplacedTargetLosesItsOldProperties() {
    let transcript = Transcript()
    transcript.type("target b { x: 0 }", "target b { y: 0 }")
    transcript.clear()
    transcript.type("animate b.x to 1 over 1s")
    #expect(transcript.standardError.contains("error: "))
    transcript.clear()
    transcript.type("animate b.y to 1 over 1s")
    #expect(transcript.standardError.isEmpty)
  }

  @Test func laterDeclarationsReplaceEarlierOnes() {
    let transcript = Transcript()
    transcript.type("target b { x: 0, y: 1 }")
    #expect(transcript.session.properties(ofTarget: "b") == ["x", "y"])
    transcript.type("target b { z: 2 }")
    #expect(transcript.session.properties(ofTarget: "b") == ["z"])
    transcript.type("let b = 3")
    #expect(transcript.session.properties(ofTarget: "b") == nil)
    #expect(transcript.session.environment.value(named: "b") != nil)
  }

  @Test func blankAndCommentOnlyInputSaysNothing() {
    let transcript = Transcript()
    transcript.type("", "   ", "// just a comment")
    #expect(transcript.standardOutput.isEmpty)
    #expect(transcript.standardError.isEmpty)
  }
}

@Suite("Session: completion")
struct CompletionTests {
  private func session() -> Session {
    let transcript = Transcript()
    transcript.type("target card { x: 0, angle: 0 }", "timeline intro { }", "curve snap = cubic(0.2, 0.9, 0.1, 1)")
    return transcript.session
  }

  @Test func keywordsAndNames() {
    let session = session()
    #expect(session.completions(of: "anim", after: "") == .words(["animate"]))
    #expect(session.completions(of: "in", after: "play ") == .words(["intro"]))
    #expect(session.completions(of: "sn", after: "curve x = ") == .words(["snap", "snappy"]))
    #expect(session.completions(of: "ca", after: "") == .words(["cancel", "card"]))
  }

  /// Issue 15: after `seek X to `, `play X from `/`to `, `pause X at ` and `tween X to `,
  /// X's labels; after a word that takes a subject, declared names only (no keyword).
  @Test func aTimelinesLabelsCompleteWhereATimeOfItComes() {
    let transcript = Transcript()
    transcript.type(
      "target card { x: 0 }", "timeline intro { animate card.x to 1 over 1s; label landed; label lift }",
      "timeline other { }")
    let session = transcript.session
    #expect(session.completions(of: "l", after: "seek intro to ") == .words(["landed", "lift"]))
    #expect(session.completions(of: "la", after: "play intro from ") == .words(["landed"]))
    #expect(session.completions(of: "", after: "play intro from landed to ") == .words(["landed", "lift"]))
    #expect(session.completions(of: "li", after: "pause intro at ") == .words(["lift"]))
    #expect(session.completions(of: "", after: "tween intro to ") == .words(["landed", "lift"]))
    #expect(session.completions(of: "", after: "seek other to ") == .words([]))
    #expect(session.completions(of: "in", after: "play ") == .words(["intro"]))
  }

  /// Issue 13: a target name, the one match, completes with its `.` (a property comes next).
  @Test func aTargetNameCompletesWithItsDot() {
    let session = session()
    #expect(session.completions(of: "car", after: "animate ") == .words(["card."]))
    #expect(session.completions(of: "card.", after: "animate ") == .words(["card.angle", "card.x"]))
    #expect(session.completions(of: "intr", after: "play ") == .words(["intro"]))
  }

  /// Issue 12, rule 11: completion offers every name of the language's table of builtins
  /// (functions, presets, constructors, step positions, spring labels), none left out.
  @Test func everyBuiltinNameCompletes() {
    let session = session()
    for name in Builtins.names {
      guard case .words(let words) = session.completions(of: name, after: "let a = ") else {
        Issue.record("no words for \(name)")
        continue
      }
      #expect(words.contains(name), "\(name)")
    }
    #expect(session.completions(of: "le", after: "let a = ") == .words(["lerp", "let"]))
    #expect(session.completions(of: "cl", after: "let a = ") == .words(["clamp"]))
  }

  @Test func propertiesAfterATargetAndADot() {
    let session = session()
    #expect(session.completions(of: "card.", after: "animate ") == .words(["card.angle", "card.x"]))
    #expect(session.completions(of: "card.a", after: "") == .words(["card.angle"]))
    #expect(session.completions(of: "intro.", after: "") == .words([]))
  }

  @Test func commandsAndTheirArguments() {
    let session = session()
    #expect(session.completions(of: ":he", after: "") == .words([":help"]))
    #expect(session.completions(of: ":", after: "") == .words(Command.allCases.map(\.spelled).sorted()))
    #expect(session.completions(of: "ani", after: ":help ") == .words(["animate"]))
    #expect(session.completions(of: "", after: ":load ") == .fileNames)
    #expect(session.completions(of: "card.", after: ":watch ") == .words(["card.angle", "card.x"]))
  }
}

@Suite("Session: load")
struct LoadTests {
  @Test func aMissingFileIsAClearError() {
    let transcript = Transcript()
    #expect(transcript.session.load(path: "/nonexistent/dir/intro.anim") == .unreadable)
    #expect(
      transcript.standardError
        == "error: cannot read '/nonexistent/dir/intro.anim': No such file or directory\n")
  }

  @Test func aFileWithErrorsIsReportedUnderItsNameAndLoadsNothing() throws {
    let scratch = try ScratchDirectory()
    let path = try scratch.file("script.anim", "target a { x: 0 }\nanimate a.x tu 1\n")
    let transcript = Transcript()
    #expect(transcript.session.load(path: path) == .hadErrors)
    #expect(transcript.standardError.hasPrefix("\(path):2:13: error: expected 'to'"))
    #expect(transcript.standardError.contains("note: nothing from '\(path)' was loaded"))
    #expect(transcript.session.environment.order.isEmpty)
  }

  @Test func aGoodFileDeclaresItsNames() throws {
    let scratch = try ScratchDirectory()
    let path = try scratch.file("script.anim", "target a { x: 0 }\ntimeline t {\n  animate a.x to 1 over 1s\n}\n")
    let transcript = Transcript()
    transcript.type(":load \"\(path)\"")
    #expect(transcript.session.properties(ofTarget: "a") == ["x"])
    #expect(transcript.session.environment.timeline(named: "t") != nil)
    #expect(transcript.standardError.isEmpty)
    transcript.type("play t", ":tick 500ms", "a.x")
    #expect(transcript.standardOutput.hasSuffix("a.x = 0.5\n"))
  }
}

@Suite("Session: without a runtime")
struct NoRuntimeTests {
  @Test func checkingOnlySaysThatNothingRunsAndMakesUpNoValue() {
    let transcript = Transcript()
    transcript.session.runtime = nil
    transcript.type(
      "target b { x: 0 }", "b.x", ":status", ":save /tmp/never-written-\(UInt64.random(in: 0...UInt64.max)).json")
    let notes = transcript.standardError.split(separator: "\n").filter { $0.hasPrefix("note: ") }
    #expect(notes.count == 4)
    #expect(notes.allSatisfy { $0.contains("runtime") || $0.contains("nothing runs") })
    #expect(transcript.standardOutput.isEmpty)
  }
}
