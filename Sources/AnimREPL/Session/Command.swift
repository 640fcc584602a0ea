// Command: the REPL's own `:commands`. They start with `:` so they never collide with the
// language; this enum is their one list, read by the evaluator, `:help` and completion.

/// A `:command` of the REPL.
package enum Command: String, CaseIterable, Sendable {
  case help, status, watch, unwatch, events, load, save, restore, clock, tick, precision, reset, quit

  /// How it is typed, arguments included.
  package var usage: String {
    switch self {
    case .help: return ":help [topic]"
    case .status: return ":status"
    case .watch: return ":watch T.p ..."
    case .unwatch: return ":unwatch [T.p ...]"
    case .events: return ":events [on|off|S ...]"
    case .load: return ":load FILE"
    case .save: return ":save FILE"
    case .restore: return ":restore FILE"
    case .clock: return ":clock"
    case .tick: return ":tick D"
    case .precision: return ":precision [full|short]"
    case .reset: return ":reset"
    case .quit: return ":quit"
    }
  }

  /// What it does, in one line.
  package var summary: String {
    switch self {
    case .help: return "what can be typed, with examples (:help animate, :help commands)"
    case .status: return "every animation and timeline: state, direction, speed, time, progress"
    case .watch: return "show these values live above the prompt (after each :tick when piped)"
    case .unwatch: return "stop showing these values (all of them when none is named)"
    case .events: return "show all events, none, or only those of these timelines, T.p or emitted names"
    case .load: return "check a script and run it into the session"
    case .save: return "write the whole session to a JSON file"
    case .restore: return "continue a saved session, held at its instant until resume"
    case .clock: return "show the clock and its time"
    case .tick: return "advance a virtual clock by D (400ms, 1.5s)"
    case .precision: return "values and times exactly (full) or to 6 digits and the millisecond (short)"
    case .reset: return "start afresh: no declarations, handlers, animations or watches (a virtual clock at 0)"
    case .quit: return "leave the session (Ctrl-D on an empty line does the same)"
    }
  }

  /// `:help`, `:tick`, ...
  package var spelled: String { ":" + rawValue }

  /// The commands a typed name (without its `:`) names: itself when it is one, else every
  /// command it is a prefix of (`q` names `quit`; `s` names `save` and `status`).
  static func candidates(named name: Substring) -> [Command] {
    if let exact = Command(rawValue: String(name)) { return [exact] }
    return name.isEmpty ? [] : allCases.filter { $0.rawValue.hasPrefix(name) }
  }

  /// The one command the first word of a `:` line names, if it names exactly one.
  static func named(inLine line: String) -> Command? {
    let text = line.drop { $0 == " " || $0 == "\t" }
    guard text.first == ":" else { return nil }
    let found = candidates(named: text.dropFirst().prefix { $0 != " " && $0 != "\t" })
    return found.count == 1 ? found[0] : nil
  }

  /// Whether the command's arguments are file paths (completion offers file names).
  var takesFile: Bool { self == .load || self == .save || self == .restore }
}
