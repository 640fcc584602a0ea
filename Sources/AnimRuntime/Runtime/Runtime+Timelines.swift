// Timelines: building a declared timeline on the engine when it is first played, placing
// each item by the language's rules, and turning `animate` and `keyframes` into engine
// animations.
//
// Placement keeps an "end so far": the latest end of anything placed (instants included).
// An item without placement is appended there (in a `parallel` group, at the group's start);
// `at D` is D of the enclosing timeline's or group's local time; `at ±D` is relative to the
// end so far; `with previous` is the start of the previous item; labels mark the end so far
// (or their own time) and are visible throughout their timeline, so items are placed in two
// passes: the first finds the labels, the second builds.

import AnimCore
import AnimLanguage

extension Runtime {
  /// The engine node of timeline `name`, built on first use.
  func build(_ name: String) throws(EvaluationError) -> NodeID {
    if let node = timelines[name]?.node, engine.contains(node) { return node }
    let (node, _) = try build(name, at: .engineIdle, itemSpan: nil)
    return node!
  }

  /// Builds timeline `name` at `placement` on the engine, or only measures it when
  /// `placement` is nil (the first pass of a parent, which finds labels); returns its node
  /// and, placed as the item at `itemSpan` of a parent, how long it lasts in the parent's
  /// time (0 on the root).
  func build(
    _ name: String, at placement: AnimationEngine.Placement?, itemSpan: SourceSpan?
  ) throws(EvaluationError) -> (node: NodeID?, extent: Nanoseconds) {
    guard var declared = timelines[name] else {
      throw EvaluationError(message: "no timeline '\(name)'", span: SourceSpan(at: 0))
    }
    let context = declared.program
    let declaration = declared.declaration
    let (timing, rate) = try timingOptions(declaration.options, duration: 0, context)
    var node: NodeID?
    if let placement {
      node = try engineCall(at: declaration.name.span) { engine throws(EngineError) in
        try engine.addTimeline(timing: timing, rate: rate, placement: placement)
      }
    }
    var labels: [String: Nanoseconds] = [:]
    let end: Nanoseconds
    do throws(EvaluationError) {
      _ = try place(declaration.body.statements, in: nil, origin: 0, parallel: false, labels: &labels, context)
      end =
        node == nil
        ? try place(declaration.body.statements, in: nil, origin: 0, parallel: false, labels: &labels, context)
        : try place(declaration.body.statements, in: node, origin: 0, parallel: false, labels: &labels, context)
    } catch {
      // A `play` that fails has no effect: the part already built goes.
      if let node { try? engine.remove(node) }
      throw error
    }
    var finalTiming = timing
    finalTiming.duration = end == .max ? 0 : end
    let extent =
      try itemSpan.map { (span) throws(EvaluationError) in
        try Self.extent(of: finalTiming, rate: rate, at: span)
      } ?? 0
    guard let node else { return (nil, extent) }
    _ = try engineCall(at: declaration.name.span) { engine throws(EngineError) in
      try engine.setTiming(finalTiming, of: node)
    }
    declared.node = node
    declared.labels = labels
    timelines[name] = declared
    timelineNames[node] = name
    return (node, extent)
  }

  /// A timeline placed as an item of another at `start` (grammar.md § Nested timelines): the
  /// child itself, or, with options written on the item, inside a timeline of those options
  /// that plays the child whole (so the item's `repeat 2` repeats the child, rates multiply).
  /// Returns its extent in the parent's time.
  func placeNested(
    _ name: Identifier, options: [TimingOption], in node: NodeID?, at start: Nanoseconds,
    _ context: ProgramContext, span: SourceSpan
  ) throws(EvaluationError) -> Nanoseconds {
    let child = try resolved(name, context)
    if options.isEmpty {
      return try build(child, at: node.map { .timeline($0, at: start) }, itemSpan: span).extent
    }
    let length = try build(child, at: nil, itemSpan: span).extent
    var (timing, rate) = try timingOptions(options, duration: length, context)
    timing.duration = length == .max ? 0 : length
    let extent = try Self.extent(of: timing, rate: rate, at: span)
    guard let node else { return extent }
    let finalTiming = timing
    let wrapper = try engineCall(at: span) { engine throws(EngineError) in
      try engine.addTimeline(timing: finalTiming, rate: rate, placement: .timeline(node, at: start))
    }
    _ = try build(child, at: .timeline(wrapper, at: 0), itemSpan: span)
    return extent
  }

  /// Places a block's items in timeline `node` (nil: a first pass that only finds labels)
  /// and returns its end so far. `origin` is where the block starts in its timeline's time,
  /// for labels, which are kept in the timeline's time.
  func place(
    _ statements: [Statement], in node: NodeID?, origin: Nanoseconds, parallel: Bool,
    labels: inout [String: Nanoseconds], _ context: ProgramContext
  ) throws(EvaluationError) -> Nanoseconds {
    var end: Nanoseconds = 0
    var previousStart: Nanoseconds = 0
    for (statement, context) in try laidOut(statements, context) {
      var start = parallel ? 0 : end
      switch context.facts.placement(of: statement, in: parallel ? .parallel : .appends) {
      case .absolute(let offset):
        start = try duration(offset, context)
      case .relative(let sign, let offset):
        let d = try duration(offset, context)
        start = saturatingSum(end, sign == .minus ? -d : d)
      case .withPrevious:
        start = previousStart
      case .label(let name, let offsets):
        var time = (labels[name] ?? saturatingSum(origin, end)) - origin
        for offset in offsets {
          let d = try duration(offset.expression, context)
          time = saturatingSum(time, offset.sign == .minus ? -d : d)
        }
        start = time
      default:
        break
      }
      var extent: Nanoseconds = 0
      switch statement.kind {
      case .label(let label):
        labels[label.name.text] = saturatingSum(
          origin, try label.at.map { (e) throws(EvaluationError) in try duration(e, context) } ?? end)
        continue
      case .wait(let length):
        end = saturatingSum(end, max(try duration(length, context), 0))
        continue
      case .animate, .keyframes:
        // On a group, one item of all its members: it ends with the last of them.
        for (property, animation, pending) in try memberAnimations(of: statement, context) ?? [] {
          extent = max(extent, try Self.extent(of: animation.timing, rate: animation.rate, at: statement.span))
          if let node {
            let id = try engineCall(at: statement.span) { engine throws(EngineError) in
              try engine.animate(property, with: animation, placement: .timeline(node, at: start))
            }
            if let pending { pendingValues[id] = pending }
          }
        }
      case .group(let group):
        var (timing, rate) = try timingOptions(group.options, duration: 0, context)
        var child: NodeID?
        if let node {
          child = try engineCall(at: statement.span) { engine throws(EngineError) in
            try engine.addTimeline(timing: timing, rate: rate, placement: .timeline(node, at: start))
          }
        }
        let length = try place(
          group.body.statements, in: child, origin: saturatingSum(origin, start), parallel: group.kind == .parallel,
          labels: &labels, context)
        timing.duration = length == .max ? 0 : length
        if let child {
          let finalTiming = timing
          _ = try engineCall(at: statement.span) { engine throws(EngineError) in
            try engine.setTiming(finalTiming, of: child)
          }
        }
        extent = try Self.extent(of: timing, rate: rate, at: statement.span)
      case .set(let set):
        // The engine's own `set` item: it records, masks and restores as it is crossed.
        if let node {
          let constant = context.facts.constant(of: set.value).flatMap { RuntimeValue($0).animationValue }
          for target in try propertyTargets(set.property, context) {
            let property = target.id
            let id = try engineCall(at: statement.span) { engine throws(EngineError) in
              try engine.addSet(
                property, to: constant ?? engine.baseValue(of: property), in: node, at: start,
                resolvesValueWhenCrossed: constant == nil)
            }
            if constant == nil {
              pendingValues[id] = PendingValues(
                from: nil, values: [set.value], program: memberContext(context, target.member),
                statementSpan: statement.span)
            }
          }
        }
      case .nested(let nested):
        extent = try placeNested(
          nested.name, options: nested.options, in: node, at: start, context, span: statement.span)
      case .expression(let expression):
        // A timeline's name alone (the checker found it names one).
        guard case .name(let name) = expression.kind else { break }
        extent = try placeNested(name, options: [], in: node, at: start, context, span: statement.span)
      case .print, .emit, .control, .assignment:
        if let node {
          let firesBackwards: Bool
          switch statement.kind {
          case .print, .emit: firesBackwards = true
          default: firesBackwards = false
          }
          let key = newKey(.item(statement, context))
          _ = try engineCall(at: statement.span) { engine throws(EngineError) in
            try engine.addCallback(key: key, to: node, at: start, firesBackwards: firesBackwards)
          }
        }
      default:
        break
      }
      previousStart = start
      let itemEnd = extent == .max ? .max : saturatingSum(start, extent)
      end = max(end, itemEnd)
    }
    return end
  }

  /// A timeline block's items with its loops and `if`s written out: each pass of a loop in a
  /// frame of its own (its variable's value), each `if` by the branch its conditions pick
  /// now, as the timeline is built (grammar.md § Loops, conditions and variables).
  func laidOut(
    _ statements: [Statement], _ context: ProgramContext
  ) throws(EvaluationError) -> [(Statement, ProgramContext)] {
    guard statements.contains(where: { $0.kind.isFlow }) else { return statements.map { ($0, context) } }
    var items: [(Statement, ProgramContext)] = []
    var walked = 0
    func visit(_ statements: [Statement], _ context: ProgramContext) throws(EvaluationError) {
      for statement in statements {
        switch statement.kind {
        case .loop(let loop):
          let lower = try integer(loop.lower, context)
          let upper = try integer(loop.upper, context)
          let end = loop.closed ? (upper == .max ? upper : upper + 1) : upper
          if end > lower, Int128(end) - Int128(lower) > Int128(Self.loopPassLimit) {
            throw EvaluationError(
              message: "the loop 'for \(loop.variable.text)' at line \(context.source.line(of: statement.span.start)) "
                + "would run \(Int128(end) - Int128(lower)) times: a loop runs at most \(Self.loopPassLimit) times in one run",
              span: statement.span)
          }
          var value = lower
          while value < end {
            walked += 1
            if walked > Self.loopPassLimit * 10 {
              throw EvaluationError(message: "a timeline's loops write out too many items", span: statement.span)
            }
            let pass = LocalFrame(parent: context.locals, values: [loop.variable.text: .number(Double(value))])
            try visit(loop.body.statements, context.with(locals: pass))
            value += 1
          }
        case .conditional(let conditional):
          var chosen: Block? = conditional.otherwise
          for branch in conditional.branches {
            guard case .boolean(let holds) = try evaluate(branch.condition, context) else {
              throw EvaluationError(message: "expected a boolean", span: branch.condition.span)
            }
            if holds {
              chosen = branch.body
              break
            }
          }
          if let chosen { try visit(chosen.statements, context.with(locals: LocalFrame(parent: context.locals))) }
        default:
          items.append((statement, context))
        }
      }
    }
    try visit(statements, context)
    return items
  }

  /// How long an item lasts in its parent's time: its end time over the magnitude of its
  /// rate; `.max` for ever.
  /// `extent(of:rate:)` for an item at `span`, which may not end after the end of time.
  static func extent(of timing: EffectTiming, rate: Double, at span: SourceSpan) throws(EvaluationError) -> Nanoseconds
  {
    let extent = extent(of: timing, rate: rate)
    if timing.activeDuration != nil, rate != 0, extent >= AnimationEngine.endOfTime {
      throw EvaluationError(message: EngineError.endsAfterEndOfTime.description, span: span)
    }
    return extent
  }

  static func extent(of timing: EffectTiming, rate: Double) -> Nanoseconds {
    guard let active = timing.activeDuration else { return .max }
    let end = max(saturatingSum(timing.delay, active), 0)
    guard rate != 0 else { return .max }
    return unscaled(end, by: abs(rate))
  }

  /// The timing and rate that OPTIONS give, with the language's default fill, forwards.
  func timingOptions(
    _ options: [TimingOption], duration: Nanoseconds, _ context: ProgramContext
  ) throws(EvaluationError) -> (EffectTiming, Double) {
    var timing = EffectTiming(duration: duration, fill: .forwards)
    var rate = 1.0
    for option in options {
      switch option.kind {
      case .delay(let e): timing.delay = try self.duration(e, context)
      case .repeat(let e):
        let count = try number(e, context)
        guard count > 0, count.isFinite else {
          throw EvaluationError(message: "'repeat' needs a count above 0", span: e.span)
        }
        timing.iterations = count
      case .repeatForever: timing.iterations = .infinity
      case .autoreverse: timing.direction = .alternate
      case .speed(let e): rate = try number(e, context)
      case .fill(let fill): timing.fill = fill
      case .merge: break
      }
    }
    return (timing, rate)
  }

  func composition(_ options: [TimingOption]) -> Composition {
    options.contains { if case .merge = $0.kind { return true } else { return false } } ? .replace : .automatic
  }

  /// The property an `animate` or `keyframes` statement animates, its engine animation, and
  /// the values to evaluate when it starts; nil for any other statement.
  func animation(
    of statement: Statement, on property: PropertyID, _ context: ProgramContext, startsAtPlacement: Bool = false
  ) throws(EvaluationError) -> (Animation, PendingValues?) {
    switch statement.kind {
    case .animate(let animate):
      return try makeAnimation(
        animate, property, context, statementSpan: statement.span, startsAtPlacement: startsAtPlacement)
    case .keyframes(let keyframes):
      return try makeAnimation(
        keyframes, property, context, statementSpan: statement.span, startsAtPlacement: startsAtPlacement)
    default:
      throw EvaluationError(message: "not an animation", span: statement.span)
    }
  }

  /// The engine animation for `animate`, and the expressions to evaluate when it starts
  /// (nil when its values are constants).
  func makeAnimation(
    _ animate: AnimateStatement, _ property: PropertyID, _ context: ProgramContext, statementSpan: SourceSpan,
    startsAtPlacement: Bool = false
  ) throws(EvaluationError) -> (Animation, PendingValues?) {
    var pending: PendingValues?
    let animation = try makeAnimation(
      animate, property, context, statementSpan: statementSpan, startsAtPlacement: startsAtPlacement,
      pending: &pending)
    return (animation, pending)
  }

  /// `makeAnimation(_:_:_:statementSpan:startsAtPlacement:)`, its expressions to evaluate
  /// when it starts set in `pending`: a standalone `animate` takes the two apart (a tuple of
  /// them was copied and destroyed through its type's metadata, at every `animate`).
  func makeAnimation(
    _ animate: AnimateStatement, _ property: PropertyID, _ context: ProgramContext, statementSpan: SourceSpan,
    startsAtPlacement: Bool, pending: inout PendingValues?
  ) throws(EvaluationError) -> Animation {
    let over = try animate.over.map { (e) throws(EvaluationError) -> Nanoseconds in
      let d = try duration(e, context)
      if d < 0 { throw EvaluationError(message: "'over' needs a duration of 0 or more", span: e.span) }
      return d
    }
    let curve = try self.curve(animate.curve, stretch: over, context)
    let length = curve.isSpring ? (curve.intrinsicDuration ?? 0) : (over ?? 0)
    var (timing, rate) = try timingOptions(animate.options, duration: length, context)
    timing.duration = length
    let constantFrom = animate.from.flatMap { context.facts.constant(of: $0) }.flatMap {
      RuntimeValue($0).animationValue
    }
    let constantTo = context.facts.constant(of: animate.to).flatMap { RuntimeValue($0).animationValue }
    // Values are evaluated when the animation leaves its delay; placed with none (a
    // standalone animation), that is now, and if it is shown from its placement (fill
    // backwards), that is now too.
    let evaluatesNow = timing.fill.fillsBackwards || (startsAtPlacement && timing.delay <= 0)
    pending = nil
    var from = constantFrom
    var to = constantTo
    if (animate.from != nil && constantFrom == nil) || constantTo == nil {
      if evaluatesNow {
        from = try animate.from.map { (e) throws(EvaluationError) in try animationValue(e, context) }
        to = try animationValue(animate.to, context)
      } else {
        pending = PendingValues(
          from: animate.from, values: [animate.to], program: context, statementSpan: statementSpan)
      }
    }
    var animation = Animation(
      shape: .tween(from: from, to: to ?? engine.baseValue(of: property), curve: curve), timing: timing, rate: rate,
      composition: composition(animate.options))
    animation.resolvesValuesAtStart = pending != nil
    return animation
  }

  func animationValue(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> AnimationValue {
    guard let value = try evaluate(expression, context).animationValue else {
      throw EvaluationError(message: "not a value a property can hold", span: expression.span)
    }
    return value
  }

  /// The engine animation for `keyframes`.
  func makeAnimation(
    _ keyframes: KeyframesStatement, _ property: PropertyID, _ context: ProgramContext, statementSpan: SourceSpan,
    startsAtPlacement: Bool = false
  ) throws(EvaluationError) -> (Animation, PendingValues?) {
    var positions: [(Double, isPercent: Bool)] = []
    for keyframe in keyframes.keyframes {
      switch try evaluate(keyframe.position, context) {
      case .percent(let p): positions.append((p / 100, true))
      case .duration(let ns): positions.append((Double(ns), false))
      default:
        throw EvaluationError(message: "a keyframe position is a percent or a duration", span: keyframe.position.span)
      }
    }
    let percents = positions.allSatisfy(\.isPercent)
    let over = try keyframes.over.map { (e) throws(EvaluationError) in try duration(e, context) }
    let length: Nanoseconds =
      percents ? (over ?? 0) : Nanoseconds(positions.last.map { $0.0 } ?? 0)
    let scale = percents ? 1 : (length > 0 ? 1 / Double(length) : 0)
    var frames: [AnimCore.Keyframe] = []
    var constants = true
    for (keyframe, position) in zip(keyframes.keyframes, positions) {
      let curve = try self.curve(keyframe.curve, stretch: nil, context)
      let value = context.facts.constant(of: keyframe.value).flatMap { RuntimeValue($0).animationValue }
      if value == nil { constants = false }
      frames.append(AnimCore.Keyframe(offset: min(max(position.0 * scale, 0), 1), value: value, curve: curve))
    }
    var (timing, rate) = try timingOptions(keyframes.options, duration: length, context)
    timing.duration = length
    var pending: PendingValues?
    if !constants {
      if timing.fill.fillsBackwards || (startsAtPlacement && timing.delay <= 0) {
        for i in frames.indices { frames[i].value = try animationValue(keyframes.keyframes[i].value, context) }
      } else {
        pending = PendingValues(
          from: nil, values: keyframes.keyframes.map(\.value), program: context, statementSpan: statementSpan)
      }
    }
    var animation = Animation(
      shape: .keyframes(frames), timing: timing, rate: rate, composition: composition(keyframes.options))
    animation.resolvesValuesAtStart = pending != nil
    return (animation, pending)
  }
}
