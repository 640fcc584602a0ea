// Runtime+Navigation: moving a timeline's playhead by its labels (grammar.md § Label
// navigation): `seek X to landed + 200ms`, `play X from A [to B]` (Lottie's playSegments,
// GSAP's tweenFromTo) and `pause X at A`, a one-time pause point. A pause point is a
// callback item in the timeline, so it is met as the playhead crosses it, in either
// direction, at the exact instant; the timeline then pauses exactly there.

import AnimCore
import AnimLanguage

extension Runtime {
  /// A time of timeline `name` as written after `to`, `from` or `at`: one of its labels plus
  /// or minus durations, or a duration.
  func time(in name: String, _ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Nanoseconds
  {
    var head = expression
    var offsets: [(Sign, Expression)] = []
    while true {
      if case .parenthesized(let inner) = head.kind {
        head = inner
      } else if case .binary(let op, let left, let right) = head.kind, op == .add || op == .subtract {
        offsets.insert((op == .add ? .plus : .minus, right), at: 0)
        head = left
      } else {
        break
      }
    }
    guard case .name(let label) = head.kind, case .label(let labelName)? = context.facts.references[label.span] else {
      return try duration(expression, context)
    }
    guard var time = timelines[name]?.labels[labelName] else {
      throw EvaluationError(message: "no label '\(labelName)' in '\(name)'", span: label.span)
    }
    for (sign, offset) in offsets {
      let d = try duration(offset, context)
      time = saturatingSum(time, sign == .minus ? -d : d)
    }
    return time
  }

  /// Runs a control statement's label navigation on timeline `name`; false when the
  /// statement is an ordinary one (the caller runs it).
  func navigate(
    _ name: String, _ control: ControlStatement, _ context: ProgramContext, at span: SourceSpan
  ) throws(EvaluationError) -> Bool {
    switch control.action {
    case .seek:
      guard let argument = control.argument else { return false }
      guard let node = timelines[name]?.node else { return true }
      let time = try self.time(in: name, argument, context)
      _ = try engineCall(at: span) { engine throws(EngineError) in try engine.seek(node, to: time) }
      return true
    case .pause:
      guard let argument = control.argument else { return false }
      // The point is set in the built timeline (built now if it was not: its labels are
      // known once it is).
      let node = try build(name)
      try setPausePoint(of: node, at: try self.time(in: name, argument, context), span: span)
      return true
    case .play:
      guard let fromExpression = control.from else { return false }
      let node = try build(name)
      let from = try self.time(in: name, fromExpression, context)
      let to = try control.argument.map { (e) throws(EvaluationError) in try self.time(in: name, e, context) }
      try playSegment(name, node, from: from, to: to, at: span)
      return true
    case .tween:
      guard let argument = control.argument, let overExpression = control.over else { return true }
      let node = try build(name)
      let to = try self.time(in: name, argument, context)
      let over = try duration(overExpression, context)
      guard over >= 0 else {
        throw EvaluationError(
          message: "a tween's duration cannot be negative", span: overExpression.span)
      }
      let curve = try control.curve.map { (e) throws(EvaluationError) in try self.curve(e, stretch: nil, context) }
      try tweenPlayhead(of: node, to: to, over: over, curve: curve ?? .linear, at: span)
      return true
    default:
      return false
    }
  }

  /// `tween X to A over D [with CURVE]`: X pauses and its playhead travels to A over D of
  /// engine time; the engine fires what it crosses as it crosses it (its start included, when
  /// X was at rest: it is played first, standing just before its start).
  func tweenPlayhead(
    of node: NodeID, to time: Nanoseconds, over duration: Nanoseconds, curve: TimingCurve, at span: SourceSpan
  ) throws(EvaluationError) {
    let status = try engineCall(at: span) { engine throws(EngineError) in try engine.status(of: node) }
    if status.state == .idle {
      _ = try engineCall(at: span) { engine throws(EngineError) in try engine.play(node) }
    }
    _ = try engineCall(at: span) { engine throws(EngineError) in
      try engine.tween(node, to: time, over: duration, curve: curve)
    }
  }

  /// `play X from A [to B]`: X jumps silently to A, plays toward B (backwards when B is
  /// before A), and pauses exactly at B; without B it plays on to its end.
  func playSegment(
    _ name: String, _ node: NodeID, from: Nanoseconds, to: Nanoseconds?, at span: SourceSpan
  ) throws(EvaluationError) {
    var status = try engineCall(at: span) { engine throws(EngineError) in try engine.status(of: node) }
    let wasActive = status.state == .playing || status.state == .paused
    if status.state == .idle || status.state == .finished {
      _ = try engineCall(at: span) { engine throws(EngineError) in try engine.play(node) }
    }
    _ = try engineCall(at: span) { engine throws(EngineError) in try engine.seek(node, to: from) }
    status = try engineCall(at: span) { engine throws(EngineError) in try engine.status(of: node) }
    // Toward B; without one, forwards to the end, as `play` plays.
    let forwards = to.map { $0 >= from } ?? true
    if (status.rate >= 0) != forwards {
      _ = try engineCall(at: span) { engine throws(EngineError) in try engine.reverse(node) }
    }
    _ = try engineCall(at: span) { engine throws(EngineError) in try engine.resume(node) }
    if let to, to != from { try setPausePoint(of: node, at: to, span: span) }
    // The jump was silent: entering its active phase from rest, X starts there.
    if !wasActive { lifecycle(.start, name, at: engine.now) }
  }

  /// Sets timeline `node`'s one-time pause point at `time`, replacing any earlier one. One
  /// the engine refuses (beyond the end of time) has no effect: the earlier one stays, and
  /// no action is left for it (a saved session holding one would not restore).
  func setPausePoint(of node: NodeID, at time: Nanoseconds, span: SourceSpan) throws(EvaluationError) {
    let key = newKey(.pausePoint(node, at: time))
    do {
      _ = try engineCall(at: span) { engine throws(EngineError) in
        try engine.addCallback(key: key, to: node, at: time, firesBackwards: true)
      }
    } catch {
      actions[key] = nil
      throw error
    }
    if let old = pausePoints.removeValue(forKey: node) { actions[old] = nil }
    pausePoints[node] = key
  }

  /// A timeline completing (at its end, or its start going backwards) exactly where its pause
  /// point is: it pauses there, as at any other point, and does not complete (`play X from A
  /// to B` with B at X's end pauses there, with no `complete`, as the rule says for every B).
  /// The point's own callback, due behind the complete at this instant, then finds nothing.
  func meetsPausePointAtItsEdge(_ node: NodeID) -> Bool {
    guard let key = pausePoints[node], case .pausePoint(_, let time)? = actions[key],
      let status = try? engine.status(of: node), status.localTime == time
    else { return false }
    pausePoints[node] = nil
    actions[key] = nil
    try? engine.pause(node)
    return true
  }

  /// The playhead met a pause point: the timeline pauses there, at the instant of crossing
  /// (which the engine finds to the nanosecond), once.
  func reachPausePoint(of node: NodeID, at time: Nanoseconds) {
    pausePoints[node] = nil
    guard engine.contains(node) else { return }
    try? engine.pause(node)
  }
}

extension Runtime {
  /// The time of timeline `node`'s pause point, from its pending action.
  func pausePointTime(of node: NodeID) -> Nanoseconds? {
    for (_, action) in actions.entries {
      if case .pausePoint(let owner, let time) = action, owner == node { return time }
    }
    return nil
  }
}
