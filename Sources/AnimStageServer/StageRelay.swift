// StageRelay: the server's side of an interactive session's page (`anim repl --preview`). The
// session runs on the REPL's thread, which the server never touches: the REPL publishes each
// frame here and takes the page's commands from here, under one lock.

import AnimCore
import AnimStage
import Synchronization

package final class StageRelay: StageBackend {
  private struct Shared {
    var clients: [Int: AsyncStream<StageMessage>.Continuation] = [:]
    /// The target each page's inspector shows.
    var selections: [Int: String] = [:]
    var nextClient = 0
    var inbox: [String] = []
    /// The last state published (a JSON object) and the scene's `<svg>`.
    var state: String?
    var svg = "<svg id=\"stage\"></svg>"
  }
  private let shared = Mutex(Shared())
  private let title: String

  package init(title: String) { self.title = title }

  // MARK: - The server's side

  package func page(token: String, at: Nanoseconds?) async -> String {
    let svg = shared.withLock { $0.svg }
    return StagePage.html(token: token, title: title, svg: svg)
  }

  package func stateJSON(at time: Nanoseconds) async -> String? { nil }

  package func connect() async -> (Int, AsyncStream<StageMessage>) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: StageMessage.self, bufferingPolicy: .bufferingNewest(120))
    let state = shared.withLock { shared in
      let id = shared.nextClient
      shared.nextClient += 1
      shared.clients[id] = continuation
      return (id, shared.state)
    }
    continuation.yield(.text("{\"type\":\"overview\",\"overview\":null}"))
    if let frame = state.1 {
      continuation.yield(.text("{\"type\":\"frame\"," + frame.dropFirst().dropLast() + ",\"log\":[]}"))
    }
    return (state.0, stream)
  }

  package func disconnect(_ id: Int) async {
    shared.withLock { shared in
      if shared.selections.removeValue(forKey: id) != nil { shared.inbox.append("inspect") }
      return shared.clients.removeValue(forKey: id)
    }?.finish()
  }

  package func handle(_ command: String, from client: Int) async {
    shared.withLock { shared in
      if command.hasPrefix("select ") {
        // (What the inspectors show: `inspected` says, and the session asks.)
        shared.selections[client] = String(command.dropFirst("select ".count))
        shared.inbox.append("inspect")
      } else {
        shared.inbox.append(command)
      }
    }
  }

  package func tickLoop() async {}

  // MARK: - The session's side

  /// The targets the pages' inspectors show.
  package var inspected: Set<String> { shared.withLock { Set($0.selections.values) } }

  /// The commands the pages sent since the last call (`inspect`: the inspected targets
  /// changed).
  package func takeCommands() -> [String] {
    shared.withLock { shared in
      defer { shared.inbox = [] }
      return shared.inbox
    }
  }

  /// Sends every page `frame` (what changed), and keeps the whole `state` (a JSON object) and
  /// the scene's `svg` for pages still to come.
  package func publish(frame: [UInt8], state: String, svg: String) {
    let clients = shared.withLock { shared in
      shared.state = state
      shared.svg = svg
      return Array(shared.clients.values)
    }
    for client in clients { client.yield(.binary(frame)) }
  }
}
