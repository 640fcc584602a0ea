import AnimTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An `anim preview` process a test started, ended by its process id (`stop()`).
final class PreviewServer {
  let pid: pid_t
  /// The one line it printed: `anim preview: http://127.0.0.1:PORT/?token=TOKEN`.
  let line: String
  let port: Int
  let token: String
  private let output: String

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts `anim preview ARGUMENTS` and waits (up to a minute) for its line.
  init(_ arguments: [String], scratch: ScratchDirectory) throws {
    output = scratch.directory.appendingPathComponent("preview-\(UUID().uuidString).out").path
    let errors = output + ".err"
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    pid = try spawn(
      [try animExecutable(), "preview"] + arguments, environment: environment, standardOutput: output,
      standardError: errors)
    let deadline = Date().addingTimeInterval(60)
    var text = ""
    while Date() < deadline {
      text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      if text.hasSuffix("\n") { break }
      if let status = waitForExit(of: pid, timeout: 0.02) {
        let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        throw Failure(description: "anim preview exited with \(status): \(message)")
      }
    }
    guard text.hasSuffix("\n") else {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
      throw Failure(description: "anim preview printed no line within a minute")
    }
    line = String(text.dropLast())
    let prefix = "anim preview: http://127.0.0.1:"
    guard line.hasPrefix(prefix), let slash = line.dropFirst(prefix.count).firstIndex(of: "/"),
      let port = Int(line.dropFirst(prefix.count)[..<slash]), let tokenStart = line.range(of: "?token=")
    else {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
      throw Failure(description: "unexpected line: \(text)")
    }
    self.port = port
    token = String(line[tokenStart.upperBound...])
  }

  /// Everything it printed on standard output so far.
  var standardOutput: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

  /// Ends it (SIGTERM, then SIGKILL) and waits for it.
  func stop() {
    kill(pid, SIGTERM)
    if waitForExit(of: pid, timeout: 5) == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(of: pid, timeout: 5)
    }
  }

  /// `GET path` on its port: the status and the body.
  func get(_ path: String, headers: [String] = []) throws -> (status: Int, body: String) {
    let request =
      (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers).joined(separator: "\r\n")
      + "\r\n\r\n"
    let response = try exchange(request)
    guard let head = response.range(of: "\r\n\r\n") else { throw Failure(description: "no head in \(response)") }
    let statusLine = response[..<head.lowerBound].split(separator: "\r\n").first ?? ""
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
    var body = String(response[head.upperBound...])
    if response[..<head.lowerBound].lowercased().contains("transfer-encoding: chunked") { body = Self.unchunk(body) }
    return (status, body)
  }

  /// A WebSocket upgrade request for `/ws` with `origin`: the status line's code.
  func upgradeStatus(origin: String?, token: String?, path: String = "/ws") throws -> Int {
    var lines = [
      "GET " + path + (token.map { "?token=\($0)" } ?? "") + " HTTP/1.1", "Host: 127.0.0.1:\(port)",
      "Upgrade: websocket",
      "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]
    if let origin { lines.append("Origin: \(origin)") }
    let response = try exchange(lines.joined(separator: "\r\n") + "\r\n\r\n", untilHead: true)
    let statusLine = response.split(separator: "\r\n").first ?? ""
    return Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  private func exchange(_ request: String, untilHead: Bool = false) throws -> String {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "no socket") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure(description: "cannot connect to port \(port)") }
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
      throw Failure(description: "cannot send")
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received += chunk[0..<count]
      if untilHead, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
    }
    return String(decoding: received, as: UTF8.self)
  }

  private static func unchunk(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let lineEnd = rest.range(of: "\r\n") {
      guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 else { break }
      let start = rest.utf8.index(lineEnd.upperBound, offsetBy: 0)
      let end = rest.utf8.index(start, offsetBy: size)
      out += String(rest[start..<end])
      rest = rest[end...].dropFirst(2)
    }
    return out
  }
}
