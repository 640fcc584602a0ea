// StageHost: the one owner of a stage's session. The server's tick loop, every page's
// commands and the file watcher reach the session through it, one at a time, and it sends
// each connected page the frames the session produces: at most one per 1/60 s, and none
// while nothing changes.

import AnimCore
import AnimLanguage
import AnimRuntime
import AnimStage

#if canImport(Glibc)
  import Glibc
#endif

package actor StageHost: StageBackend {
  private let session: StageSession
  private var clients: [Int: AsyncStream<StageMessage>.Continuation] = [:]
  /// The target each page's inspector shows.
  private var selections: [Int: String] = [:]
  /// Every how many animation frames each page writes its stage (`stride N`: a page with
  /// many moving targets writes every 2nd to 4th); on the real clock the server ticks no
  /// faster than the fastest page writes.
  private var strides: [Int: Int] = [:]
  private var nextClient = 0
  /// The watched file's modification time and size, polled every 250 ms.
  private var fileStamp: FileStamp?
  private var lastPoll: Nanoseconds = 0

  /// How often a file is polled for changes.
  package static let pollInterval: Nanoseconds = 250_000_000

  package init(session: sending StageSession) {
    self.session = session
    fileStamp = FileStamp(path: session.path)
  }

  private static var now: Nanoseconds { MonotonicClock.systemMonotonicTime() }

  /// The page, with the stage drawn at the session's time (after a scrub to `at`, which
  /// also pauses: the page opened frozen at that instant).
  package func page(token: String, at: Nanoseconds?) -> String {
    if let at {
      session.setPaused(true, realNow: Self.now)
      session.scrub(to: at, realNow: Self.now)
    } else {
      session.tick(realNow: Self.now)
    }
    return StagePage.html(token: token, title: session.path, svg: session.svg)
  }

  /// `/state?at=`: the sample from a fresh virtual run of the script.
  package func stateJSON(at time: Nanoseconds) -> String? {
    return StageSession.sampleJSON(of: session.source, at: time)
  }

  /// A new page: its stream of messages, starting with the overview and the whole state.
  package func connect() -> (Int, AsyncStream<StageMessage>) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: StageMessage.self, bufferingPolicy: .bufferingNewest(120))
    let id = nextClient
    nextClient += 1
    clients[id] = continuation
    continuation.yield(.text("{\"type\":\"overview\",\"overview\":\(session.overview)}"))
    continuation.yield(.text("{\"type\":\"frame\"," + session.state.dropFirst().dropLast() + ",\"log\":[]}"))
    return (id, stream)
  }

  package func disconnect(_ id: Int) {
    clients.removeValue(forKey: id)?.finish()
    if selections.removeValue(forKey: id) != nil { session.inspect(Set(selections.values)) }
    strides[id] = nil
  }

  /// A command from a page: `toggle`, `play`, `pause`, `reverse`, `restart`, `faster`,
  /// `slower`, `speed X`, `step N`, `scrub SECONDS`, `sametime on|off`, `statement TEXT`,
  /// `select TARGET` (what the page's inspector shows: its values come with the frames),
  /// `stride N` (the page writes its stage every N-th animation frame).
  package func handle(_ command: String, from client: Int) {
    let now = Self.now
    let (verb, argument) = command.firstWordAndRest
    switch verb {
    case "toggle": session.setPaused(!session.isPaused, realNow: now)
    case "play": session.setPaused(false, realNow: now)
    case "pause": session.setPaused(true, realNow: now)
    case "reverse": session.reverse(realNow: now)
    case "restart":
      session.scrub(to: 0, realNow: now)
    case "faster": session.setSpeed(min(session.speed * 2, StageSession.speeds.upperBound), realNow: now)
    case "slower": session.setSpeed(max(session.speed / 2, StageSession.speeds.lowerBound), realNow: now)
    case "speed": if let speed = Double(argument) { session.setSpeed(speed, realNow: now) }
    case "step": if let frames = Int(argument) { session.step(frames: frames, realNow: now) }
    case "scrub":
      if let seconds = Double(argument), seconds.isFinite, seconds >= 0 {
        session.scrub(to: Nanoseconds((seconds * 1e9).rounded()), realNow: now)
      }
    case "sametime": session.reloadsAtSameTime = argument == "on"
    case "select":
      selections[client] = argument
      session.inspect(Set(selections.values))
    case "stride":
      if let stride = Int(argument) { strides[client] = min(max(stride, 1), 4) }
      return
    case "statement":
      session.run(statement: argument, realNow: now)
    default: break
    }
    broadcast()
  }

  /// Runs the session: a tick every 1/60 s while it moves, and a look at the file every
  /// 250 ms; otherwise it sleeps (an idle page costs almost nothing).
  package func tickLoop() async {
    var deadline = Self.now
    while !Task.isCancelled {
      let moving = session.isMoving
      tickOnce()
      // Frames at 1/60 s from the last deadline, however long the tick took (one that ran
      // late starts the count again from now).
      deadline += Self.tickLength(moving: moving, clock: session.clock, strides: clientStrides)
      let now = Self.now
      if deadline < now { deadline = now }
      try? await Task.sleep(nanoseconds: UInt64(max(deadline - now, 1_000_000)))
    }
  }

  /// The strides of the connected pages (1 for a page that has not said).
  private var clientStrides: [Int] { clients.keys.map { strides[$0] ?? 1 } }

  /// What the tick loop waits from one tick to the next now (`tickLength(moving:clock:strides:)`).
  package var tickLength: Nanoseconds {
    Self.tickLength(moving: session.isMoving, clock: session.clock, strides: clientStrides)
  }

  /// What the tick loop waits from one tick to the next: while the session moves, one frame
  /// (1/60 s) times, on the real clock, the smallest stride of the pages (no page writes its
  /// stage more often, so the frames between would be sent for nothing; the virtual clock's
  /// tick is one frame of its time, so it never strides); while it does not, the 50 ms
  /// between looks at the file (polled every 250 ms).
  package static func tickLength(moving: Bool, clock: StageClock, strides: [Int]) -> Nanoseconds {
    guard moving else { return idleTick }
    guard clock == .real, let stride = strides.min() else { return StageSession.frameLength }
    return StageSession.frameLength * Int64(stride)
  }

  /// The tick loop's pace while nothing moves.
  package static let idleTick: Nanoseconds = 50_000_000

  private func tickOnce() {
    let now = Self.now
    if now - lastPoll >= Self.pollInterval {
      lastPoll = now
      let stamp = FileStamp(path: session.path)
      if let stamp, stamp != fileStamp {
        fileStamp = stamp
        if let text = try? StageFile.read(session.path) { session.reload(text, realNow: now) }
        broadcastOverview()
      }
    }
    session.tick(realNow: now)
    broadcast()
  }

  /// Sends the frame, if anything changed, to every page.
  private func broadcast() {
    guard !clients.isEmpty, let frame = session.frame() else { return }
    for client in clients.values { client.yield(.binary(frame)) }
  }

  private func broadcastOverview() {
    for client in clients.values { client.yield(.text("{\"type\":\"overview\",\"overview\":\(session.overview)}")) }
  }
}

/// A file's modification time and size: a change of either is an edit (editors that save by
/// rename give a new file whose time differs).
struct FileStamp: Equatable {
  var seconds: Int
  var nanoseconds: Int
  var size: Int64
  var inode: UInt64

  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    seconds = status.st_mtim.tv_sec
    nanoseconds = status.st_mtim.tv_nsec
    size = Int64(status.st_size)
    inode = UInt64(status.st_ino)
  }
}

/// Reading the script for a reload.
enum StageFile {
  struct Failure: Error {}

  static func read(_ path: String) throws(Failure) -> SourceText {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { throw Failure() }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure()
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return SourceText(name: path, bytes: bytes)
  }
}

extension String {
  /// The first word and what follows it after one space.
  var firstWordAndRest: (String, String) {
    guard let space = firstIndex(of: " ") else { return (self, "") }
    return (String(self[..<space]), String(self[index(after: space)...]))
  }
}
