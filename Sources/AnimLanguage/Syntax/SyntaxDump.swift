// SyntaxDump: a syntax tree as a compact S-expression without spans, such as
// `(animate card.opacity (to 1) (over 300ms) (with easeIn))`. Tests compare trees with it,
// and the formatter's round-trip tests compare a file's dump before and after formatting,
// so the dump shows meaning and never spelling: `1.5s` and `1500ms` dump alike.
//
// Shapes: one line per top-level statement;
//   literals   12  0.5  300ms  1500ms  7ns  40%  #ff8800ff  "text"
//   string     (string "landed at " now ", angle " card.angle)   (when interpolated)
//   names      card  card.angle  (. (paren a) x)  now
//   operators  (+ a b)  (- a)  (paren a)  (vec 0 0)
//   calls      (call cubic 0.2 0.9 0.1 1)  (call spring response: 0.5 dampingFraction: 0.45)
//   statements (let d 600ms) (curve snap E) (target card (angle 0) ...) (timeline intro OPTIONS ITEMS)
//              (animate T.p (from E) (to E) (over E) (with E) OPTIONS) (set T.p E) (print S) (emit S)
//              (keyframes T.p (over E) OPTIONS (key 0% E) (key 40% E (with C)))
//              (on complete intro ITEMS) (on "name" ITEMS) (play X) (pause) (seek X E) (speed X E)
//              (wait E) (label NAME) (label NAME (at E)) (sequence OPTIONS ITEMS) (expr E)
//   options    (delay E) (repeat E) (repeat forever) (autoreverse) (speed E) (fill both) (merge replace)
//   placement  (at E ITEM) (at +E ITEM) (at -E ITEM) (with-previous ITEM)

/// Prints syntax trees as span-free S-expressions.
package enum SyntaxDump {
  /// One line per top-level statement.
  package static func dump(_ file: SourceFile) -> String {
    file.statements.map(dump).joined(separator: "\n")
  }

  package static func dump(_ statement: Statement) -> String {
    let item = dump(statement.kind)
    switch statement.placement {
    case nil: return item
    case .at(let sign, let offset, _)?: return "(at \(sign?.rawValue ?? "")\(dump(offset)) \(item))"
    case .withPrevious?: return "(with-previous \(item))"
    }
  }

  static func dump(_ kind: StatementKind) -> String {
    switch kind {
    case .letBinding(let declaration):
      return "(let \(declaration.name.text) \(dump(declaration.value)))"
    case .curve(let declaration):
      return "(curve \(declaration.name.text) \(dump(declaration.value)))"
    case .target(let declaration):
      let properties = declaration.properties.map { "(\($0.name.text) \(dump($0.value)))" }
      let count = declaration.count.map { ["(count \(dump($0)))"] } ?? []
      var kind: [String] = []
      switch declaration.kind {
      case .text(let literal, _)?: kind = ["(kind text \(dump(literal)))"]
      case let other?: kind = ["(kind \(other.word))"]
      case nil: break
      }
      return list(["target", declaration.name.text] + count + kind + properties)
    case .timeline(let declaration):
      return list(["timeline", declaration.name.text] + declaration.options.map(dump) + block(declaration.body))
    case .animate(let animate):
      var parts = ["animate", dump(animate.property)]
      if let from = animate.from { parts.append("(from \(dump(from)))") }
      parts.append("(to \(dump(animate.to)))")
      if let over = animate.over { parts.append("(over \(dump(over)))") }
      if let curve = animate.curve { parts.append("(with \(dump(curve)))") }
      return list(parts + animate.options.map(dump) + dump(animate.stagger))
    case .keyframes(let keyframes):
      var parts = ["keyframes", dump(keyframes.property)]
      if let over = keyframes.over { parts.append("(over \(dump(over)))") }
      parts += keyframes.options.map(dump) + dump(keyframes.stagger)
      for keyframe in keyframes.keyframes {
        var key = ["key", dump(keyframe.position), dump(keyframe.value)]
        if let curve = keyframe.curve { key.append("(with \(dump(curve)))") }
        parts.append(list(key))
      }
      return list(parts)
    case .set(let set):
      return "(set \(dump(set.property)) \(dump(set.value)))"
    case .print(let literal):
      return "(print \(dump(literal)))"
    case .emit(let literal):
      return "(emit \(dump(literal)))"
    case .handler(let handler):
      let event: String
      switch handler.event {
      case .lifecycle(let kind, _, let subject): event = "\(kind.rawValue) \(dump(subject))"
      case .custom(let name): event = dump(name)
      }
      return list(["on", event] + block(handler.body))
    case .control(let control):
      var parts = [control.action.rawValue]
      if let subject = control.subject { parts.append(dump(subject)) }
      if let from = control.from { parts.append("(from \(dump(from)))") }
      if let argument = control.argument {
        switch control.action {
        case .play: parts.append("(to \(dump(argument)))")
        case .pause: parts.append("(at \(dump(argument)))")
        case .tween: parts.append("(to \(dump(argument)))")
        default: parts.append(dump(argument))
        }
      }
      if let over = control.over { parts.append("(over \(dump(over)))") }
      if let curve = control.curve { parts.append("(with \(dump(curve)))") }
      return list(parts)
    case .wait(let duration):
      return "(wait \(dump(duration)))"
    case .label(let label):
      if let at = label.at { return "(label \(label.name.text) (at \(dump(at))))" }
      return "(label \(label.name.text))"
    case .group(let group):
      return list([group.kind.rawValue] + group.options.map(dump) + block(group.body))
    case .expression(let expression):
      return "(expr \(dump(expression)))"
    case .nested(let nested):
      return list(["nested", nested.name.text] + nested.options.map(dump))
    case .variable(let declaration):
      return "(var \(declaration.name.text) \(dump(declaration.value)))"
    case .assignment(let assignment):
      return "(= \(assignment.name.text) \(dump(assignment.value)))"
    case .loop(let loop):
      let range = "(\(loop.closed ? "..." : "..<") \(dump(loop.lower)) \(dump(loop.upper)))"
      return list(["for", loop.variable.text, range] + block(loop.body))
    case .conditional(let conditional):
      var parts = ["if"]
      for branch in conditional.branches {
        parts.append(list(["when", dump(branch.condition)] + block(branch.body)))
      }
      if let otherwise = conditional.otherwise { parts.append(list(["else"] + block(otherwise))) }
      return list(parts)
    }
  }

  /// `(stagger STEP (from ORIGIN) (total D) (with C) (grid E))`, as a one-element list, or none.
  static func dump(_ stagger: StaggerClause?) -> [String] {
    guard let stagger else { return [] }
    var parts = ["stagger"]
    if let step = stagger.step { parts.append(dump(step)) }
    switch stagger.origin {
    case .start(nil): break
    case .start(_?): parts.append("(from start)")
    case .end: parts.append("(from end)")
    case .center: parts.append("(from center)")
    case .edges: parts.append("(from edges)")
    case .member(let index): parts.append("(from \(dump(index)))")
    case .random(let seed, _): parts.append("(from (random \(dump(seed))))")
    }
    if let total = stagger.total { parts.append("(total \(dump(total)))") }
    if let curve = stagger.curve { parts.append("(with \(dump(curve)))") }
    if let grid = stagger.grid { parts.append("(grid \(dump(grid)))") }
    return [list(parts)]
  }

  static func dump(_ option: TimingOption) -> String {
    switch option.kind {
    case .delay(let value): return "(delay \(dump(value)))"
    case .repeat(let value): return "(repeat \(dump(value)))"
    case .repeatForever: return "(repeat forever)"
    case .autoreverse: return "(autoreverse)"
    case .speed(let value): return "(speed \(dump(value)))"
    case .fill(let mode): return "(fill \(mode.rawValue))"
    case .merge(let mode): return "(merge \(mode.rawValue))"
    }
  }

  package static func dump(_ expression: Expression) -> String {
    switch expression.kind {
    case .number(let value): return number(value)
    case .duration(let nanoseconds): return duration(nanoseconds)
    case .percent(let value): return number(value) + "%"
    case .color(let color): return colorText(color)
    case .string(let literal): return dump(literal)
    case .vector(let elements): return list(["vec"] + elements.map(dump))
    case .parenthesized(let inner): return "(paren \(dump(inner)))"
    case .name(let name): return name.text
    case .boolean(let value): return value ? "true" : "false"
    case .index(let base, let index): return "(index \(base.text) \(dump(index)))"
    case .not(let operand): return "(not \(dump(operand)))"
    case .member(let base, let name):
      let baseText = dump(base)
      // A chain of names prints as written: card.position.x.
      if case .name = base.kind { return "\(baseText).\(name.text)" }
      if case .member = base.kind, !baseText.hasPrefix("(") { return "\(baseText).\(name.text)" }
      return "(. \(baseText) \(name.text))"
    case .now: return "now"
    case .call(let callee, let arguments):
      let parts = arguments.map { argument in
        argument.label.map { "\($0.text): \(dump(argument.value))" } ?? dump(argument.value)
      }
      return list(["call", callee.text] + parts)
    case .negate(let operand): return "(- \(dump(operand)))"
    case .binary(let symbol, let left, let right): return "(\(symbol.rawValue) \(dump(left)) \(dump(right)))"
    case .invalid: return "<invalid>"
    }
  }

  static func dump(_ literal: StringLiteral) -> String {
    if let text = literal.plainText { return quoted(text) }
    let parts = literal.parts.map { part -> String in
      switch part {
      case .text(let text, _): return quoted(text)
      case .interpolation(let expression): return dump(expression)
      }
    }
    return list(["string"] + parts)
  }

  static func dump(_ subject: Subject) -> String {
    switch subject {
    case .name(let name): return name.text
    case .property(let reference): return dump(reference)
    }
  }

  static func dump(_ reference: PropertyReference) -> String {
    let index = reference.index.map { "[\(dump($0))]" } ?? ""
    return "\(reference.target.text)\(index).\(reference.property.text)"
  }

  private static func block(_ block: Block) -> [String] {
    block.statements.map(dump)
  }

  private static func list(_ parts: [String]) -> String {
    "(" + parts.joined(separator: " ") + ")"
  }

  /// Integers without a fraction (`1`, not `1.0`); others as Swift prints a Double.
  static func number(_ value: Double) -> String {
    // (Checked by conversion, not `rounded()`, which needs libm at link time.)
    if abs(value) < 1e15, Double(Int64(value)) == value { return String(Int64(value)) }
    return "\(value)"
  }

  /// The largest exact unit: `2s`, `1500ms`, `7ns`.
  static func duration(_ nanoseconds: Int64) -> String {
    if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
    if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
    return "\(nanoseconds)ns"
  }

  static func colorText(_ color: ColorLiteral) -> String {
    let digits = Array("0123456789abcdef")
    var text = "#"
    for channel in [color.red, color.green, color.blue, color.alpha] {
      text.append(digits[Int(channel >> 4)])
      text.append(digits[Int(channel & 0xF)])
    }
    return text
  }

  static func quoted(_ text: String) -> String { "\"" + StringEscapes.escaping(text) + "\"" }
}
