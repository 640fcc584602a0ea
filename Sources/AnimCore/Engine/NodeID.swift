// NodeID: how an embedder names an animation, timeline or placed callback; the generation
// makes an ID stale once its node is removed and its slot reused.

/// An animation, timeline or placed callback in an engine. Stale after the node is removed.
public struct NodeID: Sendable, Hashable, Codable {
  let index: Int32
  let generation: UInt32
}
