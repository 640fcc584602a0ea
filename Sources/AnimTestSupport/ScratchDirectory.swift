// ScratchDirectory: a directory of one test's own under the temporary directory, removed with
// everything in it when the test lets go of it, so that a run of the suite leaves nothing behind.

import Foundation

/// A new, empty directory under the temporary directory. It is removed, with what the test
/// wrote into it, when the last reference to it goes: keep it in a local (or a suite's stored
/// property) for as long as the test uses its files.
public final class ScratchDirectory: Sendable {
  /// The directory's path, without a trailing slash.
  public let path: String

  /// The directory as a file URL.
  public var directory: URL { URL(fileURLWithPath: path, isDirectory: true) }

  /// Creates the directory; `prefix` names it in a listing of the temporary directory.
  public init(prefix: String = "anim-test") throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit { remove() }

  /// Removes the directory and what is in it now, for a test that must see it gone before it
  /// ends; removing it again, or letting go of it afterwards, does nothing more.
  public func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// The path of `name` inside the directory (nothing is created).
  public func path(_ name: String) -> String { path + "/" + name }

  /// Writes `contents` to `name` inside the directory and returns its path.
  @discardableResult
  public func file(_ name: String, _ contents: String) throws -> String {
    let file = path(name)
    try contents.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Writes `bytes` to `name` inside the directory and returns its path.
  @discardableResult
  public func file(_ name: String, bytes: [UInt8]) throws -> String {
    let file = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// The text of the file at `path`, read as UTF-8.
  public func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

  /// Writes `contents` to a file of a new name ending in `suffix` and returns its path.
  public func newFile(_ contents: String, suffix: String = ".anim") throws -> String {
    try file(UUID().uuidString + suffix, contents)
  }
}
