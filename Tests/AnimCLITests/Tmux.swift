import Foundation

/// `anim repl` on a real terminal: a tmux server of its own (its own socket), a pane
/// running the session, keys sent as a person types them, and the screen read back.
final class TmuxSession {
  let socket = "anim-test-\(UUID().uuidString.prefix(8))"
  /// XDG_STATE_HOME of the session (the history file is under it).
  let stateHome: URL
  /// Where the pane's shell writes the session's exit status.
  private let statusFile: URL

  /// - Parameter underJobControl: run the session from an interactive shell (so Ctrl-Z
  ///   stops it and `fg` brings it back) instead of directly in the pane.
  ///   - directory: the session's working directory; `home`: its HOME (both for file-name
  ///     completion).
  init(
    arguments: String = "repl", underJobControl: Bool = false, stateHome shared: URL? = nil,
    directory: URL? = nil, home: URL? = nil
  ) throws {
    stateHome = shared ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(socket)
    try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: true)
    // (One per session: sessions may share a state home.)
    statusFile = stateHome.appendingPathComponent("status-\(socket)")
    let session = "'\(try animExecutable())' \(arguments); echo $? > '\(statusFile.path)'"
    var environment = "XDG_STATE_HOME='\(stateHome.path)' INPUTRC=/dev/null"
    if let home { environment += " HOME='\(home.path)'" }
    let command =
      underJobControl
      ? "env -i PATH=/usr/bin:/bin TERM=screen \(environment) PS1='$ ' bash --norc --noprofile -i"
      // (`\$?` inside the double quotes: the shell that runs this line must leave it for
      // `sh -c`, whose `$?` is the session's status.)
      : "sh -c \"\(directory.map { "cd '\($0.path)' && " } ?? "")env \(environment) \(session.replacingOccurrences(of: "$?", with: "\\$?"))\""
    try tmux(["new-session", "-d", "-x", "100", "-y", "30", "-s", "repl", command])
    if underJobControl {
      _ = try waitForScreen { $0.last == "$" }
      try type(session)
      try press("Enter")
    }
  }

  /// Keys by tmux's names (`Tab`, `Enter`, `C-c`, `Up`).
  func press(_ keys: String...) throws {
    try tmux(["send-keys", "-t", "repl"] + keys)
  }

  /// Text typed literally.
  func type(_ text: String) throws {
    try tmux(["send-keys", "-t", "repl", "-l", text])
  }

  /// The visible screen, trailing blanks of each line removed, without trailing empty lines.
  func screen() throws -> [String] {
    var lines = try tmux(["capture-pane", "-p", "-t", "repl"])
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.reversed().drop { $0 == " " }.reversed()) }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// Polls the screen until `condition` holds (or `timeout` passes); returns the screen.
  @discardableResult
  func waitForScreen(timeout: Double = 5, _ condition: ([String]) -> Bool) throws -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var lines = try screen()
    while !condition(lines) && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
      lines = try screen()
    }
    return lines
  }

  /// Polls until the session has exited; returns its status, or nil after `timeout`.
  func waitForExit(timeout: Double = 5) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let text = try? String(contentsOf: statusFile, encoding: .utf8),
        let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return status
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return nil
  }

  /// Stops the tmux server and removes the state directory.
  func close() {
    _ = try? tmux(["kill-server"])  // the pane's session gets SIGHUP and ends
    try? FileManager.default.removeItem(at: stateHome)
    // tmux leaves its socket file behind when killed.
    let socketDirectory = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
    try? FileManager.default.removeItem(atPath: "\(socketDirectory)/\(socket)")
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    let output = stateHome.appendingPathComponent("tmux-output")
    let status = try spawnAndWait(
      ["tmux", "-L", socket, "-f", "/dev/null"] + arguments, environment: environment,
      standardOutput: output.path)
    guard status == 0 else { throw SpawnError(message: "tmux \(arguments[0]) exited with \(status)") }
    return try String(contentsOf: output, encoding: .utf8)
  }
}
