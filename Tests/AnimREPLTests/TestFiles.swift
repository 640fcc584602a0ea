import Foundation

/// Writes `contents` to a new file in the temporary directory and returns its path.
func temporaryFile(_ contents: String, suffix: String = ".anim") throws -> String {
  let path = NSTemporaryDirectory() + "anim-repl-test-\(UUID().uuidString)\(suffix)"
  try contents.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}
