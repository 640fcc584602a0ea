// StageRelay: the server's side of an interactive session's page (`anim repl --preview`). The
// session runs on the REPL's thread, which the server never touches: the REPL publishes each
// frame here and takes the page's commands from here, under one lock.
//
// The REPL sends pages only what changed (`StageFrameEncoder`'s frames, as `anim preview`
// does), and builds a page's whole state only when a page asks for one: a page that connects
// waits for the REPL's next pass (`Demand.welcome`), unless the whole state kept here is
// still the pages' (no frame was published since it was built); a page's request for the
// page itself waits for the scene's `<svg>` at most `svgWait`, else takes the last one built.
// A REPL that passes only between lines (piped input) also waits on `wakeDescriptor`, which
// each of these makes readable, so none waits for more input.

import AnimCore
import AnimStage
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

package final class StageRelay: StageBackend {
  private struct Shared {
    /// The pages that have the state, each frame going to them.
    var clients: [Int: AsyncStream<StageMessage>.Continuation] = [:]
    /// The pages that connected and wait for the whole state (the REPL's next pass).
    var arriving: [Int: AsyncStream<StageMessage>.Continuation] = [:]
    /// The target each page's inspector shows.
    var selections: [Int: String] = [:]
    /// Every how many animation frames each page writes its stage (`stride N`, 1…4).
    var strides: [Int: Int] = [:]
    var nextClient = 0
    var inbox: [String] = []
    /// The last whole state built (a JSON object), and whether it is still what the pages
    /// have (no frame published since).
    var state: String?
    var stateIsCurrent = false
    /// The scene's `<svg>` as last built, and the requests for the page waiting for a new one.
    var svg = "<svg id=\"stage\"></svg>"
    var svgRequests: [Int: CheckedContinuation<String, Never>] = [:]
    var nextRequest = 0
    /// The pipe that wakes the REPL (`wakeDescriptor`): -1 until it is asked for.
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1

    /// Makes `wakeRead` readable, when someone waits on it: a page wants the REPL's pass.
    func wake() {
      guard wakeWrite >= 0 else { return }
      var byte: UInt8 = 1
      // (A full pipe is readable already: nothing is lost when the write fails.)
      _ = write(wakeWrite, &byte, 1)
    }
  }
  private let shared = Mutex(Shared())
  private let title: String

  /// How long a request for the page waits for the REPL's pass to draw the scene (the REPL
  /// passes 60 times a second on a terminal; piped, only between entries).
  package static let svgWait: Duration = .milliseconds(250)

  package init(title: String) { self.title = title }

  // MARK: - The server's side

  package func page(token: String, at: Nanoseconds?) async -> String {
    let svg = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      let request = shared.withLock { shared in
        let request = shared.nextRequest
        shared.nextRequest += 1
        shared.svgRequests[request] = continuation
        shared.wake()
        return request
      }
      Task {
        try? await Task.sleep(for: Self.svgWait)
        // (No pass came: the scene as last drawn.)
        let late = shared.withLock { shared in
          shared.svgRequests.removeValue(forKey: request).map { (continuation: $0, svg: shared.svg) }
        }
        if let late { late.continuation.resume(returning: late.svg) }
      }
    }
    return StagePage.html(token: token, title: title, svg: svg)
  }

  package func stateJSON(at time: Nanoseconds) async -> String? { nil }

  package func connect() async -> (Int, AsyncStream<StageMessage>) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: StageMessage.self, bufferingPolicy: .bufferingNewest(120))
    let id = shared.withLock { shared in
      let id = shared.nextClient
      shared.nextClient += 1
      continuation.yield(.text("{\"type\":\"overview\",\"overview\":null}"))
      // (Under the lock: no frame can come between the state and the page's joining.)
      if shared.stateIsCurrent, let state = shared.state {
        continuation.yield(.text(Self.wholeFrame(state)))
        shared.clients[id] = continuation
      } else {
        shared.arriving[id] = continuation
        shared.wake()
      }
      return id
    }
    return (id, stream)
  }

  package func disconnect(_ id: Int) async {
    shared.withLock { shared in
      if shared.selections.removeValue(forKey: id) != nil {
        shared.inbox.append("inspect")
        shared.wake()
      }
      shared.strides[id] = nil
      return shared.clients.removeValue(forKey: id) ?? shared.arriving.removeValue(forKey: id)
    }?.finish()
  }

  package func handle(_ command: String, from client: Int) async {
    shared.withLock { shared in
      if command.hasPrefix("select ") {
        // (What the inspectors show: `inspected` says, and the session asks.)
        shared.selections[client] = String(command.dropFirst("select ".count))
        shared.inbox.append("inspect")
        shared.wake()
      } else if command.hasPrefix("stride ") {
        // (As `StageHost` takes it: the REPL's pass reads it in `demand`.)
        if let stride = Int(command.dropFirst("stride ".count)) { shared.strides[client] = min(max(stride, 1), 4) }
      } else {
        shared.inbox.append(command)
        shared.wake()
      }
    }
  }

  package func tickLoop() async {}

  /// A whole state as the page's first frame.
  private static func wholeFrame(_ state: String) -> String {
    "{\"type\":\"frame\"," + state.dropFirst().dropLast() + ",\"log\":[]}"
  }

  // MARK: - The session's side

  /// What the pages want of the REPL's pass.
  package struct Demand: Equatable, Sendable {
    /// Some page has the state and takes frames.
    package var frames: Bool
    /// Some page waits for the whole state.
    package var welcome: Bool
    /// Some request for the page waits for the scene's `<svg>`.
    package var svg: Bool
    /// The smallest stride of the pages that have the state (1 when none said): while things
    /// move, no page writes its stage more often than every `stride` animation frames, so
    /// frames between are made for nothing.
    package var stride: Int

    package init(frames: Bool, welcome: Bool, svg: Bool, stride: Int = 1) {
      self.frames = frames
      self.welcome = welcome
      self.svg = svg
      self.stride = stride
    }
  }

  /// What the pages want now (one look under the lock, every pass).
  package var demand: Demand {
    shared.withLock { shared in
      Demand(
        frames: !shared.clients.isEmpty, welcome: !shared.arriving.isEmpty, svg: !shared.svgRequests.isEmpty,
        stride: shared.clients.keys.map { shared.strides[$0] ?? 1 }.min() ?? 1)
    }
  }

  /// A descriptor that is readable while a page wants the REPL's pass (it connected and
  /// waits for the whole state, asked for the page, or sent a command): made on the first
  /// call (a REPL that passes 60 times a second never asks, and nothing is written for it).
  /// `drainWake()` empties it. Nil when no pipe can be made.
  package var wakeDescriptor: Int32? {
    shared.withLock { shared -> Int32? in
      if shared.wakeRead < 0 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
          _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
          _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (shared.wakeRead, shared.wakeWrite) = (ends[0], ends[1])
        // (Whatever came before anyone waited still wants a pass.)
        if !shared.arriving.isEmpty || !shared.inbox.isEmpty || !shared.svgRequests.isEmpty { shared.wake() }
      }
      return shared.wakeRead
    }
  }

  /// Empties `wakeDescriptor`, before the pass it asked for.
  package func drainWake() {
    let descriptor = shared.withLock { $0.wakeRead }
    guard descriptor >= 0 else { return }
    var bytes = [UInt8](repeating: 0, count: 256)
    while bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

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

  /// Sends the pages that have the state `frame` (what changed since the last), then the
  /// pages waiting for it the whole `state` (a JSON object, the same instant), which is kept
  /// for pages still to come while no frame follows.
  package func publish(frame: [UInt8]?, state: String?) {
    shared.withLock { shared in
      if let frame {
        for client in shared.clients.values { client.yield(.binary(frame)) }
        shared.stateIsCurrent = false
      }
      if let state {
        shared.state = state
        shared.stateIsCurrent = true
        let message = StageMessage.text(Self.wholeFrame(state))
        for (id, client) in shared.arriving {
          client.yield(message)
          shared.clients[id] = client
        }
        shared.arriving = [:]
      }
    }
  }

  /// Answers the requests for the page waiting for the scene with `svg`, kept for later ones.
  package func publish(svg: String) {
    let waiting = shared.withLock { shared in
      shared.svg = svg
      defer { shared.svgRequests = [:] }
      return Array(shared.svgRequests.values)
    }
    for request in waiting { request.resume(returning: svg) }
  }
}
