// Runtime+Start: a script started as it is read. `anim run` and `anim trace` read a script
// one top-level statement at a time, as `anim check` does (CheckedStatementReader), and run
// each statement due at the start as soon as it is checked, so that the script's tree is
// never held whole: what stays is what the run needs later (timelines, handlers, statements
// placed after the start), each with the facts of its own statement.
//
// The result is exactly `run(_:of:at:)` on the whole checked program, which creates every
// target, then schedules every statement, then runs the ones due at the start in one round
// of the engine, in order, before any event they cause. Run as they come, the same
// statements run in the same order, before any of those events: nothing is advanced until
// the last statement is read. What a statement read early cannot know about one read later
// is the rest: a placement or a `wait` that is not a constant (evaluated before any
// statement runs there), a target whose initial values are not all constants (created in
// two steps there), and the checker's own questions about statements further down. Such a
// script, and one with errors, is read again whole (`parseAndCheck`) on a fresh runtime:
// nothing of the first reading has been shown.

import AnimCore
import AnimLanguage

/// A script read and started, or why it cannot run.
package enum ScriptStart {
  /// The script's top-level statements due at its start have run on `runtime` (as
  /// `Runtime.run(_:of:at:)` runs them); `output` is what they produced, `warnings` the
  /// check's warnings, in source order.
  case started(Runtime, output: [RuntimeOutput], warnings: [Diagnostic])
  /// The script has errors (these, with its warnings, in source order): nothing ran.
  case failed([Diagnostic])
}

extension Runtime {
  /// Reads, checks and starts `source` at engine time 0, statement by statement when it
  /// can (see above), else whole; with `recordsControls`, control statements are reported
  /// (`TraceRecord.control`, for the chart), and with `tracksGauges` gauges are kept (for
  /// `anim run`'s bars), from the start.
  package static func start(
    _ source: SourceText, recordsControls: Bool = false, tracksGauges: Bool = false
  ) -> ScriptStart {
    let runtime = Runtime()
    runtime.recordsControls = recordsControls
    runtime.tracksGauges = tracksGauges
    if let (output, warnings) = runtime.runStatementByStatement(source) {
      return .started(runtime, output: output, warnings: warnings)
    }
    var environment = Environment()
    let checked = parseAndCheck(source, in: &environment, mode: .script, recordingTypes: false)
    guard checked.isRunnable, let program = checked.program else { return .failed(checked.diagnostics) }
    let whole = Runtime()
    whole.recordsControls = recordsControls
    whole.tracksGauges = tracksGauges
    let output = whole.run(program, of: source, at: 0)
    return .started(whole, output: output, warnings: checked.diagnostics)
  }

  /// `run(_:of:at:)` at engine time 0 on this fresh runtime, reading `source` one top-level
  /// statement at a time. Nil when the script must be read whole (this runtime is then
  /// spent).
  func runStatementByStatement(_ source: SourceText) -> (output: [RuntimeOutput], warnings: [Diagnostic])? {
    var reader = CheckedStatementReader(source)
    keepsConstantValues = false
    guard let warnings = runStatementByStatement(&reader, of: source, delivering: nil) else { return nil }
    return (takeOutput(), warnings)
  }

  /// Where a top-level statement read on its own goes, as `schedule(_:from:_:mode:)` would
  /// place it in a program started at `start` (the engine's time, which nothing advances
  /// while the statements are read).
  enum StartStep {
    /// A `wait`: the time for the statements after it moves to this.
    case wait(Nanoseconds)
    /// Due later: scheduled for this time.
    case later(Nanoseconds)
    /// Due at the start: it runs at once.
    case now
  }

  /// The step of `statement`, with `cursor` the time so far; nil when a statement read on
  /// its own cannot be placed as the whole program places it: a placement or a `wait` that
  /// is not a constant (evaluated before any statement runs there). `hasFacts` false says
  /// that `context` holds no fact of the statement's.
  func startStep(
    of statement: Statement, _ context: ProgramContext, cursor: Nanoseconds, start: Nanoseconds,
    hasFacts: Bool = true
  ) -> StartStep? {
    // Its time, as `schedule(_:from:_:mode:)` finds it: from constants only.
    var time = cursor
    // (A statement without a placement runs at the cursor: nothing to look up, not even a
    // label's placement, which is written `at NAME`. One with no facts has the placement
    // written, which at the top level is `at E` whatever its sign: no table is asked.)
    let placement: ResolvedPlacement
    if statement.placement == nil {
      placement = .now
    } else if !hasFacts, case .at(_, let offset, _)? = statement.placement {
      placement = .absolute(offset)
    } else {
      placement = context.facts.placement(of: statement, in: .runsNow)
    }
    switch placement {
    case .absolute(let offset):
      guard let d = constantDuration(offset, context) else { return nil }
      time = saturatingSum(start, d)
    case .relative(let sign, let offset):
      guard let d = constantDuration(offset, context) else { return nil }
      time = saturatingSum(cursor, sign == .minus ? -d : d)
    default:
      break
    }
    if case .wait(let length) = statement.kind {
      guard let d = constantDuration(length, context) else { return nil }
      return .wait(saturatingSum(cursor, max(d, 0)))
    }
    return time > start ? .later(time) : .now
  }

  /// Whether `statement` is a `let` whose value the checker found constant.
  static func isConstantLet(_ statement: Statement, _ facts: ResolvedFacts) -> Bool {
    guard case .letBinding(let declaration) = statement.kind else { return false }
    return facts.constant(of: declaration.value) != nil
  }

  /// Whether running `statement` keeps its context for later: a timeline's declaration, a
  /// handler, a target of a kind (what it draws is evaluated again).
  static func keepsItsContext(_ statement: Statement) -> Bool {
    switch statement.kind {
    case .timeline, .handler: return true
    case .target(let declaration): return declaration.kind != nil
    default: return false
    }
  }

  /// Whether the whole run creates `target` in two steps: `createTargets`, before anything
  /// runs, gives it the initial values that are constants (a group's member, those fixed
  /// per member too), and its statement, when it runs, evaluates the others and adds them.
  /// A target whose values are all constants is created by its statement alone just the
  /// same (setting a property to the value it has changes nothing).
  static func isCreatedInTwoSteps(_ target: borrowing TargetDeclaration, _ context: ProgramContext) -> Bool {
    // (By index, and `case nil`: each initializer copied out of the list, and its constant
    // compared with nil, were a copy and a destroy of an expression and of a value each.)
    for index in target.properties.indices {
      guard case nil = context.facts.constant(of: target.properties[index].value) else { continue }
      if target.count == nil || !isFixedPerMember(target.properties[index].value, context) { return true }
    }
    return false
  }

  /// Runs what `reader` hands over as `run(_:of:at:)` runs a whole program at the engine's
  /// time, one top-level statement at a time, and returns the reading's warnings; nil when
  /// the input must be read whole (this runtime has then run part of it: a fresh runtime
  /// is spent; a session checks first, `planEntry`, so that it never gets here). With
  /// `deliver`, output is handed over in pieces as it comes (else it waits in `output`).
  func runStatementByStatement(
    _ reader: inout CheckedStatementReader, of source: SourceText, delivering deliver: (([RuntimeOutput]) -> Void)?
  ) -> [Diagnostic]? {
    let entry = entries.count
    entries.append(source)
    // One for every context of this input's statements.
    let input = ProgramInput(source: source, entry: entry)
    // The one context of this input's statements whose syntax says all their facts (a
    // literal's constant, `T.p` as written, a placement not at a label: WrittenFacts.swift),
    // such as `at 2s animate t.y to 1 over 250ms`: a script may hold a hundred thousand of
    // them for later, which then hold no tables and no context of their own.
    let bare = ProgramContext(facts: ResolvedFacts(), input: input)
    // The one context of the statements this input holds (placed later, or kept by what
    // they declare: a handler, a timeline), whose facts are kept in one list of each kind
    // (`SharedFacts`), not a table of each statement's own.
    let heldFacts = SharedFacts()
    let held = ProgramContext(facts: ResolvedFacts(sharing: heldFacts), input: input)
    declaredInEntry = []
    var cursor = engine.now
    let start = engine.now
    // The engine's guard on one instant counts the statements its first round would run.
    var runNow = 0
    var gathered: [Statement] = []
    // The properties two-step targets' statements added, in order (see below).
    var addedBySecondSteps: [PropertyID] = []
    while let checked = reader.next() {
      // Given back when done with, moved (its tree is let go on the thread that parsed it).
      defer { reader.giveBack(checked) }
      // (Read in place, not copied out: a copy retained each part of the tree, memory the
      // parsing thread wrote, 5 % of the runner's time.)
      // From a loop or an `if` on, the statements are laid out as a whole program's are (the
      // loop's passes move the time for what follows them): gathered, and walked at the end.
      if checked.isGathered {
        gathered.append(checked.statement)
        continue
      }
      // A `let` of a constant runs as nothing here (`keepsConstantValues` is off: its uses
      // read the constant): no context of its own is made for it. (Nor could its placement or
      // a `wait` read its facts: it has neither.)
      let runsAsNothing = !keepsConstantValues && Self.isConstantLet(checked.statement, checked.facts)
      var context = !checked.hasFacts || runsAsNothing ? bare : ProgramContext(facts: checked.facts, input: input)
      guard
        let step = startStep(of: checked.statement, context, cursor: cursor, start: start, hasFacts: checked.hasFacts)
      else { return nil }
      switch step {
      case .wait(let time):
        cursor = time
        continue
      case .later(let time):
        if checked.hasFacts {
          heldFacts.append(checked.facts)
          context = held
        }
        if case .target(let declaration) = checked.statement.kind {
          try? declareTarget(declaration, context, evaluateNow: false)
        }
        // Held as its span, and read again when it comes due: its facts, by span, are
        // those of the tree read again.
        engine.schedule(callback: newKey(.reread(checked.statement.span, context)), at: time)
        continue
      case .now:
        break
      }
      // Due now: it runs as its callback would in the first round, with the key it would
      // have. (A target is then created by its statement alone: setting a new property to
      // the value it was created with, as the statement would after `createTargets`, changes
      // nothing.)
      runNow += 1
      if runNow > Self.statementsRunAtOnceLimit { return nil }
      // A target's statement: its declaration matched out of the statement once, and handed
      // on as it is (held in an optional and bound again at each use, it was copied four
      // times, each a retain and a release of its every part).
      if case .target(let declaration) = checked.statement.kind {
        if context !== bare && declaration.kind != nil {
          heldFacts.append(checked.facts)
          context = held
        }
        runTargetNow(declaration, context, addedBySecondSteps: &addedBySecondSteps)
      } else {
        // Kept by what it declares: its facts join the held statements' (the same answers for
        // its own nodes' spans, which are its alone).
        if context !== bare && Self.keepsItsContext(checked.statement) {
          heldFacts.append(checked.facts)
          context = held
        }
        nextKey += 1
        lastActivity = engine.now
        lastFiniteActivity = engine.now
        if !runsAsNothing { execute(checked.statement, context) }
      }
      if let deliver, output.count >= Self.outputPiece { deliver(takeOutput()) }
    }
    guard case .clean(let warnings) = reader.finish() else { return nil }
    let gatheredContext = gathered.isEmpty ? nil : ProgramContext(facts: reader.gatheredFacts(), input: input)
    if let context = gatheredContext {
      for statement in gathered {
        // Created before anything runs, as `createTargets` creates a whole program's.
        guard case .target(let declaration) = statement.kind else { continue }
        try? declareTarget(declaration, context, evaluateNow: false)
      }
    }
    // Every target's first step is taken: what second steps added goes after them all.
    if !addedBySecondSteps.isEmpty {
      // (The new targets' names are read where they are now: see `takeNewTargets`.)
      takeNewTargets()
      properties.moveToEnd(addedBySecondSteps)
      propertyGeneration += 1
    }
    if let context = gatheredContext {
      walk(BlockWalk(gathered, context, start: start, cursor: cursor, invocation: nil))
    }
    // What the statements caused at the start (their events, handlers, emits).
    if let deliver {
      advanceQuietly(to: engine.now) {
        if self.output.count >= Self.outputPiece { deliver(self.takeOutput()) }
        return false
      }
      let rest = takeOutput()
      if !rest.isEmpty { deliver(rest) }
    } else {
      advanceQuietly(to: engine.now)
    }
    return warnings
  }

  /// Runs the statement of the target `declaration`, due now, as `runStatementByStatement`
  /// runs any other (its first round's key taken, its time noted), with `context`. A target
  /// created in two steps takes its first, as `createTargets` takes it, then its statement:
  /// what the statement adds moves, at the end of the reading, to where the whole run adds
  /// it, after every target's first step (the names' order is the trace's columns'), so it
  /// is noted in `addedBySecondSteps`.
  private func runTargetNow(
    _ declaration: TargetDeclaration, _ context: ProgramContext, addedBySecondSteps: inout [PropertyID]
  ) {
    let isTwoStep = Self.isCreatedInTwoSteps(declaration, context)
    if isTwoStep { try? declareTarget(declaration, context, evaluateNow: false) }
    let countBefore = properties.count
    nextKey += 1
    lastActivity = engine.now
    lastFiniteActivity = engine.now
    // As `execute` runs it, but its name is not noted in `declaredInEntry` (a first step
    // noted it): it would be taken out again below, and nothing reads it in between. (Each
    // name put in a set and taken out, and the declaration copied again for `execute`, were a
    // twentieth of a trace of a script of targets.)
    do throws(EvaluationError) {
      try declareTarget(declaration, context, evaluateNow: true, notingInEntry: false)
    } catch {
      fail(error.message, at: error.span, context)
    }
    // (Its second step redeclares nothing, the first having declared it in this input: what
    // it added is at the end.)
    if isTwoStep {
      for position in countBefore..<properties.count { addedBySecondSteps.append(properties.id(at: position)) }
    }
    // Declared once in this input (a script's second declaration is an error; a session entry
    // that declares a target twice is run whole): once its statement has run, nothing asks
    // whether this entry declared it.
    if !declaredInEntry.isEmpty {
      // (Nearly always the only name there: emptied without hashing it.)
      if declaredInEntry.count == 1, declaredInEntry.first == declaration.name.text {
        declaredInEntry.removeAll(keepingCapacity: true)
      } else {
        declaredInEntry.remove(declaration.name.text)
      }
    }
  }

  /// More statements than this due at the start is more than the engine's first round
  /// would run (its guard on one instant): such an input is read whole, to fail as it does.
  static let statementsRunAtOnceLimit = AnimationEngine.eventLimitPerInstant * 1_000

  /// The value of a duration expression the checker found constant; nil when it is not.
  private func constantDuration(_ expression: Expression, _ context: ProgramContext) -> Nanoseconds? {
    // A duration written (`at 250ms`) is its own value: what evaluating it returns.
    if case .duration(let nanoseconds) = expression.kind { return nanoseconds }
    guard context.facts.constant(of: expression) != nil else { return nil }
    return try? duration(expression, context)
  }
}
