// Runtime: plays a checked program on the engine.
//
// The top level of a script is the root timeline: each statement runs at its time (now, or
// after `at`/`wait`) as a callback on the engine, so statements, handlers and animation
// events interleave in the engine's one exact order. Timelines are built on the engine when
// first played: their items become animations, nested groups and callbacks placed by the
// language's rules. The engine's events come back here, where they become trace records and
// run the script's handlers at their exact time.

import AnimCore
import AnimLanguage

/// A runtime error: a message at a place in a source, at an engine time.
public struct RuntimeError: Error, Sendable {
  public var message: String
  public var span: SourceSpan
  public var time: Nanoseconds

  /// The diagnostic to print: the message with the time it happened.
  public var diagnostic: Diagnostic {
    .error("\(message) (at \(TraceNumber.seconds(time))s)", at: span)
  }
}

/// What a run reports: trace records, and runtime errors with the source they point into.
public enum RuntimeOutput: Sendable {
  case record(TraceRecord)
  case error(RuntimeError, SourceText)
  /// An expression typed alone (in the REPL): its text and value, `b.x = 40`.
  case value(name: String, value: String)
  /// A sentence about what a statement did to the session (in the REPL: a target
  /// redeclared), `target card redeclared: 2 animations ended, 1 handler removed`.
  case note(String)
}

/// Plays checked programs on one engine.
public final class Runtime {
  // The properties marked `@exclusivity(unchecked)` are those read or changed for every
  // statement or target a script runs. Each access to a class's stored property is checked
  // at run time for an overlapping one (`swift_beginAccess`, about 75 instructions): the
  // main thread of a trace of a script of targets made twelve a target, a ninth of its
  // instructions (the package cannot turn the checks off for the module, an unsafe flag).
  // A runtime is used by one thread at a time, and none of these is reached through
  // another while it is being changed (what the checks would catch).
  /// The engine everything plays on.
  @exclusivity(unchecked) public internal(set) var engine = Runtime.makeEngine()

  /// How values and times a session is shown are written: exact (the trace's spelling), or
  /// short for a person at a terminal. Traces and records are always exact.
  package var numberStyle = TraceNumber.Style.exact

  /// An engine whose own limit on a chain at one instant (in rounds of events) stays behind
  /// the runtime's, which counts handler runs (`handlerRunLimitPerInstant`), each of which
  /// takes a round or two.
  static func makeEngine() -> AnimationEngine {
    var engine = AnimationEngine()
    engine.roundLimitPerInstant = 4 * handlerRunLimitPerInstant
    return engine
  }

  /// Properties by `T.p`, in their order of declaration.
  @exclusivity(unchecked) var properties = PropertyTable()
  /// The properties' names `T.p`, in their order of declaration.
  public var propertyNames: [String] { properties.names }
  /// `T.p` by property, built from `properties` on first use after they change (events
  /// name their property by id, many times a second).
  @exclusivity(unchecked) var namesByProperty = NamesByProperty()
  /// Counts the changes of `properties` (a property added, or a name given a new id), so
  /// that samplers can keep ids they looked up until it moves.
  @exclusivity(unchecked) var propertyGeneration = 0
  /// The names and ids of the properties in order, as of `sampledIDsGeneration`.
  var sampledNames: [String] = []
  var sampledIDs: [PropertyID] = []
  var sampledIDsGeneration = -1
  /// Target names and their properties in order (a group's members are targets `G[k]`).
  var targets: [String: [String]] {
    get {
      takeNewTargets()
      return knownTargets
    }
    _modify {
      takeNewTargets()
      yield &knownTargets
    }
  }
  /// `targets`, but for the names in `newTargets`.
  @exclusivity(unchecked) var knownTargets: [String: [String]] = [:]
  /// Targets declared new (`declareTarget`), in order, that `targets` takes at its next use:
  /// a script declaring a million targets spent a tenth of its trace putting each in the
  /// dictionary (its hashing, and its growth), which a trace never reads.
  @exclusivity(unchecked) var newTargets = NewTargets()
  /// The entry (position in `entries`) that declared every target in `targets`, when one
  /// did: a target that entry has not declared yet is then new, with no look-up.
  @exclusivity(unchecked) var entryOfEveryTarget: Int?

  /// Puts `newTargets` in `knownTargets`, in order: at the next use of `targets`, and before
  /// anything moves or removes a name in `properties`, where `newTargets` reads its names.
  func takeNewTargets() {
    guard !newTargets.isEmpty else { return }
    newTargets.forEach(in: properties) { knownTargets[$0] = $1 }
    newTargets = NewTargets()
  }
  /// Whether each property's target is in `targets`, so that a target not there has no
  /// property yet (`declareTarget` adds its names without looking them up): always, but in
  /// a runtime read from a saved session, whose file might say otherwise.
  @exclusivity(unchecked) var targetsListEveryProperty = true
  /// The list of properties of the target declared last, which the next one with the same
  /// properties shares.
  @exclusivity(unchecked) var lastPropertyList: [String] = []
  /// The list `declareTarget` holds a declaration's values in, empty between declarations.
  @exclusivity(unchecked) var declarationValues: [AnimationValue?] = []
  /// Each timeline's one-time pause point (`pause X at A`): the key of its callback's action
  /// (a replaced point's action is dropped, so its callback, left in the timeline, does
  /// nothing; no node is removed from the engine for it).
  var pausePoints: [NodeID: Int] = [:]
  /// The groups and their numbers of members.
  @exclusivity(unchecked) var groups: [String: Int] = [:]
  /// For each member property, its group's property `G.p` (whose handlers hear it).
  var groupPropertyOf: [PropertyID: String] = [:]
  /// How many members of each group property `G.p` are animating now (absent: none).
  var groupAnimating: [String: Int] = [:]
  /// The targets declared with a kind (absent: a rect), with the program their text is read in.
  @exclusivity(unchecked) var targetKinds: [String: (declaration: TargetDeclaration, program: ProgramContext)] = [:]
  /// The targets the entry being run has declared so far: declaring one again in a later
  /// entry (the REPL) is a redeclaration; its own run of the declaration is not.
  @exclusivity(unchecked) var declaredInEntry = Set<String>()
  /// `let` values.
  var values: [String: RuntimeValue] = [:]
  /// Whether `values` keeps a `let` whose value the checker found constant. Every use of
  /// such a name is a constant too, which evaluation reads from the checker's facts, so only
  /// a session that may be saved (whose file lists every value) needs it; a script started
  /// statement by statement does not keep it (a script of a million `let`s would keep them
  /// all for nothing).
  @exclusivity(unchecked) var keepsConstantValues = true
  /// `curve` declarations.
  var curves: [String: TimingCurve] = [:]
  /// Declared timelines, and their engine nodes once played.
  var timelines: [String: DeclaredTimeline] = [:]
  /// Engine top-level timeline node → name, for reporting its events.
  var timelineNames: [NodeID: String] = [:]
  /// Handlers by event.
  var lifecycleHandlers: [HandlerKey: [Handler]] = [:]
  var customHandlers: [String: [Handler]] = [:]
  /// What each engine callback key does.
  var actions = ActionTable<Action>()
  @exclusivity(unchecked) var nextKey = 0
  /// Animations whose values are evaluated when they start.
  var pendingValues: [NodeID: PendingValues] = [:]
  /// What has happened since the last call that returned output.
  @exclusivity(unchecked) var output: [RuntimeOutput] = []
  /// Every program run, in order (a saved session re-checks them to rebuild its syntax).
  @exclusivity(unchecked) var entries: [SourceText] = []
  /// Handler invocations abandoned by a runtime error.
  var abandoned: Set<Int> = []
  var nextInvocation = 0
  var chain = ChainCount()
  /// Whether any runtime error happened.
  package private(set) var hadErrors = false
  /// The engine time of the last event handled.
  @exclusivity(unchecked) package internal(set) var lastActivity: Nanoseconds = 0
  /// The engine time of the last thing done that will not happen again by itself: a
  /// statement or `emit` run, or an animation or timeline on the root completing. When only
  /// endless playback is left, that is the moment the run turned endless.
  @exclusivity(unchecked) package internal(set) var lastFiniteActivity: Nanoseconds = 0
  /// Animations started by statements (on the root), for `lastFiniteActivity`.
  var standaloneNodes = LiveNodeSet()
  /// Whether a control statement that runs is reported (`TraceRecord.control`).
  package var recordsControls = false
  /// Whether animations starting widen their property's gauge: only a view that draws
  /// gauges asks (`anim run`), so the trace and the REPL do not pay for it on each start.
  package var tracksGauges = false
  /// Each number property's gauge so far: see `Runtime+Gauges.swift`.
  var numberGauges: [PropertyID: Gauge] = [:]

  struct DeclaredTimeline {
    /// The span of its `timeline` statement in its program's source. Its tree is not held
    /// (a script may declare a hundred thousand timelines, each tree about 1 KB): it is read
    /// again from there when the timeline is built (`declaration`), the same tree, so its
    /// facts by span apply.
    var span: SourceSpan
    var program: ProgramContext
    /// Its node and labels, once built: in a box of their own, so that a timeline not
    /// played takes 24 bytes here, not 40.
    private var built: Built?

    /// Never changed once made (a change makes a new one), so that copies stay apart.
    private final class Built {
      let node: NodeID?
      let labels: [String: Nanoseconds]

      init(node: NodeID?, labels: [String: Nanoseconds]) {
        self.node = node
        self.labels = labels
      }
    }

    init(span: SourceSpan, program: ProgramContext, node: NodeID? = nil, labels: [String: Nanoseconds] = [:]) {
      self.span = span
      self.program = program
      setBuilt(node: node, labels: labels)
    }

    /// Its engine node once played.
    var node: NodeID? {
      get { built?.node }
      set { setBuilt(node: newValue, labels: labels) }
    }

    /// Its labels' times in its own time, once it is built.
    var labels: [String: Nanoseconds] {
      get { built?.labels ?? [:] }
      set { setBuilt(node: node, labels: newValue) }
    }

    private mutating func setBuilt(node: NodeID?, labels: [String: Nanoseconds]) {
      built = node == nil && labels.isEmpty ? nil : Built(node: node, labels: labels)
    }

    /// Its declaration, read again from its program's source.
    var declaration: TimelineDeclaration {
      guard case .timeline(let declaration)? = reparseStatement(of: program.source, at: span)?.kind else {
        // (Never: the statement was read clean from these very bytes.)
        preconditionFailure("the timeline declared at \(span) could not be read again")
      }
      return declaration
    }
  }

  struct HandlerKey: Hashable {
    var kind: LifecycleEvent
    var subject: String
  }

  struct Handler {
    var body: Block
    var program: ProgramContext
    /// The `on` statement, where its errors point.
    var span: SourceSpan
  }

  /// More handler runs than this at one instant is an error (grammar.md § Events, the chain limit,
  /// counted in handler runs: a chain that doubles itself reaches it as fast as a loop).
  package static let handlerRunLimitPerInstant = 10_000

  /// The handler runs at one instant, for the chain limit.
  struct ChainCount {
    var instant: Nanoseconds = .min
    var runs = 0
    /// The chain passed the limit at `instant`: what it would still do there is dropped.
    var isStopped = false
    /// The last handler run at `instant`, where an error about the chain points.
    var lastHandler: Handler?
  }

  /// An input the runtime reads (a script, a REPL entry, a loaded file): its source and its
  /// position in `entries`, one object for every context of its statements. A script read
  /// statement by statement holds a context for each statement it keeps for later (a
  /// hundred thousand, in a script of `at`-placed animations): in each, the source (four
  /// words) and the position took 40 of its 96 bytes.
  final class ProgramInput {
    let source: SourceText
    /// Its position in `entries`.
    let entry: Int

    init(source: SourceText, entry: Int) {
      self.source = source
      self.entry = entry
    }
  }

  /// A program the runtime ran (or, for a script run statement by statement, one of its
  /// statements), which its scheduled statements, handlers and timelines point back into:
  /// what the checker resolved about it, and its source. A class: every scheduled statement
  /// holds one, and copying the program's tables into each (a dozen reference counts) was a
  /// good part of the runtime's cost per animation.
  final class ProgramContext {
    let facts: ResolvedFacts
    /// Its source and its position in `entries`, shared by the contexts of one input.
    let input: ProgramInput
    /// The locals a statement run in this context sees (a handler's run, a loop's pass, an
    /// `if` branch); nil at a program's top level and in a timeline outside any loop.
    let locals: LocalFrame?

    var source: SourceText { input.source }
    /// Its position in `entries`.
    var entry: Int { input.entry }

    init(facts: ResolvedFacts, input: ProgramInput, locals: LocalFrame? = nil) {
      self.facts = facts
      self.input = input
      self.locals = locals
    }

    convenience init(facts: ResolvedFacts, source: SourceText, entry: Int, locals: LocalFrame? = nil) {
      self.init(facts: facts, input: ProgramInput(source: source, entry: entry), locals: locals)
    }

    /// The same program, seeing `locals`.
    func with(locals: LocalFrame) -> ProgramContext {
      ProgramContext(facts: facts, input: input, locals: locals)
    }
  }

  /// The names one run of a block binds (a handler's run, a loop's pass, an `if` branch: its
  /// loop variable and its `var`s), inside the frame of the block around it. A class: the
  /// statements a run schedules for later all hold it, and an assignment by one of them is
  /// seen by the others, as a closure's captured variables are.
  final class LocalFrame {
    var values: [String: RuntimeValue]
    let parent: LocalFrame?

    init(parent: LocalFrame?, values: [String: RuntimeValue] = [:]) {
      self.parent = parent
      self.values = values
    }

    /// The value of the innermost local named `name`.
    func value(of name: String) -> RuntimeValue? {
      var frame: LocalFrame? = self
      while let current = frame {
        if let value = current.values[name] { return value }
        frame = current.parent
      }
      return nil
    }

    /// Assigns the innermost local named `name`; false when there is none.
    func assign(_ value: RuntimeValue, to name: String) -> Bool {
      var frame: LocalFrame? = self
      while let current = frame {
        if current.values[name] != nil {
          current.values[name] = value
          return true
        }
        frame = current.parent
      }
      return false
    }
  }

  enum Action {
    /// Run a statement (at the top level or in a handler) at the instant it comes due. A
    /// handler's statements share an invocation: an error abandons the rest of it.
    case statement(Statement, ProgramContext, invocation: Int?)
    /// Run a top-level statement of a script read statement by statement, held for later:
    /// its tree is read again from its input's source at its span when it comes due
    /// (`reparseStatement`: the same tree, so its facts by span apply), and held until
    /// then as that span (a script may hold a hundred thousand `at 2s animate t.y to 1
    /// over 250ms`, whose tree took about 250 bytes each).
    case reread(SourceSpan, ProgramContext)
    /// A timeline's `print`, `emit`, control or `set` item.
    case item(Statement, ProgramContext)
    /// A queued `emit`: its handlers run.
    case emit(String, SourceSpan, ProgramContext)
    /// A block that stopped at a loop or an `if` due later goes on (`BlockWalk`).
    case resume(BlockWalk)
    /// A timeline's one-time pause point was reached (`pause X at A`): the timeline, and the
    /// time in it.
    case pausePoint(NodeID, at: Nanoseconds)
  }

  struct PendingValues {
    var from: Expression?
    var values: [Expression]
    var program: ProgramContext
    /// The `animate` or `keyframes` statement they come from.
    var statementSpan: SourceSpan
    /// The handler run of that statement, if any: a failure abandons the rest of it.
    var invocation: Int?
  }

  public init() {}

  // MARK: - Running

  /// Runs a program's top-level statements from engine time `now` (the start of a script,
  /// or the moment a REPL entry is typed): each statement at its time, in order.
  public func run(_ program: CheckedProgram, of source: SourceText, at now: Nanoseconds) -> [RuntimeOutput] {
    let context = ProgramContext(facts: program.resolved, source: source, entry: entries.count)
    entries.append(source)
    if engine.now < now { advanceQuietly(to: now) }
    createTargets(in: program.file.statements, context)
    schedule(program.file.statements, from: engine.now, context, mode: .topLevel)
    // What is due now runs now.
    advanceQuietly(to: engine.now)
    return takeOutput()
  }

  /// Advances to engine time `time`, running everything due on the way.
  public func advance(to time: Nanoseconds) -> [RuntimeOutput] {
    advanceQuietly(to: time)
    return takeOutput()
  }

  /// About how many outputs a streamed advance gathers before handing them over.
  package static let outputPiece = 256

  /// Advances toward engine time `time` as `advance(to:)` does, but hands the output over
  /// as it comes, in pieces of about `outputPiece` outputs between instants (and the rest at
  /// the end), so that however long the advance, nothing accumulates; and between instants
  /// asks `shouldStop` whether to stop there. The outputs, in order, are exactly those
  /// `advance(to:)` returns.
  /// - Parameters:
  ///   - deliver: takes each piece of output, in order. It must not call the runtime (the
  ///     engine is out of it while it advances).
  ///   - shouldStop: asked between instants; true leaves the runtime at the last instant it
  ///     finished (`engine.now`), as if it had been advanced to there.
  /// - Returns: whether it reached `time`.
  @discardableResult
  package func advance(
    to time: Nanoseconds, delivering deliver: ([RuntimeOutput]) -> Void,
    stoppingWhen shouldStop: () -> Bool = { false }
  ) -> Bool {
    let reached = advanceQuietly(to: time) {
      if self.output.count >= Self.outputPiece { deliver(self.takeOutput()) }
      return shouldStop()
    }
    let rest = takeOutput()
    if !rest.isEmpty { deliver(rest) }
    return reached
  }

  /// Runs a program as `run(_:of:at:)` does, handing its output over as
  /// `advance(to:delivering:stoppingWhen:)` does. Only catching up to `now` can stop part-way
  /// (then the program runs at the instant reached); what is due at that instant all runs.
  /// - Returns: whether the engine reached `now` before the program ran.
  @discardableResult
  package func run(
    _ program: CheckedProgram, of source: SourceText, at now: Nanoseconds,
    delivering deliver: ([RuntimeOutput]) -> Void, stoppingWhen shouldStop: () -> Bool = { false }
  ) -> Bool {
    var reached = true
    if engine.now < now { reached = advance(to: now, delivering: deliver, stoppingWhen: shouldStop) }
    let output = run(program, of: source, at: engine.now)
    if !output.isEmpty { deliver(output) }
    return reached
  }

  func takeOutput() -> [RuntimeOutput] {
    defer { output = [] }
    return output
  }

  /// - Returns: whether it reached `time` (false: `shouldStop` stopped it at an instant
  ///   before).
  @discardableResult
  func advanceQuietly(to time: Nanoseconds, stoppingWhen shouldStop: () -> Bool = { false }) -> Bool {
    // The engine hands each event to the handler with itself `inout`; the handlers work on
    // `self.engine`. Swapping the live engine in and out (O(1), no copy of its storage)
    // lets them, with one owner of the storage at any moment.
    var live = engine
    engine = AnimationEngine()
    defer { engine = live }
    do {
      return try live.advance(to: time, stoppingWhen: shouldStop) { engine, event in
        self.handle(event, lending: &engine)
      }
    } catch {
      hadErrors = true
      if chain.instant == live.now, let handler = chain.lastHandler {
        // A chain too long for the engine is a chain of handlers: the last one run says where.
        output.append(
          .error(RuntimeError(message: error.description, span: handler.span, time: live.now), handler.program.source))
      } else {
        output.append(
          .error(
            RuntimeError(message: error.description, span: SourceSpan(at: 0), time: live.now),
            SourceText(name: "<engine>", contents: "")))
      }
      // (The engine stays at the instant of the error; the next advance goes on from there.)
      return true
    }
  }

  /// Whether anything is still playing or due: an animation or timeline that is not paused
  /// and has an edge ahead, or a scheduled statement. A paused animation nothing will
  /// resume does not count.
  package var isIdle: Bool { !engine.hasPendingWork }

  /// How long a run without an end time may go on: a script still busy after 24 hours of
  /// engine time (a timeline that replays itself from its own `complete`) is stopped.
  package static let longestRun: Nanoseconds = 24 * 3600 * 1_000_000_000

  /// Where a run stands after everything due up to now has happened.
  package enum Progress: Sendable, Equatable {
    /// It goes on past now: what happened up to now may be written.
    case goesOn
    /// Nothing is playing and nothing is due: the run has ended.
    case ended
    /// Only playback that repeats for ever is left, with nothing scheduled that could stop
    /// it: the run never ends, and has not done anything else since `since`.
    case neverEnds(since: Nanoseconds)
    /// The run is still busy at `longestRun`.
    case tooLong
  }

  /// Where the run stands now, for a run with no end time.
  package var progress: Progress {
    if isIdle { return .ended }
    if !engine.hasPendingCallbacks && engine.hasEndlessPlayback && !hasFinitePlayback {
      return .neverEnds(since: lastFiniteActivity)
    }
    return engine.now >= Self.longestRun ? .tooLong : .goesOn
  }

  /// Whether an animation or timeline on the root that ends is still playing.
  var hasFinitePlayback: Bool {
    engine.topLevelNodes.contains { node in
      guard let status = try? engine.status(of: node) else { return false }
      return status.state == .playing && status.duration != nil && status.rate != 0
    }
  }

  /// The properties' current values, as `T.p` in declaration order.
  public func sample() -> [NamedValue] {
    if sampledIDsGeneration != propertyGeneration || sampledIDs.count != properties.count {
      sampledNames = properties.names
      sampledIDs = properties.idsInOrder
      sampledIDsGeneration = propertyGeneration
    }
    // One read of the engine (a copy of the value shares its storage), not one per property.
    let engine = self.engine
    var values: [NamedValue] = []
    values.reserveCapacity(sampledIDs.count)
    // The values the last advance computed (the engine keeps them): no evaluation again.
    for (name, id) in zip(sampledNames, sampledIDs) {
      values.append(NamedValue(name: name, value: engine.currentValue(of: id)))
    }
    return values
  }

  /// The engine's id of property `T.p`.
  public func propertyID(named name: String) -> PropertyID? {
    properties[name]
  }

  /// The value of `T.p` now.
  package func value(of name: String) -> AnimationValue? {
    properties[name].map { engine.value(of: $0) }
  }

  /// What the log says when the real clock skipped time (the process was stopped), which
  /// the engine treats as a pause.
  package static func clockGap(_ gap: Nanoseconds, at time: Nanoseconds) -> TraceRecord {
    .print(time: time, text: "(the clock skipped \(TraceNumber.seconds(gap))s: treated as a pause)")
  }

  /// Whether the session as a whole is held (a restored session, until a bare `resume`).
  /// While held, the embedder does not advance the engine: statements run at the held
  /// instant and move once it is released. A bare `resume` releases this hold and nothing
  /// else, so what the person had paused stays paused.
  package var isHeld = false
  /// What holds it, for `statusLines` (`:restore`, or a step on the stage).
  package var holdReason = ":restore"

  /// One line per animation and timeline: name, state, direction, speed, local time /
  /// duration, progress (the REPL's `:status`).
  package func statusLines() -> [String] {
    var lines: [String] = []
    if isHeld {
      lines.append(
        "the session is held at \(TraceNumber.seconds(engine.now, style: numberStyle))s since \(holdReason): "
          + "'resume' releases it (what was paused stays paused)")
    }
    for node in engine.topLevelNodes {
      guard let status = try? engine.status(of: node) else { continue }
      let name: String
      if let timeline = timelineNames[node] {
        name = "timeline \(timeline)"
      } else if let property = engine.property(of: node), let propertyName = propertyName(of: property) {
        name = "animation of \(propertyName)"
      } else {
        continue
      }
      let direction = status.rate < 0 ? "backwards" : "forwards"
      let duration = status.duration.map { TraceNumber.seconds($0, style: numberStyle) + "s" } ?? "forever"
      let progress = status.progress.map { " (\(TraceNumber.format(($0 * 1000).rounded() / 10))%)" } ?? ""
      // An animation shows its property's value now; one that repeats, its pass.
      var shown = name
      if !status.isTimeline, let property = engine.property(of: node) {
        shown += " = \(TraceNumber.text(engine.value(of: property), style: numberStyle))"
      }
      let passes =
        status.passCount == 1
        ? ""
        : ", pass \(status.pass) of \(status.passCount.isInfinite ? "forever" : TraceNumber.format(status.passCount))"
      // (A playhead carried by `tween` is paused, and moving.)
      let state = engine.isTweening(node) ? "paused, its playhead tweening" : status.state.rawValue
      lines.append(
        "\(shown): \(state), \(direction), speed \(TraceNumber.format(abs(status.rate)))\(passes), "
          + "\(TraceNumber.seconds(status.localTime, style: numberStyle))s / \(duration)\(progress)")
    }
    return lines
  }

  /// Reports a runtime error at `span`.
  func fail(_ message: String, at span: SourceSpan, _ context: ProgramContext) {
    hadErrors = true
    output.append(.error(RuntimeError(message: message, span: span, time: engine.now), context.source))
  }

  func record(_ record: TraceRecord) {
    output.append(.record(record))
  }

  func newKey(_ action: Action) -> Int {
    nextKey += 1
    actions[nextKey] = action
    return nextKey
  }

  // MARK: - Engine events

  /// Whether handling `event` reads or changes the engine beyond the event's time: a
  /// statement or an item to run, values to resolve, a handler to start, a group's event, a
  /// gauge, a timeline's bookkeeping. A start or complete that no handler waits for needs
  /// none of it, and `advanceQuietly` hands it over without the engine (two swaps of the
  /// whole engine at every event were a twentieth of runtime.sample.mixed).
  func needsEngine(for event: EngineEvent) -> Bool {
    switch (event.kind, event.subject) {
    case (.start, .property), (.complete, .property):
      return !lifecycleHandlers.isEmpty || !groupPropertyOf.isEmpty
    case (.start, .node(let id)), (.complete, .node(let id)):
      return tracksGauges || timelineNames[id] != nil
    default:
      return true
    }
  }

  /// Handles `event` from an engine that hands itself over `inout` (an advance, a finish)
  /// while `self.engine` is away: the engine goes into `self.engine` for the handler, and
  /// back, only when the handler needs it (most starts and completes need nothing of it but
  /// their time, and the swaps move the whole engine, 624 bytes, each way).
  func handle(_ event: EngineEvent, lending engine: inout AnimationEngine) {
    guard needsEngine(for: event) else { return handle(event) }
    swap(&engine, &self.engine)
    handle(event)
    swap(&engine, &self.engine)
  }

  /// Handles what the engine reports at its time (`event.time`); reads `self.engine` only
  /// where `needsEngine(for:)` says so.
  func handle(_ event: EngineEvent) {
    lastActivity = event.time
    switch (event.kind, event.subject) {
    case (.callback, .engine):
      lastFiniteActivity = event.time
    case (.complete, .node(let id)) where timelineNames[id] != nil || standaloneNodes.remove(id):
      lastFiniteActivity = event.time
    default:
      break
    }
    switch (event.kind, event.subject) {
    case (.callback(let key), _):
      // A statement's key is used once; a timeline item's stays (it fires each time its
      // timeline crosses it).
      guard
        let action = actions.take(
          key,
          unless: {
            if case .item = $0 { return true }
            return false
          })
      else { return }
      perform(action)
    case (.needsValues, .node(let id)):
      resolveValues(of: id)
    case (.clockGap(let gap), _):
      record(Self.clockGap(gap, at: engine.now))
    case (let kind, .node(let id)):
      if kind == .start { widenGauge(for: id) }
      // A pause point at the very edge it completes at: it pauses there instead.
      if kind == .complete, timelineNames[id] != nil, !pausePoints.isEmpty, meetsPausePointAtItsEdge(id) { return }
      if let name = timelineNames[id] {
        lifecycle(kind, name, at: event.time)
      } else if kind == .repeat, let property = engine.property(of: id), let name = propertyName(of: property) {
        // A property's repeats are its animations' (its starts and completes are its own).
        lifecycle(kind, name, at: event.time)
        if !groupPropertyOf.isEmpty { groupLifecycle(kind, member: property) }
      }
    case (let kind, .property(let id)):
      guard let name = propertyName(of: id) else { return }
      lifecycle(kind, name, at: event.time)
      if !groupPropertyOf.isEmpty { groupLifecycle(kind, member: id) }
    default:
      break
    }
  }

  func propertyName(of id: PropertyID) -> String? {
    if namesByProperty.isEmpty && !properties.isEmpty { namesByProperty = NamesByProperty(properties) }
    return namesByProperty[id]
  }

  /// Records `subject`'s event of `kind` at `time` and starts the handlers waiting for it.
  func lifecycle(_ kind: EngineEvent.Kind, _ subject: String, at time: Nanoseconds) {
    let language: LifecycleEvent
    switch kind {
    case .start: language = .start
    case .repeat: language = .repeat
    case .complete: language = .complete
    default: return
    }
    record(.event(time: time, name: language.rawValue, subject: subject))
    // (Most events have no handler: no key to hash then.)
    guard !lifecycleHandlers.isEmpty else { return }
    for handler in lifecycleHandlers[HandlerKey(kind: language, subject: subject)] ?? [] { start(handler) }
  }

  /// Starts a run of `handler` now: its statements are scheduled from now. More than
  /// `handlerRunLimitPerInstant` runs at one instant is an error, at the handler that passes
  /// the limit; the rest of that chain at that instant is dropped and the run goes on.
  func start(_ handler: Handler) {
    countChain()
    if chain.isStopped { return }
    chain.runs += 1
    chain.lastHandler = handler
    if chain.runs > Self.handlerRunLimitPerInstant {
      chain.isStopped = true
      fail(
        "more than \(Self.handlerRunLimitPerInstant) handler runs at one instant: "
          + "handlers start each other without time passing; the rest of this chain is dropped",
        at: handler.span, handler.program)
      return
    }
    // A run's `var`s are its own.
    schedule(
      handler.body.statements, from: engine.now, handler.program.with(locals: LocalFrame(parent: nil)), mode: .handler)
  }

  /// Starts the count again at a new instant.
  func countChain() {
    if chain.instant != engine.now { chain = ChainCount(instant: engine.now) }
  }

  func perform(_ action: Action) {
    switch action {
    case .statement(let statement, let context, let invocation):
      if let invocation, abandoned.contains(invocation) { return }
      if invocation != nil, chain.isStopped {
        countChain()
        if chain.isStopped { return }  // part of the chain that went on too long
      }
      if !execute(statement, context, invocation: invocation), let invocation { abandoned.insert(invocation) }
    case .reread(let span, let context):
      guard let statement = reparseStatement(of: context.source, at: span) else {
        // (Never: the statement was read clean from these very bytes.)
        fail("internal error: the statement here could not be read again", at: span, context)
        return
      }
      execute(statement, context)
    case .item(let statement, let context):
      execute(statement, context)
    case .pausePoint(let node, let time):
      reachPausePoint(of: node, at: time)
    case .resume(let walk):
      if let invocation = walk.invocation, abandoned.contains(invocation) { return }
      if walk.invocation != nil, chain.isStopped {
        countChain()
        if chain.isStopped { return }
      }
      self.walk(walk)
    case .emit(let name, _, _):
      if chain.isStopped {
        countChain()
        if chain.isStopped { return }  // part of the chain that went on too long
      }
      record(.event(time: engine.now, name: name, subject: nil))
      for handler in customHandlers[name] ?? [] { start(handler) }
    }
  }
}
