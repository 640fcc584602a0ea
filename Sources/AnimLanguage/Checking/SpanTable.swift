// SpanTable: the checker's facts about one input's nodes, by the span of the node, as the
// runtime reads them (`CheckedProgram`).
//
// A script run statement by statement hands each statement over with its own facts, and
// keeps those of every statement it runs later (a timeline, a handler) for the whole run: a
// `Dictionary` of a few entries keeps room for up to twice as many, in a table of its own
// per statement. A few entries are kept here in an array of exactly their number, sorted by
// span and found by binary search (one entry in the table itself); a large table (a whole
// file's, or a REPL entry's) stays a dictionary, whose look-up does not grow with it.

import AnimCore

/// Values by source span.
package struct SpanTable<Value: Sendable>: Sendable {
  fileprivate enum Storage: Sendable {
    /// One entry, in the table itself: a statement held for later often has one fact of a
    /// kind (a timeline's preset curve: its constant, its reference), and an array of one
    /// took an allocation of about 60 bytes.
    case one(SourceSpan, Value)
    /// Sorted by (start, end); spans are unique.
    case sorted([(span: SourceSpan, value: Value)])
    case hashed([SourceSpan: Value])
    /// The entries of many statements, in one list that grows (`SpanEntries`).
    case shared(SpanEntries<Value>)
  }

  /// At most this many entries are kept sorted.
  static var largestSorted: Int { 64 }

  fileprivate var storage: Storage

  package init() {
    storage = .sorted([])
  }

  /// The entries of `table`.
  package init(_ table: [SourceSpan: Value]) {
    guard table.count <= Self.largestSorted else {
      storage = .hashed(table)
      return
    }
    if table.count == 1, let (span, value) = table.first {
      storage = .one(span, value)
      return
    }
    var entries: [(span: SourceSpan, value: Value)] = []
    entries.reserveCapacity(table.count)
    for (span, value) in table { entries.append((span, value)) }
    entries.sort { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) }
    storage = .sorted(entries)
  }

  /// A view of `entries`, which may grow: it finds what they hold when it looks.
  package init(sharing entries: SpanEntries<Value>) {
    storage = .shared(entries)
  }

  /// The one entry `span`, `value`.
  init(_ span: SourceSpan, _ value: Value) {
    storage = .one(span, value)
  }

  /// The entries of `recorded`, in the order they were recorded: a later entry of a span
  /// replaces an earlier one, as a dictionary's would (`FactRecorder`, which lists a
  /// statement's facts in the order the checker finds them).
  init(recorded: [(span: SourceSpan, value: Value)]) {
    switch recorded.count {
    case 0:
      storage = .sorted([])
    case 1:
      storage = .one(recorded[0].span, recorded[0].value)
    case ...Self.largestSorted:
      // Each entry inserted where it goes, found from the end: a statement's facts are in
      // order already but for a node recorded after a part that starts later (`a + b * c`).
      var entries: [(span: SourceSpan, value: Value)] = []
      entries.reserveCapacity(recorded.count)
      for entry in recorded {
        let key = (entry.span.start, entry.span.end)
        var index = entries.count
        while index > 0, key < (entries[index - 1].span.start, entries[index - 1].span.end) { index -= 1 }
        if index > 0, entries[index - 1].span == entry.span {
          entries[index - 1].value = entry.value
        } else if index == entries.count {
          entries.append(entry)  // (the usual case; `insert` takes a general and slower path)
        } else {
          entries.insert(entry, at: index)
        }
      }
      storage = entries.count == 1 ? .one(entries[0].span, entries[0].value) : .sorted(entries)
    default:
      storage = .hashed(Dictionary(recorded, uniquingKeysWith: { _, later in later }))
    }
  }

  package var count: Int {
    switch storage {
    case .one: return 1
    case .sorted(let entries): return entries.count
    case .hashed(let table): return table.count
    case .shared(let shared): return shared.entries.count
    }
  }

  /// Every entry (in no particular order).
  package var entries: [(span: SourceSpan, value: Value)] {
    switch storage {
    case .one(let span, let value): return [(span, value)]
    case .sorted(let entries): return entries
    case .hashed(let table): return table.map { ($0.key, $0.value) }
    case .shared(let shared): return shared.entries.array
    }
  }

  /// The value at `span`, if any.
  package subscript(span: SourceSpan) -> Value? {
    switch storage {
    case .one(let found, let value):
      return found == span ? value : nil
    case .hashed(let table):
      return table[span]
    case .sorted(let entries):
      return Self.find(span, in: entries)
    case .shared(let shared):
      return Self.find(span, in: shared.entries)
    }
  }

  /// The value at `span` in `entries`, sorted by span, by binary search.
  private static func find<Entries: RandomAccessCollection<(span: SourceSpan, value: Value)>>(
    _ span: SourceSpan, in entries: Entries
  ) -> Value? where Entries.Index == Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      let found = entries[middle].span
      if (found.start, found.end) < (span.start, span.end) { low = middle + 1 } else { high = middle }
    }
    return low < entries.count && entries[low].span == span ? entries[low].value : nil
  }
}

/// The facts of many statements of one input, in one sorted list: what a runner keeps for
/// the statements it holds (those placed later, handlers, timelines) when it reads a script
/// statement by statement. A table of each statement's own took an object and up to three
/// lists of a few entries each: about a hundred bytes a statement besides the entries (a
/// generated 10 MB script held 40,000 of them). The statements come in source order, so
/// each one's entries go after those before it; `SpanTable(sharing:)` looks them up.
package final class SpanEntries<Value: Sendable>: @unchecked Sendable {
  // (@unchecked: one thread appends and reads it, the runner's, once the checking thread
  // has handed the statements over.)
  /// Sorted by (start, end); spans are unique. In chunks: a list of a million facts that
  /// doubled as it grew held its old copy and its new one at once.
  fileprivate private(set) var entries = ChunkedArray<(span: SourceSpan, value: Value)>()

  package init() {}

  /// Adds `table`'s entries: those of a statement after every statement added so far (or,
  /// should one not be, in their place).
  package func append(_ table: SpanTable<Value>) {
    // (A statement's table is one entry or a sorted list nearly always: added as they are.)
    switch table.storage {
    case .one(let span, let value):
      append(sorted: CollectionOfOne((span: span, value: value)))
    case .sorted(let added):
      append(sorted: added)
    case .hashed, .shared:
      append(sorted: table.entries.sorted { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) })
    }
  }

  private func append<Added: Collection<(span: SourceSpan, value: Value)>>(sorted added: Added) {
    guard let first = added.first else { return }
    if let last = entries.last, (last.span.start, last.span.end) >= (first.span.start, first.span.end) {
      entries = ChunkedArray(
        (entries.array + added).sorted { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) })
    } else {
      for entry in added { entries.append(entry) }
    }
  }
}
