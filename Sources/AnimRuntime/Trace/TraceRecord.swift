// TraceRecord: what a run of a script reports, in time order: samples of the watched
// properties, the events of timelines and properties and the script's own, and prints.
// `anim trace` writes these in one of its formats; `anim run` shows them live.

import AnimCore

/// One line of a run's report.
public enum TraceRecord: Sendable, Hashable {
  /// The values of the watched properties at `time`, in column order, named `T.p`.
  case sample(time: Nanoseconds, values: [NamedValue])
  /// A `start`, `repeat` or `complete` of a timeline or property (`subject` is its name or
  /// `T.p`), or a script's own event from `emit` (`subject` nil).
  case event(time: Nanoseconds, name: String, subject: String?)
  /// A `print`.
  case print(time: Nanoseconds, text: String)
  /// A control statement ran (`statement`, as written: `pause intro`), acting on the
  /// animations of `properties` (`T.p`). Only the `svg` chart asks for these
  /// (`TraceOptions.marksControls`): it marks them on the properties' lanes.
  case control(time: Nanoseconds, statement: String, properties: [String])

  /// When it happened.
  public var time: Nanoseconds {
    switch self {
    case .sample(let time, _), .event(let time, _, _), .print(let time, _), .control(let time, _, _): time
    }
  }
}

/// A property's value under its name, `T.p`.
public struct NamedValue: Sendable, Hashable {
  /// `T.p`, as the script and the trace write it.
  public var name: String
  /// The value at the record's time.
  public var value: AnimationValue

  public init(name: String, value: AnimationValue) {
    self.name = name
    self.value = value
  }
}
