// FactRecorder: where the checker records one kind of fact (constants, references or
// placements) by the span of its node, as it finds them.
//
// A whole input's facts go into a dictionary, which a large table needs: its look-ups do not
// grow with it (`SpanTable` keeps it as it is). A script read statement by statement
// (`StatementByStatementCheck`) hands each statement's few facts over on their own: in a
// dictionary, each was hashed in, copied out into a sorted `SpanTable`, and cleared again
// (and a dictionary emptied keeping its room clears all of its room), for each of a million
// statements, on the checking thread that `anim run` waits for. Listed in the order found,
// they take no hashing, their table is made from the list at once (in order already, most
// often: a node's fact is recorded after its parts', which start no earlier and end before
// it), and emptying the list touches only what it held.

/// The facts of one kind an input's check records: by statement in a list, or whole in a
/// dictionary.
struct FactRecorder<Value: Sendable> {
  /// The facts recorded since the last `take()`, in the order recorded (while listing).
  private var list: [(span: SourceSpan, value: Value)] = []
  /// The facts recorded (while not listing).
  private var table: [SourceSpan: Value] = [:]
  /// Whether the facts are listed, to be taken a statement's at a time.
  private(set) var isListing: Bool

  /// A recorder into a dictionary (`listing: false`, a whole input's), or into a list, for
  /// facts taken a statement's at a time.
  init(listing: Bool = false) {
    isListing = listing
  }

  /// How many facts are held (a span recorded twice, while listing, counts twice).
  var count: Int { isListing ? list.count : table.count }

  /// Records `value` as the fact of the node at `span`; a later fact of the same span
  /// replaces it, as in a dictionary.
  mutating func record(_ value: Value, at span: SourceSpan) {
    if isListing {
      list.append((span, value))
    } else {
      table[span] = value
    }
  }

  /// The facts recorded, as the runtime reads them.
  var spanTable: SpanTable<Value> {
    isListing ? SpanTable(recorded: list) : SpanTable(table)
  }

  /// The facts recorded, which are then forgotten (one at a time: a statement lists a few,
  /// and `removeAll(keepingCapacity:)` takes a general and slower path): while listing, the list keeps its room,
  /// so that the next statement's facts do not grow it again from nothing.
  mutating func take() -> SpanTable<Value> {
    let taken = spanTable
    if isListing {
      forget()
    } else {
      table = [:]
    }
    return taken
  }

  /// The fact recorded last for `span` since the last `take()` (while listing).
  func listed(at span: SourceSpan) -> Value? {
    list.last(where: { $0.span == span })?.value
  }

  /// The facts listed since the last `take()`, forgotten (while listing).
  mutating func forget() {
    while list.popLast() != nil {}
  }

  /// Records into the dictionary from now on, with what is listed so far: a script's facts
  /// gathered from its first top-level loop or `if` on are one table.
  mutating func stopListing() {
    guard isListing else { return }
    for (span, value) in list { table[span] = value }
    list = []
    isListing = false
  }
}
