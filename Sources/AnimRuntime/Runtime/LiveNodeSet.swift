// LiveNodeSet: a set of live engine nodes (the runtime's standalone animations, which it
// marks as each starts and unmarks as it completes). A `Set<NodeID>` hashed each id with
// SipHash at both (about 3 % of runtime.sample.mixed's time in a profile). The engine gives
// a node's slot to at most one live node at a time, so here the set is an array by slot
// holding the generation of the node marked there: a node removed without completing is
// overwritten when its slot is reused, where the set kept it for ever (nothing asked for it
// again: a removed node has no more events).

import AnimCore

struct LiveNodeSet {
  /// Per slot (`NodeID.slotIndex`): 1 + the generation of the node marked there, or 0.
  private var marks = ChunkedArray<UInt64>()

  init() {}

  /// Marks `node`, in place of any node marked in its slot before.
  mutating func insert(_ node: NodeID) {
    let slot = node.slotIndex
    while marks.count <= slot { marks.append(0) }
    marks[slot] = UInt64(node.slotGeneration) + 1
  }

  /// Unmarks `node`; returns whether it was marked.
  mutating func remove(_ node: NodeID) -> Bool {
    let slot = node.slotIndex
    guard slot < marks.count, marks[slot] == UInt64(node.slotGeneration) + 1 else { return false }
    marks[slot] = 0
    return true
  }
}
