// PipedInput: a session over standard input that is not a terminal (a pipe, a file, a
// test). No readline at all (it would echo the prompt and the input, take a tab for
// completion, and write the history file): lines are read with `readLine()`, with no
// prompt, and joined while an entry is unfinished. Results go to standard output as lines,
// diagnostics to standard error. The end of input ends the session with status 0, even
// after errors: each error has been reported where it happened.
//
// With a page (`anim repl --preview`) the session also passes while it waits for a line
// (`PipedLines`): a page that connects gets the state, and what is clicked there is
// evaluated, without more input; while the page shows things moving, passes come at its pace.

import AnimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Evaluates standard input, entry by entry, until its end or `:quit`, or until `ending`
/// reports a signal that ends the process (checked after each entry and when reading stops:
/// a signal cuts a read short).
func runPipedInput(_ session: Session, ending: () -> Bool = { false }) {
  var buffer = InputBuffer()
  var lineNumber = 0
  var lines = PipedLines(session)
  while !ending(), let line = lines.next(ending: ending) {
    lineNumber += 1
    switch buffer.continuation(of: line) {
    case .help:
      session.evaluate(line, firstLine: lineNumber)
      continue
    case .quit:
      return
    case .continues:
      break
    }
    guard let entry = buffer.add(line, lineNumber: lineNumber) else { continue }
    session.tick()
    if session.evaluate(entry, firstLine: buffer.firstLine) == .quit { return }
  }
  // Input that ends inside an open block is still evaluated, so its error is shown.
  if !ending(), let rest = buffer.flush() {
    session.tick()
    session.evaluate(rest, firstLine: buffer.firstLine)
  }
}

/// Standard input's lines, as `readLine(strippingNewline: true)` gives them (a line ends at
/// "\n" or "\r\n"; a last line without one counts; invalid UTF-8 is repaired). Without a stage
/// that can wake the session, `readLine()` itself. With one, the descriptor is read directly,
/// waiting on the stage's `wakeDescriptor` as well (no busy wait: `poll`), and the session
/// passes (`Session.tick()`, which hands the page the session):
/// - once when no line is ready, before waiting, so the page shows what the last entry did;
/// - when the stage wakes it (a page connected, asked for the page, or sent something);
/// - on the real clock, every `SessionStage.passInterval` while the page shows things moving.
/// A script piped in whole is read as before: no pass while lines are ready.
struct PipedLines {
  private let session: Session
  private let wake: Int32?
  private var bytes: [UInt8] = []
  /// Where the lines not yet returned start in `bytes`.
  private var start = 0
  private var atEnd = false

  init(_ session: Session) {
    self.session = session
    wake = session.stage?.wakeDescriptor
  }

  /// The next line, or nil at the end of input (or when `ending` says a signal ends the
  /// process: a signal cuts a wait short).
  mutating func next(ending: () -> Bool) -> String? {
    guard let wake else { return readLine(strippingNewline: true) }
    var passed = false
    while true {
      if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < bytes.count else { return nil }
        defer { start = bytes.count }
        return String(decoding: bytes[start...], as: UTF8.self)
      }
      if ending() { return nil }
      // First a look (no wait); once the session has passed, a wait until input, a wake, or
      // the page's next frame.
      let timeout = passed ? Self.milliseconds(session.isOnRealClock ? session.stage?.passInterval : nil) : 0
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, timeout)
      if ready < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        atEnd = true
        continue
      }
      if descriptors[1].revents != 0 { session.stage?.drainWake() }
      if ready == 0 || descriptors[1].revents != 0 {
        session.tick()
        passed = true
      }
      if descriptors[0].revents != 0 { readInput() }
    }
  }

  /// Reads what standard input has (at least a byte, or its end).
  private mutating func readInput() {
    // (What was returned goes first, only now: a line costs no copy of what follows it.)
    bytes.removeFirst(start)
    start = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    if count > 0 {
      bytes.append(contentsOf: chunk[..<count])
    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
      atEnd = true
    }
  }

  /// A wait in `poll`'s milliseconds, rounded up (nil: for ever, -1).
  private static func milliseconds(_ interval: Nanoseconds?) -> Int32 {
    guard let interval else { return -1 }
    return Int32(clamping: max(1, (interval + 999_999) / 1_000_000))
  }
}
