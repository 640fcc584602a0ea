import Foundation

/// The `anim` executable SwiftPM built next to this test bundle.
func animExecutable() throws -> String {
  let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  return URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("anim").path
}

/// A finished run of `anim`.
struct AnimRun {
  var status: Int32
  var standardOutput: String
  var standardError: String

  var outputLines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
  var errorLines: [String] { standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Runs `anim ARGUMENTS` with `input` as standard input (a file, so not a terminal), and
/// collects both output streams (through files, so a full pipe can never block it).
func runAnim(_ arguments: [String], input: String, home: String? = nil) throws -> AnimRun {
  let directory = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("anim-cli-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let inputFile = directory.appendingPathComponent("in")
  let outputFile = directory.appendingPathComponent("out")
  let errorFile = directory.appendingPathComponent("err")
  try input.write(to: inputFile, atomically: true, encoding: .utf8)

  var environment = ProcessInfo.processInfo.environment
  environment["NO_COLOR"] = "1"
  environment["XDG_STATE_HOME"] = directory.path
  if let home { environment["HOME"] = home }
  let status = try spawnAndWait(
    [try animExecutable()] + arguments, environment: environment,
    standardInput: inputFile.path, standardOutput: outputFile.path, standardError: errorFile.path)
  return AnimRun(
    status: status,
    standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
    standardError: try String(contentsOf: errorFile, encoding: .utf8))
}
