// Checker+Timelines: timelines and what goes in them: labels, placements, animations,
// keyframe tracks and timing options.

/// What the checker learned from a list of timing options.
struct CheckedOptions {
  var repeatsForever = false
  /// The number of passes when known: 1 without `repeat`, N for a constant `repeat N`.
  var passCount: Double? = 1
}

extension Checker {
  // MARK: - Labels

  /// The labels of a timeline body, nested groups included (labels are visible throughout
  /// their timeline). A second label of a name is an error.
  mutating func collectLabels(in statements: [Statement]) -> [String: SourceSpan] {
    var found: [String: SourceSpan] = [:]
    collectLabels(in: statements, into: &found)
    return found
  }

  /// Adds the labels of `statements` to `found` (the labels of earlier statements of the
  /// same body).
  mutating func collectLabels(in statements: [Statement], into found: inout [String: SourceSpan]) {
    func visit(_ statements: [Statement], _ checker: inout Checker) {
      for statement in statements {
        switch statement.kind {
        case .label(let label):
          if let first = found[label.name.text] {
            checker.error(
              "duplicate label '\(label.name.text)' in this timeline", at: label.name.span,
              notes: [Diagnostic.Note("the first label '\(label.name.text)'", span: first)])
          } else {
            found[label.name.text] = label.name.span
          }
        case .group(let group):
          visit(group.body.statements, &checker)
        default:
          break
        }
      }
    }
    visit(statements, &self)
  }

  // MARK: - Placement

  // placement -> "at" [ "+" | "-" ] expression | "with" "previous"
  /// Decides where an item starts. `at NAME ± D ...` is a label placement when the leftmost
  /// operand of the `+`/`-` chain names a label of the enclosing timeline.
  mutating func resolvePlacement(of statement: Statement, in body: Body) -> ResolvedPlacement {
    // What a placement other than a label's means is what it says in its kind of body
    // (WrittenFacts.swift: the runtime reads it from there, so it is decided in one place).
    let written = ResolvedPlacement(written: statement, in: body.placementBody)
    guard let placement = statement.placement else { return written }
    switch placement {
    case .withPrevious:
      return written
    case .at(let sign?, let offset, _):
      _ = expect(offset, .duration, "after 'at \(sign.rawValue)'")
      // At the top level and in handlers there is no end so far: `at +D` means `at D`, and
      // `at -D` would be in the past.
      if !body.placementBody.hasEndSoFar && sign == .minus {
        error(
          "'at -' places an item before the end so far, which exists only inside a timeline; "
            + "\(body.description) write 'at TIME'", at: placement.span)
      }
      return written
    case .at(nil, let offset, _):
      var terms: [LabelOffset] = []
      var head = offset
      while true {
        if case .parenthesized(let inner) = head.kind {
          head = inner
        } else if case .binary(let op, let left, let right) = head.kind, op == .add || op == .subtract {
          terms.insert(LabelOffset(sign: op == .add ? .plus : .minus, expression: right), at: 0)
          head = left
        } else {
          break
        }
      }
      if case .name(let name) = head.kind, label(named: name.text) != nil {
        record(.label(name.text), of: name.span)
        for term in terms { _ = expect(term.expression, .duration, "as the offset from label '\(name.text)'") }
        return .label(name: name.text, offsets: terms)
      }
      if case .name(let name) = head.kind, self.symbol(named: name.text) == nil, !isDeclaredLater(name.text),
        Predeclared.curve(named: name.text) == nil, !Predeclared.isFunction(name.text)
      {
        // An unknown name after `at` is most likely a misspelt label.
        let values = environment.names { if case .value = $0 { return true } else { return false } }
        if let near = nearestName(to: name.text, among: sortedLabelNames()) {
          error("unknown label '\(name.text)'; did you mean '\(near)'?", at: name.span)
        } else if let near = nearestName(to: name.text, among: values) {
          error("unknown name '\(name.text)'; did you mean '\(near)'?", at: name.span)
        } else {
          error("unknown label '\(name.text)'", at: name.span)
        }
        record(.error, of: head.span)
        for term in terms { _ = check(term.expression) }
        return written
      }
      _ = expect(offset, .duration, "after 'at'")
      return written
    }
  }

  // MARK: - Timelines

  // timelineDecl -> "timeline" identifier options block
  mutating func checkTimeline(_ declaration: TimelineDeclaration) {
    if ContextualKeyword(rawValue: declaration.name.text) != nil {
      error(
        "a timeline cannot be named '\(declaration.name.text)', a word of the language: a timeline's name "
          + "alone is an item inside a timeline, where '\(declaration.name.text)' would be read as that word",
        at: declaration.name.span)
    }
    let options = checkOptions(declaration.options, of: "timeline '\(declaration.name.text)'")
    let outerLabels = labels
    labels = collectLabels(in: declaration.body.statements)
    labelScopeDepth += 1
    defer { labelScopeDepth -= 1 }
    let labelNames = labels.sorted { $0.value.start < $1.value.start }.map(\.key)
    // Declared before its body is checked, so the body may name its own timeline.
    var symbol = TimelineSymbol(
      name: declaration.name.text, labels: labelNames, repeatsForever: options.repeatsForever,
      passCount: options.repeatsForever ? nil : options.passCount, span: declaration.name.span)
    let isDuplicate = mode == .script && self.symbol(named: declaration.name.text) != nil
    declare(.timeline(symbol), name: declaration.name)
    let outerTimeline = enclosingTimeline
    enclosingTimeline = declaration.name.text
    let bodyRunsForever = checkItems(declaration.body.statements, in: .timeline)
    enclosingTimeline = outerTimeline
    labels = outerLabels
    if bodyRunsForever && !isDuplicate {
      symbol.repeatsForever = true
      declareInEnvironment(.timeline(symbol))
    }
  }

  // MARK: - Nested timelines

  // nested -> identifier options
  /// A timeline placed as an item of the enclosing one. Returns whether it repeats forever.
  mutating func checkNested(
    _ name: Identifier, options: [TimingOption], in body: Body, statement: Statement
  ) -> Bool {
    let itemOptions = checkOptions(options, of: "timeline '\(name.text)' placed here")
    guard body == .timeline || body.isGroup else {
      error(
        "a timeline's name with options places it inside another timeline; \(body.description), write "
          + "'play \(name.text)'", at: statement.span)
      return false
    }
    guard let child = resolveSubject(.name(name), for: "a nested timeline's place") else { return false }
    guard let parent = enclosingTimeline else { return false }
    if let first = childPlacements[child.name] {
      error(
        "'\(child.name)' is already placed inside '\(first.parent)': a timeline is placed as a child at most once",
        at: name.span, notes: [Diagnostic.Note("its first place", span: first.span)])
      return false
    }
    if child.name == parent || reaches(from: child.name, to: parent) {
      error(
        "placing '\(child.name)' inside '\(parent)' makes a cycle: '\(parent)' would contain itself", at: name.span)
      return false
    }
    if let played = playedOnRoot[child.name] {
      error(
        "'\(child.name)' plays inside '\(parent)', so it cannot also be played on its own: play '\(parent)'",
        at: played, notes: [Diagnostic.Note("where it is placed inside '\(parent)'", span: name.span)])
    }
    childPlacements[child.name] = (parent, name.span)
    childrenOf[parent, default: []].insert(child.name)
    return child.repeatsForever || itemOptions.repeatsForever
  }

  /// Whether timeline `to` is among `from`'s children, at any depth.
  func reaches(from: String, to: String) -> Bool {
    var seen: Set<String> = []
    var stack = [from]
    while let next = stack.popLast() {
      for child in childrenOf[next] ?? [] where seen.insert(child).inserted {
        if child == to { return true }
        stack.append(child)
      }
    }
    return false
  }

  // MARK: - Animations

  // animate -> "animate" property [ "from" expression ] "to" expression
  //            [ "over" expression ] [ "with" expression ] options
  /// Returns whether the animation repeats forever.
  mutating func checkAnimate(_ animate: AnimateStatement) -> Bool {
    let property = resolveAnimatedProperty(animate.property)
    let name = PropertyName(animate.property)
    let type = property?.type ?? .error
    if let from = animate.from { _ = expect(from, type, "after 'from' ('\(name)' is \(type))") }
    _ = expect(animate.to, type, "after 'to' ('\(name)' is \(type))")
    let length = animate.over.flatMap { checkOver($0) }
    var curveKind: CurveKind? = .timing
    if let curve = animate.curve {
      curveKind = checkCurve(curve, context: "after 'with'").curveKind
    }
    if animate.over == nil && curveKind == .timing {
      error("'animate' with a timing curve needs 'over DURATION'", at: animate.curve?.span ?? animate.property.span)
    }
    let repeatsForever = checkOptions(animate.options, of: "'animate'").repeatsForever
    if repeatsForever, length == 0, let over = animate.over { zeroLengthForever(at: over.span) }
    return repeatsForever
  }

  /// `over D`: a duration ≥ 0 (a negative one is reported at the value). Returns the
  /// duration when it is a constant.
  @discardableResult
  mutating func checkOver(_ over: Expression) -> Int64? {
    let typed = expect(over, .duration, "after 'over'")
    guard case .duration(let nanoseconds)? = typed.constant else { return nil }
    if nanoseconds < 0 {
      error("expected a duration ≥ 0 after 'over', found \(formatDuration(nanoseconds))", at: over.span)
    }
    return nanoseconds
  }

  /// A pass of no length cannot repeat for ever: it would have no end and no time between
  /// its passes.
  mutating func zeroLengthForever(at span: SourceSpan) {
    error("'over 0s' with 'repeat forever' never ends and never moves: give it a length, or a count", at: span)
  }

  /// The property animated by `animate` or `keyframes`.
  mutating func resolveAnimatedProperty(_ reference: PropertyReference) -> PropertySymbol? {
    resolveProperty(reference)
  }

  // keyframes -> "keyframes" property [ "over" expression ] options "{" keyframe, ... "}"
  // keyframe -> expression ":" expression [ "with" expression ]
  mutating func checkKeyframes(_ track: KeyframesStatement) -> Bool {
    let property = resolveAnimatedProperty(track.property)
    let name = PropertyName(track.property)
    let type = property?.type ?? .error
    let length = track.over.flatMap { checkOver($0) }
    if track.keyframes.isEmpty {
      error("expected at least one keyframe in 'keyframes \(name)'", at: track.bodySpan)
    }
    // Positions: all percents (which need `over`) or all durations, increasing.
    var usesPercents: Bool?
    var previous: (value: Double, text: String)?
    for (index, keyframe) in track.keyframes.enumerated() {
      let position = keyframe.position
      var value: (Double, String)?
      if let percent = Checker.percentLiteral(position) {
        record(.percent, of: position.span)
        // (A literal `40%` is its own constant; `-5%`, a negation, is recorded.)
        if ConstantValue(literal: position) != .percent(percent) { record(.percent(percent), of: position.span) }
        if usesPercents == false {
          error(
            "expected a duration as a keyframe position (as the first one), found a percent: positions are all percents or all durations",
            at: position.span)
        } else {
          usesPercents = true
          if !(0...100).contains(percent) {
            error("expected a keyframe percent in 0%...100%, found \(formatNumber(percent))%", at: position.span)
          } else {
            value = (percent, "\(formatNumber(percent))%")
          }
        }
      } else {
        let typed = check(position)
        if typed.type == .number, case .number(let number) = position.kind {
          let text = formatNumber(number)
          error(
            "expected a keyframe position, a percent or a duration, found the plain number \(text): write '\(text)%' or '\(text)ms'",
            at: position.span)
        } else if typed.type != .duration && typed.type != .error {
          error("expected a keyframe position, a percent or a duration, found \(typed.type)", at: position.span)
        } else if typed.type == .duration {
          if usesPercents == true {
            error(
              "expected a percent as a keyframe position (as the first one), found a duration: positions are all percents or all durations",
              at: position.span)
          } else {
            usesPercents = false
            if case .duration(let nanoseconds)? = typed.constant {
              if nanoseconds < 0 {
                error("expected a keyframe position ≥ 0, found \(formatDuration(nanoseconds))", at: position.span)
              } else {
                value = (Double(nanoseconds), formatDuration(nanoseconds))
              }
            }
          }
        }
      }
      if let (current, text) = value {
        if let previous {
          if current == previous.value {
            error("duplicate keyframe position \(text)", at: position.span)
          } else if current < previous.value {
            error("keyframe positions must increase: \(text) comes after \(previous.text)", at: position.span)
          }
        }
        if index == 0, current == 0, let curve = keyframe.curve {
          error(
            "'with' on the first keyframe at \(text) has no segment to shape: a keyframe's curve shapes the segment that ends at it",
            at: curve.span)
        }
        previous = (current, text)
      }
      _ = expect(keyframe.value, type, "as a keyframe value ('\(name)' is \(type))")
      if let curve = keyframe.curve { _ = checkCurve(curve, context: "after 'with'") }
    }
    if usesPercents == true && track.over == nil, let first = track.keyframes.first {
      error("keyframes at percents need 'over DURATION' on 'keyframes \(name)'", at: first.position.span)
    }
    if usesPercents == false, let over = track.over {
      error(
        "'over' does not apply to keyframes at durations: the track's length is its last position",
        at: over.span)
    }
    let repeatsForever = checkOptions(track.options, of: "'keyframes'").repeatsForever
    if repeatsForever, length == 0, let over = track.over { zeroLengthForever(at: over.span) }
    return repeatsForever
  }

  /// The percent of a keyframe position written as a percent literal, or its negation
  /// (`-10%`, reported as out of range rather than as a stray percent).
  static func percentLiteral(_ position: Expression) -> Double? {
    switch position.kind {
    case .percent(let percent): return percent
    case .negate(let inner):
      if case .percent(let percent) = inner.kind { return -percent }
      return nil
    default: return nil
    }
  }

  // MARK: - Options

  // options -> { "delay" expression | "repeat" ( "forever" | expression ) | "autoreverse"
  //            | "speed" expression | "fill" mode | "merge" "replace" }
  mutating func checkOptions(_ options: [TimingOption], of owner: @autoclosure () -> String) -> CheckedOptions {
    var result = CheckedOptions()
    // The first option of each key (a fixed list: no allocation for the common case).
    let keys = ["delay", "repeat", "autoreverse", "speed", "fill", "merge"]
    var seen: (SourceSpan?, SourceSpan?, SourceSpan?, SourceSpan?, SourceSpan?, SourceSpan?)
    func first(_ index: Int) -> SourceSpan? {
      switch index {
      case 0: return seen.0
      case 1: return seen.1
      case 2: return seen.2
      case 3: return seen.3
      case 4: return seen.4
      default: return seen.5
      }
    }
    func setFirst(_ index: Int, _ span: SourceSpan) {
      switch index {
      case 0: seen.0 = span
      case 1: seen.1 = span
      case 2: seen.2 = span
      case 3: seen.3 = span
      case 4: seen.4 = span
      default: seen.5 = span
      }
    }
    for option in options {
      let keyIndex: Int
      switch option.kind {
      case .delay(let delay):
        keyIndex = 0
        _ = expect(delay, .duration, "after 'delay'")
      case .repeat(let count):
        keyIndex = 1
        let typed = expect(count, .number, "after 'repeat' (a number of passes)")
        result.passCount = nil
        if case .number(let passes)? = typed.constant {
          if passes > 0 {
            result.passCount = passes
          } else {
            error("expected a number of passes > 0 after 'repeat', found \(formatNumber(passes))", at: count.span)
          }
        }
      case .repeatForever:
        keyIndex = 1
        result.repeatsForever = true
        result.passCount = nil
      case .autoreverse:
        keyIndex = 2
      case .speed(let speed):
        keyIndex = 3
        _ = expect(speed, .number, "after 'speed'")
      case .fill:
        keyIndex = 4
      case .merge:
        keyIndex = 5
      }
      if let firstSpan = first(keyIndex) {
        let key = keys[keyIndex]
        error(
          "duplicate option '\(key)' on \(owner())", at: option.span,
          notes: [Diagnostic.Note("the first '\(key)'", span: firstSpan)])
      } else {
        setFirst(keyIndex, option.span)
      }
    }
    return result
  }
}

/// `T.p` as messages write it, put together only when a message needs it.
struct PropertyName: CustomStringConvertible {
  let reference: PropertyReference

  init(_ reference: PropertyReference) {
    self.reference = reference
  }

  var description: String { "\(reference.target.text).\(reference.property.text)" }
}
