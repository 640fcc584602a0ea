// Saving and restoring a whole runtime: the engine's state, every name, value, handler and
// scheduled statement, as versioned JSON.
//
// Syntax is not written out. Every program the runtime ran is kept as source text, and what
// refers to syntax (a handler's body, a scheduled statement, a timeline's declaration) is
// written as the program's number and the span of the statement. Restoring checks the
// programs again in order, in session mode, which rebuilds the same trees with the same
// spans, and finds each statement by its span. Anything that does not fit is refused, and
// nothing is changed until everything has been read.

import AnimCore
import AnimLanguage
import Foundation

/// Why a saved session cannot be restored: one line, whatever names the file holds.
package struct SessionRestoreError: Error, Sendable, CustomStringConvertible {
  package var description: String

  /// The sentence with what came from the file made safe to show: control characters
  /// (a name with a line break in it) escaped, and the whole cut to a line's length.
  init(saying text: String) {
    let shown = ShownText.escaped(text)
    description = shown.count <= 300 ? shown : String(shown.prefix(299)) + "…"
  }
}

extension Runtime {
  /// The format written; a file with another version is refused. 2: the engine's snapshot
  /// version 2. 3: curves are the engine's (`TimingCurve`), as the checker makes them; the
  /// frames of locals and the walks waiting at a loop or an `if`.
  package static let sessionFormatVersion = 3

  struct SavedSpan: Codable, Hashable {
    var entry: Int
    var start: Int
    var end: Int
  }

  struct SavedAction: Codable {
    enum Kind: String, Codable { case statement, item, emit, resume, pausePoint }
    var kind: Kind
    var at: SavedSpan
    var invocation: Int?
    var name: String?
    /// The frame of locals the statement sees (an index into `SavedSession.frames`).
    var frame: Int?
    /// A walk waiting at a loop or an `if` (`resume`).
    var walk: SavedWalk?
    /// A pause point's time in its timeline (`pausePoint`, whose timeline is `name`).
    var time: Nanoseconds?
  }

  struct SavedHandler: Codable {
    var kind: String?
    var subject: String
    var at: SavedSpan
  }

  struct SavedTimeline: Codable {
    var at: SavedSpan
    var node: NodeID?
    /// Its labels' times, once built (absent before).
    var labels: [String: Nanoseconds]?
    /// Its one-time pause point, if set: the callback in it and the time.
    var pausePoint: SavedPausePoint?
  }

  struct SavedPausePoint: Codable {
    /// The key of its action (among the saved actions).
    var key: Int
    var time: Nanoseconds
  }

  struct SavedSession: Codable {
    var format = "anim-session"
    var version: Int
    var entries: [SavedEntry]
    var engine: AnimationEngine
    var properties: [String: PropertyID]
    var propertyNames: [String]
    var targets: [String: [String]]
    var values: [String: SavedValue]
    var curves: [String: TimingCurve]
    var timelines: [String: SavedTimeline]
    var handlers: [SavedHandler]
    var actions: [Int: SavedAction]
    var nextKey: Int
    var pendingValues: [SavedPending]
    var abandoned: [Int]
    var nextInvocation: Int
    /// The frames of locals that scheduled statements and waiting walks hold, parents first
    /// (absent when there are none).
    var frames: [SavedFrame]?
    /// The groups (absent when there are none).
    var groups: SavedGroups?
    /// The targets declared with a kind, by the span of their name.
    var targetKinds: [String: SavedSpan]?
  }

  struct SavedEntry: Codable {
    var name: String
    var text: String
  }

  struct SavedPending: Codable {
    var node: NodeID
    var at: SavedSpan
    /// The frame of locals its values are read in (a group member's `index` and `count`, a
    /// loop's variable).
    var frame: Int?
  }

  /// What a session keeps of groups and target kinds.
  struct SavedGroups: Codable {
    /// Each group's number of members.
    var counts: [String: Int]
    /// How many members of each group property `G.p` are animating.
    var animating: [String: Int]
  }

  /// A `let` value; Codable through the language's constant values.
  struct SavedValue: Codable {
    var constant: ConstantValue
  }

  /// The whole runtime as JSON.
  package func sessionData() throws -> Data {
    func saved(_ span: SourceSpan, _ context: ProgramContext) -> SavedSpan {
      SavedSpan(entry: context.entry, start: span.start, end: span.end)
    }
    var handlers: [SavedHandler] = []
    for (key, list) in lifecycleHandlers {
      for handler in list {
        handlers.append(
          SavedHandler(kind: key.kind.rawValue, subject: key.subject, at: saved(handler.body.span, handler.program)))
      }
    }
    for (name, list) in customHandlers {
      for handler in list {
        handlers.append(SavedHandler(kind: nil, subject: name, at: saved(handler.body.span, handler.program)))
      }
    }
    var actions: [Int: SavedAction] = [:]
    var numbering = FrameNumbering()
    for (key, action) in self.actions.entries {
      switch action {
      case .statement(let statement, let context, let invocation):
        actions[key] = SavedAction(
          kind: .statement, at: saved(statement.span, context), invocation: invocation,
          frame: numbering.number(of: context.locals))
      case .reread(let span, let context):
        // (Restored as the statement it is, `.statement`.)
        actions[key] = SavedAction(
          kind: .statement, at: saved(span, context), invocation: nil, frame: numbering.number(of: context.locals))
      case .item(let statement, let context):
        actions[key] = SavedAction(
          kind: .item, at: saved(statement.span, context), frame: numbering.number(of: context.locals))
      case .emit(let name, let span, let context):
        actions[key] = SavedAction(kind: .emit, at: saved(span, context), name: name)
      case .pausePoint(let node, let time):
        // (Saved with its timeline, which says where.)
        guard let name = timelineNames[node] else { continue }
        actions[key] = SavedAction(
          kind: .pausePoint, at: saved(timelines[name]!.declaration.name.span, timelines[name]!.program),
          name: name, time: time)
      case .resume(let walk):
        let savedWalk = savedWalk(walk, numbering: &numbering)
        actions[key] = SavedAction(
          kind: .resume, at: savedWalk.levels.first?.at ?? SavedSpan(entry: 0, start: 0, end: 0),
          invocation: walk.invocation, walk: savedWalk)
      }
    }
    var session = SavedSession(
      version: Self.sessionFormatVersion,
      entries: entries.map { SavedEntry(name: $0.name, text: String(decoding: $0.bytes, as: UTF8.self)) },
      engine: engine, properties: Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.id) }),
      propertyNames: propertyNames, targets: targets,
      values: values.mapValues { SavedValue(constant: $0.constant) },
      curves: curves,
      timelines: timelines.mapValues { timeline in
        SavedTimeline(
          at: saved(timeline.declaration.name.span, timeline.program), node: timeline.node,
          labels: timeline.labels.isEmpty ? nil : timeline.labels,
          pausePoint: timeline.node.flatMap { node in
            pausePoints[node].map { key in SavedPausePoint(key: key, time: pausePointTime(of: node) ?? 0) }
          })
      },
      handlers: handlers, actions: actions, nextKey: nextKey,
      pendingValues: pendingValues.map {
        SavedPending(
          node: $0.key, at: saved($0.value.statementSpan, $0.value.program),
          frame: numbering.number(of: $0.value.program.locals))
      },
      abandoned: abandoned.sorted(), nextInvocation: nextInvocation,
      frames: nil,
      groups: groups.isEmpty ? nil : SavedGroups(counts: groups, animating: groupAnimating),
      targetKinds: targetKinds.isEmpty ? nil : targetKinds.mapValues { saved($0.declaration.name.span, $0.program) })
    session.frames = numbering.frames.isEmpty ? nil : numbering.frames
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(session)
  }

  /// A runtime rebuilt from `sessionData()`, and the declarations its programs make.
  package static func restored(from data: Data) throws(SessionRestoreError) -> (Runtime, Environment) {
    func refuse(_ why: String) -> SessionRestoreError { SessionRestoreError(saying: why) }
    // The version first, so that a newer file is refused for what it is.
    struct Header: Decodable {
      var format: String?
      var version: Int?
    }
    guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
      throw refuse("not a saved session (it is not JSON, or it is cut short)")
    }
    guard header.format == "anim-session", let version = header.version else {
      throw refuse("not a saved anim session")
    }
    guard version <= sessionFormatVersion else {
      throw refuse("saved by a newer anim (session format \(version); this one reads up to \(sessionFormatVersion))")
    }
    guard version == sessionFormatVersion else {
      throw refuse("saved by an older anim (session format \(version); this one reads \(sessionFormatVersion) only)")
    }
    let session: SavedSession
    do {
      session = try JSONDecoder().decode(SavedSession.self, from: data)
    } catch {
      throw refuse("the saved session is corrupt: \(whatIsWrong(error))")
    }
    let runtime = Runtime()
    var environment = Environment()
    var contexts: [ProgramContext] = []
    // Their trees, where the saved spans are found.
    var files: [SourceFile] = []
    for (index, entry) in session.entries.enumerated() {
      let source = SourceText(name: entry.name, contents: entry.text)
      let result = parseAndCheck(source, in: &environment, mode: .session)
      guard result.isRunnable, let program = result.program else {
        throw refuse("the saved session is corrupt: its input \(index + 1) no longer checks")
      }
      contexts.append(ProgramContext(facts: program.resolved, source: source, entry: index))
      files.append(program.file)
    }
    func statement(_ span: SavedSpan) throws(SessionRestoreError) -> (Statement, ProgramContext) {
      guard span.entry >= 0, span.entry < contexts.count,
        let found = findStatement(in: files[span.entry].statements, span)
      else { throw refuse("the saved session is corrupt: it names a statement that is not there") }
      return (found, contexts[span.entry])
    }
    runtime.entries = contexts.map(\.source)
    runtime.engine = session.engine
    runtime.engine.roundLimitPerInstant = Runtime.makeEngine().roundLimitPerInstant
    // (A list that disagrees with the table is refused below, `restoredFault`.)
    for name in session.propertyNames {
      guard let id = session.properties[name] else { continue }
      // (The table keeps an id in four bytes, `PropertyID.packed`: one that does not fit is
      // surely not the engine's, refused as `restoredFault` refuses one.)
      if id.packed == nil { throw refuse("the saved session is corrupt: property '\(name)' is not in the engine") }
      runtime.properties[name] = id
    }
    runtime.targets = session.targets
    runtime.targetsListEveryProperty = false
    runtime.values = session.values.mapValues { RuntimeValue($0.constant) }
    runtime.curves = session.curves
    for (name, saved) in session.timelines {
      let (found, context) = try timelineStatement(named: saved.at, contexts, files)
      guard case .timeline = found.kind else {
        throw refuse("the saved session is corrupt: timeline '\(name)'")
      }
      guard
        (saved.labels ?? [:]).values.allSatisfy({ $0 > -AnimationEngine.endOfTime && $0 < AnimationEngine.endOfTime })
      else {
        throw refuse("the saved session is corrupt: the labels of timeline '\(name)'")
      }
      runtime.timelines[name] = DeclaredTimeline(
        span: found.span, program: context, node: saved.node, labels: saved.labels ?? [:])
      if let node = saved.node { runtime.timelineNames[node] = name }
      if let point = saved.pausePoint {
        guard let node = saved.node, let action = session.actions[point.key], action.kind == .pausePoint,
          action.name == name
        else {
          throw refuse("the saved session is corrupt: the pause point of timeline '\(name)'")
        }
        runtime.pausePoints[node] = point.key
      }
    }
    for saved in session.handlers {
      guard saved.at.entry >= 0, saved.at.entry < contexts.count,
        let body = findBlock(in: files[saved.at.entry].statements, saved.at)
      else { throw refuse("the saved session is corrupt: a handler is not there") }
      let handler = Handler(body: body, program: contexts[saved.at.entry], span: body.span)
      if let kind = saved.kind {
        guard let event = LifecycleEvent(rawValue: kind) else {
          throw refuse("the saved session is corrupt: a handler's event '\(kind)' is not one")
        }
        runtime.lifecycleHandlers[HandlerKey(kind: event, subject: saved.subject), default: []].append(handler)
      } else {
        runtime.customHandlers[saved.subject, default: []].append(handler)
      }
    }
    guard let frames = restoredFrames(session.frames ?? []) else {
      throw refuse("the saved session is corrupt: a frame of local values is out of its range")
    }
    func seeing(_ frame: Int?, _ context: ProgramContext) throws(SessionRestoreError) -> ProgramContext {
      guard let frame else { return context }
      guard frame >= 0, frame < frames.count else { throw refuse("the saved session is corrupt: a frame") }
      return context.with(locals: frames[frame])
    }
    for (key, saved) in session.actions {
      switch saved.kind {
      case .statement:
        let (found, context) = try statement(saved.at)
        runtime.actions[key] = .statement(found, try seeing(saved.frame, context), invocation: saved.invocation)
      case .item:
        let (found, context) = try statement(saved.at)
        runtime.actions[key] = .item(found, try seeing(saved.frame, context))
      case .pausePoint:
        guard let name = saved.name, let node = runtime.timelines[name]?.node else {
          throw refuse("the saved session is corrupt: a pause point names no timeline that was played")
        }
        guard let time = saved.time, time > -AnimationEngine.endOfTime, time < AnimationEngine.endOfTime else {
          throw refuse("the saved session is corrupt: a pause point lies beyond the end of time")
        }
        runtime.actions[key] = .pausePoint(node, at: time)
      case .resume:
        guard let walk = saved.walk, !walk.levels.isEmpty, walk.invocation == saved.invocation else {
          throw refuse("the saved session is corrupt: a waiting block")
        }
        var levels: [BlockWalk.Frame] = []
        for level in walk.levels {
          guard level.at.entry >= 0, level.at.entry < contexts.count else {
            throw refuse("the saved session is corrupt: a waiting block")
          }
          let context = try seeing(level.frame, contexts[level.at.entry])
          let statements = files[level.at.entry].statements
          switch level.kind {
          case .block:
            guard
              let list = findStatementList(in: statements, level.at) ?? topLevelRest(of: statements, level.at),
              let index = level.index,
              index >= 0, index <= list.count
            else { throw refuse("the saved session is corrupt: a waiting block") }
            levels.append(.block(list, index: index, context))
          case .loop:
            guard let loop = findLoop(in: statements, level.at), let next = level.next, let end = level.end,
              next <= end, Int128(end) - Int128(next) <= Int128(loopPassLimit)
            else { throw refuse("the saved session is corrupt: a waiting loop") }
            levels.append(.loop(loop, next: next, end: end, context))
          }
        }
        guard walk.start > -AnimationEngine.endOfTime, walk.start < AnimationEngine.endOfTime,
          walk.cursor >= walk.start, walk.cursor < AnimationEngine.endOfTime
        else { throw refuse("the saved session is corrupt: a waiting block's time") }
        let restored = BlockWalk([], contexts[0], start: walk.start, invocation: walk.invocation)
        restored.frames = levels
        restored.cursor = walk.cursor
        restored.isDue = true  // (a saved walk waits for its turn)
        runtime.actions[key] = .resume(restored)
      case .emit:
        guard saved.at.entry >= 0, saved.at.entry < contexts.count, let name = saved.name else {
          throw refuse("the saved session is corrupt: an emit")
        }
        runtime.actions[key] = .emit(
          name, SourceSpan(start: saved.at.start, end: saved.at.end), contexts[saved.at.entry])
      }
    }
    for saved in session.pendingValues {
      let (found, statementContext) = try statement(saved.at)
      let context = try seeing(saved.frame, statementContext)
      switch found.kind {
      case .animate(let animate):
        runtime.pendingValues[saved.node] = PendingValues(
          from: animate.from, values: [animate.to], program: context, statementSpan: found.span)
      case .keyframes(let keyframes):
        runtime.pendingValues[saved.node] = PendingValues(
          from: nil, values: keyframes.keyframes.map(\.value), program: context, statementSpan: found.span)
      case .set(let set):
        runtime.pendingValues[saved.node] = PendingValues(
          from: nil, values: [set.value], program: context, statementSpan: found.span)
      default:
        throw refuse("the saved session is corrupt: an animation's values")
      }
    }
    if let saved = session.groups {
      for (group, count) in saved.counts {
        guard count >= 1, count <= 100_000, runtime.targets[group] == nil,
          (0..<count).allSatisfy({ runtime.targets[memberName(group, $0)] != nil })
        else { throw refuse("the saved session is corrupt: group '\(group)'") }
        runtime.groups[group] = count
        for index in 0..<count {
          for property in runtime.targets[memberName(group, index)] ?? [] {
            if let id = runtime.properties[ResolvedProperty(target: memberName(group, index), property: property).name]
            {
              runtime.groupPropertyOf[id] = group + "." + property
            }
          }
        }
      }
      for (property, moving) in saved.animating {
        let group = String(property.prefix { $0 != "." })
        guard let count = runtime.groups[group], moving >= 1, moving <= count else {
          throw refuse("the saved session is corrupt: the members animating of '\(property)'")
        }
        runtime.groupAnimating[property] = moving
      }
    }
    for (target, at) in session.targetKinds ?? [:] {
      guard at.entry >= 0, at.entry < contexts.count, let declaration = findTarget(in: files[at.entry].statements, at),
        declaration.name.text == target, declaration.kind != nil
      else { throw refuse("the saved session is corrupt: the kind of target '\(target)'") }
      runtime.targetKinds[target] = (declaration, contexts[at.entry])
    }
    runtime.nextKey = session.nextKey
    runtime.abandoned = Set(session.abandoned)
    runtime.nextInvocation = session.nextInvocation
    if let fault = runtime.restoredFault(session) { throw refuse("the saved session is corrupt: \(fault)") }
    return (runtime, environment)
  }

  /// Counters stay below this, so that they can count on for ever (2⁵³: a count that
  /// reaches it took longer than the age of the universe at a billion a second).
  static let counterLimit = 1 << 53

  /// What is wrong with a runtime just read from a file, beyond what its engine checked
  /// itself: names, references and counters; nil when nothing is.
  func restoredFault(_ session: SavedSession) -> String? {
    for (name, property) in session.properties where !engine.contains(property) {
      return "property '\(name)' is not in the engine"
    }
    let names = session.propertyNames
    guard Set(names).count == names.count, Set(names) == Set(session.properties.keys) else {
      return "the list of properties disagrees with their table"
    }
    for (target, names) in targets
    where names.contains(where: { properties[ResolvedProperty(target: target, property: $0).name] == nil }) {
      return "target '\(target)' has a property that is not there"
    }
    for (name, timeline) in timelines {
      if let node = timeline.node, (try? engine.status(of: node))?.isTimeline != true {
        return "timeline '\(name)' is not in the engine"
      }
    }
    for node in pendingValues.keys where !engine.contains(node) {
      return "an animation waiting for its values is not in the engine"
    }
    guard nextKey >= 0, nextKey < Self.counterLimit, actions.entries.allSatisfy({ $0.key >= 0 && $0.key <= nextKey })
    else {
      return "its count of scheduled statements is out of range"
    }
    let invocations = session.actions.values.compactMap(\.invocation) + session.abandoned
    guard nextInvocation >= 0, nextInvocation < Self.counterLimit,
      invocations.allSatisfy({ $0 >= 0 && $0 <= nextInvocation })
    else {
      return "its count of handler runs is out of range"
    }
    for (name, curve) in curves where !RuntimeValue.curve(curve).isInDomain {
      return "curve '\(name)' is not one the language makes"
    }
    for (name, value) in values where !value.isInDomain {
      return "the value of '\(name)' is out of its range"
    }
    return nil
  }

  /// What a decoding error says, as the end of one sentence: where in the file, and what.
  static func whatIsWrong(_ error: any Error) -> String {
    func place(_ path: [any CodingKey]) -> String {
      var text = ""
      for key in path {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return text.isEmpty ? "the whole file" : "'\(text)'"
    }
    func oneLine(_ text: String) -> String {
      String(text.prefix(200).map { $0.isNewline ? " " : $0 })
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "\(place(context.codingPath + [key])) is missing"
    case DecodingError.valueNotFound(_, let context):
      return "\(place(context.codingPath)) is null"
    case DecodingError.typeMismatch(let type, let context):
      return "\(place(context.codingPath)) is not \(article(for: type))"
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
      // The header was read, so the file is JSON: Foundation says "not valid JSON" of a
      // number that does not fit its field, and does not say which.
      return "a number does not fit its field (out of range, or not a whole number)"
    case DecodingError.dataCorrupted(let context):
      // Our own descriptions: a curve's parameter out of its range, an iteration count.
      if context.debugDescription.hasPrefix("Cannot initialize") {
        return "\(place(context.codingPath)) is not one of the values it can take"
      }
      return "\(place(context.codingPath)): \(oneLine(context.debugDescription))"
    default:
      return oneLine(String(describing: error))
    }
  }

  private static func article(for type: Any.Type) -> String {
    switch type {
    case is Bool.Type: return "true or false"
    case is String.Type: return "a string"
    case is Int.Type, is Int32.Type, is Int64.Type, is UInt32.Type, is UInt64.Type, is UInt8.Type:
      return "a whole number in range"
    case is Double.Type: return "a number"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array") { return "a list" }
      if name.hasPrefix("Dictionary") { return "an object" }
      return "of the right kind"
    }
  }

  /// The timeline declaration whose name has span `span`.
  private static func timelineStatement(
    named span: SavedSpan, _ contexts: [ProgramContext], _ files: [SourceFile]
  ) throws(SessionRestoreError) -> (Statement, ProgramContext) {
    guard span.entry >= 0, span.entry < contexts.count else {
      throw SessionRestoreError(saying: "the saved session is corrupt: a timeline is not there")
    }
    for statement in files[span.entry].statements {
      if case .timeline(let declaration) = statement.kind, declaration.name.span.start == span.start,
        declaration.name.span.end == span.end
      {
        return (statement, contexts[span.entry])
      }
    }
    throw SessionRestoreError(saying: "the saved session is corrupt: a timeline is not there")
  }

  /// The statement with exactly this span, at any depth.
  static func findStatement(in statements: [Statement], _ span: SavedSpan) -> Statement? {
    for statement in statements {
      if statement.span.start == span.start && statement.span.end == span.end { return statement }
      for inner in statement.kind.nestedBlocks {
        if let found = findStatement(in: inner.statements, span) { return found }
      }
    }
    return nil
  }

  /// The statement list (a program's top level, or a block's at any depth) whose
  /// statements span exactly this.
  static func findStatementList(in statements: [Statement], _ span: SavedSpan) -> [Statement]? {
    if span.covers(statements) { return statements }
    for statement in statements {
      for inner in statement.kind.nestedBlocks {
        if let found = findStatementList(in: inner.statements, span) { return found }
      }
    }
    return nil
  }

  /// The top-level statements from the one `span` starts at to the last, when `span` ends
  /// with the last: the block that an input started statement by statement walks from its
  /// first top-level loop or `if` on (`runStatementByStatement`, Runtime+Start.swift).
  static func topLevelRest(of statements: [Statement], _ span: SavedSpan) -> [Statement]? {
    guard let last = statements.last, last.span.end == span.end,
      let first = statements.firstIndex(where: { $0.span.start == span.start })
    else { return nil }
    return Array(statements[first...])
  }

  /// The target declaration whose name is at exactly this span, at any depth.
  static func findTarget(in statements: [Statement], _ span: SavedSpan) -> TargetDeclaration? {
    for statement in statements {
      if case .target(let declaration) = statement.kind, declaration.name.span.start == span.start,
        declaration.name.span.end == span.end
      {
        return declaration
      }
    }
    return nil
  }

  /// The loop whose variable is at exactly this span, at any depth.
  static func findLoop(in statements: [Statement], _ span: SavedSpan) -> ForLoop? {
    for statement in statements {
      if case .loop(let loop) = statement.kind, loop.variable.span.start == span.start,
        loop.variable.span.end == span.end
      {
        return loop
      }
      for inner in statement.kind.nestedBlocks {
        if let found = findLoop(in: inner.statements, span) { return found }
      }
    }
    return nil
  }

  /// The block with exactly this span, at any depth.
  static func findBlock(in statements: [Statement], _ span: SavedSpan) -> Block? {
    for statement in statements {
      for inner in statement.kind.nestedBlocks {
        if inner.span.start == span.start && inner.span.end == span.end { return inner }
        if let found = findBlock(in: inner.statements, span) { return found }
      }
    }
    return nil
  }
}

extension RuntimeValue {
  /// Whether a value read from a file is one the language could have made: finite numbers,
  /// two to four components, colours in their ranges, curves as the checker makes them.
  var isInDomain: Bool {
    switch self {
    case .number(let x), .percent(let x): return x.isFinite
    case .duration(let ns): return ns > -AnimationEngine.endOfTime && ns < AnimationEngine.endOfTime
    case .vector(let v): return (2...4).contains(v.count) && v.allSatisfy(\.isFinite)
    case .color(let r, let g, let b, let a): return [r, g, b, a].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
    case .string, .boolean: return true
    case .curve(let c):
      // (Decoding made it by AnimCore's initialisers, which validate it.) A curve value
      // of the language is a spring at its own length: only an animation stretches it.
      if case .spring(let spring) = c { return spring.stretchedDuration == nil }
      return true
    }
  }

  /// The value as the language's constant (for saving).
  var constant: ConstantValue {
    switch self {
    case .number(let x): return .number(x)
    case .duration(let ns): return .duration(nanoseconds: ns)
    case .percent(let p): return .percent(p)
    case .vector(let v): return .vector(v)
    case .color(let r, let g, let b, let a): return .color(red: r * 255, green: g * 255, blue: b * 255, alpha: a)
    case .string(let s): return .string(s)
    case .curve(let c): return .curve(c)
    case .boolean(let b): return .boolean(b)
    }
  }
}
