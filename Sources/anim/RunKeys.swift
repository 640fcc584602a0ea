// RunKeys: the keys that steer `anim run` on a terminal, read from the bytes typed.

/// A key that steers a run.
enum RunKey: Equatable {
  /// Space: pause everything, or go on.
  case pauseOrResume
  /// `r`: turn every animation and timeline around.
  case reverse
  /// ← and →: every animation and timeline one second back or forward.
  case seekBack, seekForward
  /// `+` (or `=`, the same key unshifted) and `-`: twice or half the speed.
  case faster, slower
  /// `q`: end the run, as Ctrl-C does, but successfully.
  case quit

  /// The legend the live view shows.
  static let legend = "space pause · r reverse · ←/→ 1s · +/- speed · q quit"
}

/// Turns typed bytes into keys. An arrow is three bytes (`ESC [ D`, or `ESC O D` in a
/// terminal's application mode), which may come in separate reads: an unfinished sequence
/// waits for the next bytes. Any other byte is ignored.
struct RunKeyReader {
  private var pending: [UInt8] = []

  mutating func keys(from bytes: [UInt8]) -> [RunKey] {
    pending += bytes
    var keys: [RunKey] = []
    var index = 0
    while index < pending.count {
      let byte = pending[index]
      if byte == 0x1B {
        // An escape sequence: wait for the rest of it.
        guard index + 2 < pending.count else { break }
        let introducer = pending[index + 1]
        if introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") {
          switch pending[index + 2] {
          case UInt8(ascii: "D"): keys.append(.seekBack)
          case UInt8(ascii: "C"): keys.append(.seekForward)
          default: break
          }
          index += 3
        } else {
          index += 1  // a lone escape
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "): keys.append(.pauseOrResume)
      case UInt8(ascii: "r"), UInt8(ascii: "R"): keys.append(.reverse)
      case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.faster)
      case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.slower)
      case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
      default: break
      }
      index += 1
    }
    pending.removeFirst(index)
    return keys
  }
}
