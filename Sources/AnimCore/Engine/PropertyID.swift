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
