// EngineError: what an engine refuses, each with the message the language shows for it.

/// What an engine can refuse.
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The node was removed (or never existed).
  case unknownNode
  /// The property does not exist.
  case unknownProperty
  /// A value of the wrong type for the property.
  case typeMismatch(expected: ValueKind, found: ValueKind)
  /// A timeline was expected.
  case notATimeline
  /// `finish` on something that never ends.
  case finishesNever
  /// A chain of more than `AnimationEngine.eventLimitPerInstant` events at one instant:
  /// handlers that schedule each other without time passing.
  case tooManyEventsAtOneInstant(Nanoseconds)
  /// A keyframe track with no keyframes, or offsets outside 0...1 or out of order.
  case invalidKeyframes
  /// It would end after the end of time (`AnimationEngine.endOfTime`): a rate so slow, or a
  /// length so long, that its end has no clock time.
  case endsAfterEndOfTime
  /// A playhead tween with a spring: a spring has a length of its own, so it cannot carry a
  /// playhead over a given duration.
  case springMovesNoPlayhead
  /// Placed at or after the end of time (`AnimationEngine.endOfTime`; in a timeline, either way):
  /// a point there has no clock time, and a saved session holding it could not be restored.
  case placedBeyondEndOfTime

  public var description: String {
    switch self {
    case .unknownNode: "no such animation or timeline"
    case .unknownProperty: "no such property"
    case .typeMismatch(let expected, let found): "expected a \(expected) value, found a \(found)"
    case .notATimeline: "not a timeline"
    case .finishesNever: "it repeats forever, so it never finishes"
    case .tooManyEventsAtOneInstant(let t):
      "a chain of more than \(AnimationEngine.eventLimitPerInstant) events at \(seconds(t))s: handlers schedule each other without time passing"
    case .invalidKeyframes: "keyframe offsets must be in 0...1 and in order"
    case .endsAfterEndOfTime:
      "it would end after the end of time (2^62 ns, about 146 years): its length over its speed is too long"
    case .springMovesNoPlayhead: "a spring cannot carry a playhead over a duration: use a timing curve"
    case .placedBeyondEndOfTime: "it would be placed beyond the end of time (2^62 ns, about 146 years)"
    }
  }
}
