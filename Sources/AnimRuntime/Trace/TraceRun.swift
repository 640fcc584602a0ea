// TraceRun: a script played on the virtual clock, sampled at fixed frames or at given times:
// the deterministic twin of `anim run`.

import AnimCore
import AnimLanguage

/// When a trace samples and when it stops.
public struct TraceOptions: Sendable {
  /// Frames per second for regular samples (k / fps, from 0).
  package var fps: Int64 = 60
  /// Exact sample times instead of frames.
  package var times: [Nanoseconds]?
  /// The last time sampled; nil: when nothing is playing and nothing is due.
  package var until: Nanoseconds?
  /// The properties sampled, as `T.p`; nil: every property of every target.
  package var watch: [String]?
  /// Whether control statements are reported (`TraceRecord.control`), for the chart.
  package var marksControls = false

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
  /// Still busy after `Runtime.longestRun` of engine time, with no `--until`.
  case runsTooLong

  public var description: String {
    switch self {
    case .neverEnds(let t):
      "the script never ends (something repeats forever, from \(TraceNumber.seconds(t))s on): give --until"
    case .runsTooLong:
      "the script is still running after \(Runtime.longestRun / 3_600_000_000_000)h of virtual time "
        + "(a timeline that plays itself again?): give --until"
    case .unknownProperty(let name, let suggestion):
      "no property '\(name)' to watch" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }
  }
}

extension Runtime {
  /// Plays `program` from time 0 on the engine's virtual time and hands every record to
  /// `emit` in time order: events and prints at their exact times, each before the sample
  /// of the same time. Runtime errors go to `report` and the run goes on.
  ///
  /// Without `until` (and without `times`), a record is handed out only once the run is
  /// known to go on past its time: a run that turns out never to end (only playback that
  /// repeats for ever is left) throws `neverEnds` and hands out nothing from the moment it
  /// turned endless; one still busy after `longestRun` throws `runsTooLong` and hands out
  /// nothing from then. A wrong `watch` name throws before anything is handed out.
  public func trace(
    _ program: CheckedProgram, of source: SourceText, options: TraceOptions,
    emit: (TraceRecord) -> Void, report: (RuntimeError, SourceText) -> Void
  ) throws(TraceError) {
    recordsControls = options.marksControls
    try trace(startedWith: run(program, of: source, at: 0), options: options, emit: emit, report: report)
  }

  /// Goes on with a trace as `trace(_:of:options:emit:report:)` does, on a runtime whose
  /// script has been started at time 0 (`Runtime.start(_:)`), from `first`, what starting it
  /// produced. With `emitSample`, a sample that may be handed out at once goes to it instead
  /// of to `emit` as a record: its values read where they are kept as the writer asks for
  /// them (a record of a million values was the largest thing such a trace held).
  package func trace(
    startedWith first: [RuntimeOutput], options: TraceOptions,
    emit: (TraceRecord) -> Void, emitSample: ((TraceSample) -> Void)? = nil,
    report: (RuntimeError, SourceText) -> Void
  ) throws(TraceError) {
    // Records wait here until they may be written.
    var held: [TraceRecord] = []
    let holds = options.until == nil && options.times == nil
    func pass(_ outputs: [RuntimeOutput]) {
      for output in outputs {
        switch output {
        case .record(let record): if holds { held.append(record) } else { emit(record) }
        case .error(let error, let source): report(error, source)
        case .value, .note: break
        }
      }
    }
    /// Hands out the held records earlier than `time` (all of them when nil), drops the rest.
    func release(before time: Nanoseconds? = nil) {
      for record in held where time.map({ record.time < $0 }) ?? true { emit(record) }
      held = []
    }
    recordsControls = options.marksControls
    // The watched properties: those named (their groups expanded), or every property there
    // is now, read by position from the table, so that no list of a million names is made
    // unless a sample is made a record. (Every property: a target declared later, after a
    // `wait` or in a handler, joins the samples from the first one after it is declared.)
    var columns: TraceSampleColumns
    // The ids of listed properties, looked up once (and again only if a target is declared
    // anew with another kind of value, which gives its property a new id), by the same
    // look-up that finds a wrong name (one hash of each name, not two: a script may have a
    // million). Every property's is read from the table by position at each sample (a name
    // given a new id keeps its position).
    var ids: [PropertyID] = []
    if let watch = options.watch {
      let watched = expandingGroups(watch)
      ids.reserveCapacity(watched.count)
      for name in watched {
        guard let id = properties[name] else {
          throw .unknownProperty(name, suggestion: nearestName(to: name, among: propertyNames))
        }
        ids.append(id)
      }
      columns = TraceSampleColumns(listed: watched)
    } else {
      columns = TraceSampleColumns(table: properties)
    }
    let listed = options.watch != nil
    /// The columns' names for samples made records, made at the first one.
    var recordNames: [String]?
    pass(first)
    var idsGeneration = propertyGeneration
    func sample(at time: Nanoseconds) {
      if !listed, properties.count != columns.count {
        columns = TraceSampleColumns(table: properties)
        recordNames = nil
      }
      if listed, idsGeneration != propertyGeneration {
        ids = (0..<columns.count).map { properties[columns.name(at: $0)]! }
        idsGeneration = propertyGeneration
      }
      // One read of the engine per frame (a copy of the value shares its storage). The
      // values the advance computed (the engine keeps them): no evaluation again.
      let engine = self.engine
      if !holds, let emitSample {
        let properties = self.properties
        emitSample(
          TraceSample(time: time, columns: columns) { [ids] range in
            var values: [AnimationValue] = []
            values.reserveCapacity(range.count)
            if listed {
              for position in range { values.append(engine.currentValue(of: ids[position])) }
            } else {
              for position in range { values.append(engine.currentValue(of: properties.id(at: position))) }
            }
            return values
          })
        return
      }
      if recordNames == nil { recordNames = columns.all }
      var values: [NamedValue] = []
      values.reserveCapacity(columns.count)
      for (position, name) in recordNames!.enumerated() {
        let id = listed ? ids[position] : properties.id(at: position)
        values.append(NamedValue(name: name, value: engine.currentValue(of: id)))
      }
      let record = TraceRecord.sample(time: time, values: values)
      if holds { held.append(record) } else { emit(record) }
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
      } else {
        // Where the run stands after everything up to the last frame.
        switch progress {
        case .goesOn:
          release()
        case .ended:
          release()
          return
        case .neverEnds(let since):
          release(before: since)
          throw .neverEnds(at: since)
        case .tooLong:
          release(before: Self.longestRun)
          throw .runsTooLong
        }
        if time > Self.longestRun {
          // The last stretch, to the limit itself: it may end there or before.
          pass(advance(to: Self.longestRun))
          if isIdle {
            release()
            return
          }
          release(before: Self.longestRun)
          throw .runsTooLong
        }
      }
      pass(advance(to: time))
      if options.until == nil, isIdle, lastActivity < time, frame > 0 {
        // It came to rest between the previous frame and this one: that moment is the end.
        release()
        return
      }
      sample(at: time)
      frame += 1
    }
  }

  /// A trace's columns: the properties `watched` (every property when nil) that exist, with
  /// the kinds of their values, which their ids carry (no value is read).
  package func traceColumns(watching watched: [String]?) -> [TraceColumn] {
    (watched.map(expandingGroups) ?? propertyNames).compactMap { name in
      properties[name].map { TraceColumn(name: name, kind: $0.kind) }
    }
  }
}
