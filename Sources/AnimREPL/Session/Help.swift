// Help: the text of `:help` and `:help TOPIC`. Every example is a line (or block) of the
// language exactly as it may be typed at the prompt; a test parses each one.

import AnimCore
import AnimLanguage

/// One `:help` topic: the words that name it, what it is, and examples to copy.
struct HelpTopic: Sendable {
  /// The first name is the one listed; the others (every control verb, `:tick`) find it too.
  var names: [String]
  var summary: String
  var form: String
  var examples: [String]

  /// The topic's text, ending with a newline.
  var text: String {
    var text = "\(form)\n  \(summary)\n"
    if !examples.isEmpty {
      text += "Examples:\n"
      for example in examples {
        for line in example.split(separator: "\n", omittingEmptySubsequences: false) {
          text += "  \(line)\n"
        }
      }
    }
    return text
  }
}

enum Help {
  /// The language's forms, as the prompt takes them.
  static let languageTopics: [HelpTopic] = [
    HelpTopic(
      names: ["target"], summary: "declares a target; each initial value fixes the property's type",
      form: "target NAME { prop: EXPR, ... }",
      examples: ["target card { x: 0, angle: 0, position: (0, 0), tint: #ff8800 }"]),
    HelpTopic(
      names: ["animate"],
      summary: "animates a property; `from` defaults to its value when the animation starts",
      form: "animate T.p [from EXPR] to EXPR [over DURATION] [with CURVE] [OPTIONS]",
      examples: [
        "animate card.x to 200 over 1s",
        "animate card.angle from 0 to 180 over 600ms with easeOut repeat 2 autoreverse",
        "animate card.x to 0 with spring(response: 0.5, dampingFraction: 0.45)",
      ]),
    HelpTopic(
      names: ["keyframes"], summary: "a track of values at percents (with `over`) or at durations",
      form: "keyframes T.p [over DURATION] [OPTIONS] { POS: EXPR [with CURVE], ... }",
      examples: ["keyframes card.x over 1s {\n  0%: 0\n  40%: 120 with easeOut\n  100%: 100\n}"]),
    HelpTopic(
      names: ["set"], summary: "sets a property's base value at once (and ends its animations)",
      form: "set T.p to EXPR", examples: ["set card.x to 0"]),
    HelpTopic(
      names: ["timeline", "sequence", "parallel", "wait"],
      summary: "declares (does not start) a timeline; items without `at` are appended at its end so far",
      form: "timeline NAME [OPTIONS] { ITEMS }",
      examples: [
        "timeline intro {\n  animate card.x to 100 over 300ms\n  at 100ms animate card.angle to 180 over 600ms\n  with previous animate card.x to 0 over 200ms\n  label landed\n  at landed + 250ms print \"landed at {now}\"\n}",
        "timeline both {\n  parallel {\n    animate card.x to 10 over 1s\n    animate card.angle to 90 over 1s\n  }\n  wait 500ms\n  sequence { animate card.x to 0 over 1s }\n}",
      ]),
    HelpTopic(
      names: ["let"], summary: "binds a value; a later `let` of the same name replaces it",
      form: "let NAME = EXPR", examples: ["let duration = 600ms", "let accent = #ff8800"]),
    HelpTopic(
      names: ["curve"], summary: "names a curve (:help curves lists them all)", form: "curve NAME = CURVE",
      examples: [
        "curve snap = cubic(0.2, 0.9, 0.1, 1)", "curve wobble = spring(response: 0.5, dampingFraction: 0.45)",
        "curve tick = steps(4, jumpStart)",
      ]),
    HelpTopic(
      names: ["on"], summary: "runs statements when an event happens, at its exact time",
      form: "on complete|start|repeat SUBJECT { STATEMENTS }  |  on \"name\" { STATEMENTS }",
      examples: ["on complete intro { emit \"intro-done\" }", "on \"intro-done\" { print \"done\" }"]),
    HelpTopic(
      names: ["print", "emit"], summary: "writes a line (stamped with the time) or sends a script event",
      form: "print STRING | emit STRING", examples: ["print \"x is {card.x}\"", "emit \"landed\""]),
    HelpTopic(
      names: ["groups", "stagger", "index", "count"],
      summary: "a group of targets G[0] … G[N−1]; a statement on G.p runs per member, `stagger` delays each",
      form:
        "target NAME[N] { prop: EXPR, ... }  |  animate G.p ... stagger STEP [from ORIGIN] [total D] [with CURVE] [grid (C, R)]",
      examples: [
        "target dots[12] { y: 0, x: index * 40 }", "animate dots.y to index * 10 over 1s stagger 50ms from center",
        "animate dots[3].y to 100 over 500ms", "on complete dots.y { print \"all in\" }",
      ]),
    HelpTopic(
      names: ["for", "if", "else", "var", "loops", "conditions"],
      summary: "loops, conditions and variables, at the top level, in handlers and in timelines",
      form: "for NAME in A..<B { ... }  |  if COND { ... } else { ... }  |  var NAME = EXPR  |  NAME = EXPR",
      examples: [
        "var count = 0", "count = count + 1", "for i in 0..<3 { print \"tick {i}\" }",
        "if count > 2 and not false { print \"many\" } else { print \"few\" }",
      ]),
    HelpTopic(
      names: ["nesting", "labels"],
      summary: "a timeline's name inside another places it there; labels are places to seek and play to",
      form: "timeline NAME { ... OTHER [OPTIONS] ... }  |  play X from A [to B]  |  pause X at A  |  seek X to LABEL",
      examples: [
        "timeline scene {\n  label start\n  wait 1s\n  label end\n}",
        "play scene from start to end", "pause scene at end - 500ms", "seek scene to start",
      ]),
    HelpTopic(
      names: ["expressions", "values"],
      summary: "an expression alone prints its text and value; `T.p.x` reads a vector component",
      form: "EXPR", examples: ["card.x", "card.position.x", "card.x * 2 + 1"]),
  ]

  /// The topics printed from the language's reference tables (the same rows as grammar.md's
  /// tables, so they cannot drift), with the other words that find them and examples.
  static let tableTopics: [(table: ReferenceTable, names: [String], examples: [String])] = [
    (
      .options, ["options", "delay", "repeat", "autoreverse", "fill", "merge"],
      ["animate card.x to 200 over 1s delay 250ms repeat 2 autoreverse", "animate card.x to 0 over 1s fill backwards"]
    ),
    (.events, ["events"], ["on complete intro { emit \"intro-done\" }", "on \"intro-done\" { print \"done\" }"]),
    (
      .placement, ["placement", "at", "label", "previous"],
      ["at 500ms print \"half a second later (in the REPL, at D is relative to now)\"", "at 2s pause intro"]
    ),
    (
      .control, ["control", "play", "pause", "resume", "reverse", "seek", "speed", "finish", "cancel", "tween"],
      [
        "play intro", "pause intro", "resume", "reverse intro", "seek intro to 1.5s", "speed intro 0.5", "finish intro",
        "cancel card.x", "tween intro to 1.5s over 500ms with easeOut",
      ]
    ),
  ]

  /// A reference table as two aligned columns, its summary first, then examples.
  static func text(of table: ReferenceTable, examples: [String]) -> String {
    let width = table.rows.map(\.form.count).max() ?? 0
    var text = "\(table.rawValue): \(table.summary)\n"
    for row in table.rows {
      text += "  \(row.form)\(String(repeating: " ", count: width - row.form.count))  \(row.meaning)\n"
    }
    if !examples.isEmpty { text += "Examples:\n" + examples.map { "  \($0)\n" }.joined() }
    return text
  }

  /// `:help curves`: the presets with what each is, the constructors, the spring forms and
  /// the step positions, all from the language's one table (Builtins.swift).
  static var curvesText: String {
    let width = CurvePreset.allCases.map(\.rawValue.count).max() ?? 0
    var text = "curves: the default is linear; `with CURVE` after an animation, or `curve NAME = CURVE`\n"
    for preset in CurvePreset.allCases {
      text += "  \(preset.rawValue)\(String(repeating: " ", count: width - preset.rawValue.count))  \(preset.written)\n"
    }
    text += "  cubic(x1, y1, x2, y2)  CSS cubic-bezier; x1, x2 in 0...1\n"
    text += "  steps(n, POSITION)     POSITION: \(StepPosition.allCases.map(\.rawValue).joined(separator: ", "))\n"
    text += "Springs (`velocity:` goes with any form):\n"
    for form in SpringForm.allCases { text += "  \(form.written)\n" }
    text += "Examples:\n  animate card.x to 0 with spring(response: 0.5, dampingFraction: 0.45)\n"
    text += "  curve tick = steps(4, jumpStart)\n"
    return text
  }

  /// `:help commands`, `:help :tick`.
  static var commandsText: String {
    let width = Command.allCases.map(\.usage.count).max() ?? 0
    var text = "Commands:\n"
    for command in Command.allCases {
      let padding = String(repeating: " ", count: width - command.usage.count)
      text += "  \(command.usage)\(padding)  \(command.summary)\n"
    }
    text += "A prefix that names one command runs it: :q, :h, :st.\n"
    return text
  }

  static let keysText = """
    Keys:
      Emacs editing (Ctrl-A, Ctrl-E, Alt-B, Alt-F, Ctrl-K, ...)
      Up and Down walk the history, Ctrl-R searches it; it is kept across sessions
      Tab completes keywords, commands, names, and T. followed by a property
      Ctrl-C drops the line being typed; Ctrl-D on an empty line leaves
      Ctrl-Z suspends; after `fg` the time away counts as a pause

    """

  /// `:help` with no topic.
  static var overview: String {
    """
    Type any statement or declaration of the language; Enter runs it. For example:
      target card { x: 0, angle: 0 }
      animate card.x to 200 over 1s
      card.x
    A line with an unclosed { or ( goes on at the `...> ` prompt.
    Topics: \((languageTopics.map { $0.names[0] } + ["curves"] + tableTopics.map { $0.names[0] }).joined(separator: " ")) commands keys
    (:help TOPIC shows its form and examples.)

    """ + commandsText
  }

  /// Every word `:help` accepts as a topic, for completion and suggestions.
  static var topicNames: [String] {
    languageTopics.flatMap(\.names) + ["curves", "springs"] + tableTopics.flatMap(\.names) + ["commands", "keys"]
      + Command.allCases.map(\.spelled)
  }

  /// The text of a topic, or nil for a word that is not one.
  static func text(forTopic topic: String) -> String? {
    if topic == "commands" { return commandsText }
    if topic == "keys" { return keysText }
    if topic == "curves" || topic == "springs" { return curvesText }
    if let (table, _, examples) = tableTopics.first(where: { $0.names.contains(topic) }) {
      return text(of: table, examples: examples)
    }
    if let command = Command.allCases.first(where: { $0.spelled == topic || $0.rawValue == topic }),
      !languageTopics.contains(where: { $0.names.contains(topic) })
    {
      return "\(command.usage)\n  \(command.summary)\n"
    }
    return languageTopics.first { $0.names.contains(topic) }?.text
  }
}
