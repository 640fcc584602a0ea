// LeavingRestQueue: the properties whose `start` is due at the current instant, behind the
// animations' events of that instant, packed small (a burst of thousands of animations added
// at once queues one each).

/// Properties leaving rest, in order, 4 bytes each: the kind's order in the top 3 bits and
/// the index below (an index of 2^29 or more, never seen in practice, is kept whole aside,
/// its place marked).
struct LeavingRestQueue: Sendable {
  private var packed: [UInt32] = []
  private var wide: [PropertyID] = []
  private static let marker: UInt32 = .max

  var isEmpty: Bool { packed.isEmpty }

  mutating func append(_ property: PropertyID) {
    if property.index >= 0 && property.index < 1 << 29 {
      packed.append(UInt32(property.kind.order) << 29 | UInt32(property.index))
    } else {
      packed.append(Self.marker)
      wide.append(property)
    }
  }

  /// The properties, in order.
  var properties: [PropertyID] {
    var result: [PropertyID] = []
    result.reserveCapacity(packed.count)
    var nextWide = 0
    for p in packed {
      if p == Self.marker {
        result.append(wide[nextWide])
        nextWide += 1
      } else if let kind = ValueKind(order: Int(p >> 29)) {  // (only orders 0...4 are packed)
        result.append(PropertyID(kind: kind, index: Int32(p & 0x1FFF_FFFF)))
      }
    }
    return result
  }

  /// Appends the properties to `list` in order, and empties the queue.
  mutating func drain(into list: inout [PropertyID]) {
    list += properties
    // A big burst (thousands of animations added at once) does not keep its storage.
    if packed.capacity > 1024 { packed = [] } else { packed.removeAll(keepingCapacity: true) }
    wide = []
  }

  mutating func removeAll() {
    packed = []
    wide = []
  }
}
