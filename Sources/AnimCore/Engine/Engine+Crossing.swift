// Crossing: moving a node's local time from where it was to where it is now, collecting
// the points it crosses (its own start, repeats and complete; a timeline's children, pass
// by pass).

extension AnimationEngine {
  /// One event found while crossing, before ordering.
  struct Crossed {
    var node: NodeID
    var kind: NodeEventKind?
    /// For callbacks: the key.
    var key: Int
    var forward: Bool
    var sequence: Int
    /// How many pass boundaries of timelines the crossing had gone through when it was
    /// crossed (`passBoundariesCrossed`): script events go in the order the playhead crossed
    /// them, one at the end of a pass before one at the next's start, also at the turn of an
    /// alternating pass; node events crossed backwards, with `passBoundaryLog`, in the pass
    /// of each timeline above them that the playhead crossed first.
    var segment: Int = 0
  }

  /// The local time node `index` crosses to at parent time `parent` (its parent moving
  /// forwards or not; the node moving in `direction`): its local time, or the next point it
  /// or anything in it has an event at, when the parent time has reached the moment that
  /// point is due. (A point u of a child is due at its parent's time S + round(u / rate),
  /// mapped up level by level, each level rounding once; the local time, rounded once more
  /// at each level, can fall a nanosecond short of it.)
  func reachedLocal(of index: Int32, atParent parent: Nanoseconds, direction: Int, parentForward: Bool) -> Nanoseconds {
    let local = localTime(of: index, atParent: parent)
    let node = nodes[Int(index)]
    // (At rate ±1 local time is exact: nothing falls short.)
    guard rate(of: node) != 1, rate(of: node) != -1,
      let threshold = nextThreshold(of: index, direction: direction),
      let due = Self.parentThreshold(of: playback(of: node), reaching: threshold, parentForward: parentForward),
      parentForward ? due <= parent : due >= parent
    else { return local }
    return direction > 0 ? max(local, threshold) : min(local, threshold)
  }

  /// Moves node `index` from its last local time to `local`, collecting what it crosses;
  /// a timeline moves its children through its passes.
  mutating func cross(_ index: Int32, to local: Nanoseconds, direction: Int = 0, into crossed: inout [Crossed]) {
    let node = nodes[Int(index)]
    var a = node.lastLocal
    // Turning back (`direction`: the way it moves now) at a point it had just reached and
    // crossed: it moves as if recorded just past that point, so the point is crossed again.
    if direction != 0 && Int(node.turn) == -direction { a = saturatingSum(a, Int64(node.turn)) }
    // Recorded just past a point it crossed moving in `direction` (an edge it completed at, a
    // callback it fired), it stands at that point: reaching the point again the same way is
    // no move. (A seek to where it stands, its timeline paused or not, would otherwise cross
    // the point back: an item that completed there would start again, backwards, and add
    // its change a second time.)
    var local = local
    if direction != 0 && node.turn == 0 && local == saturatingSum(a, -Int64(direction)) { local = a }
    guard a != local else {
      // Standing where it was: what is in it may still turn back at a point of its own that
      // it had just reached here.
      if direction != 0 && node.kind == .timeline {
        crossChildren(of: index, from: a, to: a, direction: direction, wrapping: node.hasStarted, into: &crossed)
      }
      return
    }
    let forward = local > a
    let id = id(of: index)
    switch node.kind {
    case .free:
      return
    case .callback:
      let record = callbacks[Int(node.payload)]
      var landed = local
      if (forward && a < 0 && local >= 0) || (!forward && record.firesBackwards && a > 0 && local <= 0) {
        crossed.append(
          Crossed(
            node: id, kind: nil, key: record.key, forward: forward, sequence: crossed.count,
            segment: passBoundariesCrossed))
        // Fired on reaching its point: just past it, so that turning back there (the end of
        // an alternating pass) crosses it back at once, as a node that completes there starts
        // back at once.
        if local == 0 { landed = forward ? 1 : -1 }
      }
      nodes[Int(index)].lastLocal = landed
    case .effect, .timeline:
      let points = EventPoints(timing(of: node), hasStarted: node.hasStarted)
      var landed = local
      var completedAt: Nanoseconds?
      var lastPoint: Nanoseconds?
      points.forEachCrossing(from: a, to: local) { kind, threshold in
        crossed.append(
          Crossed(
            node: id, kind: kind, key: 0, forward: forward, sequence: crossed.count, segment: passBoundariesCrossed))
        lastPoint = threshold
        if kind == .start { nodes[Int(index)].hasStarted = true }
        if kind == .complete {
          completedAt = threshold
          if node.parent < 0 {
            // A top-level node stops at its edge, as Web Animations' finished state.
            landed = threshold
            changePlayback(of: index) { $0.hold(at: threshold) }
          }
        }
      }
      if Self.playsBackToPlacement(node, from: a, forward: forward, points: points) && local <= 0 {
        crossed.append(
          Crossed(
            node: id, kind: .complete, key: 0, forward: false, sequence: crossed.count, segment: passBoundariesCrossed))
        completedAt = 0
        landed = 0
        changePlayback(of: index) { $0.hold(at: 0) }
      }
      if node.kind == .timeline {
        crossChildren(
          of: index, from: a, to: landed, direction: forward ? 1 : -1, wrapping: node.hasStarted, into: &crossed)
      }
      // Just past an edge it completed at, so that turning back crosses it again at once.
      if let completedAt, landed == completedAt {
        landed = saturatingSum(landed, forward ? 1 : -1)
      }
      nodes[Int(index)].lastLocal = landed
      // Landed on a point it crossed (a start, a pass boundary): turning back crosses it again.
      nodes[Int(index)].turn = landed == lastPoint ? (forward ? 1 : -1) : 0
    }
  }

  /// Moves a timeline's children as its local time goes from `a` to `b`, pass by pass.
  ///
  /// `wrapping`: whether the timeline had started before this move (an infinite one that
  /// has loops both ways; one that starts now enters at its start).
  mutating func crossChildren(
    of index: Int32, from a: Nanoseconds, to b: Nanoseconds, direction moving: Int, wrapping: Bool,
    into crossed: inout [Crossed]
  ) {
    let node = nodes[Int(index)]
    let timing = timing(of: node)
    // (From a to a: it stands, moving as `moving` says; its children catch up where it is.)
    let forward = b != a ? b > a : moving >= 0
    let direction = forward ? 1 : -1
    let duration = Int128(timing.iterationDuration)
    let children = timelines[Int(node.payload)].children
    let alternates = timing.direction == .alternate || timing.direction == .alternateReverse
    let points = EventPoints(timing, hasStarted: wrapping)
    let low = points.wraps ? Int128(Int64.min) : Int128(points.start)
    let high = points.end.map { Int128($0) } ?? Int128(Int64.max)
    var position = Int128(a)
    let target = Int128(b)
    var reset = false

    func move(from start: Int128, to stop: Int128, pass: Int128, reset: Bool, crossed: inout [Crossed]) {
      let passForward = Self.isForwardPass(timing, pass)
      let iterationA = Self.iterationTime(timing, clampedToNanoseconds(start), pass: pass)
      let iterationB = Self.iterationTime(timing, clampedToNanoseconds(stop), pass: pass)
      for child in children where nodes[Int(child)].kind != .free {
        // Its local time as sampling reads it (rule 6: kept on the side of each of its
        // boundaries that the parent time is of the moment that boundary is reached).
        let childDirection = direction * (passForward ? 1 : -1) * (rate(of: nodes[Int(child)]) < 0 ? -1 : 1)
        if reset {
          nodes[Int(child)].lastLocal = saturatingSum(
            localTime(of: child, atParent: iterationA), -Int64(childDirection))
        }
        let local = reachedLocal(
          of: child, atParent: iterationB, direction: childDirection,
          parentForward: direction * (passForward ? 1 : -1) > 0)
        cross(child, to: local, direction: childDirection, into: &crossed)
      }
    }

    if duration == 0 {
      // A timeline of no length: its children sit at time 0; they are crossed on entering.
      let entering = forward ? (Int128(a) < low && target >= low) : (Int128(a) > high && target <= high)
      if entering { move(from: 0, to: 0, pass: 0, reset: true, crossed: &crossed) }
      return
    }
    if forward {
      if position >= high { return }
      if position < low {
        if target < low { return }
        position = low
        reset = true
      }
      let stop = min(target, high)
      var pass =
        points.wraps
        ? floorDivide(position - Int128(timing.delay), duration)
        : Self.pass(of: timing, at: clampedToNanoseconds(position), forward: true)
      for _ in 0..<AnimationEngine.eventLimitPerInstant {
        let passEnd = Int128(timing.delay) + (pass + 1) * duration
        let segmentEnd = min(stop, passEnd)
        move(from: position, to: segmentEnd, pass: pass, reset: reset, crossed: &crossed)
        // Stopped inside the pass, or at the end of the last one.
        if segmentEnd < passEnd || passEnd >= high { break }
        // On a boundary: the next pass begins here.
        position = passEnd
        pass += 1
        notePassBoundary(of: index)
        reset = !alternates
      }
    } else {
      if position <= low { return }
      if position > high {
        if target > high { return }
        position = high
        reset = true
      }
      let stop = max(target, low)
      var pass =
        points.wraps
        ? ceilDivide(position - Int128(timing.delay), duration) - 1
        : Self.pass(of: timing, at: clampedToNanoseconds(position), forward: false)
      for _ in 0..<AnimationEngine.eventLimitPerInstant {
        let passStart = Int128(timing.delay) + pass * duration
        let segmentEnd = max(stop, passStart)
        move(from: position, to: segmentEnd, pass: pass, reset: reset, crossed: &crossed)
        if segmentEnd > passStart || passStart <= low { break }
        position = passStart
        pass -= 1
        notePassBoundary(of: index)
        reset = !alternates
      }
    }
  }

  /// Counts a pass boundary of timeline `index` crossed, and notes whose it was.
  mutating func notePassBoundary(of index: Int32) {
    passBoundariesCrossed += 1
    if passBoundaryLog.count >= AnimationEngine.eventLimitPerInstant * 16 { passBoundaryLog.removeAll() }
    passBoundaryLog.append((passBoundariesCrossed, index))
  }
}
