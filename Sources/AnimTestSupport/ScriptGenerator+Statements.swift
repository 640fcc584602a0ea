// ScriptGenerator+Statements: declarations, items, timelines, handlers and control
// statements, each used as grammar.md allows.

import AnimCore
import AnimLanguage

/// The value types of grammar.md that the generator writes expressions of (strings and
/// curves have their own generators).
enum GeneratedType: CaseIterable {
  case number, duration, vec2, vec3, vec4, color

  static let animatable: [GeneratedType] = [.number, .vec2, .vec3, .vec4, .color]
}

/// What the script declared so far, so that every later use is consistent.
struct GeneratorModel {
  struct Property {
    var target: String
    var name: String
    var type: GeneratedType
    /// Only such properties get `repeat forever` animations, and they are never `finish`ed.
    var mayRepeatForever: Bool
    var reference: String { "\(target).\(name)" }
  }

  struct Timeline {
    var name: String
    /// It repeats forever (option or last item): never `finish`ed, no `on complete`.
    var repeatsForever: Bool
    /// It makes more than one pass, so `on repeat` handlers of it can run.
    var makesSeveralPasses: Bool
  }

  var counter = 0
  var lets: [(name: String, type: GeneratedType)] = []
  var curves: [String] = []
  var targets: [String] = []
  var properties: [Property] = []
  var timelines: [Timeline] = []
  var played: Set<String> = []
  /// The script's own event names; `on "name"` handlers exist for the ones in `handled`.
  let events = ["ready", "tick", "intro-done", "step 2"]
  var handled: Set<String> = []
  /// The event names some `emit` sends: a handler of a name nothing emits earns a warning.
  var emitted: Set<String> = []
  /// Labels of the timeline being generated (visible throughout it).
  var labels: [String] = []
  /// False inside a target's braces: an initial value reads no live property.
  var allowsPropertyReads = true

  /// `repeat N` options that make more than one pass.
  static let multiPassRepeats = ["repeat 2", "repeat 3", "repeat 1.5", "repeat 2.5"]

  /// A fresh name: a prefix that is no keyword nor predeclared name, and a number.
  mutating func name(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }
}

extension ScriptGenerator {
  // MARK: - Script frame

  /// The declarations every script starts with: a let of each type, a curve of each kind,
  /// and targets with a property of every animatable type.
  mutating func preamble() -> [String] {
    var lines: [String] = []
    for type in GeneratedType.allCases { lines += letDeclaration(type: type) }
    lines.append("")
    for kind in 0..<GeneratedCurve.allCases.count {
      lines.append(curveDeclaration(kind: GeneratedCurve.allCases[kind]))
    }
    lines.append("")
    lines += targetDeclaration(types: GeneratedType.animatable)
    lines += targetDeclaration(types: shuffled(GeneratedType.animatable))
    lines.append("")
    return lines
  }

  /// Handles and emits every event name (a handler of an event nothing emits earns a
  /// warning), and plays every timeline not yet played.
  mutating func epilogue() -> [String] {
    var lines: [String] = [""]
    for event in model.events where !model.handled.contains(event) {
      lines += handler(event: .custom(event))
    }
    for event in model.events where !model.emitted.contains(event) {
      lines.append(emit(event))
    }
    for timeline in model.timelines where !model.played.contains(timeline.name) {
      lines.append("play \(timeline.name)")
      model.played.insert(timeline.name)
    }
    return lines
  }

  /// One top-level statement (a declaration, an item, a handler or a control statement),
  /// possibly placed with `at`, as lines.
  mutating func topLevelStatement() -> [String] {
    var lines: [String] = []
    if chance(0.15) { lines.append("") }
    if chance(0.1) { lines.append(ownLineComment()) }
    switch integer(0...99) {
    case 0..<7: lines += letDeclaration(type: pick(GeneratedType.allCases))
    case 7..<11: lines.append(curveDeclaration(kind: pick(GeneratedCurve.allCases)))
    case 11..<15: lines += targetDeclaration(types: (0..<integer(1...4)).map { _ in pick(GeneratedType.animatable) })
    case 15..<27: lines += timelineDeclaration()
    case 27..<37: lines += handler(event: randomEvent())
    case 37..<41:
      lines.append("wait \(nonNegativeDuration())")
    default:
      var item = topLevelItem()
      if chance(0.25) {
        item[0] = (chance(0.5) ? "at \(nonNegativeDuration()) " : "at +\(durationLiteral()) ") + item[0]
      }
      lines += item
    }
    return decorate(lines)
  }

  /// An item as a top-level statement or in a handler: animate, keyframes, set, print,
  /// emit or a control statement.
  mutating func topLevelItem() -> [String] {
    switch integer(0...99) {
    case 0..<30: return [animate(allowForever: true)]
    case 30..<42: return keyframes(allowForever: true)
    case 42..<52: return [set()]
    case 52..<62: return ["print \(stringLiteral())"]
    case 62..<68: return [emit(pick(model.events))]
    default: return [control(allowPlay: true)]
    }
  }

  // MARK: - Declarations

  mutating func letDeclaration(type: GeneratedType) -> [String] {
    let value = expression(type, depth: 2, multiline: messyLayout)
    let name = model.name(letPrefix(type))
    model.lets.append((name, type))
    let spacing = messyLayout && chance(0.2) ? String(repeating: " ", count: integer(2...5)) : " "
    return ["let \(name)\(spacing)= \(value)"]
  }

  func letPrefix(_ type: GeneratedType) -> String {
    switch type {
    case .number: return "amount"
    case .duration: return "beat"
    case .vec2: return "point"
    case .vec3: return "place"
    case .vec4: return "quad"
    case .color: return "shade"
    }
  }

  mutating func curveDeclaration(kind: GeneratedCurve) -> String {
    let value = curve(kind: kind)
    let name = model.name("curve")
    model.curves.append(name)
    return "curve \(name) = \(value)"
  }

  /// `target NAME { prop: EXPR, ... }`, on one line or several, with commas or new lines.
  mutating func targetDeclaration(types: [GeneratedType]) -> [String] {
    let name = model.name(pick(["card", "box", "dot", "panel", "meter", "swatch"]))
    var entries: [String] = []
    var used: Set<String> = []
    model.allowsPropertyReads = false
    defer { model.allowsPropertyReads = true }
    for type in types {
      // Any word is a property name inside a target's braces, keywords included.
      var property = propertyName(for: type)
      if used.contains(property) { property += "\(used.count)" }
      used.insert(property)
      entries.append("\(property): \(expression(type, depth: 1, multiline: false))")
      model.properties.append(
        GeneratorModel.Property(target: name, name: property, type: type, mayRepeatForever: chance(0.3)))
    }
    model.targets.append(name)
    if entries.isEmpty { return ["target \(name) {}"] }
    if !messyLayout || chance(0.5) {
      return ["target \(name) { " + entries.joined(separator: ", ") + " }"]
    }
    let trailingComma = chance(0.3)
    return ["target \(name) {"]
      + entries.enumerated().map { index, entry in
        "  \(entry)" + (chance(0.4) || (trailingComma && index == entries.count - 1) ? "," : "")
      } + ["}"]
  }

  mutating func propertyName(for type: GeneratedType) -> String {
    switch type {
    case .number: return pick(["opacity", "angle", "scale", "level", "to", "fill", "on"])
    case .duration: return "length"
    case .vec2: return pick(["position", "offset", "size"])
    case .vec3: return pick(["depth", "axis"])
    case .vec4: return pick(["bounds", "inset"])
    case .color: return pick(["tint", "glow", "background"])
    }
  }

  /// `timeline NAME [OPTIONS] { ITEMS }`: items of every placement, labels, groups.
  mutating func timelineDeclaration() -> [String] {
    let name = model.name("timeline")
    let foreverOption = chance(0.1)
    let foreverItem = !foreverOption && chance(0.15)
    let optionList = timingOptionList(repeatForever: foreverOption)
    let options = optionList.map { " " + $0 }.joined()
    model.labels = []
    var body: [String] = []
    let itemCount = integer(1...7)
    for index in 0..<itemCount {
      let last = index == itemCount - 1
      body += timelineItem(allowForever: foreverItem && last, depth: 0)
    }
    // `play` of an earlier timeline (never a later one, so no timeline plays itself); after
    // an item that repeats forever only `with previous` can place it.
    let played = model.timelines.map(\.name)
    if !played.isEmpty && chance(0.3) { body.append((foreverItem ? "with previous " : "") + "play \(pick(played))") }
    let severalPasses = foreverOption || optionList.contains { GeneratorModel.multiPassRepeats.contains($0) }
    model.timelines.append(
      GeneratorModel.Timeline(
        name: name, repeatsForever: foreverOption || foreverItem, makesSeveralPasses: severalPasses))
    model.labels = []
    return ["timeline \(name)\(options) {"] + indent(body) + ["}"]
  }

  /// One item of a timeline or group, with a placement or appended.
  mutating func timelineItem(allowForever: Bool, depth: Int) -> [String] {
    var lines: [String] = []
    if chance(0.1) { lines.append(ownLineComment()) }
    if allowForever {
      return lines + [animate(allowForever: true, forceForever: true)]
    }
    // Labels are referred to only at a timeline's own level, where they are declared.
    if depth == 0 && chance(0.15) {
      let label = model.name("mark")
      model.labels.append(label)
      lines.append(chance(0.5) ? "label \(label)" : "label \(label) at \(durationLiteral())")
      if chance(0.5) {
        lines.append("at \(label)\(chance(0.5) ? " + \(durationLiteral())" : "") \(simpleTimelineItem())")
      }
      return lines
    }
    if depth < 2 && chance(0.15) {
      return lines + group(depth: depth + 1)
    }
    var item: [String]
    if depth == 0 && chance(0.1) {
      // A relative placement before the end: after a wait long enough that it stays >= 0.
      lines.append("wait 1s")
      item = [simpleTimelineItem()]
      item[0] = "at -\(pick(["250ms", "0.5s", "100ms"])) " + item[0]
      return lines + item
    } else if chance(0.1) {
      lines.append("wait \(nonNegativeDuration())")
      return lines
    } else {
      item = chance(0.2) ? keyframes(allowForever: false) : [simpleTimelineItem()]
    }
    switch integer(0...9) {
    case 0, 1: item[0] = "at \(nonNegativeDuration()) " + item[0]
    case 2: item[0] = "at +\(durationLiteral()) " + item[0]
    case 3, 4: item[0] = "with previous " + item[0]
    default: break
    }
    return lines + item
  }

  /// A one-line timeline item: animate, set, print, emit or a control statement.
  mutating func simpleTimelineItem() -> String {
    switch integer(0...99) {
    case 0..<55: return animate(allowForever: false)
    case 55..<65: return set()
    case 65..<80: return "print \(stringLiteral())"
    case 80..<88: return emit(pick(model.events))
    default: return control(allowPlay: false)
    }
  }

  /// `sequence [OPTIONS] { ... }` or `parallel [OPTIONS] { ... }`.
  mutating func group(depth: Int) -> [String] {
    let kind = pick(["sequence", "parallel"])
    var body: [String] = []
    for _ in 0..<integer(1...4) { body += timelineItem(allowForever: false, depth: depth) }
    return ["\(kind)\(timingOptions()) {"] + indent(body) + ["}"]
  }

  // MARK: - Animations

  /// `animate T.p [from E] to E [over D] [with CURVE] [OPTIONS]`, types consistent.
  mutating func animate(allowForever: Bool, forceForever: Bool = false) -> String {
    let candidates = model.properties.filter { !forceForever || $0.mayRepeatForever }
    let property = candidates.isEmpty ? model.properties[0] : pick(candidates)
    var text = "animate \(property.reference)"
    if chance(0.3) { text += " from \(expression(property.type, depth: 1, multiline: false))" }
    text += " to \(expression(property.type, depth: 2, multiline: false))"
    let kind = pick(GeneratedCurve.allCases)
    let curveText: String? =
      chance(0.2) ? nil : (chance(0.3) && !model.curves.isEmpty ? pick(model.curves) : curve(kind: kind))
    // A named curve may be a timing curve: give it `over`. A spring needs none.
    let isSpring = curveText != nil && kind.isSpring && !model.curves.contains(curveText!)
    if !isSpring || chance(0.3) { text += " over \(nonNegativeDuration())" }
    if let curveText { text += " with \(curveText)" }
    let forever = forceForever || (allowForever && property.mayRepeatForever && chance(0.2))
    return text + timingOptions(repeatForever: forever)
  }

  /// `keyframes T.p [over D] [OPTIONS] { ... }`: all percents with `over`, or all
  /// durations; sorted, no duplicates, no `with` on a first keyframe at 0.
  mutating func keyframes(allowForever: Bool) -> [String] {
    let property = pick(model.properties)
    let percents = chance(0.5)
    var positions: [String] = []
    if percents {
      var values = Set<Int>()
      if chance(0.7) { values.insert(0) }
      values.insert(100)
      for _ in 0..<integer(0...3) { values.insert(integer(1...99)) }
      positions = values.sorted().map { "\($0)%" }
    } else {
      var values = Set<Int>()
      if chance(0.7) { values.insert(0) }
      for _ in 0..<integer(1...4) { values.insert(integer(1...40) * 25) }
      positions = values.sorted().map { "\($0)ms" }
    }
    var header = "keyframes \(property.reference)"
    if percents { header += " over \(nonNegativeDuration())" }
    header += timingOptions(repeatForever: allowForever && property.mayRepeatForever && chance(0.2))
    var entries: [String] = []
    for (index, position) in positions.enumerated() {
      var entry = "\(position): \(expression(property.type, depth: 1, multiline: false))"
      let isFirstAtZero = index == 0 && (position == "0%" || position == "0ms")
      if !isFirstAtZero && chance(0.5) { entry += " with \(curve(kind: pick(GeneratedCurve.allCases)))" }
      entries.append(entry)
    }
    if messyLayout && chance(0.3) {
      return [header + " { " + entries.joined(separator: ", ") + " }"]
    }
    return [header + " {"] + indent(entries) + ["}"]
  }

  /// The options of an animation, a track, a timeline or a group: each kind at most once,
  /// in a random order (the order has no meaning).
  mutating func timingOptions(repeatForever: Bool = false) -> String {
    timingOptionList(repeatForever: repeatForever).map { " " + $0 }.joined()
  }

  /// The options as a list; `repeat forever` replaces any `repeat N` (one `repeat` only).
  mutating func timingOptionList(repeatForever: Bool) -> [String] {
    var options: [String] = []
    if chance(0.25) { options.append("delay \(nonNegativeDuration())") }
    if repeatForever {
      options.append("repeat forever")
    } else if chance(0.25) {
      options.append(pick(GeneratorModel.multiPassRepeats + ["repeat 0.5"]))
    }
    if chance(0.2) { options.append("autoreverse") }
    if chance(0.2) { options.append("speed \(pick(["2", "0.5", "1.25", "3"]))") }
    if chance(0.2) { options.append("fill \(pick(FillMode.allCases).rawValue)") }
    if chance(0.15) { options.append("merge replace") }
    return shuffled(options)
  }

  mutating func set() -> String {
    let property = pick(model.properties)
    return "set \(property.reference) to \(expression(property.type, depth: 2, multiline: false))"
  }

  // MARK: - Events and control

  enum GeneratedEvent {
    case lifecycle(String, subject: String)
    case custom(String)
  }

  mutating func randomEvent() -> GeneratedEvent {
    if chance(0.3) { return .custom(pick(model.events)) }
    let kind = pick(LifecycleEvent.allCases)
    // Only events that can happen: no `complete` of what repeats forever, no `repeat` of
    // a single pass.
    let timelines = model.timelines.filter { timeline in
      switch kind {
      case .complete: return !timeline.repeatsForever
      case .repeat: return timeline.makesSeveralPasses
      case .start: return true
      }
    }
    if !timelines.isEmpty && chance(0.5) { return .lifecycle(kind.rawValue, subject: pick(timelines).name) }
    return .lifecycle(kind.rawValue, subject: pick(model.properties).reference)
  }

  /// `on complete|start|repeat SUBJECT { ... }` or `on "name" { ... }`. A handler of an
  /// event emits only events later in the list, so no chain of events loops.
  mutating func handler(event: GeneratedEvent) -> [String] {
    let header: String
    var laterEvents = model.events
    switch event {
    case .lifecycle(let kind, let subject): header = "on \(kind) \(subject)"
    case .custom(let name):
      header = "on \(quoted(name))"
      model.handled.insert(name)
      laterEvents = Array(model.events.drop { $0 != name }.dropFirst())
    }
    var body: [String] = []
    for _ in 0..<integer(1...3) {
      switch integer(0...9) {
      case 0, 1, 2: body.append("print \(stringLiteral())")
      case 3:
        if let event = laterEvents.first { body.append(emit(event)) }
      case 4: body.append(set())
      case 5: body.append("at \(nonNegativeDuration()) " + animate(allowForever: false))
      case 6: body.append(animate(allowForever: false))
      default: body.append(control(allowPlay: false))
      }
    }
    if body.isEmpty { body.append("print \(stringLiteral())") }
    if messyLayout && body.count == 1 && chance(0.5) { return [header + " { " + body[0] + " }"] }
    if messyLayout && chance(0.2) { return [header + " { " + body.joined(separator: "; ") + " }"] }
    return [header + " {"] + indent(body) + ["}"]
  }

  /// A control statement on a timeline or a property. `play` only where asked (top
  /// level), so that no handler or timeline restarts what started it; `finish` never on
  /// what repeats forever.
  mutating func control(allowPlay: Bool) -> String {
    let subject: String
    let finishable: Bool
    if !model.timelines.isEmpty && chance(0.6) {
      let timeline = pick(model.timelines)
      subject = timeline.name
      finishable = !timeline.repeatsForever
      if allowPlay && chance(0.4) {
        model.played.insert(timeline.name)
        return "play \(subject)"
      }
    } else {
      let property = pick(model.properties)
      subject = property.reference
      finishable = !property.mayRepeatForever
    }
    switch integer(0...8) {
    case 0: return chance(0.3) ? "pause" : "pause \(subject)"
    case 1: return chance(0.3) ? "resume" : "resume \(subject)"
    case 2: return chance(0.3) ? "reverse" : "reverse \(subject)"
    case 3: return "seek \(subject) to \(nonNegativeDuration())"
    case 4: return "speed \(subject) \(pick(["2", "-1", "0.5", "0", "-0.25", "amount1"]))"
    case 5: return finishable ? "finish \(subject)" : "cancel \(subject)"
    default: return "cancel \(subject)"
    }
  }

  // MARK: - Helpers

  /// `emit "name"`, remembered so that the epilogue emits every name no one else does.
  mutating func emit(_ event: String) -> String {
    model.emitted.insert(event)
    return "emit \(quoted(event))"
  }

  /// The elements in a random order (Fisher and Yates), the same for the same seed.
  mutating func shuffled<T>(_ elements: [T]) -> [T] {
    var result = elements
    var index = result.count - 1
    while index > 0 {
      result.swapAt(index, integer(0...index))
      index -= 1
    }
    return result
  }

  func indent(_ lines: [String]) -> [String] {
    lines.map { $0.isEmpty ? $0 : "  " + $0 }
  }

  func quoted(_ text: String) -> String { "\"\(text)\"" }
}
