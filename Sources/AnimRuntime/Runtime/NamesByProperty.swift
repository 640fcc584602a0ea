// NamesByProperty: each property's name `T.p` by its engine id, for the events, which name
// their property by id: every `start` and `complete` of a property asks for its name (the
// trace's line, and the handlers' key). A `Dictionary` from id to name cost a SipHash of the
// id at each of them (about 4 % of runtime.sample.mixed's time in a profile) and held a
// hashed entry of about 50 bytes a property. The engine hands out ids densely from 0 per
// value kind (`PropertyID.storeIndex`), so here each kind has an array of names by index:
// 16 bytes a property, and a name of 15 bytes or less is held in place. (Positions in the
// `PropertyTable` instead, 4 bytes a property, made each event build its name from the
// table's bytes: slower than the dictionary.)

import AnimCore

struct NamesByProperty {
  /// Per kind (`PropertyID.kindOrder`), per `PropertyID.storeIndex`: the first name with
  /// that id, or nil.
  private var byKind: [ChunkedArray<String?>] = []

  /// None: `isEmpty` until built from a table.
  init() {}

  /// The names of `table`'s ids. Where two names have one id (never in a table the runtime
  /// keeps), the first is its name, as the dictionary's `uniquingKeysWith` kept it.
  init(_ table: PropertyTable) {
    byKind = Array(repeating: ChunkedArray(), count: ValueKind.allCases.count)
    for position in 0..<table.count {
      let id = table.id(at: position)
      let kind = id.kindOrder
      let index = id.storeIndex
      while byKind[kind].count <= index { byKind[kind].append(nil) }
      if byKind[kind][index] == nil { byKind[kind][index] = table.name(at: position) }
    }
  }

  /// Whether nothing was built (the runtime builds it on first use after its table changes).
  var isEmpty: Bool { byKind.isEmpty }

  /// The name of the property `id`, if it has one.
  subscript(id: PropertyID) -> String? {
    let kind = id.kindOrder
    let index = id.storeIndex
    guard kind < byKind.count, index < byKind[kind].count else { return nil }
    return byKind[kind][index]
  }
}
