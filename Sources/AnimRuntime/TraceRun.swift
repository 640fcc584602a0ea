// TraceRun: a script played on the virtual clock, sampled at fixed frames or at given times:
// the deterministic twin of `anim run`.

import AnimCore
import AnimLanguage

/// When a trace samples and when it stops.
public struct TraceOptions: Sendable {
  /// Frames per second for regular samples (k / fps, from 0).
  public var fps: Int64 = 60
  /// Exact sample times instead of frames.
  public var times: [Nanoseconds]?
  /// The last time sampled; nil: when nothing is playing and nothing is due.
  public var until: Nanoseconds?
  /// The properties sampled, as `T.p`; nil: every property of every target.
  public var watch: [String]?

  public init(fps: Int64 = 60, times: [Nanoseconds]? = nil, until: Nanoseconds? = nil, watch: [String]? = nil) {
    self.fps = fps
    self.times = times
    self.until = until
    self.watch = watch
  }
}

/// Why a trace cannot run.
public enum TraceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Something repeats forever and nothing is scheduled that could stop it.
  case neverEnds(at: Nanoseconds)
  /// A watched name that is not a property.
  case unknownProperty(String, suggestion: String?)

  public var description: String {
    switch self {
    case .neverEnds(let t):
      "the script never ends (something repeats forever, from \(TraceNumber.seconds(t))s on): give --until"
    case .unknownProperty(let name, let suggestion):
      "no property '\(name)' to watch" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }
  }
}

extension Runtime {
  /// Plays `program` from time 0 on the engine's virtual time and hands every record to
  /// `emit` in time order: events and prints at their exact times, each before the sample
  /// of the same time. Runtime errors go to `report` and the run goes on.
  public func trace(
    _ program: CheckedProgram, of source: SourceText, options: TraceOptions,
    emit: (TraceRecord) -> Void, report: (RuntimeError, SourceText) -> Void
  ) throws(TraceError) {
    func pass(_ outputs: [RuntimeOutput]) {
      for output in outputs {
        switch output {
        case .record(let record): emit(record)
        case .error(let error, let source): report(error, source)
        case .value: break
        }
      }
    }
    pass(run(program, of: source, at: 0))
    let watched = options.watch ?? propertyNames
    for name in watched where properties[name] == nil {
      throw .unknownProperty(name, suggestion: nearestName(to: name, among: propertyNames))
    }
    // The watched properties' ids, looked up once (and again only if a target is declared
    // anew with another kind of value, which gives its property a new id).
    var ids = watched.map { properties[$0]! }
    var idsGeneration = propertyGeneration
    func sample(at time: Nanoseconds) {
      if idsGeneration != propertyGeneration {
        ids = watched.map { properties[$0]! }
        idsGeneration = propertyGeneration
      }
      // One read of the engine per frame (a copy of the value shares its storage).
      let engine = self.engine
      var values: [NamedValue] = []
      values.reserveCapacity(ids.count)
      for (name, id) in zip(watched, ids) { values.append(NamedValue(name: name, value: engine.value(of: id))) }
      emit(.sample(time: time, values: values))
    }
    if let times = options.times {
      for time in times.sorted() {
        pass(advance(to: time))
        sample(at: time)
      }
      if let until = options.until { pass(advance(to: until)) }
      return
    }
    let fps = max(options.fps, 1)
    var frame: Int64 = 0
    while true {
      let time = frameTime(frame, fps: fps)
      if let until = options.until {
        if time > until {
          pass(advance(to: until))
          return
        }
      } else if isIdle || (!engine.hasPendingCallbacks && engine.hasEndlessPlayback) {
        if engine.hasEndlessPlayback { throw .neverEnds(at: engine.now) }
        return
      }
      pass(advance(to: time))
      if options.until == nil, isIdle, lastActivity < time, frame > 0 {
        // It came to rest between the previous frame and this one: that moment is the end.
        return
      }
      sample(at: time)
      frame += 1
    }
  }
}
