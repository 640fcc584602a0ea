// Runtime+Groups: groups of targets at run time (grammar.md § Groups and stagger). A group
// `dots[12]` is twelve targets `dots[0]` … `dots[11]`, whose properties are ordinary engine
// properties named `dots[3].y`; a statement on `dots.y` runs once per member, with that
// member's `index` and `count` in a frame of locals and its stagger offset added to its
// delay; a handler on `dots.y` hears the group as one property (the first member to leave
// rest starts it, the last to come to rest completes it).

import AnimCore
import AnimLanguage

extension Runtime {
  /// One property a statement acts on: a plain target's, one member's, or each member's of a
  /// group in turn.
  struct PropertyTarget {
    var id: PropertyID
    /// The member's index and its group's size, for a statement on every member.
    var member: (index: Int, count: Int)?
  }

  /// The name of member `index` of group `group`.
  static func memberName(_ group: String, _ index: Int) -> String { "\(group)[\(index)]" }

  /// The properties a statement's `T.p`, `G[i].p` or `G.p` names, in member order.
  func propertyTargets(_ reference: PropertyReference, _ context: ProgramContext) throws(EvaluationError)
    -> [PropertyTarget]
  {
    if groups.isEmpty { return [PropertyTarget(id: try ungroupedPropertyID(reference, context))] }
    let property = try resolved(reference, context)
    guard let count = groups[property.target], reference.index == nil else {
      return [PropertyTarget(id: try propertyID(reference, resolved: property, context))]
    }
    var found: [PropertyTarget] = []
    found.reserveCapacity(count)
    for index in 0..<count {
      let name = Self.memberName(property.target, index) + "." + property.property
      guard let id = properties[name] else { throw noProperty(name, at: reference.span) }
      found.append(PropertyTarget(id: id, member: (index, count)))
    }
    return found
  }

  /// The one property `T.p` names while the runtime has no group (`propertyTargets`' one
  /// target then, without the array).
  func ungroupedPropertyID(_ reference: PropertyReference, _ context: ProgramContext) throws(EvaluationError)
    -> PropertyID
  {
    if reference.index == nil, context.facts.namesPropertyAsWritten(reference) {
      // `T.p` as written: found by its two words, with no name made (once per `animate`, a
      // script of a hundred thousand made a hundred thousand).
      let (target, property) = (reference.target.text, reference.property.text)
      guard let id = properties[target: target, property: property] else {
        throw noProperty("\(target).\(property)", at: reference.span)
      }
      return id
    }
    // (No group: no look-up of the target's name, which is made for it.)
    return try propertyID(reference, resolved: try resolved(reference, context), context)
  }

  /// The member index of `G[i]`: an integer in the group's range, else a runtime error at
  /// the index.
  func memberIndex(_ index: Expression, of group: String, _ context: ProgramContext) throws(EvaluationError) -> Int {
    let value = try number(index, context)
    guard ConstantEvaluator.isWhole(value) else {
      throw EvaluationError(
        message: "expected an integer as the index of a member of '\(group)', found \(RuntimeValue.number(value).text)",
        span: index.span)
    }
    let count = groups[group] ?? 0
    guard value >= 0, value < Double(count) else {
      throw EvaluationError(
        message: "index \(RuntimeValue.number(value).text) is out of range: '\(group)' has members 0 to \(count - 1)",
        span: index.span)
    }
    return Int(value)
  }

  /// The context a statement on every member runs in for one member: its `index` and
  /// `count` bound.
  func memberContext(_ context: ProgramContext, _ member: (index: Int, count: Int)?) -> ProgramContext {
    guard let member else { return context }
    return context.with(
      locals: LocalFrame(
        parent: context.locals,
        values: [
          ContextualKeyword.index.rawValue: .number(Double(member.index)),
          ContextualKeyword.count.rawValue: .number(Double(member.count)),
        ]))
  }

  /// Each member's extra delay from a statement's stagger clause (none without one).
  func staggerDelays(
    _ stagger: StaggerClause?, count: Int, _ context: ProgramContext
  ) throws(EvaluationError) -> [Nanoseconds]? {
    guard let stagger else { return nil }
    let spacing: Stagger.Spacing
    if let total = stagger.total {
      spacing = .total(max(try duration(total, context), 0))
    } else if let step = stagger.step {
      spacing = .step(max(try duration(step, context), 0))
    } else {
      spacing = .step(0)
    }
    let origin: Stagger.Origin
    switch stagger.origin {
    case .start: origin = .start
    case .end: origin = .end
    case .center: origin = .center
    case .edges: origin = .edges
    case .member(let index):
      let value = try number(index, context)
      guard ConstantEvaluator.isWhole(value), value >= 0, value < Double(count) else {
        throw EvaluationError(message: "the stagger's origin is not a member", span: index.span)
      }
      origin = .member(Int(value))
    case .random(let seed, _):
      let value = try number(seed, context)
      guard ConstantEvaluator.isWhole(value), value >= 0, value < 1.8e19 else {
        throw EvaluationError(message: "expected a whole number ≥ 0 as the seed of 'random'", span: seed.span)
      }
      origin = .random(seed: UInt64(value))
    }
    var grid: (columns: Int, rows: Int)?
    if let expression = stagger.grid {
      guard case .vector(let sizes) = try evaluate(expression, context), sizes.count == 2,
        sizes.allSatisfy({ ConstantEvaluator.isWhole($0) && $0 >= 1 }), sizes[0] * sizes[1] == Double(count)
      else { throw EvaluationError(message: "the grid does not hold the group's members", span: expression.span) }
      grid = (Int(sizes[0]), Int(sizes[1]))
    }
    let curve = try stagger.curve.map { (e) throws(EvaluationError) in try self.curve(e, stretch: nil, context) }
    return Stagger(spacing: spacing, origin: origin, grid: grid, curve: curve).delays(count: count)
  }

  /// Each member's animation of an `animate` or `keyframes` statement, with its member's
  /// values and its stagger offset added to its delay; one for a plain property.
  func memberAnimations(
    of statement: Statement, _ context: ProgramContext, startsAtPlacement: Bool = false
  ) throws(EvaluationError) -> [(PropertyID, Animation, PendingValues?)]? {
    let reference: PropertyReference
    let stagger: StaggerClause?
    switch statement.kind {
    case .animate(let animate): (reference, stagger) = (animate.property, animate.stagger)
    case .keyframes(let keyframes): (reference, stagger) = (keyframes.property, keyframes.stagger)
    default: return nil
    }
    let targets = try propertyTargets(reference, context)
    let offsets = try staggerDelays(stagger, count: targets.count, context)
    var made: [(PropertyID, Animation, PendingValues?)] = []
    made.reserveCapacity(targets.count)
    for (position, target) in targets.enumerated() {
      var (animation, pending) = try self.animation(
        of: statement, on: target.id, memberContext(context, target.member), startsAtPlacement: startsAtPlacement)
      if let offsets {
        animation.timing.delay = saturatingSum(animation.timing.delay, offsets[position])
      }
      made.append((target.id, animation, pending))
    }
    return made
  }

  // MARK: - A group's events

  /// Hears a member property's start, repeat or complete for its group's handlers: the
  /// group's property starts when its first member leaves rest and completes when its last
  /// comes to rest; every member's repeat is the group's.
  func groupLifecycle(_ kind: EngineEvent.Kind, member property: PropertyID) {
    guard let group = groupPropertyOf[property] else { return }
    switch kind {
    case .start:
      let moving = groupAnimating[group, default: 0]
      groupAnimating[group] = moving + 1
      if moving == 0 { groupEvent(.start, group) }
    case .complete:
      let moving = max(groupAnimating[group, default: 0] - 1, 0)
      groupAnimating[group] = moving == 0 ? nil : moving
      if moving == 0 { groupEvent(.complete, group) }
    case .repeat:
      groupEvent(.repeat, group)
    default:
      break
    }
  }

  /// Runs the handlers of a group's property (the trace writes member events only).
  private func groupEvent(_ kind: LifecycleEvent, _ group: String) {
    for handler in lifecycleHandlers[HandlerKey(kind: kind, subject: group)] ?? [] { start(handler) }
  }
}

extension Runtime {
  /// Watched names with each group's `G.p` written out as its members' `G[0].p` … in order
  /// (`--watch 'dots.y'` watches every member).
  func expandingGroups(_ names: [String]) -> [String] {
    guard !groups.isEmpty else { return names }
    return names.flatMap { name -> [String] in
      let group = String(name.prefix { $0 != "." })
      guard let count = groups[group], name.count > group.count else { return [name] }
      let property = name.dropFirst(group.count + 1)
      return (0..<count).map { Self.memberName(group, $0) + "." + property }
    }
  }
}

extension Runtime {
  /// Whether a group's initial value is known before anything runs, as a constant is: it
  /// reads nothing but constants and the member's `index` and `count` (no `now`, no live
  /// property, no variable), so every member's value can be made when the group is created.
  static func isFixedPerMember(_ expression: Expression, _ context: ProgramContext) -> Bool {
    if context.facts.constant(of: expression) != nil { return true }
    switch expression.kind {
    case .number, .duration, .percent, .color, .boolean:
      return true
    case .string(let literal):
      return literal.parts.allSatisfy { part in
        if case .interpolation(let inner) = part { return isFixedPerMember(inner, context) }
        return true
      }
    case .vector(let elements):
      return elements.allSatisfy { isFixedPerMember($0, context) }
    case .parenthesized(let inner), .negate(let inner), .not(let inner):
      return isFixedPerMember(inner, context)
    case .binary(_, let left, let right):
      return isFixedPerMember(left, context) && isFixedPerMember(right, context)
    case .name(let name):
      if case .local(let local)? = context.facts.references[name.span] {
        return local == ContextualKeyword.index.rawValue || local == ContextualKeyword.count.rawValue
      }
      return false
    case .call(let callee, let arguments):
      guard case .function? = context.facts.references[callee.span] else { return false }
      return arguments.allSatisfy { isFixedPerMember($0.value, context) }
    case .now, .member, .index, .invalid:
      return false
    }
  }
}
