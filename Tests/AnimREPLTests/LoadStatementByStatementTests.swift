// `:load` reads a file one top-level statement at a time (Runtime+Entry.swift), as `anim run`
// does, instead of whole. The reference is the whole path, reached independently: the same
// file's text typed as one entry into a session whose input is named as the file
// (`Session.evaluate`, which parses, checks and runs an entry whole). Both must print the
// same, declare the same, and leave the same session: its saved file (engine, values,
// handlers, pending statements) the same byte for byte, and the same values after playing on.

import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation
import Testing

@testable import AnimREPL
@testable import AnimRuntime

private let examples = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("examples")

private func exampleNames() throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".anim") }.sorted()
}

/// Two sessions, one loading files (`:load`), one typing their text whole, taken through the
/// same steps.
private struct Pair {
  let loading = Transcript()
  let typing: Transcript
  let scratch: ScratchDirectory

  init(_ scratch: ScratchDirectory, name: String) {
    self.scratch = scratch
    typing = Transcript(sourceName: scratch.path(name))
  }

  /// Loads `contents` (as file `name`, the name `typing` gives its input) in one session
  /// and types it in the other; the outcome of the load.
  @discardableResult
  func load(_ name: String, _ contents: String) throws -> Session.LoadOutcome {
    let path = try scratch.file(name, contents)
    let outcome = loading.session.load(path: path)
    typing.session.evaluate(contents)
    return outcome
  }

  /// The same step in both.
  func type(_ entries: String...) {
    for entry in entries {
      loading.session.evaluate(entry)
      typing.session.evaluate(entry)
    }
  }

  /// Saves `transcript`'s session (what `:save` says left out of its output) and restores
  /// it into a fresh session.
  func restored(_ transcript: Transcript) -> Transcript {
    let path = scratch.path("saved-\(UUID().uuidString).json")
    let output = transcript.standardOutput
    transcript.session.evaluate(":save \(path)")
    transcript.standardOutput = output
    let restored = Transcript()
    restored.session.evaluate(":restore \(path)")
    restored.clear()
    return restored
  }

  func expectSame(_ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    expectSameSessions(loading, typing, what, sourceLocation: sourceLocation)
  }

  /// Both sessions saved, restored into fresh ones, resumed and played on for 5 s: the same
  /// again. (The streamed start numbers the engine's callbacks and walks the statements
  /// after a loop otherwise than the whole run, so the saved files are not the same bytes:
  /// what they hold must play the same.)
  func expectSameAfterRestoring(_ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let (loaded, typed) = (restored(loading), restored(typing))
    for transcript in [loaded, typed] { transcript.type("resume", ":tick 5s") }
    #expect(!loaded.standardError.contains("cannot restore"), "\(what): \(loaded.standardError)")
    expectSameSessions(loaded, typed, "\(what), saved and restored", sourceLocation: sourceLocation)
  }
}

/// The same output, diagnostics, declarations, clock, values and `:status`.
private func expectSameSessions(
  _ loading: Transcript, _ typing: Transcript, _ what: String, sourceLocation: Testing.SourceLocation
) {
  #expect(loading.standardOutput == typing.standardOutput, "\(what): output", sourceLocation: sourceLocation)
  #expect(loading.standardError == typing.standardError, "\(what): diagnostics", sourceLocation: sourceLocation)
  #expect(
    loading.session.environment == typing.session.environment, "\(what): declarations", sourceLocation: sourceLocation)
  #expect(loading.session.now == typing.session.now, "\(what): clock", sourceLocation: sourceLocation)
  let (loaded, typed) = (runtime(of: loading.session), runtime(of: typing.session))
  #expect(loaded.propertyNames == typed.propertyNames, "\(what): properties", sourceLocation: sourceLocation)
  #expect(loaded.sample() == typed.sample(), "\(what): values", sourceLocation: sourceLocation)
  #expect(loaded.statusLines() == typed.statusLines(), "\(what): status", sourceLocation: sourceLocation)
}

/// The runtime behind a session (the default backend).
private func runtime(of session: Session) -> Runtime {
  (session.runtime as! RuntimeBackend).runtime
}

@Suite("Session: load statement by statement")
struct LoadStatementByStatementTests {
  @Test(arguments: try exampleNames())
  func anExampleLoadsAsItsTextTypedWhole(_ name: String) throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let text = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
    let pair = Pair(scratch, name: name)
    // It takes the new path: a fresh session plans it statement by statement.
    let plan = runtime(of: pair.loading.session).planEntry(
      SourceText(name: name, contents: text), in: pair.loading.session.environment)
    #expect(plan != nil, "\(name) is loaded whole")
    #expect(try pair.load(name, text) == .loaded)
    pair.expectSame("\(name) loaded")
    pair.expectSameAfterRestoring("\(name) loaded")
    pair.type(":tick 2500ms")
    pair.expectSame("\(name) after 2.5s")
    // Loaded again over itself, while its animations may still play: redeclarations.
    try pair.load(name, text)
    pair.type(":tick 10s")
    pair.expectSame("\(name) loaded again")
    pair.expectSameAfterRestoring("\(name) loaded again")
  }

  /// A file whose last line has an error: nothing of it is declared or run, the session
  /// (saved, before and after) is unchanged, and the error is reported at its line and
  /// column, with the caret, as the whole check reports it.
  @Test func aFileWithAnErrorAtItsEndChangesNothing() throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let pair = Pair(scratch, name: "bad.anim")
    pair.type("target card { x: 1 }", "animate card.x to 5 over 1s", ":tick 250ms")
    let session = runtime(of: pair.loading.session)
    let (values, status, keys) = (session.sample(), session.statusLines(), session.nextKey)
    let environment = pair.loading.session.environment
    pair.loading.clear()
    pair.typing.clear()
    var text = "target card { x: 100, y: 2 }\ntarget other { z: 0 }\n"
    for k in 0..<2_000 { text += "let v\(k) = \(k)\nprint \"line \(k)\"\n" }
    text += "animate card.x to \"far\" over 1s\n"
    let errorLine = 2 + 2 * 2_000 + 1
    #expect(try pair.load("bad.anim", text) == .hadErrors)
    #expect(pair.loading.standardOutput.isEmpty)
    #expect(pair.loading.session.environment == environment)
    #expect(session.sample() == values && session.statusLines() == status && session.nextKey == keys)
    #expect(session.entries.count == 2, "an input was run")
    let path = scratch.path("bad.anim")
    // The position from the text: the string starts after `animate card.x to `, column 19.
    let diagnostic = "\(path):\(errorLine):19: error: "
    #expect(pair.loading.standardError.hasPrefix(diagnostic), "\(pair.loading.standardError)")
    #expect(
      pair.loading.standardError.contains(
        "animate card.x to \"far\" over 1s\n" + String(repeating: " ", count: 18) + "^"))
    #expect(pair.loading.standardError.hasSuffix("note: nothing from '\(path)' was loaded: the session is unchanged\n"))
    // What the whole check says, and nothing more.
    #expect(pair.loading.standardError.hasPrefix(pair.typing.standardError))
  }

  /// A file that redeclares the session's target as its first statement, where nothing has
  /// read the target before and no animation of it is playing, is read statement by
  /// statement, with the redeclaration's note where the whole run puts it.
  @Test func aRedeclarationAtTheStartLoadsStatementByStatement() throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let pair = Pair(scratch, name: "again.anim")
    pair.type("target card { x: 1, w: 4 }", "on complete card.x { print \"done\" }")
    let text = """
      target card { x: 5, y: 1 }
      let k = 2
      print "{card.x} {card.y}"
      animate card.x to 10 * k over 1s
      on complete card.x { print "again" }
      """
    let source = SourceText(name: "again.anim", contents: text)
    #expect(
      runtime(of: pair.loading.session).planEntry(source, in: pair.loading.session.environment) != nil)
    #expect(try pair.load("again.anim", text) == .loaded)
    #expect(pair.loading.standardOutput.contains("target card redeclared: 0 animations ended, 1 handler removed\n"))
    pair.type(":tick 2s", "card.x")
    pair.expectSame("redeclared at the start")
  }

  /// Inputs that check clean but that a statement-by-statement load could run differently
  /// from the whole run are run whole: the plan declines them, and they run as the whole
  /// path runs them.
  @Test(arguments: [
    (
      "a target declared twice",
      "target card { x: 1 }", "target card { x: 5 }\nanimate card.x to 2 over 1s\ntarget card { x: 7, y: 1 }\n"
    ),
    (
      "a redeclaration after a statement that reads the target",
      "target card { x: 1 }", "let before = card.x\ntarget card { x: 5 }\nprint \"{before}\"\n"
    ),
    (
      "a redeclaration after a handler is set up",
      "target card { x: 1 }", "on start card.x { print \"moves\" }\ntarget card { x: 5 }\nanimate card.x to 0 over 1s\n"
    ),
    (
      "a redeclaration of a target whose animation plays",
      "target card { x: 1 }\nanimate card.x to 9 over 5s", "target card { x: 5 }\nprint \"{card.x}\"\n"
    ),
    (
      "a target declared again in a loop",
      "target card { x: 1 }",
      "target card { x: 5 }\nanimate card.x to 9 over 1s\nfor i in 0..<2 {\n  target card { x: i }\n}\n"
    ),
  ])
  func anInputTheStreamedLoadCouldGetWrongRunsWhole(_ why: String, _ session: String, _ text: String) throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let pair = Pair(scratch, name: "whole.anim")
    for entry in session.split(separator: "\n") { pair.type(String(entry)) }
    pair.type(":tick 100ms")
    let source = SourceText(name: "whole.anim", contents: text)
    var environment = pair.loading.session.environment
    #expect(parseAndCheck(source, in: &environment, mode: .session).isRunnable, "\(why): does not check")
    #expect(
      runtime(of: pair.loading.session).planEntry(source, in: pair.loading.session.environment) == nil,
      "\(why): planned statement by statement")
    #expect(try pair.load("whole.anim", text) == .loaded)
    pair.type(":tick 6s")
    pair.expectSame(why)
  }

  /// Targets whose initial values are not all constants (created in two steps by the whole
  /// run: their constants before anything runs, the rest when their statement runs) load
  /// statement by statement, with the whole run's values and order of properties; a
  /// redeclaration of the session's target so made too, at the start.
  @Test(arguments: [
    "target other { y: card.x * 2, z: 1 }\ntarget third { w: 3 }\nprint \"{other.y}\"\n",
    "target card { x: 5, v: card.x + 1 }\nanimate card.v to 0 over 1s\ntarget more { u: card.v, t: 2 }\n",
  ])
  func targetsCreatedInTwoStepsLoadStatementByStatement(_ text: String) throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let pair = Pair(scratch, name: "two.anim")
    pair.type("target card { x: 1 }", ":tick 100ms")
    let source = SourceText(name: "two.anim", contents: text)
    #expect(runtime(of: pair.loading.session).planEntry(source, in: pair.loading.session.environment) != nil)
    #expect(try pair.load("two.anim", text) == .loaded)
    pair.type(":tick 2s")
    pair.expectSame(text)
  }

  /// Warnings of a file that loads (a shadowed preset; a handler for an event nothing
  /// emits yet, which a session does not warn about) are the whole check's.
  @Test func warningsAreTheWholeChecks() throws {
    let scratch = try ScratchDirectory(prefix: "anim-load")
    let pair = Pair(scratch, name: "warn.anim")
    let text = "target a { x: 0 }\non \"later\" { print \"heard\" }\nlet ease = 3\nanimate a.x to ease over 1s\n"
    #expect(try pair.load("warn.anim", text) == .loaded)
    #expect(pair.loading.standardError.contains("warning: 'ease' shadows"))
    pair.type("emit \"later\"", ":tick 1s")
    pair.expectSame("warnings")
  }
}
