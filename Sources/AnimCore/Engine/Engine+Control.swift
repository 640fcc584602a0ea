// Control: play, pause, resume, reverse, speed, seek, finish and cancel, on any node, at
// the engine's current time.
//
// Each changes the node's playback against its parent's time now, so its local time does
// not jump (except `seek` and `finish`, which are jumps), and reschedules the node's tree.
// Pause, resume, reverse and speed fire nothing; a seek is silent (as GSAP's); finish fires
// the completes at the edge it jumps to.

extension AnimationEngine {
  /// The parent time of a node now.
  func parentTime(of index: Int32) -> Nanoseconds {
    let parent = nodes[Int(index)].parent
    return parent < 0 ? now : childTime(of: parent, at: now).time
  }

  /// Starts a node: one never started, finished or cancelled plays from its start (its end
  /// when its rate is negative); a paused one resumes.
  public mutating func play(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    if nodes[Int(index)].parent < 0, let end = EventPoints(timing(of: index), hasStarted: false).end,
      Double(now) + Double(end) / abs(rate(of: nodes[Int(index)])) >= Double(Self.endOfTime)
    {
      throw .endsAfterEndOfTime
    }
    let status = try status(of: id)
    let parentTime = parentTime(of: index)
    if status.state == .finished || nodes[Int(index)].isCancelled {
      let rate = rate(of: nodes[Int(index)])
      let end = EventPoints(timing(of: index), hasStarted: false).end
      if rate < 0 && end == nil { throw .finishesNever }
      let start: Nanoseconds = rate >= 0 ? 0 : (end ?? 0)
      nodes[Int(index)].isCancelled = false
      nodes[Int(index)].hasStarted = false
      // Everything in it sits just before its start, having crossed nothing: what starts
      // there is crossed at this instant, with its events, not taken silently.
      // (Its backwards fills are armed below, from the moment it plays, not settled as a
      // jump over them would.)
      changePlayback(of: index) { $0.hold(at: saturatingSum(start, rate >= 0 ? -1 : 1)) }
      // Played again from its end, it is sought past its `set` items afresh (grammar.md §
      // Control) from where it began: each applied one first puts back what it recorded,
      // the latest first, as a jump back before them all would, before they record and apply
      // again in item order.
      if rate < 0 { revertSets(in: index) }
      resyncSubtree(index, settlingFills: false, jumpedAgainstTravel: true)
      changePlayback(of: index) {
        $0.seek(to: start, at: parentTime)
        $0.resume(at: parentTime)
      }
      // The start is still ahead: it fires at this instant.
      nodes[Int(index)].lastLocal = saturatingSum(start, rate >= 0 ? -1 : 1)
      // From the moment it plays, its items that fill backwards show their first values.
      // (Only when it starts or starts again: a `play` that resumes a paused timeline, or
      // one on a playing timeline, moves nothing back before its items.)
      armBackwardsFill(in: index)
    } else if nodes[Int(index)].isPaused {
      changePlayback(of: index) { $0.resume(at: parentTime) }
    }
    reschedule(topLevelAncestor(of: index))
    refreshCurrentValues()
  }

  /// Freezes a node's local time.
  public mutating func pause(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    catchUp(topLevelAncestor(of: index))
    let parentNow = parentTime(of: index)
    let local = localTime(of: index, atParent: parentNow)
    changePlayback(of: index) {
      $0.pause(at: parentNow)
      $0.correctHold(local)
    }
    reschedule(topLevelAncestor(of: index))
  }

  /// Continues a paused node from exactly where it stopped. An idle timeline (never played,
  /// or cancelled) stays idle: only `play` starts it.
  public mutating func resume(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    guard !nodes[Int(index)].isCancelled else { return }
    // Paused long enough (or sought back at a slow speed), it would now end after the end
    // of time: it stays paused.
    // (Resumed from its paused offset, its start time is the offset back from now: in range.)
    let startsAgain = nodes[Int(index)].isPaused && playback(of: index).pausedOffset == nil
    if let problem = moveProblem(of: index, startsAgain: startsAgain) { throw problem }
    catchUp(topLevelAncestor(of: index))
    let parentNow = parentTime(of: index)
    changePlayback(of: index) { $0.resume(at: parentNow) }
    reschedule(topLevelAncestor(of: index))
  }

  /// Turns a node's direction around where it is, keeping it paused or playing.
  public mutating func reverse(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    let reversed = -rate(of: nodes[Int(index)])
    if let problem = moveProblem(of: index, rate: reversed, startsAgain: !nodes[Int(index)].isPaused) {
      throw problem
    }
    catchUp(topLevelAncestor(of: index))
    let parentNow = parentTime(of: index)
    let local = localTime(of: index, atParent: parentNow)
    changePlayback(of: index) { $0.setRate(-$0.rate, at: parentNow, current: local) }
    reschedule(topLevelAncestor(of: index))
  }

  /// Sets a node's playback rate without a jump (negative plays backwards, 0 holds).
  public mutating func setRate(_ rate: Double, of id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    if let problem = moveProblem(of: index, rate: rate, startsAgain: !nodes[Int(index)].isPaused) { throw problem }
    catchUp(topLevelAncestor(of: index))
    let parentNow = parentTime(of: index)
    let local = localTime(of: index, atParent: parentNow)
    changePlayback(of: index) { $0.setRate(rate, at: parentNow, current: local) }
    reschedule(topLevelAncestor(of: index))
  }

  /// Jumps a node to local time `time`, firing nothing.
  ///
  /// The jump is a silent travel: the node goes from where it is to `time` as playing there
  /// would (through every pass of a timeline between, each in its direction), and what it
  /// crosses does to the values what crossing it does, but no event fires. So a timeline
  /// sought anywhere shows what it shows when played there, whichever way it got there.
  /// `handle` is asked only for what an animation needs to start (`.needsValues`).
  public mutating func seek(
    _ id: NodeID, to time: Nanoseconds, _ handle: (inout AnimationEngine, EngineEvent) -> Void = { _, _ in }
  ) throws(EngineError) {
    let index = try resolve(id)
    // Sent back at a slow speed, it could only get to its end after the end of time.
    if let problem = moveProblem(of: index, local: time, startsAgain: !nodes[Int(index)].isPaused) { throw problem }
    stopPlayheadTween(of: index)
    let top = topLevelAncestor(of: index)
    catchUp(top)
    let parentNow = parentTime(of: index)
    let last = nodes[Int(index)].lastLocal
    travelSilently(index, to: time, handle)
    // Arrived going the other way from the way it plays: at `time` it stands as it plays on
    // from there (a point at `time` belongs to the side it plays into), so what lies exactly
    // there is crossed back, silently, and does not fire as it moves off.
    let playing = rate(of: nodes[Int(index)]) >= 0 ? 1 : -1
    if playing > 0 ? time < last : time > last {
      var crossed: [Crossed] = []
      cross(index, to: time, direction: playing, into: &crossed)
      order(&crossed)
      settleSilently(crossed, handle)
    }
    changePlayback(of: index) { $0.seek(to: time, at: parentNow) }
    reschedule(top)
    refreshCurrentValues()
  }

  /// Moves a node (held there for the move) to local time `time`, settling silently what it
  /// crosses on the way. A jump over many passes of a timeline crosses the first, then the
  /// last two (every pass after the second leaves its items as the one two before it did).
  mutating func travelSilently(
    _ index: Int32, to time: Nanoseconds, _ handle: (inout AnimationEngine, EngineEvent) -> Void
  ) {
    let node = nodes[Int(index)]
    let timing = timing(of: node)
    let duration = Int128(timing.iterationDuration)
    if node.kind == .timeline, duration > 0 {
      // Only passes are skipped: the move enters the active interval first (from its delay, or
      // from beyond its end), and leaves it after (its end, or its start, crossed on the way
      // to a time beyond it).
      let points = EventPoints(timing, hasStarted: node.hasStarted)
      let low = points.wraps ? Int128(Int64.min) : Int128(points.start)
      let high = points.end.map { Int128($0) } ?? Int128(Int64.max)
      let from = Int128(node.lastLocal)
      let forward = Int128(time) > from
      let entry = forward ? max(from, low) : min(from, high)
      let exit = forward ? min(Int128(time), high) : max(Int128(time), low)
      let distance = exit - entry
      if (forward ? distance > 0 : distance < 0) && distance.magnitude > 4 * duration.magnitude {
        if entry != from { crossSilently(index, to: clampedToNanoseconds(entry), handle) }
        // Through the pass it is in and the next, then on from the same place in the pass
        // two periods before the last.
        let step: Int128 = distance > 0 ? 2 * duration : -2 * duration
        crossSilently(index, to: clampedToNanoseconds(entry + step), handle)
        let periods = (exit - Int128(nodes[Int(index)].lastLocal)) / step - 1
        if periods > 0 {
          nodes[Int(index)].lastLocal = clampedToNanoseconds(Int128(nodes[Int(index)].lastLocal) + periods * step)
        }
      }
    }
    crossSilently(index, to: time, handle)
  }

  /// Crosses from the node's last local time to `time` one instant at a time (each instant
  /// where it or anything in it crosses a boundary), settling each instant's crossings in
  /// delivery order, so that what the move passes settles in time order. (Past 100,000
  /// instants, the rest is crossed in one step.)
  mutating func crossSilently(
    _ index: Int32, to time: Nanoseconds, _ handle: (inout AnimationEngine, EngineEvent) -> Void
  ) {
    let last = nodes[Int(index)].lastLocal
    // (Sought to where it stands, it moves the way it plays.)
    let direction = time != last ? (time > last ? 1 : -1) : (rate(of: nodes[Int(index)]) >= 0 ? 1 : -1)
    for _ in 0..<100_000 {
      guard let next = nextThreshold(of: index, direction: direction),
        direction > 0 ? next < time : next > time
      else { break }
      // Held there, so that what reads the time now (a `set` unmasking an item) reads it.
      changePlayback(of: index) { $0.hold(at: next) }
      var crossed: [Crossed] = []
      cross(index, to: next, direction: direction, into: &crossed)
      order(&crossed)
      settleSilently(crossed, handle)
    }
    changePlayback(of: index) { $0.hold(at: time) }
    var crossed: [Crossed] = []
    cross(index, to: time, direction: direction, into: &crossed)
    order(&crossed)
    settleSilently(crossed, handle)
  }

  /// Does to the values what each crossing does when delivered (an animation taking its
  /// property, a value left as the base value, a standalone animation that completed going
  /// away), firing nothing.
  mutating func settleSilently(_ crossed: [Crossed], _ handle: (inout AnimationEngine, EngineEvent) -> Void) {
    for event in crossed {
      guard let kind = event.kind, let index = try? resolve(event.node) else { continue }
      let node = nodes[Int(index)]
      if node.kind == .effect {
        switch kind {
        case .start:
          if needsValues(index) {
            handle(
              &self, EngineEvent(kind: .needsValues, subject: .node(event.node), time: now, isReversed: !event.forward))
            guard contains(event.node) else { continue }
          }
          _ = activate(index, forward: event.forward)
        case .complete:
          if node.parent < 0 && event.forward != (rate(of: node) >= 0) {
            // A standalone animation is done only when it completes the way it plays. Sought
            // back over its start while it plays forwards (or past its end while it plays
            // backwards), it waits there as it did before it started, in its place in the
            // stack, its property still animating (grammar.md § Control): what it shows
            // there is its before phase (its `from` with a backwards fill, else nothing),
            // and it starts again when it gets back there.
            // (As before it started: reversed there, it has nothing to finish.)
            waitAgain(index)
            continue
          }
          _ = complete(index, forward: event.forward)
          if node.parent < 0 { removeSubtree(index) }
        case .repeat:
          break
        }
      } else if node.kind == .timeline, kind == .repeat {
        let direction = timing(of: node).direction
        if direction != .alternate && direction != .alternateReverse {
          if event.forward { rearmSets(in: index) } else { remaskSets(in: index) }
        }
      }
    }
    armBackwardsFillsOfNewPasses(crossed)
  }

  /// Jumps a node to its end (its start when its rate is negative) and fires the completes
  /// there.
  public mutating func finish(
    _ id: NodeID, _ handle: (inout AnimationEngine, EngineEvent) -> Void = { _, _ in }
  ) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    let node = nodes[Int(index)]
    let points = EventPoints(timing(of: node), hasStarted: false)
    guard let end = points.end else { throw .finishesNever }
    let forward = rate(of: node) >= 0
    let edge = forward ? end : points.start
    // Already finished there: nothing moves and nothing fires (as Web Animations' finish()
    // on a finished animation queues no second finish event).
    if node.parent < 0, playback(of: node).holdTime == edge, forward ? node.lastLocal > edge : node.lastLocal < edge {
      return
    }
    // Reversed before it started (in its delay), a standalone animation is back where it
    // began: at or behind its start, it has nothing to finish.
    if node.parent < 0, node.kind == .effect, !forward, !node.hasStarted,
      localTime(of: index, atParent: now) <= edge
    {
      return
    }
    let parentTime = parentTime(of: index)
    // An idle timeline (never played, or cancelled) that is finished is finished, no longer
    // idle (as Web Animations' finish() gives an idle animation a current time at its end).
    if node.isCancelled {
      nodes[Int(index)].isCancelled = false
      changePlayback(of: index) { $0.resume(at: parentTime) }
    }
    // Silently to just short of the edge (held there exactly: at a rate other than ±1 a seek
    // reads back rounded, possibly at the edge itself), then across it at this instant.
    // (Travelled as a seek is, through every pass between.)
    travelSilently(index, to: saturatingSum(edge, forward ? -1 : 1), handle)
    changePlayback(of: index) { $0.seek(to: edge, at: parentTime) }
    if nodes[Int(index)].isPaused || node.parent < 0 {
      changePlayback(of: index) { $0.hold(at: edge) }
    }
    var crossed: [Crossed] = []
    cross(index, to: edge, direction: forward ? 1 : -1, into: &crossed)
    order(&crossed)
    reschedule(topLevelAncestor(of: index))
    // A property that left rest at this instant (its animation placed now, its `start` still
    // queued) and that this completes fires that start first; the others stay queued, in order.
    var leavingRest: [PropertyID] = []
    propertiesLeavingRest.drain(into: &leavingRest)
    deliver(crossed, handle, leavingRest: &leavingRest)
    var queuedSince: [PropertyID] = []
    propertiesLeavingRest.drain(into: &queuedSince)
    for property in leavingRest + queuedSince { propertiesLeavingRest.append(property) }
    refreshCurrentValues()
  }

  /// Stops a node where it is: the values its animations show now become their properties'
  /// base values, and it fires nothing. A standalone animation goes away; a timeline stays,
  /// idle, and `play` starts it over.
  public mutating func cancel(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    let top = topLevelAncestor(of: index)
    endEffects(in: index)
    if contains(id) {
      let parentNow = parentTime(of: index)
      changePlayback(of: index) { $0.pause(at: parentNow) }
      nodes[Int(index)].isCancelled = true
    }
    reschedule(top)
    refreshCurrentValues()
  }

  mutating func endEffects(in index: Int32) {
    let node = nodes[Int(index)]
    switch node.kind {
    case .free, .callback:
      return
    case .timeline:
      for child in timelines[Int(node.payload)].children { endEffects(in: child) }
    case .effect:
      switch node.valueKind {
      case .number: end(Double.self, node.payload, absorbing: true)
      case .vec2: end(Vec2.self, node.payload, absorbing: true)
      case .vec3: end(Vec3.self, node.payload, absorbing: true)
      case .vec4: end(Vec4.self, node.payload, absorbing: true)
      case .color: end(Color.self, node.payload, absorbing: true)
      }
    }
  }

  /// Brings a tree's record of what it has crossed up to now, when nothing in it is due
  /// before or at now (everything due earlier has been handed out). A change of direction
  /// or rate is then measured from where the tree really is.
  mutating func catchUp(_ top: Int32) {
    let node = nodes[Int(top)]
    guard node.kind != .free else { return }
    let forward = rate(of: node) >= 0
    let local = localTime(of: top, atParent: now)
    if let threshold = nextThreshold(of: top, direction: forward ? 1 : -1),
      forward ? threshold <= local : threshold >= local
    {
      return  // an event at this very instant is still to be handed out
    }
    placeSubtree(top)
  }

  /// Sets each node's record of what it has crossed to where it is now.
  mutating func placeSubtree(_ index: Int32) {
    let node = nodes[Int(index)]
    guard node.kind != .free else { return }
    let local = localState(of: index, at: now).local
    // A node recorded just past an edge it completed at stays so: turning back must cross
    // that edge again.
    let points = EventPoints(timing(of: node), hasStarted: node.hasStarted)
    let justPast =
      (local == points.end && node.lastLocal == saturatingSum(local, 1))
      || (local == points.start && node.lastLocal == saturatingSum(local, -1))
    if !justPast { nodes[Int(index)].lastLocal = local }
    // A timeline that has not moved since its record has children that have not either: their
    // records stand. (Standing exactly on a pass boundary it reached going back, its children
    // are at the end of the pass it entered, where sampling reads the next pass's start.)
    if node.kind == .timeline && node.lastLocal != local {
      for child in timelines[Int(node.payload)].children { placeSubtree(child) }
    }
  }

  /// After a jump: each node in the tree has crossed nothing, and sits where it is now.
  /// Animations that the jump took into or out of their active interval take or leave
  /// their property silently; with `settlingFills`, those it jumped over settle their values
  /// to show their fill.
  ///
  /// `jumpedAgainstTravel` says the jump went against each node's direction of travel,
  /// whatever the node's record of where it stood: a timeline played again comes from the
  /// far side of the start it plays from (back before its start, or, played from its end,
  /// from its start past its `set` items, which then apply in item order). Its record
  /// (`lastLocal`) is where it stood when it finished or was cancelled, which says nothing
  /// of that jump: paused and resumed past its end, a timeline's record is past its end, so
  /// played again from there it seemed to jump back to its end and applied its sets latest
  /// first (seed 23003779).
  mutating func resyncSubtree(_ index: Int32, settlingFills: Bool = true, jumpedAgainstTravel: Bool = false) {
    let node = nodes[Int(index)]
    guard node.kind != .free else { return }
    let state = localState(of: index, at: now)
    let jumpedBack = jumpedAgainstTravel ? state.direction > 0 : state.local < node.lastLocal
    nodes[Int(index)].lastLocal = state.local
    switch node.kind {
    case .timeline:
      // Items settle in the order the jump passes them: the last first, going back (so the
      // earliest item's start value is the one left).
      let children = timelines[Int(node.payload)].children
      for child in jumpedBack ? children.reversed() : children {
        resyncSubtree(child, settlingFills: settlingFills, jumpedAgainstTravel: jumpedAgainstTravel)
      }
    case .effect:
      let local = timing(of: node).wrapped(state.local, hasStarted: node.hasStarted)
      let phase = timing(of: node).computedTiming(localTime: local, goingBackwards: state.direction < 0).phase
      switch node.valueKind {
      case .number: resync(Double.self, node.payload, phase: phase, settlingFills: settlingFills)
      case .vec2: resync(Vec2.self, node.payload, phase: phase, settlingFills: settlingFills)
      case .vec3: resync(Vec3.self, node.payload, phase: phase, settlingFills: settlingFills)
      case .vec4: resync(Vec4.self, node.payload, phase: phase, settlingFills: settlingFills)
      case .color: resync(Color.self, node.payload, phase: phase, settlingFills: settlingFills)
      }
    case .free, .callback:
      break
    }
  }

  mutating func resync<V: EngineValue>(_ type: V.Type, _ index: Int32, phase: AnimationPhase, settlingFills: Bool) {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    if effect.isSet {
      // Sought past it, it applies; sought before it, it reverts. (Played again from its end,
      // its timeline starting over with a negative rate, it is sought past afresh: what it
      // recorded before goes back first, then it records the value now and applies.)
      if phase == .after {
        if !settlingFills { revertSet(V.self, index) }
        applySet(V.self, index)
      } else if phase == .before {
        revertSet(V.self, index)
      }
      return
    }
    let active = phase == .active
    let fill = nodes[Int(effect.node)].fill
    let filled = (phase == .after && fill.fillsForwards) || (phase == .before && fill.fillsBackwards)
    if active && (effect.muted || !effect.counted) {
      _ = activate(V.self, index)
    } else if settlingFills && !active && phase != .idle && effect.muted && effect.mode != .unresolved
      && effect.committedAtEnd != nil && effect.committedAtEnd != (phase == .after) && fill != .none
    {
      // Jumped from past one edge to past the other: what it left at the first goes, and the
      // other edge's value is left instead, as running across it would.
      _ = activate(V.self, index)
      _ = complete(V.self, index, forward: phase == .after)
    } else if settlingFills && filled && effect.mode == .unresolved && phase == .after {
      // Jumped over to past its end: it settles its values and completes there, silently,
      // leaving its end value as the base value (as crossing its end would).
      _ = activate(V.self, index)
      _ = complete(V.self, index, forward: true)
    } else if settlingFills && filled && effect.mode == .unresolved {
      // Jumped over: it settles its values, to show its fill. (A standalone animation in its
      // delay still holds its property.)
      _ = activate(V.self, index)
      if !(phase == .before && nodes[Int(effect.node)].parent < 0) { _ = uncount(V.self, index) }
    } else if !active && !(phase == .before && nodes[Int(effect.node)].parent < 0) {
      // (A standalone animation holds its property through its delay.)
      _ = uncount(V.self, index)
    }
  }
}

extension AnimationEngine {
  /// Stops an effect counting toward its property's animating, without an event. Returns
  /// whether it was counted.
  mutating func uncount<V: EngineValue>(_ type: V.Type, _ index: Int32) -> Bool {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    guard effect.counted else { return false }
    stores[keyPath: V.store].effects[Int(index)].counted = false
    stores[keyPath: V.store].properties[Int(effect.property)].animating -= 1
    return true
  }
}
