import AnimTestSupport
import Foundation
import Testing

/// `anim preview` as a client sees it: the one line it prints, the token on every request,
/// the Origin check on the WebSocket upgrade, and `/state` equal to `anim trace --at`.
@Suite(.serialized) struct PreviewCommandTests {
  @Test func printsOneLineWithAToken() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\nanimate card.x to 100 over 1s\n")
    let server = try PreviewServer([file], scratch: scratch)
    defer { server.stop() }
    #expect(server.token.count == 32)
    #expect(server.token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
    #expect(server.line == "anim preview: http://127.0.0.1:\(server.port)/?token=\(server.token)")
    let page = try server.get("/?token=\(server.token)")
    #expect(page.status == 200)
    #expect(page.body.contains("<svg id=\"stage\""))
    #expect(page.body.contains("data-target=\"card\""))
    // Still one line after serving.
    #expect(server.standardOutput == server.line + "\n")
  }

  @Test func everyRequestWithoutTheTokenIs403() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\n")
    let server = try PreviewServer([file], scratch: scratch)
    defer { server.stop() }
    for path in ["/", "/stage.js", "/stage.css", "/state?at=1s", "/ws"] {
      #expect(try server.get(path).status == 403, "\(path)")
      let separator = path.contains("?") ? "&" : "?"
      #expect(try server.get(path + separator + "token=wrong\(server.token.dropFirst(5))").status == 403, "\(path)")
    }
    for path in ["/stage.js", "/stage.css"] {
      #expect(try server.get(path + "?token=\(server.token)").status == 200, "\(path)")
    }
  }

  @Test func theWebSocketNeedsThePagesOriginAndTokenOrIs403() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\n")
    let server = try PreviewServer([file], scratch: scratch)
    defer { server.stop() }
    let own = "http://127.0.0.1:\(server.port)"
    #expect(try server.upgradeStatus(origin: own, token: server.token) == 101)
    // A refused upgrade is 403, as a plain request without the token is (HummingbirdWebSocket
    // would say 400: the server answers it before, StageServer.answer).
    #expect(try server.upgradeStatus(origin: "http://evil.example", token: server.token) == 403)
    #expect(try server.upgradeStatus(origin: "http://localhost:\(server.port)", token: server.token) == 403)
    #expect(try server.upgradeStatus(origin: nil, token: server.token) == 403)
    #expect(try server.upgradeStatus(origin: own, token: nil) == 403)
    // (A token differing in its first character: "x" would be the token itself one time in 64.)
    let wrongFirst = server.token.first == "x" ? "y" : "x"
    #expect(try server.upgradeStatus(origin: own, token: wrongFirst + server.token.dropFirst()) == 403)
    // Another path than /ws: 404.
    #expect(try server.upgradeStatus(origin: own, token: server.token, path: "/socket") == 404)
    // The server still serves after refusing.
    #expect(try server.upgradeStatus(origin: own, token: server.token) == 101)
  }

  @Test(arguments: ["fade-handler.anim", "bouncing-ball.anim", "colors-and-math.anim", "retarget-box.anim"])
  func stateIsTheTracesSample(example: String) throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = examplesDirectory.appendingPathComponent(example).path
    let server = try PreviewServer([file], scratch: scratch)
    defer { server.stop() }
    for at in ["0s", "0.4s", "1s", "1500ms", "2.25s"] {
      let trace = try runAnim(["trace", file, "--at", at], input: "")
      let sample = trace.outputLines.first { $0.hasPrefix("{\"t\":") && $0.contains("\"values\":") }
      let state = try server.get("/state?at=\(at)&token=\(server.token)")
      #expect(state.status == 200)
      #expect(state.body == (sample ?? "none") + "\n", "\(example) at \(at)")
    }
  }

  @Test func wrongOptionsAreUsageErrors() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\n")
    for arguments in [["--size", "wide"], ["--size", "0x10"], ["--port", "70000"], ["--clock", "sundial"]] {
      let run = try runAnim(["preview", file] + arguments, input: "")
      #expect(run.status == 64, "\(arguments)")
      #expect(run.standardOutput.isEmpty, "\(arguments)")
    }
    let missing = try runAnim(["preview", scratch.directory.appendingPathComponent("none.anim").path], input: "")
    #expect(missing.status == 66)
  }

  @Test func aTakenPortIs69() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\n")
    let server = try PreviewServer([file], scratch: scratch)
    defer { server.stop() }
    let second = try runAnim(["preview", file, "--port", "\(server.port)"], input: "")
    #expect(second.status == 69)
    #expect(second.standardOutput.isEmpty)
    #expect(second.standardError.contains("the server could not start"))
  }

  @Test func theSizeSetsTheViewBox() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("card.anim", "target card { x: 0 }\n")
    let server = try PreviewServer([file, "--size", "1280x720"], scratch: scratch)
    defer { server.stop() }
    let page = try server.get("/?token=\(server.token)")
    #expect(page.body.contains("viewBox=\"-640 -360 1280 720\""))
    // The one target without a vertical position: y = -360 + 80 · ½.
    #expect(page.body.contains("transform=\"translate(0 -320) rotate(0) scale(1 1)\""))
  }

  @Test func aScriptWithErrorsDoesNotServe() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let file = try scratch.file("bad.anim", "target card { x: 0 }\nanimate card.y to 1 over 1s\n")
    let run = try runAnim(["preview", file], input: "")
    #expect(run.status == 65)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError.contains("bad.anim:2:"))
  }
}
