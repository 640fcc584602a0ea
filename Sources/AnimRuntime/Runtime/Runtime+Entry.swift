// Runtime+Entry: a REPL session's input read from a file (`:load FILE`, `anim repl FILE`)
// one top-level statement at a time, as `anim run` starts a script (Runtime+Start.swift),
// instead of parsed, checked and held whole (`parseAndCheck`, then `run(_:of:at:)`), which
// takes many times the file in memory.
//
// An input with an error changes nothing in a session, so it is read twice: first checked
// through (`planEntry`: every statement checked against the session's declarations in the
// checker's session mode, its tree let go at once, nothing run), then, when it checks
// clean, read again and run as it is read (`runEntry`). The first reading also decides
// whether the second can give exactly what the whole run gives. Besides a script's
// reasons (see Runtime+Start.swift), a session's input can redeclare the session's targets,
// which the whole run does for every target before anything runs (`createTargets`): read
// one at a time, a redeclaration comes at its statement instead. That is the same only when
// nothing before it has read or changed the session (only target declarations and
// constant `let`s and `curve`s ran before it) and the target has no animation to end (an
// ended animation's events would come among the statements' instead of before them); and
// when no target is declared twice in the input (whose second declaration the whole run
// has already made at the start), nor again inside a loop or an `if` after its statement
// ran at the start (the whole run still counts it as declared by this input, and does not
// redeclare it). Otherwise the input is run whole, as before.

import AnimCore
import AnimLanguage

/// What the first reading of a session's input found (`Runtime.planEntry`).
package struct EntryPlan {
  /// The session's declarations after the input, as checking it whole leaves them.
  package var environment: Environment
  /// The check's warnings, in source order (the input has no errors).
  package var warnings: [Diagnostic]
  /// How many top-level statements the input has.
  package var statementCount: Int
  /// The engine's time when the plan was made: the runtime does not change without its
  /// time moving.
  var time: Nanoseconds
}

extension Runtime {
  /// Checks `source` as a session's input against `environment` (the checker's session
  /// mode), one top-level statement at a time, keeping no tree and running nothing, for
  /// `runEntry` to run statement by statement. Nil when the input must be checked and run
  /// whole (`parseAndCheck`, then `run(_:of:at:)`): it has errors (which the whole check
  /// reports, as it always has), the streaming checker's guesses about statements further
  /// down were wrong, or the runtime as it stands would run it statement by statement
  /// otherwise than whole (the reading stops at the first such statement: the whole check
  /// reads it again anyway).
  package func planEntry(_ source: SourceText, in environment: Environment) -> EntryPlan? {
    var reader = CheckedStatementReader(source, in: environment, mode: .session)
    // (Read whole instead: the parsing thread, if any, runs to its end first.)
    func readWhole() -> EntryPlan? {
      _ = reader.finish()
      return nil
    }
    let start = engine.now
    var cursor = start
    var runNow = 0
    var count = 0
    // The hashes of the target names declared so far and of those run at the start (a
    // collision only makes the input run whole), and whether a statement that may read or
    // change the session has run.
    var declaredTargets = Set<Int>()
    var targetsRunAtStart = Set<Int>()
    var changedSession = false
    while let checked = reader.next() {
      count += 1
      let statement = checked.statement
      var declaration: TargetDeclaration?
      if case .target(let target) = statement.kind {
        declaration = target
        guard declaredTargets.insert(target.name.text.hashValue).inserted else { return readWhole() }
      }
      if checked.isGathered {
        // Gathered targets are created after every statement before the first loop or `if`
        // has run; the rest runs later, in the walk, as the whole run walks it.
        if let declaration, !mayRedeclare(declaration.name.text, afterChanges: changedSession) { return readWhole() }
        // A target declared inside a loop or an `if` that one run at the start declared: the
        // whole run still counts that one as this input's (`declaredInEntry`) and does not
        // redeclare it; run statement by statement, it was let go.
        if Self.nestedTargetNames(in: statement).contains(where: { targetsRunAtStart.contains($0.hashValue) }) {
          return readWhole()
        }
        continue
      }
      let context = ProgramContext(facts: checked.facts, source: source, entry: entries.count)
      guard let step = startStep(of: statement, context, cursor: cursor, start: start) else { return readWhole() }
      if let declaration, !mayRedeclare(declaration.name.text, afterChanges: changedSession) { return readWhole() }
      switch step {
      case .wait(let time):
        cursor = time
      case .later:
        break
      case .now:
        runNow += 1
        if runNow > Self.statementsRunAtOnceLimit { return readWhole() }
        if let declaration { targetsRunAtStart.insert(declaration.name.text.hashValue) }
        if declaration == nil && !Self.isConstantDeclaration(statement, context) { changedSession = true }
      }
    }
    guard case .clean(let warnings) = reader.finish() else { return nil }
    return EntryPlan(
      environment: reader.environment, warnings: warnings, statementCount: count, time: start)
  }

  /// Whether declaring target `name` at its statement, after statements that may have read
  /// or changed the session (`afterChanges`), does what the whole run's `createTargets`
  /// does before anything runs: always for a name that is not one of the session's targets
  /// now; for one that is, only when nothing ran before it and none of its animations end.
  private func mayRedeclare(_ name: String, afterChanges: Bool) -> Bool {
    let members = groups[name].map { count in (0..<count).map { Self.memberName(name, $0) } } ?? [name]
    let old = members.filter { targets[$0] != nil }
    if old.isEmpty { return true }
    if afterChanges { return false }
    for member in old {
      for property in targets[member] ?? [] {
        guard let id = properties[ResolvedProperty(target: member, property: property).name] else { continue }
        if !engine.animations(on: id).isEmpty { return false }
      }
    }
    return true
  }

  /// The names of the targets declared inside `statement`'s blocks, at any depth (a loop's
  /// or an `if`'s: nowhere else may a target be declared but at the top level).
  private static func nestedTargetNames(in statement: Statement) -> [String] {
    statement.kind.nestedBlocks.flatMap { block in
      block.statements.flatMap { inner -> [String] in
        if case .target(let declaration) = inner.kind { return [declaration.name.text] }
        return nestedTargetNames(in: inner)
      }
    }
  }

  /// Whether a statement only declares a constant (`let` or `curve`): running it reads
  /// nothing and changes nothing a target's declaration touches.
  private static func isConstantDeclaration(_ statement: Statement, _ context: ProgramContext) -> Bool {
    switch statement.kind {
    case .letBinding(let declaration): return context.facts.constant(of: declaration.value) != nil
    case .curve(let declaration): return context.facts.constant(of: declaration.value) != nil
    default: return false
    }
  }

  /// Runs a session's input that `planEntry` checked clean against `environment` (the
  /// session's declarations before it), as `run(_:of:at:delivering:stoppingWhen:)` runs
  /// it whole: catching up to `now` first (which may stop part-way: the input then runs at
  /// the instant reached), then, when the plan allows (made again if catching up moved the
  /// runtime), reading it again statement by statement and running each as it comes,
  /// handing output to `deliver` as it comes; else parsing and checking it whole and
  /// running that.
  /// - Returns: whether the engine reached `now` before the input ran, and the session's
  ///   declarations after it, from this reading (the plan's are `plan.environment`: a
  ///   caller that lets those go before this keeps one set of the input's declarations in
  ///   memory, not two).
  @discardableResult
  package func runEntry(
    _ source: SourceText, planned plan: EntryPlan, in environment: Environment, at now: Nanoseconds,
    delivering deliver: ([RuntimeOutput]) -> Void, stoppingWhen shouldStop: () -> Bool = { false }
  ) -> (reached: Bool, environment: Environment) {
    var reached = true
    if engine.now < now { reached = advance(to: now, delivering: deliver, stoppingWhen: shouldStop) }
    if engine.now == plan.time || planEntry(source, in: environment) != nil {
      var reader = CheckedStatementReader(source, in: environment, mode: .session)
      let read = withoutActuallyEscaping(deliver) { deliver in
        runStatementByStatement(&reader, of: source, delivering: deliver)
      }
      // (The plan read the same statements of the same runtime and found nothing in the way.)
      assert(read != nil, "an input planned to run statement by statement could not be")
      return (reached, reader.environment)
    }
    var checked = environment
    let result = parseAndCheck(source, in: &checked, mode: .session)
    guard result.isRunnable, let program = result.program else { return (reached, environment) }
    let output = run(program, of: source, at: engine.now)
    if !output.isEmpty { deliver(output) }
    return (reached, checked)
  }
}
