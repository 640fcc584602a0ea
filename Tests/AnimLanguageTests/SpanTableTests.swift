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

  @Test func anEmptyTableHasNothing() {
    let spans = SpanTable<Int>()
    #expect(spans.count == 0)
    #expect(spans[SourceSpan(start: 0, end: 0)] == nil)
  }
}
