// Checker+Control: `on` handlers, control statements and their subjects, and the cheap
// "this never runs" checks around them: `finish` on something that repeats forever, a
// handler whose event cannot happen.

extension Checker {
  // handler -> "on" ( ( "complete" | "start" | "repeat" ) subject | string ) block
  mutating func checkHandler(_ handler: EventHandler) {
    switch handler.event {
    case .custom(let name):
      if let text = name.plainText {
        if streaming != nil {
          // Whether anything emits it is known at the end of the script.
          streaming!.pendingHandlers.append((text, name.span, diagnostics.count))
        } else if let emitted = emittedEvents, !emitted.contains(text) {
          diagnostics.append(Checker.handlerNeverRuns(text, at: name.span, emitted: emitted))
        }
      } else {
        error(
          "expected a plain event name after 'on', found a string with '{ }': an event name is fixed", at: name.span)
      }
    case .lifecycle(let kind, _, let subject):
      // A handler is registered once, when its statement runs: its member is fixed.
      if let timeline = resolveSubject(subject, for: "'on \(kind.rawValue)'", requiresConstantIndex: true) {
        if kind == .complete && timeline.repeatsForever {
          warning("'on complete \(timeline.name)' never runs: '\(timeline.name)' repeats forever", at: subject.span)
        }
        if kind == .repeat, !timeline.repeatsForever, let passes = timeline.passCount, passes <= 1 {
          warning("'on repeat \(timeline.name)' never runs: '\(timeline.name)' makes a single pass", at: subject.span)
        }
      }
    }
    let outerLabels = labels
    labels = collectLabels(in: handler.body.statements)
    labelScopeDepth += 1
    localScopes.append([:])  // a handler's `var`s are its run's own
    _ = checkItems(handler.body.statements, in: .handler)
    localScopes.removeLast()
    labelScopeDepth -= 1
    labels = outerLabels
  }

  /// The warning for `on "name"` when nothing in the script emits the name.
  static func handlerNeverRuns(_ name: String, at span: SourceSpan, emitted: Set<String>) -> Diagnostic {
    .warning(
      "'on \"\(name)\"' never runs: nothing in this script emits \"\(name)\""
        + didYouMean(name, among: emitted.sorted()).replacingQuotes(),
      at: span)
  }

  // control -> "play" subject | "pause" [ subject ] | ... | "seek" subject "to" expression
  //          | "speed" subject expression | "finish" subject | "cancel" subject
  mutating func checkControl(_ control: ControlStatement) {
    let action = control.action
    var subjectTimeline: TimelineSymbol?
    if let subject = control.subject {
      if control.action == .play, case .property(let reference) = subject {
        _ = resolveProperty(reference)
        error(
          "expected a timeline after 'play', found the property '\(PropertyName(reference))': "
            + "'play' starts a timeline", at: subject.span)
      } else if let timeline = resolveSubject(subject, for: "'\(action.rawValue)'") {
        subjectTimeline = timeline
        if control.action == .finish, timeline.repeatsForever {
          error("cannot 'finish' '\(timeline.name)': it repeats forever, so it has no end", at: subject.span)
        }
        if control.action == .play {
          if let placed = childPlacements[timeline.name] {
            error(
              "'\(timeline.name)' plays inside '\(placed.parent)', so it cannot also be played on its own: "
                + "play '\(placed.parent)'", at: subject.span,
              notes: [Diagnostic.Note("where it is placed inside '\(placed.parent)'", span: placed.span)])
          } else if playedOnRoot[timeline.name] == nil {
            playedOnRoot[timeline.name] = subject.span
          }
        }
      }
    }
    switch control.action {
    case .seek:
      if let argument = control.argument { checkTime(argument, in: subjectTimeline, after: "'seek ... to'") }
    case .play:
      if let from = control.from { checkTime(from, in: subjectTimeline, after: "'play ... from'") }
      if let to = control.argument { checkTime(to, in: subjectTimeline, after: "'play ... to'") }
    case .pause:
      guard let at = control.argument else { break }
      if case .property? = control.subject {
        error("a pause point is a timeline's: 'pause X at TIME' takes a timeline", at: at.span)
      }
      checkTime(at, in: subjectTimeline, after: "'pause ... at'")
    case .speed:
      if let argument = control.argument { _ = expect(argument, .number, "as the speed") }
    case .tween:
      if case .property? = control.subject, let subject = control.subject {
        error("'tween' moves a timeline's playhead: 'tween X to TIME over DURATION' takes a timeline", at: subject.span)
      }
      if let to = control.argument { checkTime(to, in: subjectTimeline, after: "'tween ... to'") }
      if let over = control.over { _ = expect(over, .duration, "after 'over'") }
      if let curve = control.curve {
        let typed = checkCurve(curve, context: "after 'with' in 'tween'")
        if typed.curveKind == .spring {
          error(
            "a tween's curve is a timing curve, not a spring: a spring has a length of its own, and the playhead takes 'over' to arrive",
            at: curve.span)
        }
      }
    default:
      break
    }
  }

  /// A time of a timeline after `seek X to`, `play X from`/`to`, `pause X at`: a duration, or
  /// one of X's labels, optionally plus or minus durations (`landed + 200ms`).
  mutating func checkTime(_ time: Expression, in timeline: TimelineSymbol?, after context: String) {
    var head = time
    var offsets: [Expression] = []
    while true {
      if case .parenthesized(let inner) = head.kind {
        head = inner
      } else if case .binary(let op, let left, let right) = head.kind, op == .add || op == .subtract {
        offsets.append(right)
        head = left
      } else {
        break
      }
    }
    if case .name(let name) = head.kind, let timeline, local(named: name.text) == nil,
      self.symbol(named: name.text) == nil
    {
      guard timeline.labels.contains(name.text) else {
        error(
          "unknown label '\(name.text)' of '\(timeline.name)'\(didYouMean(name.text, among: timeline.labels))",
          at: name.span)
        for offset in offsets { _ = check(offset) }
        return
      }
      record(.label(name.text), of: name.span)
      for offset in offsets { _ = expect(offset, .duration, "as the offset from label '\(name.text)'") }
      return
    }
    _ = expect(time, .duration, "after \(context)")
  }

  /// Resolves the subject of a control statement or handler: a timeline (returned) or a
  /// property `T.p`. Reports anything else.
  mutating func resolveSubject(
    _ subject: Subject, for verb: @autoclosure () -> String, requiresConstantIndex: Bool = false
  ) -> TimelineSymbol? {
    switch subject {
    case .property(let reference):
      _ = resolveProperty(reference, requiresConstantIndex: requiresConstantIndex)
      return nil
    case .name(let name):
      if let symbol = self.symbol(named: name.text) {
        if case .timeline(let timeline) = symbol {
          record(.timeline(name.text), of: name.span)
          return timeline
        }
        error(
          "expected a timeline or a property 'TARGET.PROPERTY' after \(verb()), found '\(name.text)', which is \(symbol.kindDescription)",
          at: name.span)
        return nil
      }
      if let upcoming = upcomingTimeline(named: name.text) {
        record(.timeline(name.text), of: name.span)
        return upcoming
      }
      if isDeclaredLater(name.text) {
        error("'\(name.text)' is used before its declaration", at: name.span)
        return nil
      }
      let candidates =
        environment.names { if case .timeline = $0 { return true } else { return false } }
        + upcomingTimelineNames()
      error("unknown timeline '\(name.text)'\(didYouMean(name.text, among: candidates))", at: name.span)
      return nil
    }
  }

  /// In a body whose statements run one after another at "now" (the top level, a handler),
  /// follows whether the newest animation of each property repeats forever, so that
  /// `finish T.p` on it is an error. Only statements without placement are in a known
  /// order; a placed animation, a `set` or a `cancel` makes the property unknown again, and
  /// a `wait` or a `play` (after which a timeline or a handler may animate it) makes every
  /// property unknown.
  mutating func trackNewestAnimation(of statement: Statement, placement: ResolvedPlacement, repeatsForever: Bool) {
    func key(_ reference: PropertyReference) -> PropertyKey {
      PropertyKey(target: reference.target.text, property: reference.property.text)
    }
    let isNow = placement == .now
    switch statement.kind {
    case .animate(let animate):
      newestAnimationRepeatsForever[key(animate.property)] = isNow && repeatsForever
    case .keyframes(let track):
      newestAnimationRepeatsForever[key(track.property)] = isNow && repeatsForever
    case .set(let set):
      newestAnimationRepeatsForever[key(set.property)] = false
    case .wait:
      // Time passes: running timelines and handlers may start newer animations.
      newestAnimationRepeatsForever.removeAll()
    case .control(let control) where control.action == .play:
      // The timeline may animate any property.
      newestAnimationRepeatsForever.removeAll()
    case .control(let control):
      guard case .property(let reference)? = control.subject else { break }
      if control.action == .cancel { newestAnimationRepeatsForever[key(reference)] = false }
      if control.action == .finish, isNow, newestAnimationRepeatsForever[key(reference)] == true {
        error(
          "cannot 'finish' '\(PropertyName(reference))': its newest animation repeats forever, so it has no end",
          at: reference.span)
      }
    default:
      break
    }
  }

  /// The names of every `emit` in a script, nested blocks included; nil when one of them is
  /// interpolated (its name is known only when it runs).
  static func emittedEvents(in statements: [Statement]) -> Set<String>? {
    var names: Set<String>? = []
    for statement in statements where names != nil { collectEmittedEvents(of: statement, into: &names) }
    return names
  }

  /// Adds the names `statement` emits (nested blocks included) to `names`, or sets it to nil
  /// when one of them is interpolated.
  static func collectEmittedEvents(of statement: Statement, into names: inout Set<String>?) {
    switch statement.kind {
    case .emit(let literal):
      if let text = literal.plainText { names?.insert(text) } else { names = nil }
    default:
      for block in statement.kind.nestedBlocks {
        for inner in block.statements where names != nil { collectEmittedEvents(of: inner, into: &names) }
      }
    }
  }
}

extension String {
  /// `; did you mean 'x'?` as `; did you mean "x"?`, for event names, which are strings.
  func replacingQuotes() -> String {
    guard hasPrefix("; did you mean '"), hasSuffix("'?") else { return self }
    return "; did you mean \"" + dropFirst("; did you mean '".count).dropLast(2) + "\"?"
  }
}
