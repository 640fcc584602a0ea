// Status: what a node is doing now, and what the engine still has to do.

extension AnimationEngine {
  /// The state of a node now.
  public func status(of id: NodeID) throws(EngineError) -> NodeStatus {
    let index = try resolve(id)
    let node = nodes[Int(index)]
    let local = localState(of: index, at: now).local
    let points = EventPoints(timing(of: node), hasStarted: node.hasStarted)
    let end = points.end
    let state: NodeStatus.State
    if node.isCancelled {
      state = .idle
    } else if node.isPaused {
      state = .paused
    } else if let end, (rate(of: node) >= 0 && local >= end) || (rate(of: node) < 0 && local <= points.start) {
      state = .finished
    } else {
      state = .playing
    }
    let progress = end.map { end in end > 0 ? min(max(Double(local) / Double(end), 0), 1) : 1 }
    var status = NodeStatus(
      state: state, rate: rate(of: node), localTime: local, duration: end, progress: progress,
      isTimeline: node.kind == .timeline)
    var timing = timing(of: node)
    status.passCount = timing.iterations
    timing.fill = .both
    let computed = timing.computedTiming(localTime: timing.wrapped(local, hasStarted: node.hasStarted))
    if let iteration = computed.currentIteration, iteration.isFinite, iteration >= 0, iteration < Double(Int.max) {
      status.pass = Int(iteration) + 1
    }
    return status
  }

  /// The top-level nodes (animations and timelines on the engine), oldest first.
  public var topLevelNodes: [NodeID] { topLevel.map(id(of:)) }

  /// Whether anything will still move or fire: a node playing toward an edge it has not
  /// reached, a playhead being tweened, or a pending callback. Paused nodes do not count.
  public var hasPendingWork: Bool {
    !propertiesLeavingRest.isEmpty || !playheadTweens.isEmpty || pending.contains { isLive($0) }
  }

  /// Whether a callback scheduled on the engine is still to come (scripts schedule their
  /// later statements this way).
  public var hasPendingCallbacks: Bool {
    pending.contains { $0.slot < 0 }
  }

  /// Whether a top-level node that never ends is playing: with nothing else scheduled, the
  /// engine will never be idle.
  public var hasEndlessPlayback: Bool {
    nodes.contains { node in
      node.kind != .free && node.parent < 0 && timing(of: node).activeDuration == nil && !node.isHeld
        && rate(of: node) != 0
    }
  }

  /// The next time something is due, if anything is.
  public var nextEventTime: Nanoseconds? {
    if !propertiesLeavingRest.isEmpty { return now }
    let queued = pending.earliestTime { isLive($0) }
    guard !playheadTweens.isEmpty else { return queued }
    var tweens = playheadTweens.compactMap { tween -> Nanoseconds? in
      Int(tween.node) < nodes.count && nodes[Int(tween.node)].generation == tween.generation
        && nodes[Int(tween.node)].kind != .free ? nextInstant(of: tween) : nil
    }
    if let queued { tweens.append(queued) }
    return tweens.min()
  }
}
