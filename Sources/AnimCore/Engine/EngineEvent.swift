// EngineEvent: what an advance hands to its handler, at an exact engine time.

/// Something that happened at an exact engine time.
public struct EngineEvent: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// A node or property started (a property: it left rest).
    case start
    /// A node crossed a boundary between passes.
    case `repeat`
    /// A node finished in its direction of travel; a property came to rest.
    case complete
    /// A callback's time came: the key given to `schedule` or `addCallback`.
    case callback(Int)
    /// An animation that resolves its values at start is starting: call `setValues` now.
    case needsValues
    /// The real clock skipped this much time (a suspension), which was treated as a pause.
    case clockGap(Nanoseconds)
  }

  /// What the event is about.
  public enum Subject: Sendable, Hashable {
    case node(NodeID)
    case property(PropertyID)
    case engine
  }

  public var kind: Kind
  public var subject: Subject
  /// The exact engine time of the event.
  public var time: Nanoseconds
  /// Whether it was crossed moving backwards.
  public var isReversed: Bool
}
