// Statements: running each statement of the language at its time.

import AnimCore
import AnimLanguage

extension Runtime {
  enum BlockMode {
    /// A script's or REPL entry's top level: `at D` is D after the block's start.
    case topLevel
    /// A handler's body: `at D` is relative to the moment the event happened.
    case handler
  }

  /// Creates the targets a program declares at its top level right away, so that every
  /// property exists (with its initial value) from the start of the run, for sampling.
  func createTargets(in statements: [Statement], _ context: ProgramContext) {
    declaredInEntry = []
    for statement in statements {
      guard case .target(let declaration) = statement.kind else { continue }
      // (Constants only: it cannot fail.)
      try? declareTarget(declaration, context, evaluateNow: false)
    }
  }

  /// Declares a target's properties (a group's: each member's); with `evaluateNow`, the live
  /// initial values too. When one of them fails, nothing is declared (a statement that
  /// fails has no effect). With `notingInEntry` (else the caller knows nothing will ask
  /// before the entry's statement is done), its name joins `declaredInEntry`.
  func declareTarget(
    _ declaration: TargetDeclaration, _ context: ProgramContext, evaluateNow: Bool, notingInEntry: Bool = true
  ) throws(EvaluationError) {
    let target = declaration.name.text
    // Targets declared one after another mostly have the same properties: they share one
    // list in `targets` (a script of a million targets held a million equal lists). (Read by
    // index: each initializer copied out of the list was a retain and a release of its parts.)
    var propertyNames = lastPropertyList
    var isLastList = declaration.properties.count == propertyNames.count
    for index in propertyNames.indices where isLastList {
      isLastList = declaration.properties[index].name.text == propertyNames[index]
    }
    if !isLastList {
      propertyNames = declaration.properties.map(\.name.text)
      lastPropertyList = propertyNames
    }
    // A group's count is a constant (the checker's); each member sees its `index` and `count`.
    var memberNames: [String]?
    if let count = declaration.count {
      guard case .number(let value)? = context.facts.constant(of: count), value >= 1 else {
        throw EvaluationError(message: "a group's count is a constant", span: count.span)
      }
      memberNames = (0..<Int(value)).map { Self.memberName(target, $0) }
    }
    let memberCount = memberNames?.count
    // Each member's value of each property in turn (nil: none yet, one that is evaluated
    // later). (No name `T.p` is made for them: the table takes a target's and a property's.)
    // (In the runtime's list, taken and given back: a list made for each declaration was an
    // allocation and a free each.)
    var values = declarationValues
    declarationValues = []
    defer {
      values.removeAll(keepingCapacity: true)
      declarationValues = values
    }
    values.reserveCapacity((memberCount ?? 1) * propertyNames.count)
    for index in 0..<(memberCount ?? 1) {
      var member: ProgramContext?
      for property in declaration.properties.indices {
        let expression = declaration.properties[property].value
        var value: AnimationValue?
        if let constant = context.facts.constant(of: expression) {
          value = RuntimeValue(constant).animationValue
        } else if evaluateNow || (memberCount != nil && Self.isFixedPerMember(expression, context)) {
          if member == nil { member = memberContext(context, memberCount.map { (index, $0) }) }
          value = try evaluate(expression, member ?? context).animationValue
        }
        values.append(value)
      }
    }
    // Every value is known (none failed): now they take effect, together.
    let isNewTarget = memberNames == nil && isSurelyNew(target)
    if !isNewTarget {
      // (Each look-up below is skipped when its table is empty, as it is in most scripts: a
      // script of a million targets made each of them for every target.)
      var oldMembers = [target]
      if !groups.isEmpty, let count = groups[target] { oldMembers = (0..<count).map { Self.memberName(target, $0) } }
      for member in oldMembers where targets[member] != nil && !declaredInEntry.contains(target) {
        let keeps = memberNames?.contains(member) ?? (member == target)
        redeclare(member, had: targets[member] ?? [], keeping: keeps ? propertyNames : [])
        if !keeps { targets[member] = nil }
      }
    }
    if notingInEntry { declaredInEntry.insert(target) }
    var next = values.makeIterator()
    var addedProperties = false
    for index in 0..<(memberCount ?? 1) {
      let member = memberNames?[index] ?? target
      // A target the runtime did not have has no property yet: its names are added without a
      // look-up (a script of a million new properties looked each one up in vain).
      var isNew = true
      if isNewTarget {
        // (Its names go in the table from here on, when every value is known now.)
        let namesAt = values.contains { $0 == nil } ? nil : properties.count
        newTargets.append(member, properties: propertyNames, namesAt: namesAt)
        if namesAt != nil && !propertyNames.isEmpty {
          Self.addProperties(of: member, propertyNames, values, to: &engine, &properties)
          addedProperties = true
          continue
        }
      } else {
        isNew = targets.updateValue(propertyNames, forKey: member) == nil && targetsListEveryProperty
      }
      for property in propertyNames {
        guard let value = next.next() ?? nil else { continue }
        if isNew {
          properties.appendNew(target: member, property: property, engine.addProperty(value))
        } else {
          // (One look-up of the name, which finds it or the place to add it.)
          let added = properties.update(target: member, property: property) { existing in
            if let existing, existing.kind == value.kind {
              if evaluateNow || engine.value(of: existing) != value { try? engine.set(existing, to: value) }
              return nil
            }
            // (A new name goes at the end; a name given a new id keeps its place.)
            return engine.addProperty(value)
          }
          if !added { continue }
        }
        addedProperties = true
      }
    }
    // (Once a declaration, not once a property: each write to the runtime's properties is
    // checked for exclusive access, and a script may declare a million.)
    if addedProperties {
      namesByProperty = NamesByProperty()
      propertyGeneration += 1
    }
    if memberCount != nil || !groups.isEmpty { groups[target] = memberCount }
    for member in memberNames ?? [] {
      for property in propertyNames {
        if let id = properties[target: member, property: property] { groupPropertyOf[id] = target + "." + property }
      }
    }
    if declaration.kind != nil {
      targetKinds[target] = (declaration, context)
    } else if !targetKinds.isEmpty {
      targetKinds[target] = nil
    }
  }

  /// Adds the properties `names` of `target`, a target the runtime did not have, with their
  /// initial values `values` (every one known), to the engine and their names to the table,
  /// each in one step: in and out of the runtime's storage once a target, where each
  /// property's engine id and name were two writes to it, each checked for exclusive access.
  private static func addProperties(
    of target: String, _ names: [String], _ values: [AnimationValue?], to engine: inout AnimationEngine,
    _ table: inout PropertyTable
  ) {
    withUnsafeTemporaryAllocation(of: PropertyID.self, capacity: values.count) { ids in
      for (index, value) in values.enumerated() {
        guard let value else { preconditionFailure("a value to add") }
        ids.initializeElement(at: index, to: engine.addProperty(value))
      }
      table.appendNew(target: target, properties: names, ids: UnsafeBufferPointer(ids))
    }
  }

  /// Whether `target`, about to be declared, is surely not in `targets`, known with no
  /// look-up: when the entry being run declared every target there is, and not this one.
  /// (Once an entry's statement has run, its name leaves `declaredInEntry`, but no statement
  /// of the same entry declares it again: in a script that is an error, and a session entry
  /// that does it is run whole.)
  private func isSurelyNew(_ target: String) -> Bool {
    let entry = entries.count - 1
    if knownTargets.isEmpty && newTargets.isEmpty {
      entryOfEveryTarget = entry
    } else if entryOfEveryTarget != entry {
      entryOfEveryTarget = nil
    }
    return entryOfEveryTarget == entry && targetsListEveryProperty
      && (declaredInEntry.isEmpty || !declaredInEntry.contains(target))
  }

  /// A target declared again (in the REPL): its animations end, as `cancel` ends them (each
  /// property keeps its value), the handlers on its properties go, and properties the new
  /// declaration lacks are gone. Says what it did in one line.
  func redeclare(_ target: String, had old: [String], keeping names: [String]) {
    var ended = 0
    var removed = 0
    for property in old {
      let name = ResolvedProperty(target: target, property: property).name
      if let id = properties[name] {
        for node in engine.animations(on: id) where (try? engine.cancel(node)) != nil { ended += 1 }
      }
      for key in lifecycleHandlers.keys where key.subject == name {
        removed += lifecycleHandlers[key]?.count ?? 0
        lifecycleHandlers[key] = nil
      }
      if !names.contains(property) {
        properties[name] = nil
        namesByProperty = NamesByProperty()
        propertyGeneration += 1
      }
    }
    func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    output.append(
      .note("target \(target) redeclared: \(count(ended, "animation")) ended, \(count(removed, "handler")) removed"))
  }

  /// Schedules each statement of a block at its time, from engine time `start`: in order,
  /// `wait` moving the time for those after it. A loop or an `if` is run (its bounds or its
  /// conditions evaluated, its body laid out as if written out) when the time reaches it,
  /// so the walk through the block may stop there and go on later (`BlockWalk`).
  func schedule(_ statements: [Statement], from start: Nanoseconds, _ context: ProgramContext, mode: BlockMode) {
    var invocation: Int?
    if mode == .handler {
      nextInvocation += 1
      invocation = nextInvocation
    }
    walk(BlockWalk(statements, context, start: start, invocation: invocation))
  }

  /// Goes on through a block from where `walk` stopped: schedules its statements, runs its
  /// loops and `if`s that are due, and stops at one that is due later.
  func walk(_ walk: BlockWalk) {
    while let frame = walk.frames.last {
      switch frame {
      case .loop(let loop, let next, let end, let outer):
        if next >= end {
          walk.frames.removeLast()
          continue
        }
        walk.frames[walk.frames.count - 1] = .loop(loop, next: next + 1, end: end, outer)
        let pass = LocalFrame(parent: outer.locals, values: [loop.variable.text: .number(Double(next))])
        walk.frames.append(.block(loop.body.statements, index: 0, outer.with(locals: pass)))
      case .block(let statements, let index, let context):
        if index == statements.count {
          walk.frames.removeLast()
          continue
        }
        let statement = statements[index]
        switch statement.kind {
        case .loop, .conditional:
          if !walk.isDue {
            // Its bounds or conditions are read when its turn comes: at its time, after the
            // statements before it that are due then.
            walk.isDue = true
            engine.schedule(callback: newKey(.resume(walk)), at: max(walk.cursor, engine.now))
            return
          }
          walk.isDue = false
          walk.frames[walk.frames.count - 1] = .block(statements, index: index + 1, context)
          do throws(EvaluationError) {
            try enter(statement, context, walk)
          } catch {
            fail(error.message, at: error.span, context)
            // As any statement that fails: in a handler the rest of the run is abandoned; at
            // top level the block goes on after it.
            if let invocation = walk.invocation {
              abandoned.insert(invocation)
              return
            }
          }
        default:
          walk.frames[walk.frames.count - 1] = .block(statements, index: index + 1, context)
          if !scheduleStatement(statement, context, walk), let invocation = walk.invocation {
            abandoned.insert(invocation)
            return
          }
        }
      }
    }
  }

  /// Schedules one statement of a walk at its time (a `wait` moves the walk's time instead).
  /// Returns false when its placement fails (reported).
  private func scheduleStatement(_ statement: Statement, _ context: ProgramContext, _ walk: BlockWalk) -> Bool {
    var time = walk.cursor
    do throws(EvaluationError) {
      switch context.facts.placement(of: statement, in: .runsNow) {
      case .absolute(let offset):
        time = saturatingSum(walk.start, try duration(offset, context))
      case .relative(let sign, let offset):
        let d = try duration(offset, context)
        time = saturatingSum(walk.cursor, sign == .minus ? -d : d)
      default:
        break
      }
      if case .wait(let length) = statement.kind {
        walk.cursor = saturatingSum(walk.cursor, max(try duration(length, context), 0))
        return true
      }
    } catch {
      // A statement whose placement fails is a statement that fails.
      fail(error.message, at: error.span, context)
      return false
    }
    engine.schedule(
      callback: newKey(.statement(statement, context, invocation: walk.invocation)), at: max(time, engine.now))
    return true
  }

  /// Runs a loop or an `if` that is due: evaluates its bounds or conditions and pushes the
  /// body to walk (each pass or branch in a frame of locals of its own).
  private func enter(_ statement: Statement, _ context: ProgramContext, _ walk: BlockWalk) throws(EvaluationError) {
    switch statement.kind {
    case .loop(let loop):
      let lower = try integer(loop.lower, context)
      let upper = try integer(loop.upper, context)
      let end = loop.closed ? (upper == .max ? upper : upper + 1) : upper
      let passes = end > lower ? Int128(end) - Int128(lower) : 0
      if passes > Int128(Self.loopPassLimit) {
        throw EvaluationError(
          message: "the loop 'for \(loop.variable.text)' at line \(context.source.line(of: statement.span.start)) "
            + "would run \(passes) times: a loop runs at most \(Self.loopPassLimit) times in one run",
          span: statement.span)
      }
      walk.frames.append(.loop(loop, next: lower, end: max(end, lower), context))
    case .conditional(let conditional):
      for branch in conditional.branches {
        guard case .boolean(let holds) = try evaluate(branch.condition, context) else {
          throw EvaluationError(message: "expected a boolean", span: branch.condition.span)
        }
        if holds {
          walk.frames.append(
            .block(branch.body.statements, index: 0, context.with(locals: LocalFrame(parent: context.locals))))
          return
        }
      }
      if let otherwise = conditional.otherwise {
        walk.frames.append(
          .block(otherwise.statements, index: 0, context.with(locals: LocalFrame(parent: context.locals))))
      }
    default:
      break
    }
  }

  /// The most passes one run of a loop may make.
  static let loopPassLimit = 100_000

  /// An integer-valued number expression (a loop bound).
  func integer(_ expression: Expression, _ context: ProgramContext) throws(EvaluationError) -> Int64 {
    let value = try number(expression, context)
    guard ConstantEvaluator.isWhole(value), abs(value) < 9e18 else {
      throw EvaluationError(
        message: "expected an integer as a loop bound, found \(RuntimeValue.number(value).text)", span: expression.span)
    }
    return Int64(value)
  }

  /// Runs one statement now. Returns false after a runtime error (reported): the statement
  /// then has had no effect. `invocation` is the handler run it belongs to, if any.
  @discardableResult
  func execute(_ statement: Statement, _ context: ProgramContext, invocation: Int? = nil) -> Bool {
    do throws(EvaluationError) {
      try run(statement, context, invocation: invocation)
      return true
    } catch {
      fail(error.message, at: error.span, context)
      return false
    }
  }

  private func run(_ statement: Statement, _ context: ProgramContext, invocation: Int?) throws(EvaluationError) {
    switch statement.kind {
    case .letBinding(let declaration):
      if !keepsConstantValues, context.facts.constant(of: declaration.value) != nil { return }
      values[declaration.name.text] = try evaluate(declaration.value, context)
    case .curve(let declaration):
      guard case .curve(let value) = try evaluate(declaration.value, context) else {
        throw EvaluationError(message: "expected a curve", span: declaration.value.span)
      }
      curves[declaration.name.text] = value
    case .target(let declaration):
      try declareTarget(declaration, context, evaluateNow: true)
    case .timeline(let declaration):
      let name = declaration.name.text
      if let old = timelines[name]?.node {
        // As `cancel`: its values stay where they are (no snap) and nothing fires; the new
        // one does not start.
        try? engine.cancel(old)
        try? engine.remove(old)
        timelineNames[old] = nil
      }
      timelines[name] = DeclaredTimeline(span: statement.span, program: context, node: nil)
    case .animate(let animate) where groups.isEmpty && !animate.hasStagger:
      // One property and one animation (what `memberAnimations` makes for it, without its
      // arrays and its second copy of the statement: a script may hold a hundred thousand).
      let property = try ungroupedPropertyID(animate.property, context)
      var pending: PendingValues?
      let animation = try makeAnimation(
        animate, property, context, statementSpan: statement.span, startsAtPlacement: true, pending: &pending)
      try startStandalone(animation, pending, on: property, invocation: invocation, at: statement.span)
    case .animate, .keyframes:
      // Its values are evaluated now when it starts now, so that one that fails fails here,
      // before it exists: the statement then has no effect, and a handler stops here.
      // On a group, every member's is made before any starts.
      for (property, animation, pending) in try memberAnimations(of: statement, context, startsAtPlacement: true) ?? []
      {
        try startStandalone(animation, pending, on: property, invocation: invocation, at: statement.span)
      }
    case .set(let set):
      var settings: [(PropertyID, AnimationValue)] = []
      for target in try propertyTargets(set.property, context) {
        guard let value = try evaluate(set.value, memberContext(context, target.member)).animationValue else {
          throw EvaluationError(message: "not a value a property can hold", span: set.value.span)
        }
        settings.append((target.id, value))
      }
      for (property, value) in settings {
        _ = try engineCall(at: statement.span) { engine throws(EngineError) in try engine.set(property, to: value) }
      }
    case .print(let literal):
      // (What a print writes never holds a control byte: each is shown as `\x1B`.)
      record(.print(time: engine.now, text: ShownText.escaped(try interpolate(literal, context))))
    case .emit(let literal):
      let name = try interpolate(literal, context)
      // An emit queues behind the events already due at this instant.
      engine.schedule(callback: newKey(.emit(name, literal.span, context)), at: engine.now)
    case .variable(let declaration):
      let value = try evaluate(declaration.value, context)
      // A top-level `var` is the program's; one in a handler, a loop or an `if`, its run's.
      if let locals = context.locals {
        locals.values[declaration.name.text] = value
      } else {
        values[declaration.name.text] = value
      }
    case .assignment(let assignment):
      let value = try evaluate(assignment.value, context)
      if case .local(let name)? = context.facts.references[assignment.name.span] {
        guard context.locals?.assign(value, to: name) == true else {
          throw EvaluationError(message: "'\(name)' has no value yet", span: assignment.name.span)
        }
      } else {
        values[assignment.name.text] = value
      }
    case .loop, .conditional:
      // Only a walk through a block runs these (a timeline lays them out when it is built).
      walk(BlockWalk([statement], context, start: engine.now, invocation: invocation))
    case .handler(let handler):
      let entry = Handler(body: handler.body, program: context, span: statement.span)
      switch handler.event {
      case .lifecycle(let kind, _, let subject):
        lifecycleHandlers[HandlerKey(kind: kind, subject: try self.subject(subject, context)), default: []].append(
          entry)
      case .custom(let literal):
        customHandlers[try interpolate(literal, context), default: []].append(entry)
      }
    case .control(let control):
      try perform(control, context, at: statement.span)
      if recordsControls { recordControl(statement, context) }
    case .expression(let expression):
      let value = try evaluate(expression, context)
      let text = String(decoding: context.source.bytes[expression.span.start..<expression.span.end], as: UTF8.self)
      output.append(.value(name: text, value: value.text(style: numberStyle)))
    case .wait, .label, .group, .nested:
      // `wait` is handled where blocks are scheduled; labels and groups belong to timelines.
      break
    }
  }

  /// Starts a standalone animation now (`animate` or `keyframes` outside a timeline), with
  /// the values it evaluates when it starts, if any, tied to the handler run that made it.
  /// (The two apart, not a tuple: a tuple of them was copied and destroyed through its
  /// type's metadata, at every `animate`.)
  func startStandalone(
    _ animation: Animation, _ pending: PendingValues?, on property: PropertyID, invocation: Int?,
    at span: SourceSpan
  ) throws(EvaluationError) {
    var pending = pending
    pending?.invocation = invocation
    let node = try engineCall(at: span) { engine throws(EngineError) in
      try engine.animate(property, with: animation, placement: .engine(at: engine.now))
    }
    standaloneNodes.insert(node)
    if let pending { pendingValues[node] = pending }
  }

  /// The engine's id of the property a statement names, as the checker resolved it.
  func propertyID(_ reference: PropertyReference, _ context: ProgramContext) throws(EvaluationError) -> PropertyID {
    try propertyID(reference, resolved: try resolved(reference, context), context)
  }

  /// The engine's id of the property `property`, which `reference` resolved to.
  func propertyID(
    _ reference: PropertyReference, resolved property: ResolvedProperty, _ context: ProgramContext
  ) throws(EvaluationError) -> PropertyID {
    var name = property.name
    if let index = reference.index {
      name =
        Self.memberName(property.target, try memberIndex(index, of: property.target, context)) + "."
        + property.property
    }
    guard let id = properties[name] else { throw noProperty(name, at: reference.span) }
    return id
  }

  /// The error of a statement naming the property `name`, which is not there (yet).
  func noProperty(_ name: String, at span: SourceSpan) -> EvaluationError {
    EvaluationError(message: "no property '\(name)' yet", span: span)
  }

  /// The property a statement names, as the checker resolved it.
  func resolved(_ reference: PropertyReference, _ context: ProgramContext) throws(EvaluationError) -> ResolvedProperty {
    guard let property = context.facts.property(reference) else {
      throw EvaluationError(message: "unresolved property reference", span: reference.span)
    }
    return property
  }

  /// The timeline a statement names, as the checker resolved it.
  func resolved(_ name: Identifier, _ context: ProgramContext) throws(EvaluationError) -> String {
    guard let timeline = context.facts.timeline(name) else {
      throw EvaluationError(message: "unresolved timeline reference", span: name.span)
    }
    return timeline
  }

  /// What events a handler's subject names: `T.p`, or a timeline's name.
  func subject(_ subject: Subject, _ context: ProgramContext) throws(EvaluationError) -> String {
    switch subject {
    case .name(let identifier): return try resolved(identifier, context)
    case .property(let reference):
      let property = try resolved(reference, context)
      guard let index = reference.index else { return property.name }
      return Self.memberName(property.target, try memberIndex(index, of: property.target, context)) + "."
        + property.property
    }
  }

  /// Runs an engine operation on the live engine, handing the events it causes (a finish's
  /// completes) to the handlers; an engine error becomes a runtime error at `span`.
  func engineCall<Result>(
    at span: SourceSpan, _ body: (inout AnimationEngine) throws(EngineError) -> Result
  ) throws(EvaluationError) -> Result {
    do {
      return try body(&engine)
    } catch {
      throw EvaluationError(message: error.description, span: span)
    }
  }

  // MARK: - Control

  func perform(_ control: ControlStatement, _ context: ProgramContext, at span: SourceSpan) throws(EvaluationError) {
    var nodes: [NodeID] = []
    var newest: NodeID?
    switch control.subject {
    case nil:
      // A held session (restored): a bare `resume` releases the hold, and only that.
      if control.action == .resume && isHeld {
        isHeld = false
        return
      }
      nodes = engine.topLevelNodes
    case .name(let identifier)?:
      let name = try resolved(identifier, context)
      guard timelines[name] != nil else {
        throw EvaluationError(message: "no timeline '\(name)'", span: identifier.span)
      }
      // Label navigation: `play X from A [to B]`, `pause X at A`, `seek X to LABEL`.
      if try navigate(name, control, context, at: span) { return }
      if control.action == .play {
        let node = try build(name)
        nodes = [node]
      } else if let node = timelines[name]?.node {
        nodes = [node]
      }
      newest = nodes.last
    case .property(let reference)?:
      // On a group, every member's animations (`seek` and `finish`: each member's newest).
      let targets = try propertyTargets(reference, context)
      if targets.count > 1 {
        for target in targets {
          let animations = engine.animations(on: target.id)
          if control.action == .seek || control.action == .finish {
            if let last = animations.last { nodes.append(last) }
          } else {
            nodes += animations
          }
        }
        if control.action == .seek || control.action == .finish {
          for node in nodes {
            if control.action == .finish {
              try finish(node, at: span)
            } else if let argument = control.argument {
              let time = try duration(argument, context)
              _ = try engineCall(at: span) { engine throws(EngineError) in try engine.seek(node, to: time) }
            }
          }
          return
        }
      } else if let target = targets.first {
        nodes = engine.animations(on: target.id)
        newest = nodes.last
      }
    }
    switch control.action {
    case .play:
      for node in nodes { _ = try engineCall(at: span) { engine throws(EngineError) in try engine.play(node) } }
    case .pause:
      for node in nodes { _ = try engineCall(at: span) { engine throws(EngineError) in try engine.pause(node) } }
    case .resume:
      for node in nodes { _ = try engineCall(at: span) { engine throws(EngineError) in try engine.resume(node) } }
    case .reverse:
      for node in nodes { _ = try engineCall(at: span) { engine throws(EngineError) in try engine.reverse(node) } }
    case .cancel:
      for node in nodes { _ = try engineCall(at: span) { engine throws(EngineError) in try engine.cancel(node) } }
    case .speed:
      guard let argument = control.argument else { return }
      let rate = try number(argument, context)
      for node in nodes {
        _ = try engineCall(at: span) { engine throws(EngineError) in try engine.setRate(rate, of: node) }
      }
    case .seek:
      guard let argument = control.argument, let node = newest else { return }
      let time = try duration(argument, context)
      _ = try engineCall(at: span) { engine throws(EngineError) in try engine.seek(node, to: time) }
    case .finish:
      guard let node = newest else { return }
      try finish(node, at: span)
    case .tween:
      // (Label navigation ran it: its subject is a timeline.)
      return
    }
  }

  /// `finish`: its completes run the handlers like any other event.
  func finish(_ node: NodeID, at span: SourceSpan) throws(EvaluationError) {
    var live = engine
    engine = AnimationEngine()
    var failure: EngineError?
    do {
      try live.finish(node) { engine, event in self.handle(event, lending: &engine) }
    } catch {
      failure = error
    }
    engine = live
    if let failure { throw EvaluationError(message: failure.description, span: span) }
  }

  // MARK: - Values resolved when an animation starts

  /// The values of an animation that is starting (`needsValues`).
  func resolveValues(of node: NodeID) {
    guard let pending = pendingValues.removeValue(forKey: node) else { return }
    do throws(EvaluationError) {
      let from = try pending.from.map { (expression) throws(EvaluationError) -> AnimationValue in
        guard let value = try evaluate(expression, pending.program).animationValue else {
          throw EvaluationError(message: "not a value a property can hold", span: expression.span)
        }
        return value
      }
      var values: [AnimationValue] = []
      for expression in pending.values {
        guard let value = try evaluate(expression, pending.program).animationValue else {
          throw EvaluationError(message: "not a value a property can hold", span: expression.span)
        }
        values.append(value)
      }
      try? engine.setValues(of: node, from: from, to: values)
      widenGauge(for: node)
    } catch {
      // An animation whose values fail when it leaves its delay is dropped there, with no
      // event (as `cancel` fires none): it never shows a value it does not have. Its
      // handler, if any, stops there too.
      fail(error.message, at: error.span, pending.program)
      try? engine.remove(node)
      if let invocation = pending.invocation { abandoned.insert(invocation) }
    }
  }
}

/// Where a walk through a block of statements (a program's top level, a handler's run) has
/// got to: the blocks it is inside (a loop's body, an `if` branch), how far through each,
/// and the time so far. A walk stops at a loop or an `if` that is due later and goes on when
/// the time reaches it, so that its bounds and conditions are read then, and what follows
/// it is laid out as if its body were written out.
final class BlockWalk {
  enum Frame {
    /// Statements, the next one's index, and the context they run in.
    case block([Statement], index: Int, Runtime.ProgramContext)
    /// A loop's passes: the next value of its variable and the end (exclusive), with the
    /// context around the loop.
    case loop(ForLoop, next: Int64, end: Int64, Runtime.ProgramContext)
  }

  var frames: [Frame]
  /// Where `at D` counts from: the block's start.
  let start: Nanoseconds
  /// The end so far: where the next statement without placement goes (moved by `wait`).
  var cursor: Nanoseconds
  /// The handler run the block belongs to, if any: an error abandons the rest of it.
  let invocation: Int?
  /// Set while the walk waits for its turn at the loop or `if` it stopped at, and when that
  /// turn comes: the walk then runs it.
  var isDue = false

  init(
    _ statements: [Statement], _ context: Runtime.ProgramContext, start: Nanoseconds, cursor: Nanoseconds? = nil,
    invocation: Int?
  ) {
    self.frames = [.block(statements, index: 0, context)]
    self.start = start
    self.cursor = cursor ?? start
    self.invocation = invocation
  }
}
