// SpanTable: facts by span, kept as one entry, a sorted array, or a dictionary by their
// number; each finds exactly the entries it was made from.

import Testing

@testable import AnimLanguage

@Suite struct SpanTableTests {
  /// `n` entries: span (3k, 3k + 2 + k % 2) holds k, in a scrambled order.
  private func table(_ n: Int) -> [SourceSpan: Int] {
    var entries: [SourceSpan: Int] = [:]
    for k in (0..<n).reversed() { entries[SourceSpan(start: 3 * k, end: 3 * k + 2 + k % 2)] = k }
    return entries
  }

  @Test(arguments: [0, 1, 2, 64, 65, 300])
  func everyEntryIsFoundAndNothingElse(_ n: Int) {
    let spans = SpanTable(table(n))
    #expect(spans.count == n)
    for k in 0..<n {
      #expect(spans[SourceSpan(start: 3 * k, end: 3 * k + 2 + k % 2)] == k)
      // The same start with another end, and a start between two entries: nothing.
      #expect(spans[SourceSpan(start: 3 * k, end: 3 * k + 5)] == nil)
      #expect(spans[SourceSpan(start: 3 * k + 1, end: 3 * k + 2)] == nil)
    }
    #expect(spans[SourceSpan(start: 3 * n, end: 3 * n + 2)] == nil)
  }

  /// Statements' tables shared in one list (`SpanEntries`, what a runner keeps of the
  /// statements it holds): a view finds every entry of every table added, also those added
  /// after it was made, and nothing else; a table that does not come after the others (never,
  /// from a reader in source order) is put in its place.
  @Test func sharedEntriesFindEveryStatementsEntries() {
    let shared = SpanEntries<Int>()
    let view = SpanTable(sharing: shared)
    #expect(view.count == 0 && view[SourceSpan(start: 0, end: 2)] == nil)
    // Statements of 0, 1, 3, 70 (hashed) and 2 entries, each after the one before.
    var all: [SourceSpan: Int] = [:]
    var start = 0
    for size in [0, 1, 3, 70, 2] {
      var statement: [SourceSpan: Int] = [:]
      for k in 0..<size {
        let span = SourceSpan(start: start + 3 * k, end: start + 3 * k + 2 + k % 2)
        statement[span] = all.count + k
      }
      all.merge(statement) { first, _ in first }
      shared.append(SpanTable(statement))
      start += 3 * size + 10
    }
    // One out of order: among the first statement's spans.
    let early = SourceSpan(start: 1, end: 2)
    shared.append(SpanTable([early: -1]))
    all[early] = -1
    #expect(view.count == all.count)
    for (span, value) in all {
      #expect(view[span] == value)
      #expect(view[SourceSpan(start: span.start, end: span.end + 7)] == nil)
    }
    #expect(view[SourceSpan(start: start, end: start + 2)] == nil)
    let facts = ResolvedFacts(sharing: SharedFacts())
    #expect(facts.isEmpty)
  }

  @Test func anEmptyTableHasNothing() {
    let spans = SpanTable<Int>()
    #expect(spans.count == 0)
    #expect(spans[SourceSpan(start: 0, end: 0)] == nil)
  }
}
