import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `anim` binary as a user would, and captures what it did.
///
/// The binary is found in the build products directory, next to the test bundle (the
/// test target depends on the `anim` target, so `swift test` builds it first).
enum CLI {
  struct Result {
    var status: Int32
    /// True when the process was ended by a signal (a crash), not by exiting.
    var crashed: Bool
    var standardOutput: String
    var standardError: String
    var seconds: Double
  }

  static let executable: URL = {
    let candidates =
      [
        Bundle.main.bundleURL,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    for directory in candidates {
      let url = directory.appendingPathComponent("anim")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent("anim")
  }()

  /// Another product built beside `anim` (`anim-fuzz-restore`).
  static func sibling(_ name: String) -> URL {
    executable.deletingLastPathComponent().appendingPathComponent(name)
  }

  /// Runs `anim ARGUMENTS`; kills it and reports a crash-like failure after `timeout`
  /// seconds, so a hang fails the test instead of stopping the run.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], errorToTerminal: Bool = false,
    timeout: Double = 60, program: URL = CLI.executable
  ) throws -> Result {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment
    variables.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { variables[key] = value }
    process.environment = variables
    let outputPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardInput = FileHandle.nullDevice

    var terminal: (master: Int32, slave: Int32)?
    let errorPipe = Pipe()
    if errorToTerminal {
      var master: Int32 = 0
      var slave: Int32 = 0
      guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw CocoaError(.featureUnsupported) }
      terminal = (master, slave)
      process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    } else {
      process.standardError = errorPipe
    }

    // Read both streams while the process runs, so a full pipe cannot block it.
    let group = DispatchGroup()
    nonisolated(unsafe) var output = Data()
    nonisolated(unsafe) var error = Data()
    group.enter()
    DispatchQueue.global().async {
      output = outputPipe.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let start = Date()
    try process.run()
    if let terminal {
      close(terminal.slave)
      group.enter()
      DispatchQueue.global().async {
        var collected = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = read(terminal.master, &buffer, buffer.count)
          if count <= 0 { break }  // EIO once the child's side is closed
          collected.append(contentsOf: buffer[0..<count])
        }
        close(terminal.master)
        error = collected
        group.leave()
      }
    } else {
      group.enter()
      DispatchQueue.global().async {
        error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        group.leave()
      }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      Issue.record("anim \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    group.wait()
    return Result(
      status: process.terminationStatus,
      crashed: process.terminationReason == .uncaughtSignal,
      standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: error, as: UTF8.self),
      seconds: Date().timeIntervalSince(start))
  }
}

/// The repository's examples/ directory.
let examplesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("examples")
