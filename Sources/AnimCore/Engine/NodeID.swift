// NodeID: how an embedder names an animation, timeline or placed callback; the generation
// makes an ID stale once its node is removed and its slot reused.

/// An animation, timeline or placed callback in an engine. Stale after the node is removed.
public struct NodeID: Sendable, Hashable, Codable {
  let index: Int32
  let generation: UInt32
}

extension NodeID {
  /// The node's slot in the engine: at most one live node has it at a time, so that a set
  /// of live nodes can be an array by slot (`slotIndex`) holding the generation.
  package var slotIndex: Int { Int(index) }
  /// Which use of its slot the node is.
  package var slotGeneration: UInt32 { generation }
}
