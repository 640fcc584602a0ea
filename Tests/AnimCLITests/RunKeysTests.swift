import AnimTestSupport
import Foundation
import Testing

/// `anim run` on a terminal, steered by keys (tmux): space pauses and resumes everything, `r`
/// reverses it, ← and → seek it a second, `+` and `-` double and halve its speed, `q` ends
/// it successfully, and keys typed and not read never reach the shell.
@Suite("anim run: keys", .serialized)
struct RunKeysTests {
  /// 100 over 20 s, linear: 5 a second of the timeline's time.
  static let slide = "target box { x: 0 }\ntimeline t { animate box.x to 100 over 20s }\nplay t\n"

  /// The numbers on the view's lines: `now` in seconds, `box.x`.
  func reading(_ screen: [String]) -> (now: Double, x: Double)? {
    guard let nowLine = screen.last(where: { $0.hasPrefix("now ") }),
      let xLine = screen.last(where: { $0.hasPrefix("box.x ") })
    else { return nil }
    let now = nowLine.split(separator: " ").dropFirst().first.map { Double($0.dropLast()) ?? .nan } ?? .nan
    let x = xLine.split(separator: " ").dropFirst().first.map { Double($0) ?? .nan } ?? .nan
    return (now, x)
  }

  @Test func spacePausesEverythingAndTheArrowsSeekWhilePaused() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("slide.anim", Self.slide)
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { ($0.last ?? "").contains("q quit") }
    try tmux.press("Space")
    let paused = try tmux.waitForScreen { $0.contains { $0.hasPrefix("now ") && $0.hasSuffix("paused") } }
    let first = try #require(reading(paused))
    Thread.sleep(forTimeInterval: 0.4)
    // Nothing moves while paused.
    #expect(reading(try tmux.screen()).map { $0.now == first.now && $0.x == first.x } == true)
    // → is one second of the timeline's time: 5 more, exactly (the time stands still).
    try tmux.press("Right")
    let ahead = try tmux.waitForScreen { reading($0).map { $0.x != first.x } == true }
    #expect(reading(ahead).map { abs($0.x - (first.x + 5)) <= 0.0015 } == true, "\(ahead)")
    try tmux.press("Left", "Left")
    let back = try tmux.waitForScreen { reading($0).map { abs($0.x - (first.x - 5)) <= 0.0015 } == true }
    #expect(reading(back).map { $0.now == first.now } == true)
    // Space again: it goes on.
    try tmux.press("Space")
    let going = try tmux.waitForScreen { reading($0).map { $0.now > first.now } == true }
    #expect(!going.contains { $0.hasSuffix("paused") })
    try tmux.press("q")
    #expect(tmux.waitForExit() == 0)
  }

  @Test func rReversesAndPlusMinusChangeTheSpeed() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("slide.anim", Self.slide)
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { reading($0).map { $0.x > 2 } == true }
    try tmux.press("r")
    // Reversed, box.x comes back down.
    let top = try #require(reading(try tmux.screen()))
    let falling = try tmux.waitForScreen { reading($0).map { $0.x < top.x - 0.5 } == true }
    #expect(reading(falling).map { $0.x < top.x } == true)
    try tmux.press("+", "+")
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("now ") && $0.hasSuffix("×4") } }
    try tmux.press("-", "-", "-", "-", "-", "-", "-")
    // Halved down to 1/16, and no further.
    let slow = try tmux.waitForScreen { $0.contains { $0.hasPrefix("now ") && $0.hasSuffix("×1/16") } }
    #expect(slow.contains { $0.hasSuffix("×1/16") })
    // Typed ahead and never read: the shell must not get it.
    try tmux.type("xyz")
    try tmux.press("q")
    #expect(tmux.waitForExit() == 0)
    let screen = try tmux.waitForScreen { $0.last == "$" }
    #expect(!screen.contains { $0.contains("xyz") })
    try expectEchoIsOn(tmux)
  }

  /// A run paused by a key stays open past its end until a key resumes it.
  @Test func aRunPausedByAKeyStaysOpen() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("short.anim", "target b { x: 0 }\nanimate b.x to 1 over 400ms\n")
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    try tmux.waitForScreen { ($0.last ?? "").contains("q quit") }
    try tmux.press("Space")
    try tmux.waitForScreen { $0.contains { $0.hasSuffix("paused") } }
    Thread.sleep(forTimeInterval: 0.8)
    #expect(tmux.waitForExit(timeout: 0.1) == nil)
    try tmux.press("Space")
    #expect(tmux.waitForExit() == 0)
  }

  /// A bar spans its property's gauge, so a spring's overshoot shows past the end (`>`), and
  /// a property whose animation is paused or reversed says so.
  @Test func barsSpanTheGaugeAndMarkPausedAndReversed() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let script = """
      target box { x: 0, y: 0 }
      animate box.x to 100 with spring(response: 1.5, dampingFraction: 0.3)
      timeline t { animate box.y to 50 over 20s }
      play t
      at 300ms pause t
      """
    let path = try scratch.file("spring.anim", script)
    let tmux = try TmuxSession(arguments: "run '\(path)'", underJobControl: true)
    defer { tmux.close() }
    // Past 100 (the gauge's end: the base 0 and the target 100), the bar is clipped and marked.
    let over = try tmux.waitForScreen { $0.contains { $0.hasPrefix("box.x ") && $0.hasSuffix(">") } }
    #expect(over.contains { $0.hasPrefix("box.x ") && $0.hasSuffix("#>") })
    let paused = try tmux.waitForScreen { $0.contains { $0.hasPrefix("box.y ") && $0.hasSuffix("] paused") } }
    #expect(paused.contains { $0.hasPrefix("box.y ") && $0.hasSuffix("] paused") })
    try tmux.press("r")
    try tmux.waitForScreen { $0.contains { $0.hasPrefix("box.y ") && $0.hasSuffix("paused reversed") } }
    try tmux.press("q")
    #expect(tmux.waitForExit() == 0)
  }
}
