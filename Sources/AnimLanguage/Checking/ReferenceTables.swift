// The reference tables that grammar.md and the REPL's `:help` both show: animation options,
// events, placement and control. Each row is written once, here; grammar.md's tables are
// tested equal to these rows (BuiltinTableTests), and `:help options`, `:help events`,
// `:help placement` and `:help control` print them, so the two cannot drift apart.

/// One row of a reference table: a form as it is written, and what it means.
package struct ReferenceRow: Sendable, Hashable {
  /// The form, in the language's own words (`delay D`, `at NAME + 250ms ITEM`).
  package var form: String
  /// What it does, in one or two sentences.
  package var meaning: String
}

/// The tables, by the topic that names them.
package enum ReferenceTable: String, CaseIterable, Sendable {
  case options, events, placement, control

  /// The heading of the table's first column in grammar.md.
  package var formHeading: String {
    switch self {
    case .options: "option"
    case .events: "event"
    case .placement: "placement"
    case .control: "statement"
    }
  }

  /// The heading of the second column.
  package var meaningHeading: String {
    switch self {
    case .placement: "starts at"
    default: "meaning"
    }
  }

  /// One line saying what the table is about (the `:help` topic's first line).
  package var summary: String {
    switch self {
    case .options: "after `animate` and `keyframes` (and a timeline's name), in any order"
    case .events: "`on EVENT SUBJECT { ... }` runs its statements at the event's exact time"
    case .placement: "where an item of a timeline starts; at top level `at D` is relative to now in the REPL"
    case .control: "X is a timeline or a property T.p; pause, resume and reverse alone act on everything"
    }
  }

  package var rows: [ReferenceRow] {
    switch self {
    case .options:
      return [
        ReferenceRow(
          form: "delay D", meaning: "waits D before the first pass; a negative delay starts part-way through"),
        ReferenceRow(form: "repeat N", meaning: "N > 0 passes in all; fractions allowed (`repeat 2.5`)"),
        ReferenceRow(
          form: "repeat forever", meaning: "passes without end; nothing can be appended after it in a timeline"),
        ReferenceRow(form: "autoreverse", meaning: "every other pass runs backwards; each pass counts"),
        ReferenceRow(form: "speed S", meaning: "plays at rate S; delays and pass boundaries are in its own time"),
        ReferenceRow(
          form: "fill none",
          meaning: "the property returns to its base value after the end and shows it before the start"),
        ReferenceRow(form: "fill forwards", meaning: "the end value stays and becomes the base value (the default)"),
        ReferenceRow(
          form: "fill backwards",
          meaning: "the `from` value shows from placement until the start; the base value after the end"),
        ReferenceRow(form: "fill both", meaning: "`from` before the start, and the end value after the end"),
        ReferenceRow(
          form: "merge replace", meaning: "takes the property over from where it is, instead of adding to what runs"),
      ]
    case .events:
      return [
        ReferenceRow(
          form: "start SUBJECT",
          meaning:
            "a timeline entered its active phase in its direction of travel (not on resume); a property left rest"),
        ReferenceRow(form: "repeat SUBJECT", meaning: "a pass boundary was crossed"),
        ReferenceRow(
          form: "complete SUBJECT", meaning: "a timeline finished in its direction of play; a property came to rest"),
        ReferenceRow(form: "\"name\"", meaning: "the script's own event, sent by `emit \"name\"`"),
      ]
    case .placement:
      return [
        ReferenceRow(form: "at 1.5s ITEM", meaning: "1.5s of the timeline's (or group's) local time"),
        ReferenceRow(
          form: "at +250ms ITEM / at -250ms ITEM",
          meaning: "250ms after / before the end so far (only a sign written right after `at` makes it relative)"),
        ReferenceRow(
          form: "with previous ITEM",
          meaning: "the start of the previous item in source order, labels not counted (0 for a first item)"),
        ReferenceRow(
          form: "label NAME / label NAME at 2s",
          meaning: "marks the end so far (or 2s); labels are visible throughout their timeline"),
        ReferenceRow(form: "at NAME ITEM / at NAME + 250ms ITEM", meaning: "a label, plus or minus an offset"),
        ReferenceRow(form: "ITEM", meaning: "without placement: the end so far (appended)"),
      ]
    case .control:
      return [
        ReferenceRow(form: "play X", meaning: "starts a timeline, or restarts a finished one, from its start"),
        ReferenceRow(form: "pause X", meaning: "freezes its local time"),
        ReferenceRow(form: "resume X", meaning: "continues exactly where it was paused"),
        ReferenceRow(
          form: "reverse X", meaning: "turns the direction around where it is, keeping the playing or paused state"),
        ReferenceRow(
          form: "seek X to D",
          meaning: "jumps to local time D without firing the events between; what it passes settles"),
        ReferenceRow(form: "speed X S", meaning: "sets the rate (and, by its sign, the direction)"),
        ReferenceRow(form: "finish X", meaning: "jumps to the end and fires `complete` (an error on `repeat forever`)"),
        ReferenceRow(form: "cancel X", meaning: "stops, keeping the current value as base value; fires nothing"),
        ReferenceRow(
          form: "tween X to A over D",
          meaning: "pauses a timeline and moves its playhead to A over D, firing what it crosses; it stays paused at A"),
      ]
    }
  }
}
