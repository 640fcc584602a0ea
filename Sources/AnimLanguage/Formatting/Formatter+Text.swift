// Formatter+Text: the one-line text of items, options and expressions.
//
// Expressions are printed as the tree holds them: the parser keeps the user's parentheses
// as `.parenthesized` nodes and builds operators by precedence, so printing no other
// parentheses reads back to the same tree. Literals are copied from the source, so `1_000`,
// `.5`, `1.5s` and `#F80` stay as written. Left-leaning chains (`a + b + c + ...`,
// `a.b.c`) are walked with a loop, not recursion, so a long line cannot exhaust the stack.

extension LayoutPrinter {
  /// The text of an item that fits on one line (not a block or a list).
  func itemText(_ kind: StatementKind) -> String {
    switch kind {
    case .letBinding(let declaration):
      return "let \(declaration.name.text) = \(expression(declaration.value))"
    case .curve(let declaration):
      return "curve \(declaration.name.text) = \(expression(declaration.value))"
    case .animate(let animate):
      var text = "animate \(reference(animate.property))"
      if let from = animate.from { text += " from \(expression(from))" }
      text += " to \(expression(animate.to))"
      if let over = animate.over { text += " over \(expression(over))" }
      if let curve = animate.curve { text += " with \(expression(curve))" }
      return text + optionsText(animate.options) + staggerText(animate.stagger)
    case .set(let set):
      return "set \(reference(set.property)) to \(expression(set.value))"
    case .print(let literal):
      return "print \(string(literal))"
    case .emit(let literal):
      return "emit \(string(literal))"
    case .control(let control):
      var text = control.action.rawValue
      if let subject = control.subject { text += " \(subjectText(subject))" }
      if let from = control.from { text += " from \(expression(from))" }
      if let argument = control.argument {
        switch control.action {
        case .seek, .play, .tween: text += " to \(expression(argument))"
        case .pause: text += " at \(expression(argument))"
        default: text += " \(expression(argument))"
        }
      }
      if let over = control.over { text += " over \(expression(over))" }
      if let curve = control.curve { text += " with \(expression(curve))" }
      return text
    case .wait(let duration):
      return "wait \(expression(duration))"
    case .label(let label):
      if let at = label.at { return "label \(label.name.text) at \(expression(at))" }
      return "label \(label.name.text)"
    case .expression(let value):
      return expression(value)
    case .nested(let nested):
      return nested.name.text + optionsText(nested.options)
    case .variable(let declaration):
      return "var \(declaration.name.text) = \(expression(declaration.value))"
    case .assignment(let assignment):
      return "\(assignment.name.text) = \(expression(assignment.value))"
    case .target, .timeline, .keyframes, .handler, .group, .loop, .conditional:
      // Blocks and lists are laid out by LayoutPrinter.printStatement; this is never
      // reached for them, and would lose their bodies.
      return "<block>"
    }
  }

  /// `at E `, `at +E `, `at -E `, `with previous `, or nothing.
  func placementText(_ placement: Placement?) -> String {
    switch placement {
    case nil: return ""
    case .at(let sign, let offset, _)?: return "at \(sign?.rawValue ?? "")\(expression(offset)) "
    case .withPrevious?: return "with previous "
    }
  }

  /// The options in the order written, each after a space.
  func optionsText(_ options: [TimingOption]) -> String {
    options.map { option -> String in
      switch option.kind {
      case .delay(let value): return " delay \(expression(value))"
      case .repeat(let value): return " repeat \(expression(value))"
      case .repeatForever: return " repeat forever"
      case .autoreverse: return " autoreverse"
      case .speed(let value): return " speed \(expression(value))"
      case .fill(let mode): return " fill \(mode.rawValue)"
      case .merge(let mode): return " merge \(mode.rawValue)"
      }
    }.joined()
  }

  /// ` stagger ...`, or nothing.
  func staggerText(_ stagger: StaggerClause?) -> String {
    guard let stagger else { return "" }
    var text = " stagger"
    if let step = stagger.step { text += " \(expression(step))" }
    switch stagger.origin {
    case .start(nil): break
    case .start(_?): text += " from start"
    case .end: text += " from end"
    case .center: text += " from center"
    case .edges: text += " from edges"
    case .member(let index): text += " from \(expression(index))"
    case .random(let seed, _): text += " from random(\(expression(seed)))"
    }
    if let total = stagger.total { text += " total \(expression(total))" }
    if let curve = stagger.curve { text += " with \(expression(curve))" }
    if let grid = stagger.grid { text += " grid \(expression(grid))" }
    return text
  }

  func reference(_ property: PropertyReference) -> String {
    let index = property.index.map { "[\(expression($0))]" } ?? ""
    return "\(property.target.text)\(index).\(property.property.text)"
  }

  func subjectText(_ subject: Subject) -> String {
    switch subject {
    case .name(let name): return name.text
    case .property(let property): return reference(property)
    }
  }

  // MARK: - Expressions

  func expression(_ expression: Expression) -> String {
    switch expression.kind {
    case .binary:
      // Walk the left spine with a loop: `a + b + c` leans left as deep as it is long.
      var rights: [(BinaryOperator, Expression)] = []
      var head = expression
      while case .binary(let symbol, let left, let right) = head.kind {
        rights.append((symbol, right))
        head = left
      }
      var text = self.expression(head)
      for (symbol, right) in rights.reversed() {
        text += " \(symbol.rawValue) " + self.expression(right)
      }
      return text
    case .member:
      var names: [String] = []
      var head = expression
      while case .member(let base, let name) = head.kind {
        names.append(name.text)
        head = base
      }
      return self.expression(head) + names.reversed().map { "." + $0 }.joined()
    case .number, .duration, .percent, .color:
      return source.text(of: expression.span)
    case .string(let literal):
      return string(literal)
    case .vector(let elements):
      return "(" + elements.map { self.expression($0) }.joined(separator: ", ") + ")"
    case .parenthesized(let inner):
      return "(" + self.expression(inner) + ")"
    case .name(let name):
      return name.text
    case .boolean(let value):
      return value ? "true" : "false"
    case .index(let base, let index):
      return "\(base.text)[\(self.expression(index))]"
    case .not(let operand):
      return "not " + self.expression(operand)
    case .now:
      return "now"
    case .call(let callee, let arguments):
      let list = arguments.map { argument in
        (argument.label.map { "\($0.text): " } ?? "") + self.expression(argument.value)
      }
      return callee.text + "(" + list.joined(separator: ", ") + ")"
    case .negate(let operand):
      return "-" + self.expression(operand)
    case .invalid:
      return source.text(of: expression.span)
    }
  }

  /// A string literal with its text re-escaped and its interpolations formatted.
  func string(_ literal: StringLiteral) -> String {
    var text = "\""
    for part in literal.parts {
      switch part {
      case .text(let piece, _):
        text += StringEscapes.escaping(piece)
      case .interpolation(let value):
        text += "{" + expression(value) + "}"
      }
    }
    return text + "\""
  }
}
