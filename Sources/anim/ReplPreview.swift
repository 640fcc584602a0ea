import AnimCore
import AnimREPL
import AnimRuntime
import AnimStage
import AnimStageServer

/// `anim repl --preview`: the REPL's side of its page. After every pass of the REPL's loop it
/// publishes the session to the page (when anything changed), and it hands the REPL what
/// was clicked or typed there as entries: statements as they are, the play button as the
/// bare statements that act on every top-level animation and timeline (`pause`, `resume`),
/// `reverse` as the bare `reverse`, and the speed and step controls as acts on the session's
/// clock (`StageEntry`), as `anim preview`'s act on its session's. There is no script to
/// replay: the page's scrubber is disabled, and a step back and a restart are refused.
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

  init(relay: StageRelay, size: StageSize) {
    self.relay = relay
    self.size = size
  }

  func takeEntries() -> [StageEntry] {
    relay.takeCommands().compactMap { command in
      let space = command.firstIndex(of: " ")
      let verb = space.map { String(command[..<$0]) } ?? command
      let argument = space.map { String(command[command.index(after: $0)...]) } ?? ""
      switch verb {
      case "statement": return .input(argument)
      case "toggle":
        // (Held by a step, the page shows it paused: play lets it go.)
        paused = !(paused || clock.isHeld)
        return .input(paused ? "pause" : "resume")
      case "play", "pause":
        paused = verb == "pause"
        return .input(paused ? "pause" : "resume")
      case "reverse": return .input("reverse")
      case "speed": return Double(argument).map { .speed(Self.clamped($0)) }
      case "faster": return .speed(Self.clamped(clock.speed * 2))
      case "slower": return .speed(Self.clamped(clock.speed / 2))
      case "step": return Int(argument).map { .step($0) }
      case "inspect":
        encoder.inspect(relay.inspected)
        return nil
      case "stride":
        // (The REPL's loop keeps its own pace.)
        return nil
      default:
        log.append(
          "{\"note\":" + TraceJSON.string("'\(verb)' needs a script to replay: not in an interactive session") + "}")
        return nil
      }
    }
  }

  /// A speed within the page's range (`StageSession.speeds`).
  private static func clamped(_ speed: Double) -> Double {
    min(max(speed, StageSession.speeds.lowerBound), StageSession.speeds.upperBound)
  }

  func show(_ runtime: Runtime?, at now: Nanoseconds, clock: SessionStageClock) {
    self.clock = clock
    guard let runtime else { return }
    let shownPaused = paused || clock.isHeld
    let header = StageSession.stateHeader(
      runtime, size: size, time: now, paused: shownPaused, speed: clock.speed, interactive: true, sameTime: false,
      diagnostics: nil)
    guard let frame = encoder.frame(runtime, size: size, time: now, header: header, log: log) else { return }
    log = []
    // (The whole state, for pages still to come, only when something changed.)
    let state = StageSession.stateJSON(
      runtime, size: size, time: now, paused: shownPaused, speed: clock.speed, interactive: true, sameTime: false,
      diagnostics: nil)
    relay.publish(frame: frame, state: state, svg: StageScene(runtime, size: size).svg)
  }

  func log(_ text: String, isError: Bool) {
    for line in text.split(separator: "\n") where !line.isEmpty {
      log.append("{\"\(isError ? "error" : "note")\":" + TraceJSON.string(String(line)) + "}")
    }
  }
}
