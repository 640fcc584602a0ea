import AnimCore
import AnimLanguage
import AnimRuntime
import AnimStage
import AnimStageServer
import ArgumentParser
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `anim preview FILE`: serves a page that draws the script's targets moving, driven by the
/// engine, with a transport, a scrubber, timeline lanes, the event log and an inspector; the
/// file is watched and reloaded when it changes (AnimStage, AnimStageServer).
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Serve a local page that shows the script's targets moving, to scrub and steer.",
    discussion: """
      Prints one line, the page's address with its token (every request needs the token), \
      and serves until stopped (Ctrl-C). It listens on 127.0.0.1 unless --host says otherwise. \
      The file is watched: a change that checks replaces the session, one with errors shows \
      them on the page. Exit status: 64 wrong usage, 65 errors in the script, 66 unreadable \
      file, 69 the server could not start (the port is taken).
      """
  )

  @ArgumentParser.Argument(help: "The script to show.")
  var file: String

  @OptionGroup var server: StageServerArguments

  @Option(help: "real: the session plays on the real clock; virtual: one frame (1/60 s) per tick.")
  var clock: StageClock = .real

  func validate() throws { try server.validate() }

  func run() throws {
    ignoreBrokenPipes()
    let text: SourceText
    do {
      text = try ScriptFile.read(file)
    } catch {
      Output.standardError.write("anim: error: \(error)\n")
      throw ExitStatus.unreadable.exitCode
    }
    let session: StageSession
    switch StageSession.load(
      path: file, text: text, size: server.stageSize, clock: clock, realNow: MonotonicClock.systemMonotonicTime())
    {
    case .success(let loaded): session = loaded
    case .failure(let failure):
      Output.standardError.write(failure.diagnostics)
      throw ExitStatus.scriptErrors.exitCode
    }
    let running = try server.start(StageHost(session: session))
    running.wait()
  }
}

/// The options `anim preview` and `anim repl --preview` share.
struct StageServerArguments: ParsableArguments {
  @Option(help: "The port to listen on (0: a free one).")
  var port: Int = 0

  @Option(help: "The address to listen on (127.0.0.1: this machine only).")
  var host: String = "127.0.0.1"

  @Option(help: ArgumentHelp("The stage's size in CSS pixels.", valueName: "W×H"))
  var size: String = "800×600"

  @Flag(help: "Open the page in a browser (xdg-open).")
  var open = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("'--port' takes a number from 0 to 65535") }
    guard StageSize(parsing: size) != nil else {
      throw ValidationError("'--size' takes a width and height such as 800×600 or 1280x720; '\(size)' is not one")
    }
  }

  var stageSize: StageSize { StageSize(parsing: size) ?? StageSize() }

  /// A server running in the background.
  struct Running {
    let ended: DispatchSemaphore
    /// Blocks until the server stops (it does not, but by a signal that ends the process).
    func wait() { ended.wait() }
  }

  /// Starts serving `backend` on other threads and returns once it listens, having printed
  /// its one line (`anim preview: http://127.0.0.1:PORT/?token=TOKEN`) on standard output at
  /// once. Throws exit status 69 when it cannot start. `stopsOnSignals`: whether SIGTERM and
  /// SIGINT stop the server (`StageServerOptions.stopsOnSignals`).
  func start(_ backend: some StageBackend, stopsOnSignals: Bool = true) throws -> Running {
    var options = StageServerOptions()
    options.host = host
    options.port = port
    options.stopsOnSignals = stopsOnSignals
    let opens = open
    let ready = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    let failure = Mutex<String?>(nil)
    Task.detached {
      do {
        try await StageServer.run(backend, options: options) { address in
          // Exactly one line on standard output, at once: a test or a script reads it.
          Output.standardOutput.write("anim preview: \(address)\n")
          if opens { openInBrowser(address) }
          ready.signal()
        }
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
      ready.signal()
      ended.signal()
    }
    ready.wait()
    if let message = failure.withLock({ $0 }) {
      Output.standardError.write("anim: error: the server could not start: \(message)\n")
      throw ExitStatus.unavailable.exitCode
    }
    return Running(ended: ended)
  }
}

/// Starts `xdg-open URL` and does not wait for it.
private func openInBrowser(_ address: String) {
  var pid = pid_t()
  let arguments = ["xdg-open", address]
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  _ = posix_spawnp(&pid, "xdg-open", nil, nil, &argv, environ)
}

extension StageClock: ExpressibleByArgument {}
