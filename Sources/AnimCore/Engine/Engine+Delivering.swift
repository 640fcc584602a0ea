// Delivering: putting one instant's crossed events in the rule's order (grammar.md
// § Events) and handing them out, applying what each means to the engine.

extension AnimationEngine {
  /// Orders the events of one instant: completes, repeats, starts, then callbacks. Node
  /// events crossed forwards go in the order they were crossed (item order within a pass,
  /// what lies at the end of a pass before what lies at the next one's start); those crossed
  /// backwards in reversed item order within a pass, what lies at a pass's start before what
  /// lies at the end of the pass before (grammar.md § Events). A node that starts and
  /// completes at the one instant (a zero duration, or a negative delay that skips it all)
  /// fires its own start and then its own complete, together, where its start goes.
  /// Callbacks go in the order the playhead crossed them.
  func order(_ crossed: inout [Crossed]) {
    // Item order, for the nodes crossed backwards, within each pass of each timeline above
    // them: the crossing order reversed would put what lies at the end of a pass before what
    // lies, earlier in item order, at the start of the pass after it; and what the playhead
    // crossed first, at the start of a pass, goes before what lies at the end of the pass
    // before it (grammar.md § Events: in time order), so that a zero-length item at a pass's
    // start does not take its property over from one the playhead reached after it.
    // (Ranked event by event, by sequence: one node may be crossed in two passes here.)
    var itemRank: [Int: Int] = [:]
    if crossed.contains(where: { !$0.forward && $0.kind != nil }) {
      var paths: [(sequence: Int, path: [Int])] = []
      for event in crossed where !event.forward && event.kind != nil {
        paths.append((event.sequence, itemPath(of: event.node, crossedAt: event.segment)))
      }
      paths.sort { $0.path.lexicographicallyPrecedes($1.path) }
      var rank = 0
      for (i, entry) in paths.enumerated() {
        if i > 0 && paths[i - 1].path != entry.path { rank += 1 }
        itemRank[entry.sequence] = rank
      }
    }
    // At the turn of an alternating pass, what the playhead crossed forwards at the end of
    // one pass goes before what it crossed backwards at the start of the next (in time order):
    // for each node event, the pass boundaries each timeline above it had crossed by then.
    var passes: [Int: [(timeline: Int32, steps: Int)]] = [:]
    if !passBoundaryLog.isEmpty && crossed.contains(where: { $0.forward && $0.kind != nil })
      && crossed.contains(where: { !$0.forward && $0.kind != nil })
    {
      for event in crossed where event.kind != nil {
        guard let index = try? resolve(event.node) else { continue }
        var chain: [(timeline: Int32, steps: Int)] = []
        var cursor = nodes[Int(index)].parent
        while cursor >= 0 {
          chain.append((cursor, passBoundaries(of: cursor, crossedBy: event.segment)))
          cursor = nodes[Int(cursor)].parent
        }
        passes[event.sequence] = chain
      }
    }
    Self.order(&crossed, itemRank: itemRank, passes: passes)
  }

  /// `order(_:)` with the item order of the events of nodes crossed backwards given, by
  /// their sequence (0 first), and for events crossed both ways at one instant, the pass
  /// boundaries each timeline above each had crossed when it was crossed (nearest first).
  static func order(
    _ crossed: inout [Crossed], itemRank: [Int: Int], passes: [Int: [(timeline: Int32, steps: Int)]] = [:]
  ) {
    let paired = comingAndGoing(crossed)
    func key(_ event: Crossed) -> (rank: Int, segment: Int, place: Int, after: Int, sequence: Int) {
      // Backwards, a node's place is its item order reversed, before anything crossed
      // forwards (whose places are their sequences, from 0).
      let backwardsPlace = event.kind == nil ? -event.sequence : -1 - (itemRank[event.sequence] ?? event.sequence)
      if event.kind == .complete, let start = paired[Passage(node: event.node, forward: event.forward)] {
        return (NodeEventKind.start.rank, 0, event.forward ? start : backwardsPlace, 1, 0)
      }
      return (
        event.kind?.rank ?? 3, event.kind == nil ? event.segment : 0, event.forward ? event.sequence : backwardsPlace,
        0,
        event.forward ? 0 : -event.sequence
      )
    }
    if passes.isEmpty {
      crossed.sort { key($0) < key($1) }
      return
    }
    crossed.sort { a, b in
      let (ka, kb) = (key(a), key(b))
      if ka.rank != kb.rank { return ka.rank < kb.rank }
      if a.forward != b.forward, let chainA = passes[a.sequence], let chainB = passes[b.sequence] {
        // (The nearest timeline above both that had crossed a boundary between them.)
        for (timeline, steps) in chainA {
          guard let other = chainB.first(where: { $0.timeline == timeline }) else { continue }
          if steps != other.steps { return steps < other.steps }
        }
      }
      return ka < kb
    }
  }

  /// A node's place in item order: its top-level node's order, then its index among its
  /// timeline's items at each level down (the order the items were added in), each index
  /// after the number of pass boundaries, negated, that its timeline had crossed at this
  /// instant when the node was crossed (`segment`, the count `passBoundaryLog` notes): sorted
  /// and reversed, as backwards crossings are, the pass crossed first comes first.
  func itemPath(of id: NodeID, crossedAt segment: Int = 0) -> [Int] {
    guard let index = try? resolve(id) else { return [] }
    var path: [Int] = []
    var cursor = index
    while nodes[Int(cursor)].parent >= 0 {
      let parent = nodes[Int(cursor)].parent
      path.append(timelines[Int(nodes[Int(parent)].payload)].children.firstIndex(of: cursor) ?? 0)
      path.append(-passBoundaries(of: parent, crossedBy: segment))
      cursor = parent
    }
    path.append(Int(nodes[Int(cursor)].order))
    return path.reversed()
  }

  /// A node crossed one way.
  struct Passage: Hashable {
    var node: NodeID
    var forward: Bool
  }

  /// The nodes that start and then complete, crossed the same way, among one instant's
  /// events (in crossing order), with their start's sequence, for each way. (Not a node that
  /// completes and then starts again: a timeline's child at its pass boundary, or one
  /// turning back. One that comes and goes both ways at one instant, at the boundary of an
  /// alternating pass, is paired each way.)
  static func comingAndGoing(_ crossed: [Crossed]) -> [Passage: Int] {
    // (With no complete, none: many animations starting at one instant and nothing ending,
    // as a script's placements at time 0, made a table of every start, 2 % of a trace.)
    guard crossed.contains(where: { $0.kind == .complete }) else { return [:] }
    var starts: [Passage: Int] = [:]
    var paired: [Passage: Int] = [:]
    for event in crossed {
      let passage = Passage(node: event.node, forward: event.forward)
      if event.kind == .start {
        starts[passage] = event.sequence
      } else if event.kind == .complete, let start = starts[passage] {
        paired[passage] = start
      }
    }
    return paired
  }

  /// Hands out the events of one instant, in order. A property that one animation leaves
  /// and another takes later at the same instant (a sequence handing over, also to an
  /// animation of no length) does not come to rest: its complete and start are not fired.
  mutating func deliver(
    _ events: [Crossed], _ handle: (inout AnimationEngine, EngineEvent) -> Void, leavingRest: inout [PropertyID]
  ) {
    // Only an instant with both a start and a complete can hand a property over.
    var hasStart = false
    var hasComplete = false
    for event in events {
      if event.kind == .start { hasStart = true } else if event.kind == .complete { hasComplete = true }
    }
    // For each property, where the last start of an animation on it comes.
    var starting: [PropertyID: Int] = [:]
    if hasStart && hasComplete {
      for (position, event) in events.enumerated() where event.kind == .start {
        if let index = try? resolve(event.node), nodes[Int(index)].kind == .effect {
          starting[effectProperty(of: index)] = position
        }
      }
    }
    // (Each with the direction of the crossing that took its animation away: a property's
    // `complete` goes the way of the crossing that brought it to rest, grammar.md § Events.)
    var handedOver: [PropertyID: Bool] = [:]
    for (position, event) in events.enumerated() {
      deliver(
        event, handle, handsOver: { starting.isEmpty ? false : (starting[$0].map { $0 > position } ?? false) },
        handedOver: &handedOver, leavingRest: &leavingRest)
    }
    for (property, forward) in handedOver.sorted(by: { $0.key < $1.key }) where !isAnimating(property) {
      handle(&self, EngineEvent(kind: .complete, subject: .property(property), time: now, isReversed: !forward))
    }
    armBackwardsFillsOfNewPasses(events)
  }

  /// Applies what an event means to the engine (an animation taking its property, a value
  /// left as the base value), then hands it, and any property event it causes, to `handle`.
  mutating func deliver(
    _ event: Crossed, _ handle: (inout AnimationEngine, EngineEvent) -> Void, handsOver: (PropertyID) -> Bool,
    handedOver: inout [PropertyID: Bool], leavingRest: inout [PropertyID]
  ) {
    guard let index = try? resolve(event.node) else { return }
    let reversed = !event.forward
    guard let kind = event.kind else {
      handle(
        &self, EngineEvent(kind: .callback(event.key), subject: .node(event.node), time: now, isReversed: reversed))
      return
    }
    let node = nodes[Int(index)]
    var propertyEvent: (EngineEvent.Kind, PropertyID)?
    if node.kind == .effect {
      let property = effectProperty(of: index)
      switch kind {
      case .start:
        if needsValues(index) {
          handle(&self, EngineEvent(kind: .needsValues, subject: .node(event.node), time: now, isReversed: reversed))
          guard contains(event.node) else { return }
        }
        if activate(index, forward: event.forward) {
          // (The empty sets of the usual instant are not asked: asking hashes.)
          if handedOver.isEmpty || handedOver.removeValue(forKey: property) == nil {
            propertyEvent = (.start, property)
          }
        }
      case .complete:
        if complete(index, forward: event.forward) {
          if handsOver(property) {
            handedOver[property] = event.forward
          } else {
            propertyEvent = (.complete, property)
          }
        }
      case .repeat:
        break
      }
    } else if node.kind == .timeline, kind == .repeat {
      let direction = timing(of: node).direction
      if direction != .alternate && direction != .alternateReverse {
        if event.forward { rearmSets(in: index) } else { remaskSets(in: index) }
      }
    }
    let nodeKind: EngineEvent.Kind =
      switch kind {
      case .start: .start
      case .repeat: .repeat
      case .complete: .complete
      }
    handle(&self, EngineEvent(kind: nodeKind, subject: .node(event.node), time: now, isReversed: reversed))
    if let (kind, property) = propertyEvent {
      // A property that left rest at this instant and comes back to it (an animation of no
      // length): its start, still queued behind this instant's events, comes first.
      if kind == .complete, !leavingRest.isEmpty, let queued = leavingRest.firstIndex(of: property) {
        leavingRest.remove(at: queued)
        handle(&self, EngineEvent(kind: .start, subject: .property(property), time: now, isReversed: false))
      }
      handle(&self, EngineEvent(kind: kind, subject: .property(property), time: now, isReversed: reversed))
    }
    // A standalone animation that completed has done its work: its value is the base value.
    if kind == .complete, node.kind == .effect, node.parent < 0, let index = try? resolve(event.node) {
      let top = index
      removeSubtree(top)
    }
  }

  /// How many pass boundaries of `timeline` the playhead had crossed at this instant when the
  /// crossing's count (`passBoundariesCrossed`) stood at `segment` (`passBoundaryLog`).
  func passBoundaries(of timeline: Int32, crossedBy segment: Int) -> Int {
    var steps = 0
    for entry in passBoundaryLog where entry.timeline == timeline && entry.count <= segment { steps += 1 }
    return steps
  }
}
