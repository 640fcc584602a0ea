import AnimCore
import AnimREPL
import AnimRuntime
import AnimStage
import AnimStageServer

/// `anim repl --preview`: the REPL's side of its page. After every pass of the REPL's loop it
/// publishes the session to the page (when anything changed), and it hands the REPL what
/// was clicked or typed there as entries: statements as they are, the transport's buttons as
/// the bare statements that act on every top-level animation and timeline (`pause`,
/// `resume`, `reverse`). There is no script to replay: the page's scrubber is disabled.
final class ReplStage: SessionStage {
  private let relay: StageRelay
  private let size: StageSize
  private var log: [String] = []
  /// What the pages were last sent, to send only what changed.
  private var encoder = StageFrameEncoder()
  /// Whether the page's play button last paused everything.
  private var paused = false

  init(relay: StageRelay, size: StageSize) {
    self.relay = relay
    self.size = size
  }

  func takeEntries() -> [String] {
    relay.takeCommands().compactMap { command in
      let space = command.firstIndex(of: " ")
      let verb = space.map { String(command[..<$0]) } ?? command
      let argument = space.map { String(command[command.index(after: $0)...]) } ?? ""
      switch verb {
      case "statement": return argument
      case "toggle":
        paused.toggle()
        return paused ? "pause" : "resume"
      case "play", "pause":
        paused = verb == "pause"
        return paused ? "pause" : "resume"
      case "reverse": return "reverse"
      case "inspect":
        encoder.inspect(relay.inspected)
        return nil
      default:
        log.append(
          "{\"note\":" + TraceJSON.string("'\(verb)' needs a script to replay: not in an interactive session") + "}")
        return nil
      }
    }
  }

  func show(_ runtime: Runtime?, at now: Nanoseconds) {
    guard let runtime else { return }
    let header = StageSession.stateHeader(
      runtime, size: size, time: now, paused: paused, speed: 1, interactive: true, sameTime: false, diagnostics: nil)
    guard let frame = encoder.frame(runtime, size: size, time: now, header: header, log: log) else { return }
    log = []
    // (The whole state, for pages still to come, only when something changed.)
    let state = StageSession.stateJSON(
      runtime, size: size, time: now, paused: paused, speed: 1, interactive: true, sameTime: false, diagnostics: nil)
    relay.publish(frame: frame, state: state, svg: StageScene(runtime, size: size).svg)
  }

  func log(_ text: String, isError: Bool) {
    for line in text.split(separator: "\n") where !line.isEmpty {
      log.append("{\"\(isError ? "error" : "note")\":" + TraceJSON.string(String(line)) + "}")
    }
  }
}
