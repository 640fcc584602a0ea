// NodeStatus: a node's state as status displays show it (`:status`), computed on demand.

/// The state of a node, for status displays.
public struct NodeStatus: Sendable, Hashable {
  public enum State: String, Sendable, Hashable { case playing, paused, finished, idle }
  public var state: State
  /// The playback rate (negative: reversed).
  public var rate: Double
  /// Local time now.
  public var localTime: Nanoseconds
  /// The end of the active interval; nil when it repeats forever.
  public var duration: Nanoseconds?
  /// Local time / duration, 0...1 (nil when infinite).
  public var progress: Double?
  /// Whether it is a timeline.
  public var isTimeline: Bool
  /// The pass it is in (1 for the first; before its start, 1; after its end, the last).
  public var pass: Int = 1
  /// How many passes it has (`.infinity` for `repeat forever`; may be fractional).
  public var passCount: Double = 1
}
