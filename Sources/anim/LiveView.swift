// LiveView: `anim run` on a terminal. Below the log, one line per property, redrawn in place
// every frame:
//
//     now            1.25s
//     card.angle     112.5     [############------------]
//     card.position  (0, 40)
//     card.tint      #ff8800ff ████
//
// A number's bar spans its gauge (Runtime+Gauges.swift: its base value and the values its
// animations so far move between), so a spring's overshoot shows past the end (`[####>`);
// a property whose animation is paused or runs backwards is marked `paused`, `reversed`.
// The last line lists the keys that steer the run (RunKeys.swift). The view is
// redrawn by moving the cursor up over it and clearing to the end of the screen; new log
// lines are written in its place first, so they scroll up above it. While it runs the
// cursor is hidden and typed keys are not echoed (they would break the redraw); both come
// back on every way out, with the last frame left on screen.

import AnimCore
import AnimLanguage
import AnimRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

final class LiveView: RunDisplay {
  /// Whether a color may show a swatch in 24-bit colour.
  private let usesColor: Bool
  /// Lines of the view on screen, above the cursor; 0 when none is (or after a stop, when
  /// the shell has written below it).
  private var drawnLines = 0
  /// The view last drawn, to skip redrawing an unchanged one.
  private var lastDrawn: [String] = []
  /// Log text not yet written, by stream, in order.
  private var pending: [(Output, String)] = []
  /// Where to ask for a property's gauge and marks.
  private var inspector: (String) -> PropertyInspection = { _ in PropertyInspection(paused: false, reversed: false) }
  /// The value column's width: the widest value so far, so the bars do not jitter.
  private var valueWidth = 6
  /// The terminal's settings before echo was turned off; nil while not changed.
  private var savedTerminal: termios?
  /// The last values drawn, for a redraw after a stop.
  private var lastFrame: (time: Nanoseconds, values: [NamedValue])?
  /// Typed bytes to keys (only while the view has the terminal).
  private var keyReader = RunKeyReader()
  /// What the keys did: shown on the `now` line.
  private var paused = false
  private var speed = 1.0

  private static let hideCursor = "\u{1B}[?25l"
  private static let showCursor = "\u{1B}[?25h"
  private static let barWidth = 24

  init(usesColor: Bool) {
    self.usesColor = usesColor
  }

  /// Standard output is a terminal and `NO_COLOR` is unset (https://no-color.org).
  static var standardOutputUsesColor: Bool {
    var environment: [String: String] = [:]
    if let value = getenv("NO_COLOR") { environment["NO_COLOR"] = String(cString: value) }
    return DiagnosticRenderer.wantsColor(isTerminal: isatty(STDOUT_FILENO) == 1, environment: environment)
  }

  func begin() {
    takeTerminal()
  }

  func log(_ outputs: [RuntimeOutput]) {
    for piece in RunLog.pieces(of: outputs) {
      if let last = pending.last, last.0.descriptor == piece.0.descriptor {
        pending[pending.count - 1].1 += piece.1
      } else {
        pending.append(piece)
      }
    }
  }

  func frame(at time: Nanoseconds, values: [NamedValue]) {
    lastFrame = (time, values)
    let lines = render(time: time, values: values)
    guard !pending.isEmpty || lines != lastDrawn || drawnLines == 0 else { return }
    var text = erase()
    if !pending.isEmpty {
      for (output, piece) in pending {
        if output.descriptor == Output.standardOutput.descriptor {
          text += piece
        } else {
          // Standard error may be this terminal too: what is on its way first goes first.
          Output.standardOutput.write(text)
          text = ""
          output.write(piece)
        }
      }
      pending = []
    }
    for line in lines { text += line + "\n" }
    Output.standardOutput.write(text)
    drawnLines = lines.count
    lastDrawn = lines
  }

  func suspend() {
    flushPending()
    giveTerminalBack()
  }

  func resume() {
    takeTerminal()
    // The shell wrote below the view while we were stopped: draw a fresh one under that.
    drawnLines = 0
    if let lastFrame { frame(at: lastFrame.time, values: lastFrame.values) }
  }

  func finish() {
    flushPending()
    giveTerminalBack()
  }

  func takeKeys() -> [RunKey] {
    guard savedTerminal != nil else { return [] }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64)
    // Non-canonical with VMIN = VTIME = 0: a read returns what is waiting, or nothing.
    while true {
      let count = read(STDIN_FILENO, &chunk, chunk.count)
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return keyReader.keys(from: bytes)
  }

  func show(paused: Bool, speed: Double) {
    self.paused = paused
    self.speed = speed
  }

  func inspect(with inspector: @escaping (String) -> PropertyInspection) {
    self.inspector = inspector
  }

  // MARK: - Drawing

  /// Moves the cursor up over the view on screen and clears from there down.
  private func erase() -> String {
    guard drawnLines > 0 else { return "" }
    return "\r\u{1B}[\(drawnLines)A\u{1B}[J"
  }

  /// Writes log text still waiting, with the view redrawn below it.
  private func flushPending() {
    guard !pending.isEmpty, let lastFrame else {
      for (output, piece) in pending { output.write(piece) }
      pending = []
      return
    }
    frame(at: lastFrame.time, values: lastFrame.values)
  }

  /// The view's lines, each at most one column narrower than the terminal (so none wraps),
  /// and no more of them than fit above the cursor.
  private func render(time: Nanoseconds, values: [NamedValue]) -> [String] {
    let (columns, rows) = terminalSize()
    let nameWidth = max(values.map { $0.name.count }.max() ?? 0, 3)
    let texts = values.map { text(of: $0.value) }
    valueWidth = max(valueWidth, texts.map(\.count).max() ?? 0)
    let limit = max(columns - 1, 1)

    var now = pad("now", nameWidth) + "  " + clockText(time)
    if paused { now += "  paused" }
    if speed != 1 { now += "  " + speedText(speed) }
    var lines = [fit(now, limit)]
    // The keys' legend goes last, when the view reads keys.
    let legend = savedTerminal == nil ? nil : fit(RunKey.legend, limit)
    let room = max(rows - 2 - (legend == nil ? 0 : 1), 1)
    let shown = values.count <= room ? values.count : max(room - 1, 0)
    for (value, text) in zip(values.prefix(shown), texts) {
      var line = pad(value.name, nameWidth) + "  " + pad(text, valueWidth)
      let inspection = inspector(value.name)
      let marks = (inspection.paused ? " paused" : "") + (inspection.reversed ? " reversed" : "")
      let space = limit - line.count - 2 - marks.count
      switch value.value {
      case .number(let x):
        let width = min(LiveView.barWidth, space)
        if width >= 4 { line += "  " + bar(x, gauge: inspection.gauge, width: width) }
        lines.append(fit(line + marks, limit))
      case .color(let color) where usesColor && space >= 4:
        lines.append(fit(line, limit) + "  " + swatch(color) + marks)
      default:
        lines.append(fit(line + marks, limit))
      }
    }
    if shown < values.count {
      lines.append(fit("... and \(values.count - shown) more (a taller terminal shows them)", limit))
    }
    if let legend { lines.append(legend) }
    return lines
  }

  /// `×2`, `×16`, `×1/2`, `×1/16`.
  private func speedText(_ speed: Double) -> String {
    speed >= 1 ? "×\(Int(speed))" : "×1/\(Int((1 / speed).rounded()))"
  }

  /// `[########----------------]`: where `x` lies in the gauge (empty while it spans one
  /// value). Past an end it is drawn clipped there, that end marked: `[####>`, `<----]`.
  private func bar(_ x: Double, gauge: Gauge?, width: Int) -> String {
    let inner = width - 2
    var filled = 0
    var open = "["
    var close = "]"
    if let gauge, gauge.high > gauge.low, x.isFinite {
      let fraction = (x - gauge.low) / (gauge.high - gauge.low)
      filled = min(max(Int((fraction * Double(inner)).rounded()), 0), inner)
      // A hair past an end (a value that lands on it by arithmetic) is on it.
      let tolerance = (gauge.high - gauge.low) * 1e-9
      if x > gauge.high + tolerance { close = ">" }
      if x < gauge.low - tolerance { open = "<" }
    }
    return open + String(repeating: "#", count: filled) + String(repeating: "-", count: inner - filled) + close
  }

  /// Four cells in the color itself (its straight channels; alpha is not shown).
  private func swatch(_ color: Color) -> String {
    let channels = color.straight
    let bytes = [channels.r, channels.g, channels.b].map { channel -> Int in
      guard channel.isFinite else { return 0 }
      return min(max(Int((channel * 255).rounded()), 0), 255)
    }
    return "\u{1B}[48;2;\(bytes[0]);\(bytes[1]);\(bytes[2])m    \u{1B}[0m"
  }

  /// A value for people: numbers to three decimals at most, as the trace spells them.
  private func text(of value: AnimationValue) -> String {
    func number(_ x: Double) -> String {
      guard x.isFinite else { return TraceNumber.format(x) }
      return TraceNumber.format((x * 1000).rounded() / 1000)
    }
    func vector(_ components: [Double]) -> String {
      "(" + components.map(number).joined(separator: ", ") + ")"
    }
    switch value {
    case .number(let x): return number(x)
    case .vec2(let v): return vector([v.x, v.y])
    case .vec3(let v): return vector([v.x, v.y, v.z])
    case .vec4(let v): return vector([v.x, v.y, v.z, v.w])
    case .color(let c): return c.hexString()
    }
  }

  /// Engine time to the hundredth: `1.25s`.
  private func clockText(_ time: Nanoseconds) -> String {
    let hundredths = time / 10_000_000
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)s"
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  private func fit(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(width))
  }

  /// Columns and rows of the terminal (80 × 24 when it does not say).
  private func terminalSize() -> (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  // MARK: - The terminal

  /// Hides the cursor, stops echoing typed keys and reads them one at a time as they come
  /// (non-canonical, never waiting: the keys steer the run; Ctrl-C and Ctrl-Z still work).
  /// Only in the foreground: a background process that sets the terminal is stopped for it.
  private func takeTerminal() {
    Output.standardOutput.write(LiveView.hideCursor)
    guard savedTerminal == nil, isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
    savedTerminal = settings
    settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }

  /// Shows the cursor and restores the terminal's settings, dropping keys typed and not
  /// read, so that none reaches the shell. The cursor is already at the start of the line
  /// below the view.
  private func giveTerminalBack() {
    if var settings = savedTerminal {
      tcflush(STDIN_FILENO, TCIFLUSH)
      tcsetattr(STDIN_FILENO, TCSANOW, &settings)
      savedTerminal = nil
    }
    Output.standardOutput.write(LiveView.showCursor)
  }
}
