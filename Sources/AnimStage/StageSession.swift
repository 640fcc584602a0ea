// StageSession: the session a stage page steers, without any server. It owns a runtime
// playing the script, the session clock the transport drives (play, pause, speed, step: the
// root's clock, which no statement can touch), scrubbing (a replay from 0 on a virtual clock),
// statements sent from the page, and reloading a changed file. The server calls it from one
// task at a time and sends what `frame()` returns.

import AnimCore
import AnimLanguage
import AnimRuntime

/// How the session's time moves while it plays.
package enum StageClock: String, Sendable, CaseIterable {
  /// With the monotonic clock, times the speed.
  case real
  /// One frame (1/60 s times the speed) per tick, whatever the real time: deterministic.
  case virtual
}

/// A script shown on a stage.
package final class StageSession {
  /// The stage's frame: the server ticks at most this often.
  package static let framesPerSecond: Int64 = 60
  /// One frame, rounded down: the real clock's tick (the virtual clock counts exact frames).
  package static let frameLength: Nanoseconds = 1_000_000_000 / framesPerSecond
  /// The speeds the transport allows.
  package static let speeds: ClosedRange<Double> = 0.1...4

  /// The script's path. (An interactive session's page, `anim repl --preview`, has no script
  /// to replay, so no session of this kind: see `StageRelay`.)
  package let path: String
  package let size: StageSize
  package let clock: StageClock
  /// The script as last loaded (checked without errors).
  package private(set) var source: SourceText
  package private(set) var runtime: Runtime
  /// What the page's statements are checked against: the script's declarations.
  private var environment = Environment()

  /// The session's time: the engine time shown.
  package private(set) var time: Nanoseconds = 0
  package private(set) var isPaused = false
  package private(set) var speed = 1.0
  /// The real time and session time of the last change of speed or pause (real clock).
  private var anchorReal: Nanoseconds = 0
  private var anchorTime: Nanoseconds = 0
  /// The virtual clock's ticks since the last change: its time is the anchor plus that many
  /// exact frames (k / 60 s, `frameTime`) times the speed, so no rounding accumulates.
  private var ticksSinceAnchor: Int64 = 0
  /// Whether a reload goes on from the same time (else from the start).
  package var reloadsAtSameTime = false {
    didSet { changed = true }
  }
  /// Whether anything the page shows may have changed since the last frame: an idle session
  /// does not even compute its state.
  private var changed = true

  /// What happened since the page last heard: trace lines of events and prints, notes and
  /// errors, as JSON objects.
  private var log: [String] = []
  /// What the pages were last sent, to send only what changed.
  private var encoder = StageFrameEncoder()
  private var framesSent = 0
  /// While things move, every gauge's range goes with every 30th frame (twice a second; the
  /// inspected targets' with every frame), and with every frame that has events.
  package static let framesPerDetail = 30
  /// The diagnostics of the last reload that failed (rendered), until one succeeds.
  package private(set) var diagnostics: String?
  /// The whole script's run on a virtual clock, for the scrubber and the lanes (JSON).
  package private(set) var overview = "null"

  /// A session of the script at `path`, read and checked: nil with the rendered
  /// diagnostics when it has errors.
  package static func load(
    path: String, text: SourceText, size: StageSize, clock: StageClock, realNow: Nanoseconds
  ) -> Result<StageSession, StageLoadFailure> {
    switch Runtime.start(text, tracksGauges: true) {
    case .failed(let diagnostics):
      return .failure(StageLoadFailure(diagnostics: DiagnosticRenderer(source: text).render(diagnostics)))
    case .started(let runtime, let output, _):
      let session = StageSession(path: path, source: text, runtime: runtime, size: size, clock: clock)
      session.anchorReal = realNow
      session.take(output)
      session.overview = StageOverview.json(of: text)
      return .success(session)
    }
  }

  private init(path: String, source: SourceText, runtime: Runtime, size: StageSize, clock: StageClock) {
    self.path = path
    self.source = source
    self.runtime = runtime
    self.size = size
    self.clock = clock
    var environment = Environment()
    _ = parseAndCheck(source, in: &environment, mode: .session)
    self.environment = environment
  }

  // MARK: - The transport

  /// The session's time at real time `realNow`, where the clock has got to.
  private func clockTime(atReal realNow: Nanoseconds) -> Nanoseconds {
    if isPaused { return anchorTime }
    switch clock {
    case .real:
      let elapsed = Double(max(realNow - anchorReal, 0)) * speed
      return saturatingSum(anchorTime, Nanoseconds(elapsed.rounded()))
    case .virtual:
      return time  // moved by ticks
    }
  }

  private func anchor(atReal realNow: Nanoseconds) {
    changed = true
    anchorTime = time
    anchorReal = realNow
    ticksSinceAnchor = 0
  }

  /// Moves the session to real time `realNow` (one tick): the runtime advances to the clock's
  /// time, its events and prints going to the log. While nothing is left to play the session
  /// stands still (its time stays where the runtime came to rest, so nothing changes and no
  /// frame is sent); what acts on it first catches up (`catchingUp`), which gives the same
  /// runtime, as advancing an idle runtime does nothing but move its time.
  package func tick(realNow: Nanoseconds, catchingUp: Bool = false) {
    if runtime.isIdle && !catchingUp {
      // The clock stands with the session (no change to show).
      anchorTime = time
      anchorReal = realNow
      ticksSinceAnchor = 0
      return
    }
    var target = clockTime(atReal: realNow)
    if clock == .virtual, !isPaused, !catchingUp {
      ticksSinceAnchor += 1
      let elapsed = frameTime(ticksSinceAnchor, fps: Self.framesPerSecond)
      target = saturatingSum(anchorTime, speed == 1 ? elapsed : Nanoseconds((Double(elapsed) * speed).rounded()))
    }
    guard target > time else { return }
    advance(to: target)
  }

  private func advance(to target: Nanoseconds) {
    changed = true
    take(runtime.advance(to: target))
    time = target
  }

  package func setPaused(_ paused: Bool, realNow: Nanoseconds) {
    guard paused != isPaused else { return }
    if paused { tick(realNow: realNow, catchingUp: true) }
    anchor(atReal: realNow)
    isPaused = paused
  }

  package func setSpeed(_ newSpeed: Double, realNow: Nanoseconds) {
    guard newSpeed.isFinite else { return }
    tick(realNow: realNow, catchingUp: true)
    anchor(atReal: realNow)
    speed = min(max(newSpeed, Self.speeds.lowerBound), Self.speeds.upperBound)
  }

  /// Turns every top-level animation and timeline around, as the bare `reverse` does.
  package func reverse(realNow: Nanoseconds) {
    tick(realNow: realNow, catchingUp: true)
    runtime.steer(.reverse)
    changed = true
    take(runtime.advance(to: time))
  }

  /// `frames` frames forward (> 0) or back, paused, from frame to frame of the 60 Hz grid
  /// (k / 60 s, the times `anim trace` samples): forward advances; back replays the script to
  /// the earlier time.
  package func step(frames: Int, realNow: Nanoseconds) {
    setPaused(true, realNow: realNow)
    guard frames != 0 else { return }
    // The frame at or before the session's time.
    var frame = time / 1_000_000_000 * Self.framesPerSecond
    while frameTime(frame + 1, fps: Self.framesPerSecond) <= time { frame += 1 }
    let onFrame = frameTime(frame, fps: Self.framesPerSecond) == time
    let target =
      frames > 0
      ? frameTime(frame + Int64(frames), fps: Self.framesPerSecond)
      : frameTime(max(frame + Int64(frames) + (onFrame ? 0 : 1), 0), fps: Self.framesPerSecond)
    if target > time {
      advance(to: target)
    } else {
      scrub(to: target, realNow: realNow)
    }
    anchor(atReal: realNow)
  }

  /// The script replayed from 0 on a virtual clock to `target`, its handlers running and
  /// nothing shown, as `anim trace --at` computes it; the session goes on from there.
  package func scrub(to target: Nanoseconds, realNow: Nanoseconds) {
    guard case .started(let fresh, _, _) = Runtime.start(source, tracksGauges: true) else { return }
    runtime = fresh
    _ = runtime.advance(to: max(target, 0))
    time = max(target, 0)
    anchor(atReal: realNow)
  }

  /// A statement of the language sent from the page (`pause intro`, `seek intro to 1.2s`),
  /// checked against the script's declarations and run now, as a script's statement would.
  package func run(statement text: String, realNow: Nanoseconds) {
    tick(realNow: realNow, catchingUp: true)
    let entry = SourceText(name: "<stage>", contents: text)
    var checked = environment
    let result = parseAndCheck(entry, in: &checked, mode: .session)
    if !result.diagnostics.isEmpty {
      let rendered = DiagnosticRenderer(source: entry).render(result.diagnostics)
      log.append("{\"error\":" + TraceJSON.string(rendered) + "}")
    }
    guard result.isRunnable, let program = result.program else { return }
    environment = checked
    changed = true
    log.append("{\"statement\":" + TraceJSON.string(text) + "}")
    take(runtime.run(program, of: entry, at: time))
  }

  /// Replaces the script by `text` when it checks (playing from its start, or from the same
  /// time when `reloadsAtSameTime`); else keeps the session and shows the diagnostics.
  /// - Returns: whether the session was replaced.
  @discardableResult
  package func reload(_ text: SourceText, realNow: Nanoseconds) -> Bool {
    switch Runtime.start(text, tracksGauges: true) {
    case .failed(let found):
      diagnostics = DiagnosticRenderer(source: text).render(found)
      changed = true
      return false
    case .started:
      diagnostics = nil
      source = text
      var environment = Environment()
      _ = parseAndCheck(text, in: &environment, mode: .session)
      self.environment = environment
      overview = StageOverview.json(of: text)
      scrub(to: reloadsAtSameTime ? time : 0, realNow: realNow)
      log.append("{\"note\":\"reloaded\"}")
      changed = true
      return true
    }
  }

  /// Whether the session's time moves by itself: playing with something left to play.
  package var isMoving: Bool { !isPaused && !runtime.isIdle }

  // MARK: - What the page is sent

  /// Which targets the pages' inspectors show (their values go with the frames).
  package func inspect(_ targets: Set<String>) {
    encoder.inspect(targets)
    changed = true
  }

  /// The frame for the pages when anything changed since the last one (the scene, the
  /// values, the transport, the log), else nil: what changed (`StageFrameEncoder`).
  package func frame() -> [UInt8]? {
    guard changed || !log.isEmpty else { return nil }
    changed = false
    let entries = log
    log = []
    let header = Self.stateHeader(
      runtime, size: size, time: time, paused: isPaused, speed: speed, interactive: false,
      sameTime: reloadsAtSameTime, diagnostics: diagnostics)
    framesSent += 1
    let details = !isMoving || !entries.isEmpty || framesSent % Self.framesPerDetail == 0
    return encoder.frame(runtime, size: size, time: time, header: header, log: entries, details: details)
  }

  /// Everything the page shows, as one JSON object (`StageSession.stateJSON`).
  package var state: String {
    Self.stateJSON(
      runtime, size: size, time: time, paused: isPaused, speed: speed, interactive: false,
      sameTime: reloadsAtSameTime, diagnostics: diagnostics)
  }

  /// Everything a page shows of `runtime` at session time `time`, as one JSON object: the
  /// header (`stateHeader`), the scene, the sample of every property (a trace sample object)
  /// and the gauges' ranges and marks.
  package static func stateJSON(
    _ runtime: Runtime, size: StageSize, time: Nanoseconds, paused: Bool, speed: Double, interactive: Bool,
    sameTime: Bool, diagnostics: String?
  ) -> String {
    var out =
      "{"
      + stateHeader(
        runtime, size: size, time: time, paused: paused, speed: speed, interactive: interactive, sameTime: sameTime,
        diagnostics: diagnostics)
    out += ",\"targets\":" + StageScene(runtime, size: size).json
    let sample = JSONLTraceWriter.line(.sample(time: time, values: runtime.sample()))
    out += ",\"sample\":" + sample.dropLast()
    out += ",\"ranges\":{"
    var first = true
    for name in runtime.propertyNames {
      guard let gauge = runtime.gauge(of: name) else { continue }
      let marks = runtime.playbackMarks(of: name)
      if !first { out += "," }
      first = false
      out += TraceJSON.string(name) + ":[" + TraceNumber.json(gauge.low) + "," + TraceNumber.json(gauge.high)
      out += ",\(marks.paused),\(marks.reversed)]"
    }
    return out + "}}"
  }

  /// The state's members other than the scene and the values, as JSON members (no braces):
  /// the time, the transport, the view box, the timelines, the diagnostics of a failed reload.
  package static func stateHeader(
    _ runtime: Runtime, size: StageSize, time: Nanoseconds, paused: Bool, speed: Double, interactive: Bool,
    sameTime: Bool, diagnostics: String?
  ) -> String {
    var out = "\"t\":" + TraceNumber.json(Double(time) / 1e9)
    out += ",\"paused\":\(paused),\"idle\":\(runtime.isIdle),\"speed\":" + TraceNumber.json(speed)
    out += ",\"interactive\":\(interactive),\"sameTime\":\(sameTime)"
    out += ",\"viewBox\":" + TraceJSON.string(size.viewBox)
    out += ",\"timelines\":[" + runtime.timelineNamesForStage.map(TraceJSON.string).joined(separator: ",") + "]"
    return out + ",\"diagnostics\":" + (diagnostics.map(TraceJSON.string) ?? "null")
  }

  /// The scene now, as the `<svg>` the page is served with.
  package var svg: String { StageScene(runtime, size: size).svg }

  /// Keeps what the runtime reported for the page's log.
  private func take(_ outputs: [RuntimeOutput]) {
    for output in outputs {
      switch output {
      case .record(let record):
        if case .sample = record { continue }
        let line = JSONLTraceWriter.line(record)
        if !line.isEmpty { log.append(String(line.dropLast())) }
      case .error(let error, let errorSource):
        let rendered = DiagnosticRenderer(source: errorSource).render(error.diagnostic)
        log.append("{\"error\":" + TraceJSON.string(rendered) + "}")
      case .value(let name, let value):
        log.append("{\"note\":" + TraceJSON.string("\(name) = \(value)") + "}")
      case .note(let text):
        log.append("{\"note\":" + TraceJSON.string(text) + "}")
      }
    }
    // A page left closed must not make the log grow without end.
    if log.count > 10_000 { log.removeFirst(log.count - 10_000) }
  }

  /// Appends a line to the page's log from outside (the REPL's own output).
  package func note(_ text: String) {
    log.append("{\"note\":" + TraceJSON.string(text) + "}")
  }

  /// `GET /state?at=`: the sample `anim trace FILE --at T` writes for `T`, from a fresh
  /// virtual run of `text`: `{"t":…,"values":{…}}`.
  package static func sampleJSON(of text: SourceText, at time: Nanoseconds) -> String? {
    guard case .started(let runtime, let first, _) = Runtime.start(text) else { return nil }
    var line: String?
    try? runtime.trace(
      startedWith: first, options: TraceOptions(times: [time]),
      emit: { record in
        if case .sample = record { line = String(JSONLTraceWriter.line(record).dropLast()) }
      },
      report: { _, _ in })
    return line
  }
}

/// A script that could not be loaded: its diagnostics, rendered.
package struct StageLoadFailure: Error, Sendable {
  package var diagnostics: String
}

/// A duration as the language writes it (`1.5s`, `250ms`); nil when the text is not exactly
/// one duration literal.
package func stageDuration(_ text: String) -> Nanoseconds? { parsedDuration(text) }
