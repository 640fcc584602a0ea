import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 13: on a terminal, `:watch` shows its values in a status area above the prompt,
/// updated in place about ten times a second (not as lines scrolling by); output scrolls
/// above it and the typed line stays below it.
extension ReplTerminalTests {
  @Test func watchShowsItsValuesInAStatusAreaUpdatedInPlace() throws {
    let tmux = try TmuxSession()
    defer { tmux.close() }
    try tmux.waitForScreen { $0.last == "anim>" }
    // a.x = 1000 · t / 20 s: it rises all through the test.
    try tmux.enter(["target a { x: 0 }", "animate a.x to 1000 over 20s", ":watch a.x"])
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("a.x = ") } && $0.last == "anim>" }
    try tmux.type("half typed")
    try tmux.waitForScreen { $0.last == "anim> half typed" }

    // About a second: one line for the watched value, right above the prompt, its value
    // changing in place.
    var values: [Double] = []
    for _ in 0..<10 {
      Thread.sleep(forTimeInterval: 0.1)
      let screen = try tmux.screen()
      let watched = screen.filter { $0.hasPrefix("a.x = ") }
      #expect(watched.count == 1, "\(screen)")
      #expect(screen.last == "anim> half typed")
      #expect(screen.count >= 2 && screen[screen.count - 2].hasPrefix("a.x = "))
      if let value = watched.first.flatMap({ Double($0.dropFirst("a.x = ".count)) }) { values.append(value) }
    }
    #expect(Set(values).count >= 4, "\(values)")  // redrawn several times in the second
    #expect(values == values.sorted())
    #expect(values.allSatisfy { $0 > 0 && $0 < 1000 })

    // Output scrolls above the area; the area stays once, above the prompt.
    try tmux.press("C-u")
    try tmux.enter(["print \"hello\""])
    var screen = try tmux.waitForScreen { $0.contains { $0.hasSuffix("] hello") } && $0.last == "anim>" }
    let hello = try #require(screen.lastIndex { $0.hasSuffix("] hello") })
    let area = try #require(screen.lastIndex { $0.hasPrefix("a.x = ") })
    #expect(hello < area && area == screen.count - 2)
    #expect(screen.filter { $0.hasPrefix("a.x = ") }.count == 1)

    // A narrower terminal: still one line, the prompt below it.
    try tmux.resize(columns: 60)
    try tmux.type("more")
    screen = try tmux.waitForScreen { $0.last == "anim> more" }
    #expect(screen.filter { $0.hasPrefix("a.x = ") }.count == 1)
    #expect(screen.count >= 2 && screen[screen.count - 2].hasPrefix("a.x = "))

    // Ctrl-C drops the line; the area stays, once, above the fresh prompt.
    try tmux.press("C-c")
    screen = try tmux.waitForScreen { $0.last == "anim>" }
    #expect(screen.contains("anim> more^C"))
    #expect(screen.filter { $0.hasPrefix("a.x = ") }.count == 1)
    #expect(screen.count >= 2 && screen[screen.count - 2].hasPrefix("a.x = "))

    // :unwatch: the area goes.
    try tmux.enter([":unwatch"])
    screen = try tmux.waitForScreen { !$0.contains { $0.hasPrefix("a.x = ") } && $0.last == "anim>" }
    #expect(!screen.contains { $0.hasPrefix("a.x = ") })
    #expect(screen.last == "anim>")
  }

  /// Leaving the session with a status area on screen clears it: Ctrl-D, or SIGTERM (the
  /// line being typed then stays).
  @Test(arguments: [false, true])
  func leavingClearsTheStatusArea(bySignal: Bool) throws {
    let tmux = try TmuxSession(underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { $0.last == "anim>" }
    try tmux.enter(["target a { x: 0 }", "animate a.x to 1000 over 20s", ":watch a.x"])
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("a.x = ") } && $0.last == "anim>" }
    if bySignal {
      try tmux.type("typed")
      try tmux.waitForScreen { $0.last == "anim> typed" }
      kill(try tmux.animProcessID(), SIGTERM)
      #expect(tmux.waitForExit() == 143)
    } else {
      try tmux.press("C-d")
      #expect(tmux.waitForExit() == 0)
    }
    let screen = try tmux.waitForScreen { $0.last == "$" }
    #expect(!screen.contains { $0.hasPrefix("a.x = ") })
    #expect(screen.contains("anim> typed") == bySignal)
    #expect(try tmux.query("#{cursor_flag}") == "1")
  }
}

extension TmuxSession {
  /// Makes the terminal `columns` wide, as a person dragging its window does.
  func resize(columns: Int) throws {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    let status = try spawnAndWait(
      ["tmux", "-L", socket, "-f", "/dev/null", "resize-window", "-t", "repl", "-x", "\(columns)"],
      environment: environment)
    guard status == 0 else { throw SpawnError(message: "tmux resize-window exited with \(status)") }
  }
}
