// Tweening a playhead: a paused node's local time carried to a place over engine time along
// a curve (`tween X to A over D with CURVE`; GSAP's tweenTo). Unlike a seek, the move is not
// silent: everything the playhead crosses fires, in the direction it travels, at the engine
// instant the playhead reaches it (found on integer engine times, see PlayheadTween.swift),
// handed out by `advance` among the other events of that instant. At the end the node stays
// paused at the place. Any control of the node before then ends the move where it is.

extension AnimationEngine {
  /// Pauses node `id` and carries its playhead from where it stands to local time `time`
  /// over `duration` of engine time along `curve`, firing what it crosses as it crosses it
  /// (handed out by the advances that reach those instants). At the end it stays paused at
  /// `time`. Playing, pausing, resuming, reversing, seeking, finishing, cancelling or setting
  /// the rate of the node ends the move where it is; a new tween replaces it.
  ///
  /// - Throws: `unknownNode`; `springMovesNoPlayhead` for a spring (it has no duration of
  ///   its own to fit in `duration`); `endsAfterEndOfTime` when it would arrive after the end
  ///   of time.
  public mutating func tween(
    _ id: NodeID, to time: Nanoseconds, over duration: Nanoseconds, curve: TimingCurve = .linear
  ) throws(EngineError) {
    let index = try resolve(id)
    if curve.isSpring { throw .springMovesNoPlayhead }
    guard duration >= 0, Int128(now) + Int128(duration) < Int128(Self.endOfTime) else { throw .endsAfterEndOfTime }
    try pause(id)
    let from = playback(of: index).holdTime ?? localTime(of: index, atParent: parentTime(of: index))
    playheadTweens.append(
      PlayheadTween(
        node: index, generation: nodes[Int(index)].generation, start: now, duration: duration, from: from, to: time,
        curve: curve, movedThrough: saturatingSum(now, -1)))
  }

  /// Whether node `id`'s playhead is being carried by a tween now.
  public func isTweening(_ id: NodeID) -> Bool {
    playheadTweens.contains { $0.node == id.index && $0.generation == id.generation }
  }

  /// Ends the tween carrying node `index`, if any, where it is (a control of the node).
  mutating func stopPlayheadTween(of index: Int32) {
    guard !playheadTweens.isEmpty else { return }
    playheadTweens.removeAll { $0.node == index }
  }

  /// The earliest engine time at which a tween moves its playhead onto one of its node's
  /// points, or arrives (or turns back), if any tween runs.
  mutating func nextPlayheadTweenInstant() -> Nanoseconds? {
    playheadTweens.removeAll { tween in
      Int(tween.node) >= nodes.count || nodes[Int(tween.node)].kind == .free
        || nodes[Int(tween.node)].generation != tween.generation
    }
    var earliest: Nanoseconds?
    for tween in playheadTweens {
      let instant = nextInstant(of: tween)
      if earliest.map({ instant < $0 }) ?? true { earliest = instant }
    }
    return earliest
  }

  /// The next engine time, after the last one it moved at, at which `tween` must move its
  /// playhead with events: when it reaches its node's next point in the way it moves, at a
  /// turning point of its curve, or at its end.
  func nextInstant(of tween: PlayheadTween) -> Nanoseconds {
    let lower = tween.movedThrough + 1
    guard lower < tween.end else { return max(lower, tween.end) }
    let turns = tween.turningTimes
    let upper = turns.first { $0 >= lower } ?? tween.end
    let pieceStart = turns.last { $0 < lower } ?? tween.start
    let a = tween.position(at: pieceStart)
    let b = tween.position(at: upper)
    guard a != b else { return upper }
    let direction = b > a ? 1 : -1
    guard let threshold = nextThreshold(of: tween.node, direction: direction) else { return upper }
    return tween.firstTime(reaching: threshold, direction: direction, in: lower, upper) ?? upper
  }

  /// Moves the playheads of the tweens due by instant `t` (the engine's `now`), collecting
  /// what they cross into `crossed`; returns the top-level trees whose nodes moved. Each
  /// point crossed with its events takes one from `budget` (the advance's); with none left,
  /// the rest of the way is travelled silently (as a seek), so that the work of an advance
  /// is bounded however many passes of a timeline a playhead sweeps over.
  mutating func movePlayheads(
    at t: Nanoseconds, into crossed: inout [Crossed], budget: inout Int,
    _ handle: (inout AnimationEngine, EngineEvent) -> Void
  ) -> [Int32] {
    var moved: [Int32] = []
    var position = 0
    while position < playheadTweens.count {
      let tween = playheadTweens[position]
      guard nextInstant(of: tween) <= t else {
        position += 1
        continue
      }
      let index = tween.node
      let target = tween.position(at: t)
      // Where the playhead was: at its first move, where the node stands (just before its
      // start when it was played at this instant, so that its start fires); after that, where
      // the tween last put it (not `lastLocal`, which a node that completed at an edge keeps a
      // nanosecond past it).
      let last = tween.movedThrough < tween.start ? nodes[Int(index)].lastLocal : tween.position(at: tween.movedThrough)
      if target != last {
        let direction = target > last ? 1 : -1
        // Point by point, so that what lies in it is crossed in order (as a seek does).
        var previous: Nanoseconds?
        while let next = nextThreshold(of: index, direction: direction),
          direction > 0 ? next < target : next > target,
          next != previous  // (a point that does not move on: a corrupt restored state)
        {
          previous = next
          budget -= 1
          if budget < 0 {
            travelSilently(index, to: target, handle)
            break
          }
          changePlayback(of: index) { $0.hold(at: next) }
          cross(index, to: next, direction: direction, into: &crossed)
        }
        changePlayback(of: index) { $0.hold(at: target) }
        cross(index, to: target, direction: direction, into: &crossed)
      } else {
        changePlayback(of: index) { $0.hold(at: target) }
      }
      moved.append(topLevelAncestor(of: index))
      if t >= tween.end {
        playheadTweens.remove(at: position)
      } else {
        playheadTweens[position].movedThrough = t
        position += 1
      }
    }
    return moved
  }

  /// Puts each tweened playhead where its tween has it at `now`, between the instants it
  /// moves at (nothing is crossed there: its next point is reached later).
  mutating func placePlayheads() {
    for tween in playheadTweens where tween.movedThrough < now {
      let index = tween.node
      guard Int(index) < nodes.count, nodes[Int(index)].kind != .free, nodes[Int(index)].generation == tween.generation
      else { continue }
      let target = tween.position(at: now)
      changePlayback(of: index) { $0.hold(at: target) }
      dropSampler(ofNode: topLevelAncestor(of: index))
    }
  }

  /// Checks the tweens read from a snapshot: each on a live, held node, within its times.
  func validatePlayheadTweens() throws(EngineSnapshotError) {
    var seen = Set<Int32>()
    for tween in playheadTweens {
      guard tween.node >= 0, Int(tween.node) < nodes.count, nodes[Int(tween.node)].kind != .free,
        nodes[Int(tween.node)].generation == tween.generation, nodes[Int(tween.node)].isHeld
      else { throw EngineSnapshotError("a playhead tween moves no paused node") }
      guard seen.insert(tween.node).inserted else { throw EngineSnapshotError("two playhead tweens move one node") }
      guard tween.duration >= 0, tween.start <= now,
        Int128(tween.start) + Int128(tween.duration) < Int128(Self.endOfTime),
        tween.movedThrough >= saturatingSum(tween.start, -1), tween.movedThrough <= now, tween.movedThrough < tween.end,
        !tween.curve.isSpring
      else { throw EngineSnapshotError("a playhead tween's times are out of range") }
    }
  }
}
