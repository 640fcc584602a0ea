// A large script is read for running with its check on a thread of its own
// (`CheckingThread`): what it hands over must be exactly what the same check hands over on
// the calling thread, and a reading stopped part-way must end its threads.

import AnimTestSupport
import Foundation
import Testing

@testable import AnimLanguage

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CheckedStatementReaderTests {
  /// What a reading handed over, statement by statement, and how it ended.
  struct Reading: Equatable {
    var statements: [String] = []
    var outcome = ""
    var environment = Environment()
    var gathered = ""
  }

  static func describe(_ facts: ResolvedFacts) -> String {
    let lines =
      facts.constants.entries.map { "c \($0.span.start)-\($0.span.end) \($0.value)" }
      + facts.references.entries.map { "r \($0.span.start)-\($0.span.end) \($0.value)" }
      + facts.placements.entries.map { "p \($0.span.start)-\($0.span.end) \($0.value)" }
    return lines.sorted().joined(separator: "; ")
  }

  static func describe(_ outcome: CheckedStatementReader.Outcome) -> String {
    switch outcome {
    case .clean(let warnings): "clean: " + warnings.map(\.message).joined(separator: " | ")
    case .mustReadWhole: "must read whole"
    }
  }

  static func describe(_ checked: CheckedStatement) -> String {
    "\(checked.statement.span.start)-\(checked.statement.span.end) \(checked.isGathered) [\(describe(checked.facts))]"
  }

  /// Through the reader (on threads, for a script of 256 KiB and more).
  static func read(_ source: SourceText) -> Reading {
    var reader = CheckedStatementReader(source)
    var reading = Reading()
    while let checked = reader.next() { reading.statements.append(describe(checked)) }
    reading.outcome = describe(reader.finish())
    reading.environment = reader.environment
    reading.gathered = describe(reader.gatheredFacts())
    return reading
  }

  /// The same check on this thread.
  static func readOnOneThread(_ source: SourceText) -> Reading {
    var check = StatementByStatementCheck(source, in: Environment(), mode: .script)
    var reading = Reading()
    while let checked = check.next() { reading.statements.append(describe(checked)) }
    reading.outcome = describe(check.finish())
    reading.environment = check.environment
    reading.gathered = describe(check.gatheredFacts())
    return reading
  }

  /// A generated script of at least 300 KB (read on threads), `ending` appended.
  static func largeScript(seed: UInt64, ending: String = "") -> SourceText {
    var generator = ScriptGenerator(seed: seed)
    return SourceText(name: "large.anim", contents: generator.script(bytes: 300_000) + ending)
  }

  /// ScriptGenerator's scripts hold every form (some end the reading: a question about a
  /// statement further down answered wrong, which the whole check then reads).
  @Test(arguments: [1, 2, 3] as [UInt64])
  func aLargeScriptReadOnThreadsIsHandedOverAsOnOne(_ seed: UInt64) {
    let source = Self.largeScript(seed: seed)
    #expect(source.bytes.count >= ParsingThread.minimumSize)
    let threaded = Self.read(source)
    #expect(threaded.statements.count > 100)
    #expect(threaded == Self.readOnOneThread(source))
  }

  /// `hasFacts`, which the checking thread finds from what it recorded, says whether the
  /// statement's facts hold anything (the runner reads it instead of counting the tables).
  @Test(arguments: [1, 2, 3] as [UInt64])
  func eachStatementSaysWhetherItHasFacts(_ seed: UInt64) {
    let source = Self.largeScript(seed: seed)
    var reader = CheckedStatementReader(source)
    var withFacts = 0
    var without = 0
    while let checked = reader.next() {
      #expect(checked.hasFacts == !checked.facts.isEmpty, "\(Self.describe(checked))")
      if checked.hasFacts { withFacts += 1 } else { without += 1 }
    }
    _ = reader.finish()
    var check = StatementByStatementCheck(source, in: Environment(), mode: .script)
    while let checked = check.next() {
      #expect(checked.hasFacts == !checked.facts.isEmpty, "\(Self.describe(checked))")
    }
    _ = check.finish()
    // (Both kinds are there to tell apart.)
    #expect(withFacts > 0)
    #expect(without > 0)
  }

  @Test func aLargeCleanScriptEndsWithItsWarnings() {
    var text = "target a { x: 0 }\ntimeline t { animate a.x to 1 over 1s }\n"
    var n = 0
    while text.utf8.count < 300_000 {
      text += "let v\(n) = \(n) * 2\n"
      if n % 100 == 0 { text += "at \(n)ms animate a.x to v\(n) over 1s\nfor i in 0..<1 { play t }\n" }
      n += 1
    }
    text += "let ease = 3\n"  // shadows the preset curve: a warning
    let source = SourceText(name: "clean.anim", contents: text)
    let threaded = Self.read(source)
    #expect(threaded.outcome.hasPrefix("clean: ") && threaded.outcome.contains("ease"))
    #expect(threaded.statements.count > 10_000)
    #expect(threaded.statements.contains { $0.contains(" true ") })  // gathered after the loop
    #expect(threaded == Self.readOnOneThread(source))
  }

  @Test func aLargeScriptWithAnErrorStopsAtItAsOnOne() {
    var text = ""
    var n = 0
    while text.utf8.count < 300_000 {
      text += "let v\(n) = \(n)\n"
      if n == 3_000 { text += "let broken = nothing + 1\n" }
      n += 1
    }
    let source = SourceText(name: "error.anim", contents: text)
    let threaded = Self.read(source)
    #expect(threaded.outcome == "must read whole")
    #expect(threaded.statements.count == 3_001)
    #expect(threaded == Self.readOnOneThread(source))
  }

  /// A runner that finds part-way that the script must be read whole stops the reading (or
  /// lets the reader go): its threads end, and nothing waits forever.
  @Test func aReadingStoppedPartWayEndsItsThreads() {
    let source = Self.largeScript(seed: 7)
    var reader = CheckedStatementReader(source)
    for _ in 0..<10 { _ = reader.next() }
    #expect(Self.describe(reader.finish()) == "must read whole")
    #expect(reader.next() == nil)
    // A reader let go without `finish()` stops its threads as it goes: its checking thread
    // ends, and nothing holds it then.
    weak var thread: CheckingThread?
    do {
      var dropped = CheckedStatementReader(source)
      _ = dropped.next()
      thread = dropped.checking
      #expect(thread != nil)
    }
    let deadline = Date().addingTimeInterval(10)
    while thread != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    #expect(thread == nil)
  }

  /// The reader's thread runs as batch work while a large script is read on three threads,
  /// and as it did before once the reading ends: read to its end, stopped part-way, or let go
  /// (BatchScheduling.swift).
  @Test func theReadersThreadIsBatchWorkOnlyWhileItReads() {
    #if canImport(Glibc)
      let before = currentPolicy
      #expect(before == BatchScheduling.other)
      let source = Self.largeScript(seed: 3)
      var reader = CheckedStatementReader(source)
      #expect(reader.next() != nil)
      #expect(currentPolicy == BatchScheduling.batch)
      while reader.next() != nil {}
      #expect(currentPolicy == before)

      var stopped = CheckedStatementReader(source)
      _ = stopped.next()
      #expect(currentPolicy == BatchScheduling.batch)
      _ = stopped.finish()
      #expect(currentPolicy == before)

      do {
        var dropped = CheckedStatementReader(source)
        _ = dropped.next()
        #expect(currentPolicy == BatchScheduling.batch)
      }
      #expect(currentPolicy == before)
    #endif
  }

  /// Entering gives the policy back as it found it, and a thread already under it is left
  /// as it is (nothing to give back).
  @Test func batchSchedulingGivesBackWhatItFound() {
    #if canImport(Glibc)
      let before = currentPolicy
      let entered = BatchScheduling.enter()
      #expect(entered != nil)
      #expect(currentPolicy == BatchScheduling.batch)
      #expect(BatchScheduling.enter() == nil)
      entered?.leave()
      #expect(currentPolicy == before)
    #endif
  }
}

#if canImport(Glibc)
  /// The calling thread's scheduling policy now.
  private var currentPolicy: Int32 {
    var policy: Int32 = -1
    var parameters = sched_param()
    _ = pthread_getschedparam(pthread_self(), &policy, &parameters)
    return policy
  }
#endif
