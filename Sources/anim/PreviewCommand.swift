import AnimCore
import AnimLanguage
import AnimRuntime
import AnimStage
import AnimStageServer
import ArgumentParser

#if canImport(Glibc)
  import Glibc
#endif

/// `anim preview FILE`: serves a page that draws the script's targets moving, driven by the
/// engine, with a transport, a scrubber, timeline lanes, the event log and an inspector; the
/// file is watched and reloaded when it changes (StageServer.swift, StageSession.swift).
struct PreviewCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Serve a local page that shows the script's targets moving, to scrub and steer.",
    discussion: """
      Prints one line, the page's address with its token (every request needs the token), \
      and serves until stopped (Ctrl-C). It listens on 127.0.0.1 unless --host says otherwise. \
      The file is watched: a change that checks replaces the session, one with errors shows \
      them on the page. Exit status: 0 when stopped, 64 wrong usage, 65 errors in the script, \
      66 unreadable file, 69 the server could not start (the port is taken).
      """
  )

  @ArgumentParser.Argument(help: "The script to show.")
  var file: String

  @Option(help: "The port to listen on (default: a free one).")
  var port: Int = 0

  @Option(help: "The address to listen on (default 127.0.0.1, this machine only).")
  var host: String = "127.0.0.1"

  @Option(help: ArgumentHelp("The stage's size in CSS pixels (default 800×600).", valueName: "W×H"))
  var size: String = "800×600"

  @Option(help: "real (default): the session plays on the real clock; virtual: one frame per tick.")
  var clock: StageClock = .real

  @Flag(help: "Open the page in a browser (xdg-open).")
  var open = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("'--port' takes a number from 0 to 65535") }
    guard StageSize(parsing: size) != nil else {
      throw ValidationError("'--size' takes a width and height such as 800×600 or 1280x720; '\(size)' is not one")
    }
  }

  func run() async throws {
    ignoreBrokenPipes()
    let text: SourceText
    do {
      text = try ScriptFile.read(file)
    } catch {
      Output.standardError.write("anim: error: \(error)\n")
      throw ExitCode(ExitStatus.unreadable.rawValue)
    }
    let session: StageSession
    switch StageSession.load(
      path: file, text: text, size: StageSize(parsing: size)!, clock: clock,
      realNow: MonotonicClock.systemMonotonicTime())
    {
    case .success(let loaded): session = loaded
    case .failure(let failure):
      Output.standardError.write(failure.diagnostics)
      throw ExitCode(ExitStatus.scriptErrors.rawValue)
    }
    var options = StageServerOptions()
    options.host = host
    options.port = port
    let opens = open
    do {
      try await StageServer.run(StageHost(session: session), options: options) { address in
        // Exactly one line on standard output, at once: a test or a script reads it.
        Output.standardOutput.write("anim preview: \(address)\n")
        if opens { PreviewCommand.openInBrowser(address) }
      }
    } catch {
      Output.standardError.write("anim: error: the server could not start: \(error)\n")
      throw ExitCode(ExitStatus.unavailable.rawValue)
    }
  }

  /// Starts `xdg-open URL` and does not wait for it.
  static func openInBrowser(_ address: String) {
    var pid = pid_t()
    let arguments = ["xdg-open", address]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    _ = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
  }
}

extension StageClock: ExpressibleByArgument {}
