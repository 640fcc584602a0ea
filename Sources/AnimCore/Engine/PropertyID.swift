// PropertyID: how an embedder names a property of an engine, and the order of value kinds
// (which orders property events at one instant and packs a property into a key).

/// A property in an engine.
public struct PropertyID: Sendable, Hashable, Codable, Comparable {
  public let kind: ValueKind
  @usableFromInline let index: Int32

  public static func < (lhs: PropertyID, rhs: PropertyID) -> Bool {
    (lhs.kind.order, lhs.index) < (rhs.kind.order, rhs.index)
  }
}

extension ValueKind {
  /// The kind whose `order` is `order`, if any.
  init?(order: Int) {
    switch order {
    case 0: self = .number
    case 1: self = .vec2
    case 2: self = .vec3
    case 3: self = .vec4
    case 4: self = .color
    default: return nil
    }
  }

  var order: Int {
    switch self {
    case .number: 0
    case .vec2: 1
    case .vec3: 2
    case .vec4: 3
    case .color: 4
    }
  }
}

extension PropertyID {
  /// The kind's place among the kinds (0 ..< `ValueKind.allCases.count`).
  package var kindOrder: Int { kind.order }
  /// The property's place in the engine's store of its kind: dense from 0 in the order the
  /// kind's properties were added, so that a table by id can be an array per kind.
  package var storeIndex: Int { Int(index) }
}

extension PropertyID {
  /// The id in four bytes, for a table that holds one for each of a million properties
  /// (AnimRuntime's `PropertyTable`): the kind's order in the top 3 bits, the index below.
  /// Nil for an index of 2^29 or more, which no engine reaches (its store of that many
  /// properties would take gigabytes).
  package var packed: UInt32? {
    guard index >= 0 && index < 1 << 29 else { return nil }
    return UInt32(kind.order) << 29 | UInt32(index)
  }

  /// The id that `packed` gave `packed`.
  package init(packed: UInt32) {
    // (A packed kind's order is 0...4: `packed` made it.)
    self.init(kind: ValueKind(order: Int(packed >> 29)) ?? .number, index: Int32(packed & 0x1FFF_FFFF))
  }
}
