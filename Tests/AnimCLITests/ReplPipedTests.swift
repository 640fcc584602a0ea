import AnimTestSupport
import Foundation
import Testing

/// `anim repl` with standard input that is not a terminal: no prompt, results on standard
/// output, diagnostics on standard error, status 0 at the end of input.
@Suite("anim repl, piped")
struct ReplPipedTests {
  @Test func helpListsTheCommands() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":help\n")
    #expect(run.status == 0)
    for command in [":help", ":status", ":watch", ":unwatch", ":load", ":save", ":restore", ":clock", ":tick", ":quit"]
    {
      #expect(run.standardOutput.contains("  \(command)"), "\(command)")
    }
    #expect(!run.standardOutput.contains("anim>"))  // no prompt when piped
    #expect(run.standardError.isEmpty)
  }

  @Test func clockStartsAtZeroAndTickMovesIt() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":clock\n:tick 400ms\n:clock\n")
    #expect(run.status == 0)
    #expect(run.outputLines.count == 3)  // two lines and the final newline
    #expect(run.outputLines[0].hasPrefix("virtual clock at 0s"))
    #expect(run.outputLines[1].hasPrefix("virtual clock at 0.4s"))
    #expect(run.standardError.isEmpty)
  }

  @Test func anErrorShowsItsLineAndCaretAndTheSessionGoesOn() throws {
    let bad = "animate b.x tu 3"
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":tick 1s\n\(bad)\n:clock\n")
    #expect(run.status == 0)
    let column = bad.distance(from: bad.startIndex, to: bad.range(of: "tu")!.lowerBound) + 1
    #expect(run.errorLines[0] == "<stdin>:2:\(column): error: expected 'to' after 'animate b.x', found 'tu'")
    #expect(run.errorLines[1] == bad)
    #expect(run.errorLines[2] == String(repeating: " ", count: column - 1) + "^~")
    #expect(run.outputLines[0].hasPrefix("virtual clock at 1s"))
  }

  @Test func aMultiLineTimelineIsOneEntry() throws {
    let input = "target b { x: 0 }\ntimeline x {\n  animate b.x to 100 over 1s\n  animate b.x to 0 over 1s\n}\nplay x\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(!run.standardError.contains("error"))
    // The timeline was one entry: played, it runs its two tweens one after the other.
    #expect(run.outputLines.contains("[0s] start x"))
  }

  @Test func anErrorInsideAMultiLineEntryNamesItsInputLine() throws {
    let input = ":clock\ntimeline x {\n  animate b.x to 1 over 1s\n  animate b.x tu 1\n}\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.errorLines[0].hasPrefix("<stdin>:4:15: error: expected 'to'"))
    #expect(run.errorLines[1] == "  animate b.x tu 1")
  }

  /// Issue 13, item 6: a runtime error of piped input names the input line its statement
  /// starts on, also when it runs later, in a handler declared over several lines.
  @Test func aRuntimeErrorNamesTheInputLineOfItsStatement() throws {
    let input =
      "target a { x: 0 }\nlet z = 0\n\nanimate a.x to 1 / z over 1s\non \"go\" {\n  print \"x\"\n  animate a.x to 2 / z over 1s\n}\nemit \"go\"\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    let errors = run.errorLines.filter { $0.hasPrefix("<stdin>:") }
    #expect(errors.count == 2)
    #expect(errors.first?.hasPrefix("<stdin>:4:16: error: division by zero") == true)
    #expect(errors.last?.hasPrefix("<stdin>:7:18: error: division by zero") == true)
  }

  /// Issue 13, item 8: `:tick` to or past the end of time (2^62 ns) is an error that names
  /// the limit and moves nothing; a tick that stays short of it moves the clock.
  @Test func tickingToTheEndOfTimeIsRefusedAndMovesNothing() throws {
    let run = try runAnim(
      ["repl", "--clock", "virtual"],
      input: ":tick 5000000000s\n:clock\n:tick 4611686018.427387904s\n:clock\n:tick 1s\n:clock\n")
    #expect(run.status == 0)
    let errors = run.errorLines.filter { $0.hasPrefix("<stdin>:") }
    #expect(errors.count == 2)
    #expect(errors.first?.contains("end of time, 4611686018427387904 ns") == true)
    #expect(
      run.outputLines.filter { $0.hasPrefix("virtual clock at") } == [
        "virtual clock at 0s (moves only on :tick)", "virtual clock at 0s (moves only on :tick)",
        "virtual clock at 1s (moves only on :tick)",
      ])
  }

  /// Issue 13: a command prefix that names exactly one command runs it; an ambiguous one
  /// runs nothing and lists the candidates.
  @Test func aCommandPrefixRunsTheOneCommandItNames() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":c\n:s\n:st\n:q\n:clock\n")
    #expect(run.status == 0)
    #expect(run.outputLines.first == "virtual clock at 0s (moves only on :tick)")
    #expect(run.errorLines.first == "<stdin>:2:1: error: ambiguous command ':s': :save :status")
    #expect(run.outputLines.contains("nothing is playing or paused"))
    // `:q` left: the `:clock` after it never ran.
    #expect(run.outputLines.filter { $0.hasPrefix("virtual clock") }.count == 1)
  }

  /// Issue 13: `help`, `quit` and `exit` typed bare get a one-line hint, unless the session
  /// declared the name.
  @Test func bareHelpQuitAndExitGetAHint() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: "help\nquit\n exit\nlet exit = 2\nexit\n")
    #expect(run.status == 0)
    #expect(
      run.errorLines.filter { !$0.isEmpty } == [
        "note: type :help for what can be typed",
        "note: type :quit (or Ctrl-D on an empty line) to leave",
        "note: type :quit (or Ctrl-D on an empty line) to leave",
      ])
    #expect(run.outputLines.contains("exit = 2"))
  }

  /// Issue 13, item 7: redeclaring a target ends its animations as `cancel` does (values
  /// stay), removes the handlers on its properties, says so in one line, and a watch of a
  /// property the new declaration lacks shows `(gone)`.
  @Test func redeclaringATargetEndsItsAnimationsAndHandlers() throws {
    let input =
      "target card { x: 0, y: 0 }\nanimate card.x to 100 over 1s\nanimate card.y to 100 over 2s\n"
      + "on complete card.x { print \"done\" }\n:watch card.x card.y\n:tick 500ms\ntarget card { x: 5 }\n:tick 2s\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.outputLines.contains("target card redeclared: 2 animations ended, 1 handler removed"))
    #expect(run.outputLines.suffix(3).prefix(2) == ["card.x = 5", "card.y = (gone)"])
    #expect(!run.standardOutput.contains("done"))
    #expect(!run.standardOutput.contains("complete card"))
  }

  /// Issue 13, item 7: redeclaring a playing timeline cancels the old one (its values stay,
  /// nothing fires) and does not start the new one.
  @Test func redeclaringAPlayingTimelineCancelsItWithoutASnap() throws {
    let input =
      "target card { x: 0 }\ntimeline t { animate card.x to 100 over 1s }\nplay t\n:tick 500ms\n"
      + "timeline t { animate card.x to 0 over 1s }\ncard.x\n:tick 1s\ncard.x\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.outputLines.filter { $0.hasPrefix("card.x = ") } == ["card.x = 50", "card.x = 50"])
    #expect(!run.standardOutput.contains("complete"))
  }

  /// Issue 13: `:reset` clears targets, timelines, curves, lets, handlers, pending events
  /// and watches, and sets a virtual clock to 0.
  @Test func resetStartsTheSessionAfresh() throws {
    let input =
      "target card { x: 0 }\nlet k = 3\ntimeline t { animate card.x to 100 over 1s }\nplay t\n"
      + ":watch card.x\nat 2s print \"late\"\n:tick 500ms\n:reset\n:clock\n:status\ncard.x\nk\n:tick 3s\ntarget card { y: 1 }\ncard.y\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.outputLines.contains("the session is reset: nothing declared, nothing playing"))
    #expect(run.outputLines.contains("virtual clock at 0s (moves only on :tick)"))
    #expect(run.outputLines.contains("nothing is playing or paused"))
    #expect(run.errorLines.contains { $0.contains("unknown") && $0.contains("'card'") })
    #expect(run.errorLines.contains { $0.contains("unknown") && $0.contains("'k'") })
    #expect(!run.standardOutput.contains("late"))  // the pending print went with the rest
    #expect(run.outputLines.last { !$0.isEmpty } == "card.y = 1")
    // The watch went too: nothing watched shows after the reset.
    let afterReset = run.outputLines.drop { !$0.hasPrefix("the session is reset") }
    #expect(!afterReset.contains { $0.hasPrefix("card.x = ") })
  }

  /// Issue 13: at `...>`, `:help` is answered and the unfinished entry kept; `:quit`
  /// leaves, discarding it.
  @Test func helpKeepsAnUnfinishedEntryAndQuitDiscardsIt() throws {
    let input =
      "target b { x: 0 }\ntimeline t {\n:help commands\n  animate b.x to 1 over 1s\n}\nplay t\n"
      + "timeline u {\n:q\n:clock\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.standardOutput.contains("Commands:"))
    #expect(run.outputLines.contains("[0s] start t"))  // the entry went on after :help
    #expect(!run.outputLines.contains { $0.hasPrefix("virtual clock at") })  // :q left before :clock
    #expect(!run.standardError.contains("error"))  // nothing of `timeline u {` was evaluated
  }

  /// Issue 13, item 4: `:load` shows at most 500 diagnostics and a count, as `check` does,
  /// and says to use `:restore` for a saved session.
  @Test func loadShowsAtMost500DiagnosticsAndKnowsASavedSession() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let many = try scratch.file("many.anim", String(repeating: "animate 1\n", count: 800))
    let saved = scratch.directory.appendingPathComponent("s.json").path
    let run = try runAnim(
      ["repl", "--clock", "virtual"], input: ":load \(many)\ntarget b { x: 0 }\n:save \(saved)\n:load \(saved)\n")
    #expect(run.status == 0)
    #expect(run.errorLines.filter { $0.contains(": error: ") }.count == 500)
    #expect(run.errorLines.contains("\(many): 300 more errors not shown"))
    #expect(run.errorLines.contains("error: '\(saved)' looks like a saved session: use :restore"))
  }

  /// Issue 13, item 5: `:save` refuses a device, a FIFO, a directory, a link to a directory
  /// and a link loop with one sentence; writes through a symbolic link to its target (a
  /// dangling one creates it); keeps an existing file's mode. All in a scratch directory
  /// (the device, a copy of /dev/null's numbers, only when running as root).
  @Test func saveRefusesWhatIsNotAFileAndWritesThroughLinks() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let dir = scratch.directory.path
    let file = try scratch.file("f.json", "old")
    #expect(chmod(file, 0o640) == 0)
    #expect(symlink("f.json", dir + "/link") == 0)
    #expect(symlink("loop2", dir + "/loop1") == 0)
    #expect(symlink("loop1", dir + "/loop2") == 0)
    #expect(symlink(dir, dir + "/dirlink") == 0)
    #expect(symlink("made.json", dir + "/dangling") == 0)
    #expect(mkfifo(dir + "/fifo", 0o600) == 0)
    // A device node (major 1, minor 3: /dev/null's numbers) can be made only as root, and
    // not in every container even then; without one, that case is said to be left out.
    let root = geteuid() == 0 && mknod(dir + "/device", S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0
    if !root { print("saveRefusesWhatIsNotAFile: no device node could be made here; the device case is not checked") }
    let names = ["fifo", ".", "dirlink", "loop1"] + (root ? ["device"] : []) + ["link", "dangling"]
    let input = "target b { x: 0 }\n" + names.map { ":save \(dir)/\($0)\n" }.joined()
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.errorLines.contains("error: cannot save to '\(dir)/fifo': it is a FIFO, not a file"))
    #expect(run.errorLines.contains("error: cannot save to '\(dir)/.': it is a directory; give a file name"))
    #expect(run.errorLines.contains("error: cannot save to '\(dir)/dirlink': it is a directory; give a file name"))
    #expect(run.errorLines.contains("error: cannot save to '\(dir)/loop1': its symbolic links loop"))
    if root {
      #expect(run.errorLines.contains("error: cannot save to '\(dir)/device': it is a device, not a file"))
      var info = stat()
      #expect(lstat(dir + "/device", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
    // Through the links: f.json rewritten with its mode kept, made.json created; the links stay.
    var info = stat()
    #expect(lstat(dir + "/link", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o640)
    #expect(try scratch.contents(file).hasPrefix("{"))
    #expect(try scratch.contents(dir + "/made.json").hasPrefix("{"))
  }

  /// Issue 13, item 9: `:load`, `:save` and `:restore` expand a leading `~` (here HOME is a
  /// scratch directory) and `~user`; a path with spaces is written in double quotes.
  @Test func fileCommandsExpandATildeAndTakeQuotedPaths() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    _ = try scratch.file("has space.anim", "print \"loaded\"\n")
    let input = ":load \"~/has space.anim\"\n:save ~/s.json\n:load ~nosuchuser-anim/x.anim\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input, home: scratch.directory.path)
    #expect(run.status == 0)
    #expect(run.outputLines.contains("[0s] loaded"))
    #expect(run.outputLines.contains("saved the session to '\(scratch.directory.path)/s.json'"))
    #expect(FileManager.default.fileExists(atPath: scratch.directory.appendingPathComponent("s.json").path))
    #expect(run.errorLines.contains("error: cannot read '~nosuchuser-anim/x.anim': No such file or directory"))
  }

  /// Issue 13: `:events on | off | SUBJECT ...` filters start, repeat, complete and emitted
  /// events by subject; prints are never filtered.
  @Test func eventsFiltersEventsBySubjectButNeverPrints() throws {
    let input =
      "target a { x: 0 }\ntarget b { y: 0 }\n:events a.x done\n"
      + "animate a.x to 1 over 1s\nanimate b.y to 1 over 1s\nat 500ms emit \"done\"\nat 500ms emit \"other\"\n"
      + "on \"other\" { print \"printed\" }\n:tick 2s\n:events off\nanimate a.x to 0 over 1s\n:tick 2s\n:events on\n"
      + "animate b.y to 0 over 1s\n:tick 2s\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    let events = run.outputLines.filter { $0.hasPrefix("[") }
    #expect(
      events == [
        "[0s] start a.x", "[0.5s] done", "[0.5s] printed", "[1s] complete a.x",
        "[4s] start b.y", "[5s] complete b.y",
      ])
    #expect(run.outputLines.contains("events: only of a.x done"))
    #expect(run.outputLines.contains("events: none shown (prints still are)"))
  }

  /// Issue 13: piped output is exact; `:precision short` shows 6 significant digits (no
  /// exponent for 1e-4 ≤ |x| < 1e6, -0 as 0) and times to the millisecond, as a terminal
  /// does; `:precision full` is exact again.
  @Test func precisionShortShowsSixDigitsAndMilliseconds() throws {
    let input =
      "target b { x: 0, v: (0, 0) }\nanimate b.x to 100 over 3s\nat 1.0004s print \"t\"\n:tick 1001ms\nb.x\n"
      + ":precision short\nb.x\nb.x * 1e6\n0.00001234567\n-0.0\n(1 / 3, 2 / 3)\n:precision full\nb.x\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.outputLines.contains("[1.0004s] t"))
    let values = run.outputLines.filter { $0.contains(" = ") }
    #expect(
      values == [
        "b.x = 33.36666666666667", "b.x = 33.3667", "b.x * 1e6 = 3.33667e+07", "0.00001234567 = 1.23457e-05",
        "-0.0 = 0", "(1 / 3, 2 / 3) = (0.333333, 0.666667)", "b.x = 33.36666666666667",
      ])
  }

  @Test func inputEndingInsideABlockReportsWhatIsMissing() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: "timeline x {\n  animate b.x to 1 over 1s\n")
    #expect(run.status == 0)
    #expect(run.standardError.contains("error: expected '}'"))
  }

  @Test func loadOfAMissingFileIsAClearError() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":load /nonexistent/intro.anim\n:clock\n")
    #expect(run.status == 0)
    #expect(run.errorLines[0] == "error: cannot read '/nonexistent/intro.anim': No such file or directory")
    #expect(run.outputLines[0].hasPrefix("virtual clock at 0s"))
  }

  @Test func aFileArgumentThatCannotBeReadExits66() throws {
    let run = try runAnim(["repl", "/nonexistent/intro.anim"], input: "")
    #expect(run.status == 66)
    #expect(run.standardError.contains("cannot read '/nonexistent/intro.anim'"))
  }

  @Test func quitStopsReadingInput() throws {
    let run = try runAnim(["repl", "--clock", "virtual"], input: ":quit\n:clock\n")
    #expect(run.status == 0)
    #expect(run.standardOutput.isEmpty)
  }

  @Test func aFileArgumentIsLoadedFirst() throws {
    let scratch = try ScratchDirectory()
    let path = try scratch.file("card.anim", "target card { x: 0 }\n")
    // `card.x` checks only because the file declared `card`.
    let run = try runAnim(["repl", path, "--clock", "virtual"], input: "card.x\ncard.y\n")
    #expect(run.status == 0)
    #expect(run.errorLines.contains("<stdin>:2:6: error: target 'card' has no property 'y'"))
    #expect(!run.standardError.contains("<stdin>:1:"))
  }

  @Test func tickNeedsTheVirtualClock() throws {
    let run = try runAnim(["repl"], input: ":tick 1s\n:clock\n")
    #expect(run.status == 0)
    #expect(run.errorLines[0].hasPrefix("<stdin>:1:1: error: ':tick' advances a virtual clock"))
    #expect(run.outputLines[0].hasPrefix("real clock at "))
  }

  @Test func theExampleOfTheBriefPrintsFortyTwice() throws {
    let input = "target b { x: 0 }\nanimate b.x to 100 over 1s\n:tick 400ms\nb.x\npause\n:tick 1s\nb.x\n"
    let run = try runAnim(["repl", "--clock", "virtual"], input: input)
    #expect(run.status == 0)
    #expect(run.outputLines.filter { $0 == "b.x = 40" }.count == 2)
    #expect(run.standardError.isEmpty)
  }

  @Test func saveInOneProcessRestoreInAnother() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("session.json")
    let first = try runAnim(
      ["repl", "--clock", "virtual"],
      input: "target b { x: 0 }\non complete b.x { print \"b done with {b.x}\" }\n"
        + "animate b.x to 100 over 1s\n:tick 250ms\n:save \(path)\n")
    #expect(first.status == 0)
    #expect(first.standardError.isEmpty)
    let second = try runAnim(
      ["repl", "--clock", "virtual"],
      input: ":tick 3s\n:restore \(path)\nb.x\n:clock\n:tick 1s\nb.x\nresume\n:tick 500ms\nb.x\n:clock\n:tick 1s\nb.x\n"
    )
    #expect(second.status == 0)
    // Held: the clock reads the saved instant, and a tick moves nothing and says why.
    #expect(second.outputLines.contains("virtual clock at 0.25s (held since :restore until 'resume')"))
    #expect(second.standardError.contains("the session is held at 0.25s since :restore"))
    #expect(second.outputLines.contains("virtual clock at 0.75s (moves only on :tick)"))
    let values = second.outputLines.filter { $0.hasPrefix("b.x = ") }
    // Restored at 25, held until resume, then on from exactly there: 75 after 0.5 s, 100.
    #expect(values == ["b.x = 25", "b.x = 25", "b.x = 75", "b.x = 100"])
    // The handler came back with the session and fired at the saved timeline's 1 s.
    #expect(second.outputLines.contains("[1s] b done with 100"))
  }

  @Test func aFutureVersionFileIsRefusedAndTheSessionGoesOn() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("session.json")
    try #"{"format":"anim-session","version":99}"#.write(toFile: path, atomically: true, encoding: .utf8)
    let run = try runAnim(
      ["repl", "--clock", "virtual"], input: "target b { x: 3 }\n:restore \(path)\nb.x\n")
    #expect(run.status == 0)
    #expect(run.standardError.contains("newer"))
    #expect(run.outputLines.contains("b.x = 3"))
  }

  @Test func everyStatementKindAndCommandInOnePipedSession() throws {
    let script = """
      target b { x: 0, pos: (0, 0) }
      let d = 1s
      curve c = cubic(0.42, 0, 0.58, 1)
      on complete b.x { print "b.x rests at {b.x}" }
      on "hello" { print "hello heard" }
      animate b.x to 100 over d
      :tick 500ms
      b.x
      keyframes b.pos over 1s {
        0%: (0, 0)
        100%: (10, 20)
      }
      :tick 500ms
      b.pos
      set b.x to 7
      b.x
      emit "hello"
      timeline t {
        animate b.x to 17 over 1s with c
      }
      play t
      :tick 500ms
      b.x
      pause t
      :tick 1s
      b.x
      reverse t
      resume t
      :tick 250ms
      b.x
      seek t to 1s
      b.x
      speed t 2
      :status
      wait 1s
      print "a second later"
      :watch b.pos
      :tick 1s
      :unwatch
      :clock
      :quit
      b.x
      """
    let run = try runAnim(["repl", "--clock", "virtual"], input: script + "\n")
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let out = run.outputLines
    let easeInOut = { (x: Double) -> Double in
      // cubic(0.42, 0, 0.58, 1) by bisection, independent of the engine.
      var low = 0.0
      var high = 1.0
      for _ in 0..<200 {
        let t = (low + high) / 2
        let bx = 3 * (1 - t) * (1 - t) * t * 0.42 + 3 * (1 - t) * t * t * 0.58 + t * t * t
        if bx < x { low = t } else { high = t }
      }
      let t = (low + high) / 2
      return 3 * (1 - t) * t * t + t * t * t
    }
    func number(_ line: String) -> Double? {
      Double(line.split(separator: "=").last!.trimmingCharacters(in: .whitespaces))
    }
    let values = out.filter { $0.hasPrefix("b.x = ") }.compactMap(number)
    #expect(values.count == 6)
    guard values.count == 6 else { return }
    #expect(values[0] == 50)
    #expect(values[1] == 7)
    #expect(abs(values[2] - (7 + 10 * easeInOut(0.5))) < 1e-6)
    #expect(abs(values[3] - (7 + 10 * easeInOut(0.5))) < 1e-6)  // paused for a second
    #expect(abs(values[4] - (7 + 10 * easeInOut(0.25))) < 1e-6)  // reversed, 250 ms back
    #expect(values[5] == 17)  // sought to its end
    #expect(out.contains("b.pos = (5, 10)"))
    #expect(out.contains("[1s] complete b.x"))
    #expect(out.contains("[1s] b.x rests at 100"))
    #expect(out.contains("[1s] hello"))
    #expect(out.contains("[1s] hello heard"))
    // At its end after the seek (silently: no complete), now at double speed.
    #expect(out.contains("timeline t: finished, forwards, speed 2, 1s / 1s (100%)"))
    #expect(!out.contains("[1.75s] complete t"))
    #expect(out.contains { $0.hasSuffix("a second later") })
    #expect(out.contains("b.pos = (10, 20)"))  // watched after the :tick
    #expect(out.contains { $0.hasPrefix("virtual clock at ") })
    // After :quit nothing more runs.
    #expect(out.filter { $0.hasPrefix("b.x = ") }.count == 6)
  }
}
