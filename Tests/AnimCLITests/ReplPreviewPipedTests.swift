import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `anim repl --preview` with piped input (a FIFO the test keeps open, so no end of input):
/// the REPL passes between lines, and also when a page wants it, so a page that connects
/// later gets the session's state, and what it sends is evaluated, without more input; on the
/// real clock a page sees things move at its pace, and nothing is sent, nor spent, at rest.
@Suite(.serialized) struct ReplPreviewPipedTests {
  /// The first page has its state and has been sent a frame since (so the state kept for
  /// pages to come is old): a second page gets the state at once, with the value the last
  /// entry set, and its statement is evaluated in the session, all with no more input.
  @Test func aLatePageGetsTheStateAndIsHeardWithoutMoreInput() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let repl = try PipedPreviewREPL(["--clock", "virtual"], scratch: scratch)
    defer { repl.stop() }
    try repl.send("target box { x: 0, y: 0 }\n")
    let first = try repl.page()
    // (A line as well: where passes come only between lines, the one before it hands the
    // page its state.)
    try repl.send("box.x\n")
    let firstState = try #require(try first.next { $0.isFrameText }, "the first page's state")
    #expect(firstState.text?.contains("\"n\":\"box\"") == true)
    try repl.send("set box.x to 20\nbox.x\n")
    try repl.waitForOutput("box.x = 20")
    #expect(try first.next { $0.isBinary } != nil, "a frame to the first page after its state")

    let second = try repl.page()
    let state = try second.next(within: 10) { $0.isFrameText }
    #expect(state != nil, "the second page got no state without more input")
    // The state is the session's now: box at x = 20, y = 0.
    #expect(state?.text?.contains("[20,0,0,1,1]") == true, "\(state?.text ?? "")")

    try second.send("statement set box.x to 30")
    try repl.waitForOutput("stage> set box.x to 30")
    // And the pages are sent what it did: a frame.
    #expect(try second.next(within: 10) { $0.isBinary } != nil, "no frame after the page's statement")
  }

  /// On the real clock, a page sees an animation that the last entry started move, frame
  /// after frame, without more input; once it has come to rest, nothing is sent and the
  /// REPL waits without spending time (no busy wait).
  @Test func onTheRealClockAPageSeesThingsMoveAndNothingAtRest() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let repl = try PipedPreviewREPL([], scratch: scratch)
    defer { repl.stop() }
    try repl.send("target box { x: 0 }\n")
    let page = try repl.page()
    try repl.send("animate box.x to 100 over 1500ms\n")
    #expect(try page.next(within: 10) { $0.isFrameText } != nil, "no state")
    // 1.5 s of motion: a frame per 1/60 s, however loaded the machine; many more than one.
    var frames = 0
    let start = Date()
    while Date().timeIntervalSince(start) < 1.0 {
      if try page.next(within: 0.2, { $0.isBinary }) != nil { frames += 1 }
    }
    #expect(frames >= 5, "\(frames) frames in a second of motion, with no input")
    // At rest (after 1.5 s, and what was sent until then read):
    Thread.sleep(forTimeInterval: 1.0)
    while try page.next(within: 0.3, { _ in true }) != nil {}
    let before = try repl.cpuTicks()
    let quiet = Date()
    var late = 0
    while Date().timeIntervalSince(quiet) < 1.5 {
      if try page.next(within: 0.3, { $0.isBinary }) != nil { late += 1 }
    }
    let spent = try repl.cpuTicks() - before
    #expect(late == 0, "\(late) frames at rest")
    // Clock ticks (1/100 s): a wait that spins would spend most of the 150.
    #expect(spent <= 15, "\(spent) ticks of CPU in 1.5 s at rest")
    // The animation ran, and the session still takes input.
    try repl.send("box.x\n")
    try repl.waitForOutput("box.x = 100")
  }

  /// SIGTERM ends the session, and so the process, by that signal, as without `--preview`:
  /// the server does not take the signal for itself (stopping alone, the session left running).
  @Test func sigtermEndsTheSessionWithItsPage() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let repl = try PipedPreviewREPL([], scratch: scratch)
    defer { repl.stop() }
    try repl.send("target box { x: 0 }\nbox.x\n")
    try repl.waitForOutput("box.x = 0")
    let page = try repl.page()
    #expect(try page.next { $0.isFrameText } != nil, "no state")
    #expect(repl.terminate(waiting: 5) == 128 + SIGTERM)
  }
}

/// `anim repl --preview ARGUMENTS` reading a FIFO the test writes (and keeps open), its output
/// in a file; ended by its process id (`stop()`).
final class PipedPreviewREPL {
  let pid: pid_t
  let port: Int
  let token: String
  private let input: Int32
  private let outputPath: String
  /// Whether it has ended and been waited for (its process id is no longer its own).
  private var ended = false

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(_ arguments: [String], scratch: ScratchDirectory) throws {
    let fifo = scratch.directory.appendingPathComponent("input-\(UUID().uuidString)").path
    guard mkfifo(fifo, 0o600) == 0 else { throw Failure(description: "mkfifo failed") }
    // A reader first (without waiting), so that the writer opens at once, so that the REPL's
    // own open does.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard reader >= 0 else { throw Failure(description: "cannot open the FIFO") }
    defer { close(reader) }
    input = open(fifo, O_WRONLY | O_CLOEXEC)
    guard input >= 0 else { throw Failure(description: "cannot open the FIFO for writing") }
    outputPath = fifo + ".out"
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["HOME"] = scratch.directory.path
    environment["XDG_STATE_HOME"] = scratch.directory.path
    pid = try spawn(
      [try animExecutable(), "repl", "--preview"] + arguments, environment: environment, standardInput: fifo,
      standardOutput: outputPath, standardError: outputPath + ".err")
    let deadline = Date().addingTimeInterval(60)
    var text = ""
    while Date() < deadline {
      text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      if text.contains("\n") { break }
      if waitForExit(of: pid, timeout: 0.02) != nil { break }
    }
    let line = text.split(separator: "\n").first.map(String.init) ?? ""
    let prefix = "anim preview: http://127.0.0.1:"
    guard line.hasPrefix(prefix), let slash = line.dropFirst(prefix.count).firstIndex(of: "/"),
      let port = Int(line.dropFirst(prefix.count)[..<slash]), let tokenStart = line.range(of: "?token=")
    else {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
      close(input)
      throw Failure(description: "anim repl --preview printed \(text)")
    }
    self.port = port
    token = String(line[tokenStart.upperBound...])
  }

  /// Writes `text` to the REPL's input.
  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    guard bytes.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) == bytes.count else {
      throw Failure(description: "cannot write to the REPL")
    }
  }

  /// What the REPL wrote on standard output.
  func output() throws -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

  /// Waits (up to 20 s) for `text` in the REPL's output.
  func waitForOutput(_ text: String) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if try output().contains(text) { return }
      Thread.sleep(forTimeInterval: 0.02)
    }
    throw Failure(description: "no '\(text)' in the REPL's output: \(try output())")
  }

  /// A page's connection: the WebSocket, with the page's own Origin and the token.
  func page() throws -> WebSocketClient {
    try WebSocketClient(port: port, path: "/ws?token=\(token)", origin: "http://127.0.0.1:\(port)")
  }

  /// The CPU time the REPL has spent (user and system), in clock ticks (`/proc/PID/stat`).
  func cpuTicks() throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    guard let close = stat.lastIndex(of: ")") else { throw Failure(description: "unreadable stat: \(stat)") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the name: state is field 3, utime 14 and stime 15.
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      throw Failure(description: "unreadable stat: \(stat)")
    }
    return user + system
  }

  /// Sends SIGTERM and waits up to `seconds` for it to end: its status, or nil when it
  /// still runs.
  func terminate(waiting seconds: Double) -> Int32? {
    guard !ended else { return nil }
    kill(pid, SIGTERM)
    let status = waitForExit(of: pid, timeout: seconds)
    if status != nil { ended = true }
    return status
  }

  /// Ends it (SIGTERM, then SIGKILL), waits for it, and closes its input.
  func stop() {
    if !ended && terminate(waiting: 5) == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
      ended = true
    }
    close(input)
  }
}

/// A minimal WebSocket client (RFC 6455) for the page's side: text and binary messages in,
/// masked text messages out.
final class WebSocketClient {
  private let descriptor: Int32
  private var received: [UInt8] = []

  struct Message {
    var opcode: UInt8
    var payload: [UInt8]

    var isBinary: Bool { opcode == 2 }
    var text: String? { opcode == 1 ? String(decoding: payload, as: UTF8.self) : nil }
    /// A whole state: `{"type":"frame",...}` as text.
    var isFrameText: Bool { text?.hasPrefix("{\"type\":\"frame\"") == true }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(port: Int, path: String, origin: String) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "no socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw Failure(description: "cannot connect to port \(port)")
    }
    let request =
      [
        "GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "Origin: \(origin)",
      ].joined(separator: "\r\n") + "\r\n\r\n"
    try sendAll(Array(request.utf8))
    let end = Array("\r\n\r\n".utf8)
    let deadline = Date().addingTimeInterval(20)
    while received.firstRange(of: end) == nil {
      guard Date() < deadline, try receive(timeout: 1) else {
        close(descriptor)
        throw Failure(description: "no answer to the upgrade")
      }
    }
    let head = received.firstRange(of: end)!
    let status = String(decoding: received[..<head.lowerBound], as: UTF8.self)
    received.removeSubrange(..<head.upperBound)
    guard status.hasPrefix("HTTP/1.1 101") else {
      close(descriptor)
      throw Failure(description: "the upgrade was answered \(status)")
    }
  }

  deinit { close(descriptor) }

  /// The next message that `accepts` takes, skipping others, within `within` seconds; nil
  /// when none came.
  func next(within seconds: Double = 10, _ accepts: (Message) -> Bool) throws -> Message? {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      if let message = takeMessage() {
        if accepts(message) { return message }
        continue
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0, try receive(timeout: left) else { return nil }
    }
  }

  /// Sends a text message, masked as a client's must be.
  func send(_ text: String) throws {
    let payload = Array(text.utf8)
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try sendAll(frame)
  }

  private func sendAll(_ bytes: [UInt8]) throws {
    var rest = bytes[...]
    while !rest.isEmpty {
      let sent = rest.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { throw Failure(description: "cannot send") }
      rest = rest.dropFirst(sent)
    }
  }

  /// Reads what has come within `timeout` seconds: false when nothing did.
  private func receive(timeout: Double) throws -> Bool {
    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    guard poll(&descriptors, 1, Int32(max(1, timeout * 1000))) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw Failure(description: "the connection closed") }
    received += chunk[..<count]
    return true
  }

  /// The first whole message received (the server's are not masked), taken off.
  private func takeMessage() -> Message? {
    guard received.count >= 2 else { return nil }
    var length = Int(received[1] & 0x7f)
    var offset = 2
    if length == 126 {
      guard received.count >= 4 else { return nil }
      length = Int(received[2]) << 8 | Int(received[3])
      offset = 4
    } else if length == 127 {
      guard received.count >= 10 else { return nil }
      length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
      offset = 10
    }
    guard received.count >= offset + length else { return nil }
    let message = Message(opcode: received[0] & 0x0f, payload: Array(received[offset..<offset + length]))
    received.removeSubrange(..<(offset + length))
    return message
  }
}
