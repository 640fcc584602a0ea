// A script started statement by statement (`Runtime.start`, what `anim run` and `anim trace`
// do) against the same script checked whole and run (`Runtime.trace(_:of:...)`): the same
// records, the same runtime errors, in the same order. And which scripts take the statement
// by statement path, and which are read again whole, for the reasons Runtime+Start.swift
// gives.

import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation
import Testing

@testable import AnimRuntime

private let examples = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("examples")

private func exampleNames() throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".anim") }.sorted()
}

/// Scripts whose order at time 0 a streamed start could get wrong: statements, their events
/// and handlers, emits, statements placed later, targets among statements, a runtime error.
private let orderScripts: [String] = [
  """
  target a { x: 0 }
  on start a.x { print "a.x starts at {now}" }
  animate a.x to 10 over 1s
  print "after the animate"
  emit "go"
  on "go" { print "went" }
  target b { y: 5 }
  set b.y to 7
  print "b.y = {b.y}"
  """,
  """
  target a { x: 0 }
  at 500ms print "half"
  wait 250ms
  print "a quarter"
  at 0s print "at zero, after the wait"
  animate a.x to 1 over 1s
  at 0ms print "at zero again"
  """,
  """
  target a { x: 0 }
  timeline t { animate a.x to 100 over 1s; print "in t" }
  play t
  on complete t { print "t done"; animate a.x to 0 over 1s }
  let k = a.x / 0
  print "goes on"
  """,
  """
  target a { x: 0, c: #ff0000 }
  let d = 2
  keyframes a.x over 1s { 0%: 0, 50%: 10 * d, 100%: 5 }
  animate a.c to #00ff00 over 500ms with spring(duration: 0.4, bounce: 0.2)
  finish a.x
  print "{a.x}"
  """,
  // Targets created in two steps (an initial value that is not a constant): the whole run
  // gives every target its constant values before anything runs, and the others when its
  // statement runs, so those come after every target's constants among the columns.
  """
  target a { x: 0 }
  animate a.x to 10 over 1s
  target b { y: a.x + 1, z: 3 }
  target c { w: 5, v: b.y * 2 }
  set b.y to 4
  target d { u: 1 }
  wait 250ms
  target e { q: a.x, r: 2 }
  target f { s: b.y }
  for i in 0..<2 { animate a.x to i over 1s }
  target g { t: c.v, k: 1 }
  target row[3] { x: index * 10, y: a.x + index }
  """,
  // Constant `let`s, which a trace runs as nothing, one of them held after a `wait` and
  // read again when due, with the facts of its own references.
  """
  target a { x: 0 }
  let k = 2 * 3 + 1
  wait 100ms
  let j = k * 2 + 1
  print "j is {j}, k is {k}"
  animate a.x to j over 1s
  """,
  """
  target a { x: 0 }
  target b { y: a.x / a.x, z: 1 }
  print "b.z = {b.z}"
  target c { w: 2 }
  """,
  // Targets of a kind (their statements' contexts kept, for what they draw), one of them
  // created in two steps, among targets with one list of properties and others.
  """
  target game: none { score: 0 }
  target banner: text "Score: {game.score}" { y: -120, opacity: 0 }
  target dot1 { x: 1, y: 0 }
  target dot2 { x: 2, y: 0 }
  target ring: circle { x: game.score + 1, r: 4 }
  animate game.score to 10 over 1s
  target dot3 { x: 3, y: 0 }
  target dot4 { y: 0, x: 4 }
  wait 300ms
  target late: circle { x: game.score }
  print "{banner.y} {ring.x}"
  """,
]

/// Scripts that must be read whole, and why.
private let wholeScripts: [(String, String)] = [
  ("a placement that is not a constant", "target a { x: 0 }\nset a.x to 5\nat a.x * 100ms print \"late\"\n"),
  ("a wait that is not a constant", "target a { x: 2 }\nwait a.x * 1s\nprint \"after\"\n"),
  ("a timeline played before its declaration", "target a { x: 0 }\nplay t\ntimeline t { animate a.x to 1 over 1s }\n"),
  ("a check error", "target a { x: 0 }\nanimate a.x to \"no\" over 1s\n"),
  ("a syntax error", "target a { x: 0 }\nanimate a.x to over 1s\n"),
]

private func expectSame(
  _ script: String, _ options: TraceOptions, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  let streamed = try trace(script, options)
  let whole = try traceWhole(script, options)
  #expect(streamed.records == whole.records, "\(what): records differ", sourceLocation: sourceLocation)
  #expect(
    streamed.errors.map { "\($0.message) \($0.span) \($0.time)" }
      == whole.errors.map { "\($0.message) \($0.span) \($0.time)" }, "\(what): runtime errors differ",
    sourceLocation: sourceLocation)
}

@Test(arguments: try exampleNames())
func anExampleStartedStatementByStatementTracesAsWhole(_ name: String) throws {
  let script = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
  try expectSame(script, TraceOptions(fps: 20, until: 12_000_000_000), name)
  try expectSame(script, TraceOptions(until: 0), "\(name) --until 0s")
  let runtime = Runtime()
  #expect(runtime.runStatementByStatement(SourceText(name: name, contents: script)) != nil, "\(name) is read whole")
}

@Test(arguments: orderScripts.indices)
func theOrderAtTheStartIsTheWholeRunsOrder(_ index: Int) throws {
  let script = orderScripts[index]
  try expectSame(script, TraceOptions(fps: 10, until: 3_000_000_000), "script \(index)")
  let runtime = Runtime()
  #expect(runtime.runStatementByStatement(SourceText(name: "order.anim", contents: script)) != nil)
}

/// ScriptGenerator's scripts (every form of the language): started as `anim trace` starts
/// them (statement by statement as far as they can be), traced as whole.
@Test(arguments: 1...40)
func aGeneratedScriptStartedStatementByStatementTracesAsWhole(_ seed: Int) throws {
  var generator = ScriptGenerator(seed: UInt64(seed))
  let script = generator.script(bytes: 3_000)
  try expectSame(script, TraceOptions(fps: 10, until: 3_000_000_000), "seed \(seed)")
  try expectSame(script, TraceOptions(until: 0), "seed \(seed) --until 0s")
}

@Test(arguments: wholeScripts.indices)
func aScriptAStreamedStartCannotMatchIsReadWhole(_ index: Int) throws {
  let (why, script) = wholeScripts[index]
  let runtime = Runtime()
  #expect(runtime.runStatementByStatement(SourceText(name: "whole.anim", contents: script)) == nil, "\(why)")
  let source = SourceText(name: "whole.anim", contents: script)
  var environment = Environment()
  let result = parseAndCheck(source, in: &environment, mode: .script)
  switch Runtime.start(source) {
  case .started(_, _, let warnings):
    #expect(result.isRunnable, "\(why): started, but the whole check finds errors")
    #expect(warnings.map(\.message) == result.diagnostics.map(\.message))
    try expectSame(script, TraceOptions(fps: 10, until: 2_000_000_000), why)
  case .failed(let diagnostics):
    #expect(!result.isRunnable, "\(why): refused, but the whole check finds none")
    #expect(diagnostics.map(\.message) == result.diagnostics.map(\.message), "\(why): other diagnostics")
  }
}

/// A script large enough that the parser runs on a thread of its own (256 KiB and up),
/// with a warning near its end: started statement by statement, with the whole check's
/// warning, and traced as whole.
@Test func aLargeScriptStartsOnTwoThreadsWithItsWarnings() throws {
  var script = "target a { x: 0 }\n"
  var n = 0
  while script.utf8.count < 300_000 {
    script += "let v\(n) = \(n) * 2\n"
    if n % 500 == 0 { script += "animate a.x to v\(n) over 1s delay \(n / 500 % 5 + 1)00ms\n" }
    n += 1
  }
  script += "let ease = 3\n"  // shadows the preset curve: a warning
  let source = SourceText(name: "large.anim", contents: script)
  #expect(Runtime().runStatementByStatement(source) != nil, "the large script is read whole")
  guard case .started(let runtime, let first, let warnings) = Runtime.start(source) else {
    Issue.record("the large script does not start")
    return
  }
  #expect(warnings.map(\.severity) == [.warning])
  var records: [TraceRecord] = []
  try runtime.trace(
    startedWith: first, options: TraceOptions(until: 0), emit: { records.append($0) }, report: { _, _ in })
  // At 0 every animation waits in its delay (a.x has left rest) and a.x has not moved.
  #expect(
    records == [
      .event(time: 0, name: "start", subject: "a.x"),
      .sample(time: 0, values: [NamedValue(name: "a.x", value: .number(0))]),
    ])
  try expectSame(script, TraceOptions(fps: 4, until: 1_000_000_000), "the large script")
}

/// A preset's name runs as its preset, and a declaration that shadows it as the
/// declaration: the checker keeps no fact for a preset named as written, and keeps the
/// shadowing one's. Small and large (read on threads), streamed and whole, each a.x half-way
/// through a one-second animation to 100 is 100 × the curve's progress at 0.5.
@Test(arguments: [
  ("", try CubicBezier(0.42, 0, 1, 1)),  // easeIn itself
  ("curve easeIn = cubic(0.1, 0.2, 0.3, 1)\n", try CubicBezier(0.1, 0.2, 0.3, 1)),
  ("let easeIn = linear\n", try CubicBezier(0, 0, 1, 1)),
])
func aPresetsNameIsThePresetUnlessADeclarationShadowsIt(_ declaration: String, _ curve: CubicBezier) throws {
  let script = "target a { x: 0 }\n\(declaration)animate a.x to 100 over 1s with easeIn\n"
  var large = script
  var n = 0
  while large.utf8.count < 300_000 {
    large += "let v\(n) = \(n)\n"
    n += 1
  }
  let options = TraceOptions(fps: 4, until: 1_000_000_000)
  for text in [script, large] {
    let traced = try trace(text, options)
    #expect(close(traced.number("a.x", at: 500_000_000), 100 * curve.progress(at: 0.5)), "\(declaration)")
    try expectSame(text, options, "\(declaration)")
  }
}
