// FactRecorder: a check's facts of one kind, listed a statement at a time or kept in a
// dictionary; either way, a later fact of a span replaces an earlier one, and each table
// made of them finds exactly the last fact of every span recorded.

import AnimTestSupport
import Testing

@testable import AnimLanguage

@Suite struct FactRecorderTests {
  /// Span (3k, 3k + 2 + k % 2), as SpanTableTests makes them.
  private func span(_ k: Int) -> SourceSpan { SourceSpan(start: 3 * k, end: 3 * k + 2 + k % 2) }

  /// `n` facts, span k holding k, recorded in a scrambled order, then the even ones again
  /// holding -k (which replace them).
  private func recorded(_ n: Int, listing: Bool) -> FactRecorder<Int> {
    var recorder = FactRecorder<Int>(listing: listing)
    for k in (0..<n).map({ ($0 * 7) % max(n, 1) }) { recorder.record(k, at: span(k)) }
    for k in stride(from: 0, to: n, by: 2) { recorder.record(-k, at: span(k)) }
    return recorder
  }

  @Test(arguments: [0, 1, 2, 3, 64, 65, 300])
  func theLastFactOfEverySpanIsFound(_ n: Int) {
    // (7 and the sizes share no factor: each k is recorded once before the repeats.)
    for listing in [true, false] {
      var recorder = recorded(n, listing: listing)
      let table = recorder.take()
      #expect(table.count == n)
      for k in 0..<n {
        #expect(table[span(k)] == (k % 2 == 0 ? -k : k))
        #expect(table[SourceSpan(start: 3 * k, end: 3 * k + 5)] == nil)
      }
      #expect(table[span(n)] == nil)
      #expect(recorder.count == 0)
      #expect(recorder.take().count == 0)
    }
  }

  @Test func aNodeRecordedAfterAPartThatStartsLaterIsInOrder() {
    // `a + b * c`: `b * c` (4-9) first, then the whole (0-9), then `a` (0-1).
    var recorder = FactRecorder<String>(listing: true)
    recorder.record("b * c", at: SourceSpan(start: 4, end: 9))
    recorder.record("a + b * c", at: SourceSpan(start: 0, end: 9))
    recorder.record("a", at: SourceSpan(start: 0, end: 1))
    let table = recorder.take()
    #expect(table.count == 3)
    #expect(table[SourceSpan(start: 0, end: 1)] == "a")
    #expect(table[SourceSpan(start: 0, end: 9)] == "a + b * c")
    #expect(table[SourceSpan(start: 4, end: 9)] == "b * c")
    #expect(table.entries.map(\.span.start) == [0, 0, 4])
  }

  @Test func aSpanRecordedTwiceIsOneEntry() {
    var recorder = FactRecorder<Int>(listing: true)
    recorder.record(1, at: span(5))
    recorder.record(2, at: span(5))
    #expect(recorder.count == 2)
    let table = recorder.take()
    #expect(table.count == 1)
    #expect(table[span(5)] == 2)
  }

  @Test func factsListedBeforeListingStopsAreKeptWithTheLaterOnes() {
    var recorder = FactRecorder<Int>(listing: true)
    recorder.record(1, at: span(1))
    recorder.record(2, at: span(2))
    recorder.stopListing()
    #expect(!recorder.isListing)
    recorder.record(20, at: span(2))
    recorder.record(3, at: span(3))
    let table = recorder.spanTable
    #expect(table.count == 3)
    #expect(table[span(1)] == 1)
    #expect(table[span(2)] == 20)
    #expect(table[span(3)] == 3)
  }

  /// A `let` or a `curve` whose value is a constant is handed over with that constant alone
  /// (running it reads nothing else); one whose value is not keeps its parts' facts.
  @Test func aConstantDeclarationHandsOverItsValueAlone() throws {
    let text = "let x = 0 * 2 + 0.5\nlet y = x * 4\ncurve c = cubic(0.1 + 0.1, 0, 0.5, 1)\nlet z = easeIn\n"
    var reader = CheckedStatementReader(SourceText(name: "lets.anim", contents: text))
    var values: [(Expression, ResolvedFacts)] = []
    while let checked = reader.next() {
      switch checked.statement.kind {
      case .letBinding(let declaration): values.append((declaration.value, checked.facts))
      case .curve(let declaration): values.append((declaration.value, checked.facts))
      default: Issue.record("unexpected statement")
      }
    }
    guard case .clean = reader.finish() else {
      Issue.record("not clean")
      return
    }
    try #require(values.count == 4)
    // `0 * 2 + 0.5`: 0.5, not also `0 * 2`'s 0.
    #expect(values[0].1.constants.count == 1)
    #expect(values[0].1.constant(of: values[0].0) == .number(0.5))
    #expect(values[0].1.references.count == 0)
    // `x * 4`: 2, without the reference of `x`.
    #expect(values[1].1.constants.count == 1)
    #expect(values[1].1.constant(of: values[1].0) == .number(2))
    #expect(values[1].1.references.count == 0)
    // The curve, without `0.1 + 0.1`'s 0.2.
    #expect(values[2].1.constants.count == 1)
    guard case .curve? = values[2].1.constant(of: values[2].0) else {
      Issue.record("the curve's constant")
      return
    }
    // A preset's name: the preset's curve is its constant, read from the name; nothing is
    // kept (WrittenFacts.swift).
    #expect(values[3].1.constants.count == 0)
    #expect(values[3].1.references.count == 0)
    #expect(values[3].1.constant(of: values[3].0) == .curve(.easeIn))
  }

  /// Every statement's facts, handed over by a reading statement by statement, are the whole
  /// check's facts (the union of the statements' tables is the whole input's table), but for
  /// the parts of a `let`'s or a `curve`'s constant value, whose constant is all that running
  /// it reads.
  @Test(arguments: [2026, 7, 11])
  func aReadingsFactsAreTheWholeChecksFacts(_ seed: UInt64) throws {
    var generator = ScriptGenerator(seed: seed)
    let text = generator.script(statements: 300)
    let source = SourceText(name: "generated.anim", contents: text)
    var environment = Environment()
    let whole = try #require(parseAndCheck(source, in: &environment, mode: .script).program)
    var reader = CheckedStatementReader(source)
    var constants: [String] = []
    var references: [String] = []
    var placements: [String] = []
    var statements = 0
    var constantValues: [SourceSpan] = []
    while let checked = reader.next() {
      statements += 1
      if !checked.isGathered {
        var value: Expression?
        if case .letBinding(let declaration) = checked.statement.kind { value = declaration.value }
        if case .curve(let declaration) = checked.statement.kind { value = declaration.value }
        if let value, whole.constants[value.span] != nil { constantValues.append(value.span) }
      }
      let facts = checked.isGathered ? ResolvedFacts() : checked.facts
      constants += facts.constants.entries.map { "\($0.span) \($0.value)" }
      references += facts.references.entries.map { "\($0.span) \($0.value)" }
      placements += facts.placements.entries.map { "\($0.span) \($0.value)" }
    }
    guard case .clean = reader.finish() else { return }
    let gathered = reader.gatheredFacts()
    constants += gathered.constants.entries.map { "\($0.span) \($0.value)" }
    references += gathered.references.entries.map { "\($0.span) \($0.value)" }
    placements += gathered.placements.entries.map { "\($0.span) \($0.value)" }
    /// Whether `span` is in a constant value (the value itself, with `itself`, or a part).
    func isInValue(_ span: SourceSpan, itself: Bool) -> Bool {
      constantValues.contains { (itself || span != $0) && $0.start <= span.start && span.end <= $0.end }
    }
    func expected<Value>(_ table: SpanTable<Value>, itself: Bool) -> [String] {
      table.entries.filter { !isInValue($0.span, itself: itself) }.map { "\($0.span) \($0.value)" }.sorted()
    }
    #expect(statements > 0)
    // (The value's constant is kept; what its name refers to, `curve c = easeIn`, is not.)
    #expect(constants.sorted() == expected(whole.constants, itself: false))
    #expect(references.sorted() == expected(whole.references, itself: true))
    #expect(placements.sorted() == expected(whole.placements, itself: true))
  }
}
