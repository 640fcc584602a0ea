// StageServer: `anim preview`'s HTTP and WebSocket server (Hummingbird 2). One page, its two
// assets, `/state`, and `/ws`, each refused (403) without the token; the WebSocket upgrade
// also needs the page's own Origin. A `StageHost` actor owns the session: the server's tick
// loop and every client's commands reach it one at a time.
//
// HummingbirdWebSocket answers every upgrade its `shouldUpgrade` refuses with 400 Bad
// Request, whatever the reason (HTTP1WebSocketUpgradeChannel.writeFailedUpgrade). So a refused
// upgrade is answered here, before that: `shouldUpgrade` writes 403 (or 404 for another
// path) on the connection itself, through the HTTP/1 encoder NIO's upgrade handler sits on,
// and closes it; the 400 that would follow finds the connection closed.

import AnimCore
import AnimLanguage
import AnimRuntime
import AnimStage
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// What `anim preview` (or `anim repl --preview`) asks of the server.
package struct StageServerOptions: Sendable {
  package var host = "127.0.0.1"
  package var port = 0
  /// The token every request must carry; `StageServer.makeToken()` when nil.
  package var token: String?
  /// Whether SIGTERM and SIGINT stop the server (`anim preview`, whose server is all it
  /// does). `anim repl --preview` says no: its session catches them (`CaughtSignals`) to end
  /// the process cleanly, and a server that took them over would stop alone, leaving the
  /// session running.
  package var stopsOnSignals = true
  package init() {}
}

/// What the server serves: a script's session (`StageHost`) or an interactive one's
/// (`StageRelay`).
package protocol StageBackend: Sendable {
  /// The page, with the stage drawn at the session's time (after a scrub to `at`).
  func page(token: String, at: Nanoseconds?) async -> String
  /// `/state?at=`: the trace's sample at `time`; nil (404) where there is no script.
  func stateJSON(at time: Nanoseconds) async -> String?
  /// A new page's stream of messages, and its number.
  func connect() async -> (Int, AsyncStream<StageMessage>)
  func disconnect(_ id: Int) async
  /// A command from page `client`.
  func handle(_ command: String, from client: Int) async
  /// Runs for as long as the server does.
  func tickLoop() async
}

package enum StageServer {
  /// 32 characters of `[A-Za-z0-9_-]` from the system's random source.
  package static func makeToken() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in alphabet[Int(generator.next() % 64)] })
  }

  /// Serves `host`'s session until the process ends. Calls `ready` with the page's address
  /// (`http://127.0.0.1:PORT/?token=TOKEN`) once the server listens.
  package static func run(
    _ host: some StageBackend, options: StageServerOptions, ready: @escaping @Sendable (String) -> Void
  ) async throws {
    let token = options.token ?? makeToken()
    let origin = OriginBox()
    let router = Router()
    router.add(middleware: TokenMiddleware(token: token))
    router.get("/") { request, _ -> Response in
      let at = request.uri.queryParameters.get("at").flatMap { stageDuration(String($0)) }
      let page = await host.page(token: token, at: at)
      return Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    for (name, type) in [("stage.css", "text/css; charset=utf-8"), ("stage.js", "text/javascript; charset=utf-8")] {
      let text = StageAssets.files[name] ?? ""
      router.get(RouterPath(name)) { _, _ -> Response in
        Response(
          status: .ok, headers: [.contentType: type, .cacheControl: "no-store"],
          body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
      }
    }
    router.get("/state") { request, _ -> Response in
      guard let text = request.uri.queryParameters.get("at"), let at = stageDuration(String(text)) else {
        return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "give at=DURATION\n")))
      }
      guard let json = await host.stateJSON(at: at) else { return Response(status: .notFound) }
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: json + "\n")))
    }
    var logger = Logger(label: "anim-preview")
    logger.logLevel = .critical
    let app = Application(
      router: router,
      server: .http1WebSocketUpgrade { request, channel, _ in
        // The token, the page's own origin, the one path: else 403 (404), answered here.
        let refusal = Self.refusal(of: request, token: token, origin: origin.value)
        if let refusal {
          await Self.answer(refusal, on: channel)
          return .dontUpgrade
        }
        return .upgrade([:]) { inbound, outbound, _ in
          let (id, messages) = await host.connect()
          let sender = Task {
            for await message in messages {
              do {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                }
              } catch { break }
            }
          }
          defer { sender.cancel() }
          do {
            for try await message in inbound.messages(maxSize: 1 << 20) {
              if case .text(let command) = message { await host.handle(command, from: id) }
            }
          } catch {}
          await host.disconnect(id)
        }
      },
      configuration: .init(address: .hostname(options.host, port: options.port)),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? options.port
        let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        origin.set("http://\(shownHost):\(port)")
        ready("http://\(shownHost):\(port)/?token=\(token)")
      },
      logger: logger)
    let ticking = Task { await host.tickLoop() }
    defer { ticking.cancel() }
    try await app.runService(gracefulShutdownSignals: options.stopsOnSignals ? [.sigterm, .sigint] : [])
  }
}

extension StageServer {
  /// Why a WebSocket upgrade is refused, as the status to answer: 404 for another path than
  /// `/ws`, 403 without the token or from another origin than the page's; nil to upgrade.
  static func refusal(of request: HTTPRequest, token: String, origin: String?) -> HTTPResponseStatus? {
    let target = request.path ?? ""
    let path = target.prefix { $0 != "?" }
    guard path == "/ws" else { return .notFound }
    let query = target.drop { $0 != "?" }.dropFirst()
    let given = query.split(separator: "&").first { $0.hasPrefix("token=") }?.dropFirst("token=".count)
    guard let given, given == token[...] else { return .forbidden }
    // A page of another origin cannot open the socket even with the token.
    guard let origin, request.headerFields[.origin] == origin else { return .forbidden }
    return nil
  }

  /// Writes `status` with a one-line body on `channel` (an upgrade request's, before the
  /// upgrade) and closes it.
  static func answer(_ status: HTTPResponseStatus, on channel: any Channel) async {
    let text = status == .notFound ? "404: no such WebSocket\n" : "403: the page's token or origin is wrong\n"
    var headers = HTTPHeaders()
    headers.add(name: "content-type", value: "text/plain; charset=utf-8")
    headers.add(name: "content-length", value: String(text.utf8.count))
    headers.add(name: "connection", value: "close")
    let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    channel.write(HTTPServerResponsePart.head(head), promise: nil)
    channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: text))), promise: nil)
    try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    try? await channel.close().get()
  }
}

/// The page's origin, known once the port is.
final class OriginBox: Sendable {
  private let origin = Mutex<String?>(nil)

  var value: String? { origin.withLock { $0 } }
  func set(_ value: String) { origin.withLock { $0 = value } }
}

/// Every request carries `token=` or is answered 403.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
  let token: String

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard let given = request.uri.queryParameters.get("token"), given == token[...] else {
      return Response(
        status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "403: the page's token is missing\n")))
    }
    return try await next(request, context)
  }
}
