// ScriptGenerator+Expressions: typed expressions, curves, strings, comments and layout
// noise. An expression of a type uses only operators grammar.md defines for that type;
// durations are always positive (no subtraction), so any of them may follow `over`,
// `delay` or `at`.

import AnimLanguage

/// Every curve form of grammar.md § Curves.
enum GeneratedCurve: CaseIterable {
  case linear, ease, easeIn, easeOut, easeInOut, cubic, steps, stepsWithPosition
  case springResponse, springDuration, springMass, smooth, snappy, bouncy

  /// Springs need no `over`.
  var isSpring: Bool {
    switch self {
    case .springResponse, .springDuration, .springMass, .smooth, .snappy, .bouncy: return true
    default: return false
    }
  }
}

extension ScriptGenerator {
  // MARK: - Expressions

  /// An expression of `type`, at most `depth` operators deep. `multiline` allows line
  /// breaks after operators and commas and block comments between operands (never inside
  /// a string interpolation, which ends on its line).
  mutating func expression(_ type: GeneratedType, depth: Int, multiline: Bool) -> String {
    if depth > 0 && chance(0.4) { return compound(type, depth: depth - 1, multiline: multiline) }
    if chance(0.2), let name = pickLet(of: type) { return name }
    if model.allowsPropertyReads && chance(0.15), let read = propertyRead(of: type) { return read }
    return literal(type, multiline: multiline)
  }

  mutating func compound(_ type: GeneratedType, depth: Int, multiline: Bool) -> String {
    // An operand that is not a single token is parenthesized, so that the operators
    // around it cannot regroup it with another type (`1s + 2s / 250ms` is not a duration).
    func operand(_ generator: inout ScriptGenerator, _ type: GeneratedType) -> String {
      let text = generator.expression(type, depth: depth, multiline: multiline)
      return ScriptGenerator.isAtomic(text) ? text : "(" + text + ")"
    }
    switch type {
    case .number:
      switch integer(0...11) {
      case 0: return operand(&self, .number) + op("+", multiline) + operand(&self, .number)
      case 1: return operand(&self, .number) + op("-", multiline) + operand(&self, .number)
      case 2: return operand(&self, .number) + op("*", multiline) + operand(&self, .number)
      case 3: return operand(&self, .number) + op("/", multiline) + pick(["2", "4", "0.5", "10"])
      case 4: return "(" + operand(&self, .number) + " + " + operand(&self, .number) + ")"
      case 5: return "-" + operand(&self, .number)
      case 6: return "\(pick(["min", "max"]))(\(operand(&self, .number))\(comma(multiline))\(operand(&self, .number)))"
      case 7: return "clamp(\(operand(&self, .number)), 0, 1)"
      case 8: return "\(pick(["abs", "sin", "cos"]))(\(operand(&self, .number)))"
      case 9: return "sqrt(abs(\(operand(&self, .number))))"
      case 10: return "lerp(\(operand(&self, .number)), \(operand(&self, .number)), 0.25)"
      default: return "\(operand(&self, .duration)) / \(durationLiteral())"
      }
    case .duration:
      switch integer(0...3) {
      case 0: return operand(&self, .duration) + op("+", multiline) + operand(&self, .duration)
      case 1: return operand(&self, .duration) + " * " + pick(["2", "1.5", "3"])
      case 2: return operand(&self, .duration) + " / " + pick(["2", "4"])
      default: return "(" + operand(&self, .duration) + ")"
      }
    case .vec2, .vec3, .vec4:
      switch integer(0...3) {
      case 0: return operand(&self, type) + op("+", multiline) + operand(&self, type)
      case 1: return operand(&self, type) + op("-", multiline) + operand(&self, type)
      case 2: return pick(["2", "0.5", "-1"]) + " * " + operand(&self, type)
      default: return "(" + operand(&self, type) + ")"
      }
    case .color:
      return literal(.color, multiline: multiline)
    }
  }

  /// Whether an expression's text is one operand that no operator can split: a token, or
  /// a parenthesis, vector or call that spans the whole text.
  static func isAtomic(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    if !bytes.contains(UInt8(ascii: " ")) && !bytes.contains(UInt8(ascii: "\n")) && bytes.first != UInt8(ascii: "-") {
      return true
    }
    guard bytes.last == UInt8(ascii: ")") else { return false }
    // The `(` that the last `)` closes must open at the start or right after a callee.
    var depth = 0
    var index = bytes.count - 1
    while index >= 0 {
      if bytes[index] == UInt8(ascii: ")") { depth += 1 }
      if bytes[index] == UInt8(ascii: "(") {
        depth -= 1
        if depth == 0 { break }
      }
      index -= 1
    }
    guard index >= 0 else { return false }
    return bytes[0..<index].allSatisfy { isIdentifierContinue($0) }
  }

  /// ` + `, sometimes followed by a line break or preceded by a block comment.
  mutating func op(_ symbol: String, _ multiline: Bool) -> String {
    guard multiline && messyLayout else { return " \(symbol) " }
    if chance(0.08) { return " \(symbol)\n    " }
    if chance(0.04) { return " /* \(words(1...2)) */ \(symbol) " }
    return " \(symbol) "
  }

  mutating func comma(_ multiline: Bool) -> String {
    multiline && messyLayout && chance(0.1) ? ",\n    " : ", "
  }

  mutating func literal(_ type: GeneratedType, multiline: Bool) -> String {
    switch type {
    case .number:
      return pick(["0", "1", "12", "3.5", ".5", "1e3", "1_000", "2.5e-1", "1E+2", "180", "0.45", "-4", "90"])
    case .duration:
      return durationLiteral()
    case .vec2, .vec3, .vec4:
      let count = type == .vec2 ? 2 : type == .vec3 ? 3 : 4
      let parts = (0..<count).map { _ in expression(.number, depth: 0, multiline: false) }
      return "(" + parts.joined(separator: comma(multiline)) + ")"
    case .color:
      switch integer(0...5) {
      case 0: return pick(["#fff", "#F80", "#369", "#0a0"])
      case 1, 2: return pick(["#ff8800", "#000000", "#222222", "#A1B2C3"])
      case 3: return pick(["#ff880080", "#00000000", "#11223344"])
      case 4: return "rgb(\(integer(0...255)), \(integer(0...255)), \(integer(0...255)))"
      default:
        return "rgba(\(integer(0...255)), \(integer(0...255)), \(integer(0...255)), \(pick(["0", "0.5", "1", ".25"])))"
      }
    }
  }

  /// A positive duration literal, written in one of the ways grammar.md allows.
  mutating func durationLiteral() -> String {
    pick(["250ms", "1.5s", "300ms", "1s", "0.1s", "1_000ms", "2s", ".5s", "600ms", "40ms", "1.2s"])
  }

  /// A positive duration: a literal, a duration let, or arithmetic on them.
  mutating func nonNegativeDuration() -> String {
    expression(.duration, depth: 1, multiline: false)
  }

  mutating func pickLet(of type: GeneratedType) -> String? {
    let names = model.lets.filter { $0.type == type }.map(\.name)
    return names.isEmpty ? nil : pick(names)
  }

  /// `T.p` of that type, or a number read as a vector component or a color channel.
  mutating func propertyRead(of type: GeneratedType) -> String? {
    if type == .number && chance(0.5) {
      let composite = model.properties.filter { $0.type != .number }
      if !composite.isEmpty {
        let property = pick(composite)
        switch property.type {
        case .vec2: return property.reference + "." + pick(["x", "y"])
        case .vec3: return property.reference + "." + pick(["x", "y", "z"])
        case .vec4: return property.reference + "." + pick(["x", "y", "z", "w"])
        case .color: return property.reference + "." + pick(["r", "g", "b", "a"])
        default: break
        }
      }
    }
    let matching = model.properties.filter { $0.type == type }
    return matching.isEmpty ? nil : pick(matching).reference
  }

  // MARK: - Curves

  mutating func curve(kind: GeneratedCurve) -> String {
    func velocity(_ generator: inout ScriptGenerator) -> String {
      generator.chance(0.3) ? ", velocity: \(generator.pick(["0", "2", "-1.5", ".5"]))" : ""
    }
    switch kind {
    case .linear: return "linear"
    case .ease: return "ease"
    case .easeIn: return "easeIn"
    case .easeOut: return "easeOut"
    case .easeInOut: return "easeInOut"
    case .cubic:
      return "cubic(\(pick(["0.2", "0", ".42", "1"])), \(pick(["0.9", "-0.5", "1.56", "0"])), "
        + "\(pick(["0.1", "0.58", "1", ".64"])), \(pick(["1", "0", "1.2"])))"
    case .steps: return "steps(\(integer(1...8)))"
    case .stepsWithPosition:
      let position = pick(["jumpStart", "jumpEnd", "jumpNone", "jumpBoth"])
      return "steps(\(integer(position == "jumpNone" ? 2...8 : 1...8)), \(position))"
    case .springResponse:
      return
        "spring(response: \(pick(["0.5", "300ms", "1s", ".35"])), dampingFraction: \(pick(["0.45", "1", "0.8", "1.5"]))\(velocity(&self)))"
    case .springDuration:
      return
        "spring(duration: \(pick(["0.5s", "300ms", "1", "0.4"])), bounce: \(pick(["0", "0.3", "-0.4", ".15"]))\(velocity(&self)))"
    case .springMass:
      return
        "spring(mass: \(pick(["1", "2", "0.5"])), stiffness: \(pick(["100", "170", "300"])), damping: \(pick(["10", "26", "40"]))\(velocity(&self)))"
    case .smooth: return "smooth"
    case .snappy: return "snappy"
    case .bouncy: return "bouncy"
    }
  }

  // MARK: - Strings

  /// A string with plain text, every escape, a lone `}`, non-ASCII text and
  /// interpolations of values of every type.
  mutating func stringLiteral() -> String {
    var text = "\""
    for _ in 0..<integer(1...4) {
      switch integer(0...9) {
      case 0, 1, 2: text += words(1...3) + " "
      case 3: text += pick(["\\n", "\\t", "\\\"", "\\\\", "\\{"])
      case 4: text += pick(["a lone } brace ", "é ✓ ", "→ "])
      default:
        let type = pick(GeneratedType.allCases)
        let value = chance(0.15) ? "now" : expression(type, depth: 1, multiline: false)
        text += "{\(value)} "
      }
    }
    return text + "\""
  }

  // MARK: - Comments and layout noise

  mutating func ownLineComment() -> String {
    switch integer(0...3) {
    case 0: return "/* \(words(2...6)) */"
    case 1: return "/* \(words(1...3)) /* nested \(words(1...2)) */ \(words(1...2)) */"
    default: return "// \(words(2...8))"
    }
  }

  /// Comments at the end of a statement and a block comment before it, sometimes.
  mutating func decorate(_ lines: [String]) -> [String] {
    guard var last = lines.last, !last.isEmpty else { return lines }
    var result = lines
    if chance(0.12) {
      last += chance(0.7) ? "  // \(words(1...5))" : " /* \(words(1...3)) */"
      result[result.count - 1] = last
    }
    if messyLayout, chance(0.05),
      let index = result.firstIndex(where: { !$0.isEmpty && !$0.hasPrefix("//") && !$0.hasPrefix("/*") })
    {
      result[index] = "/* \(words(1...2)) */ " + result[index]
    }
    return result
  }

  /// The lines as a script. With a messy layout some one-line statements share a line,
  /// separated by `;`.
  mutating func join(_ lines: [String]) -> String {
    var text = ""
    var previousIsSimple = false
    for line in lines {
      let simple =
        !line.isEmpty && !line.contains("\n") && !line.contains("//") && !line.hasSuffix("{")
        && !line.hasPrefix("}") && !line.hasPrefix(" ") && !line.hasPrefix("#!")
      if messyLayout && simple && previousIsSimple && chance(0.15) {
        text.removeLast()  // the newline
        text += "; " + line + "\n"
        previousIsSimple = false
        continue
      }
      text += line + "\n"
      previousIsSimple = simple
    }
    return text
  }
}
