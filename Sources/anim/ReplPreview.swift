import AnimCore
import AnimREPL
import AnimRuntime
import AnimStage
import AnimStageServer

/// `anim repl --preview`: the REPL's side of its page. After every pass of the REPL's loop it
/// sends the page what changed (when anything did), and it hands the REPL what was clicked
/// or typed there as entries: statements as they are, the play button as the bare statements
/// that act on every top-level animation and timeline (`pause`, `resume`), `reverse` as the
/// bare `reverse`, and the speed and step controls as acts on the session's clock
/// (`StageEntry`), as `anim preview`'s act on its session's. There is no script to replay:
/// the page's scrubber is disabled, and a step back and a restart are refused.
///
/// A pass costs nothing when nothing can have changed (no page, or the same runtime, entries,
/// clock and log, and the runtime's time unmoved or with nothing left to play: an idle
/// session's clock runs on, but nothing on the page moves, so nothing is sent); else the
/// frame is what changed (`StageFrameEncoder`, as `anim preview` sends), no more often while
/// things move than the pages' stride asks, and the page's whole state and scene are built
/// only for a page that asks (`StageRelay.Demand`).
///
/// Piped input passes only between its lines, and also when the relay wakes it
/// (`wakeDescriptor`: a page connected or sent something) and, while a page shows things
/// moving, at the pace of the frames it writes (`passInterval`).
final class ReplStage: SessionStage {
  private let relay: StageRelay
  private let size: StageSize
  private var log: [String] = []
  /// What the pages were last sent, to send only what changed.
  private var encoder = StageFrameEncoder()
  /// Whether the page's play button last paused everything.
  private var paused = false
  /// The session's clock as last shown.
  private var clock = SessionStageClock(speed: 1, isHeld: false)
  /// What the last frame was made from (nil: no frame since no page had the state).
  private var shown: Shown?
  /// Whether the inspected targets changed since the last frame.
  private var inspectionChanged = false
  /// When the last frame was made (the monotonic clock), for the pages' stride.
  private var lastFrameReal: Nanoseconds?
  /// Frames made while the session moves: every `StageSession.framesPerDetail`-th has every
  /// gauge's range, as `anim preview`'s do.
  private var framesMade = 0

  /// What a frame shows, as far as it can change without the runtime being looked at.
  private struct Shown: Equatable {
    var runtime: ObjectIdentifier
    var revision: Int
    var time: Nanoseconds
    var idle: Bool
    var paused: Bool
    var clock: SessionStageClock
  }

  init(relay: StageRelay, size: StageSize) {
    self.relay = relay
    self.size = size
  }

  func takeEntries() -> [StageEntry] {
    relay.takeCommands().flatMap { command -> [StageEntry] in
      let space = command.firstIndex(of: " ")
      let verb = space.map { String(command[..<$0]) } ?? command
      let argument = space.map { String(command[command.index(after: $0)...]) } ?? ""
      switch verb {
      case "statement": return [.input(argument)]
      case "toggle", "play", "pause":
        // Held by a step, the page shows it paused, and play lets it go: a bare `resume` on a
        // held session releases the hold, and only that, so what the page's pause paused
        // takes a second.
        if verb == "pause" || (verb == "toggle" && !(paused || clock.isHeld)) {
          paused = true
          return [.input("pause")]
        }
        let resumes = clock.isHeld && paused ? 2 : 1
        paused = false
        return Array(repeating: .input("resume"), count: resumes)
      case "reverse": return [.input("reverse")]
      case "speed": return Double(argument).map { [.speed(Self.clamped($0))] } ?? []
      case "faster": return [.speed(Self.clamped(clock.speed * 2))]
      case "slower": return [.speed(Self.clamped(clock.speed / 2))]
      case "step": return Int(argument).map { [.step($0)] } ?? []
      case "inspect":
        encoder.inspect(relay.inspected)
        inspectionChanged = true
        return []
      default:
        log.append(
          "{\"note\":" + TraceJSON.string("'\(verb)' needs a script to replay: not in an interactive session") + "}")
        return []
      }
    }
  }

  /// A speed within the page's range (`StageSession.speeds`).
  private static func clamped(_ speed: Double) -> Double {
    min(max(speed, StageSession.speeds.lowerBound), StageSession.speeds.upperBound)
  }

  func show(_ runtime: Runtime?, at now: Nanoseconds, clock: SessionStageClock, revision: Int) {
    self.clock = clock
    let demand = relay.demand
    guard let runtime else { return }
    if demand.svg { relay.publish(svg: StageScene(runtime, size: size).svg) }
    guard demand.frames || demand.welcome else {
      // No page has the state: the next one gets it whole, and frames start from there.
      if shown != nil {
        shown = nil
        encoder = StageFrameEncoder()
        encoder.inspect(relay.inspected)
      }
      log = []
      return
    }
    let shownPaused = paused || clock.isHeld
    let current = Shown(
      runtime: ObjectIdentifier(runtime), revision: revision, time: now, idle: runtime.isIdle, paused: shownPaused,
      clock: clock)
    let onlyTime = !demand.welcome && log.isEmpty && !inspectionChanged && Self.onlyTimeMoved(from: shown, to: current)
    if onlyTime, let shown, shown.time == current.time || (shown.idle && current.idle) { return }
    // While things just move, a frame per `stride` frames' time: no page writes its stage
    // more often (as `anim preview`'s server ticks; the REPL's loop keeps its own pace).
    let realNow = MonotonicClock.systemMonotonicTime()
    let strideLength = Int64(demand.stride - 1) * StageSession.frameLength + StageSession.frameLength / 2
    if onlyTime, !current.idle, demand.stride > 1, let last = lastFrameReal, realNow - last < strideLength { return }
    lastFrameReal = realNow
    shown = current
    inspectionChanged = false
    let header = StageSession.stateHeader(
      runtime, size: size, time: current.time, paused: shownPaused, speed: clock.speed, interactive: true,
      sameTime: false, diagnostics: nil)
    let moving = !current.idle && !shownPaused
    if moving { framesMade += 1 }
    let details = !moving || !log.isEmpty || framesMade % StageSession.framesPerDetail == 0
    let frame = encoder.frame(runtime, size: size, time: current.time, header: header, log: log, details: details)
    log = []
    // (The whole state only for a page that waits for it.)
    let state =
      demand.welcome
      ? StageSession.stateJSON(
        runtime, size: size, time: current.time, paused: shownPaused, speed: clock.speed, interactive: true,
        sameTime: false, diagnostics: nil) : nil
    if frame != nil || state != nil { relay.publish(frame: frame, state: state) }
  }

  /// Whether a frame made from `new` can differ from one made from `old` only by what the
  /// runtime's time did: the runtime, the entries evaluated, the clock and the pause stand. Then
  /// nothing changed while the time did not move or the runtime had, and has, nothing left to
  /// play (advancing an idle runtime moves its time and nothing else; a page shows such a
  /// session at the time it came to rest).
  private static func onlyTimeMoved(from old: Shown?, to new: Shown) -> Bool {
    guard let old else { return false }
    return old.runtime == new.runtime && old.revision == new.revision && old.paused == new.paused
      && old.clock == new.clock
  }

  var wakeDescriptor: Int32? { relay.wakeDescriptor }

  func drainWake() { relay.drainWake() }

  /// A frame's time times the pages' smallest stride, while a page has the state and the last
  /// frame showed the session moving (its runtime not at rest, its clock not held); nil
  /// otherwise: a session at rest sends nothing until something changes, which only input,
  /// or the page (waking the pass), can do.
  var passInterval: Nanoseconds? {
    guard let shown, !shown.idle, !shown.clock.isHeld else { return nil }
    let demand = relay.demand
    guard demand.frames else { return nil }
    return Int64(demand.stride) * StageSession.frameLength
  }

  func log(_ text: String, isError: Bool) {
    for line in text.split(separator: "\n") where !line.isEmpty {
      log.append("{\"\(isError ? "error" : "note")\":" + TraceJSON.string(String(line)) + "}")
    }
  }
}
