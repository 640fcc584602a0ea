// Placement: making nodes (animations, timelines, callbacks, timeline `set` items), where
// they go, and removing them.

extension AnimationEngine {
  func id(of node: Int32) -> NodeID {
    NodeID(index: node, generation: nodes[Int(node)].generation)
  }

  @inline(__always)
  func resolve(_ id: NodeID) throws(EngineError) -> Int32 {
    guard id.index >= 0, Int(id.index) < nodes.count, nodes[Int(id.index)].kind != .free,
      nodes[Int(id.index)].generation == id.generation
    else { throw .unknownNode }
    return id.index
  }

  /// Whether the node still exists.
  @inline(__always)
  public func contains(_ id: NodeID) -> Bool {
    (try? resolve(id)) != nil
  }

  mutating func allocateNode(_ node: Node) -> Int32 {
    if let index = freeNodes.popLast() {
      var node = node
      node.generation = nodes[Int(index)].generation &+ 1
      nodes[Int(index)] = node
      versions[Int(index)] &+= 1
      return index
    }
    nodes.append(node)
    versions.append(0)
    return Int32(nodes.count - 1)
  }

  /// Where a new node goes.
  public enum Placement: Sendable, Hashable {
    /// On the engine, starting at engine time `time` (local time 0 then), playing.
    case engine(at: Nanoseconds)
    /// On the engine, created paused at local time 0: a timeline that waits for `play`.
    case engineIdle
    /// In a timeline, starting at `time` of the timeline's iteration time.
    case timeline(NodeID, at: Nanoseconds)
  }

  mutating func makeNode(
    kind: NodeKind, valueKind: ValueKind = .number, payload: Int32, timing: EffectTiming, rate: Double,
    placement: Placement
  ) throws(EngineError) -> Int32 {
    var timing = timing
    timing.endDelay = 0
    var parent: Int32 = -1
    let playback: Playback
    // Placed at parent time `time`: local time 0 there, so that its start time is `time`
    // exactly (rule 6: its point u is reached at time + round(u / rate)). Solving for the
    // start time from the rounded local time now would move it by a nanosecond.
    func placed(at time: Nanoseconds, parentTime: Nanoseconds) -> Playback {
      if rate != 0 && rate.isFinite { return Playback(startTime: time, rate: rate, holdTime: nil, isPaused: false) }
      return Playback(localTime: scaled(saturatingDifference(parentTime, time), by: rate), at: parentTime, rate: rate)
    }
    // A place beyond the end of time has no clock time: what is there is never reached, and
    // a session saved with it would be refused on restore (a runtime's pause point at a label
    // near the end of time plus an offset was). In a timeline, either way; on the engine,
    // after it (an engine may start its clock at a negative time).
    switch placement {
    case .engine(let time):
      if time >= Self.endOfTime { throw .placedBeyondEndOfTime }
    case .timeline(_, let time):
      if time <= -Self.endOfTime || time >= Self.endOfTime { throw .placedBeyondEndOfTime }
    case .engineIdle:
      break
    }
    switch placement {
    case .engine(let time):
      playback = placed(at: time, parentTime: now)
    case .engineIdle:
      playback = Playback(localTime: 0, at: now, rate: rate, paused: true)
    case .timeline(let timeline, let time):
      parent = try resolve(timeline)
      guard nodes[Int(parent)].kind == .timeline else { throw .notATimeline }
      let parentTime = Self.childTime(of: parent, at: now, nodes, nodeExtras, timelines, childTimes).time
      playback = placed(at: time, parentTime: parentTime)
    }
    let index = allocateNode(Node(parent: parent, payload: payload, generation: 0, kind: kind, valueKind: valueKind))
    // Waiting for `play`: idle, as a cancelled timeline is.
    if case .engineIdle = placement { nodes[Int(index)].isCancelled = true }
    setPlayback(playback, of: index)
    setTiming(timing, ofNode: index)
    if parent >= 0 {
      timelines[Int(nodes[Int(parent)].payload)].children.append(index)
    } else {
      appendTopLevel(index)
    }
    // Nothing has been crossed yet: a point at exactly this instant is still ahead. (The
    // static forms, here and above: the methods, whose wrappers the optimizer did not inline
    // into this function, were handed a copy of the whole engine; see Engine+Time.swift.)
    let state = Self.localState(of: index, at: now, nodes, nodeExtras, timelines, childTimes)
    nodes[Int(index)].lastLocal = state.direction < 0 ? saturatingSum(state.local, 1) : saturatingSum(state.local, -1)
    return index
  }

  /// Adds a timeline: on the engine (`.engineIdle` waits for `play`), or inside another
  /// timeline as a group that plays with it.
  public mutating func addTimeline(
    timing: EffectTiming, rate: Double = 1, placement: Placement = .engineIdle
  ) throws(EngineError) -> NodeID {
    let record: Int32
    if let free = freeTimelines.popLast() {
      record = free
    } else {
      timelines.append(TimelineRecord(node: -1))
      record = Int32(timelines.count - 1)
    }
    let index: Int32
    do {
      index = try makeNode(kind: .timeline, payload: record, timing: timing, rate: rate, placement: placement)
    } catch {
      freeTimelines.append(record)
      throw error
    }
    timelines[Int(record)] = TimelineRecord(node: index)
    reschedule(topLevelAncestor(of: index))
    return id(of: index)
  }

  /// Changes a timeline's timing (its duration grows as items are added to it).
  public mutating func setTiming(_ timing: EffectTiming, of id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    var timing = timing
    timing.endDelay = 0
    setTiming(timing, ofNode: index)
    // What has been crossed stays crossed: a timeline still being built keeps its start
    // ahead of it.
    reschedule(topLevelAncestor(of: index))
  }

  /// Places a callback in a timeline: the event `.callback(key)` fires when the timeline's
  /// time crosses `time` forwards, and backwards too when `firesBackwards`.
  public mutating func addCallback(
    key: Int, to timeline: NodeID, at time: Nanoseconds, firesBackwards: Bool
  ) throws(EngineError) -> NodeID {
    let record: Int32
    if let free = freeCallbacks.popLast() {
      record = free
      callbacks[Int(free)] = CallbackRecord(key: key, firesBackwards: firesBackwards)
    } else {
      callbacks.append(CallbackRecord(key: key, firesBackwards: firesBackwards))
      record = Int32(callbacks.count - 1)
    }
    let index: Int32
    do {
      index = try makeNode(
        kind: .callback, payload: record, timing: EffectTiming(duration: 0), rate: 1,
        placement: .timeline(timeline, at: time))
    } catch {
      freeCallbacks.append(record)
      throw error
    }
    reschedule(topLevelAncestor(of: index))
    return id(of: index)
  }

  /// A snapshot's pending entry `node` for a property leaving rest (its `key` is the property).
  static let leavingRest: Int32 = -2

  /// Queues the property's `start` at this instant, behind the animations' events due now.
  mutating func scheduleLeavingRest(_ property: PropertyID) {
    propertiesLeavingRest.append(property)
  }

  /// The property a snapshot's leaving-rest entry names.
  func property(fromKey key: Int) -> PropertyID? {
    guard let kind = ValueKind(order: key >> 32) else { return nil }
    let property = PropertyID(kind: kind, index: Int32(truncatingIfNeeded: key & 0xFFFF_FFFF))
    return contains(property) ? property : nil
  }

  /// Schedules `.callback(key)` at engine time `time` (now, if earlier). Callbacks at one
  /// instant fire in the order they were scheduled, after the animations' events.
  public mutating func schedule(callback key: Int, at time: Nanoseconds) {
    let sequence = nextPendingSequence()
    pending.insert(
      PendingEventQueue.Entry(time: max(time, now), sequence: sequence, slot: engineCallbackSlot(for: key)))
  }

  /// Adds an animation of `property`: standalone on the engine (it goes away when it
  /// completes), or inside a timeline (it stays with the timeline).
  public mutating func animate(
    _ property: PropertyID, with animation: Animation, placement: Placement
  ) throws(EngineError) -> NodeID {
    guard contains(property) else { throw .unknownProperty }
    if let kind = animation.valueKind, kind != property.kind {
      throw .typeMismatch(expected: property.kind, found: kind)
    }
    switch property.kind {
    case .number: return try animate(Double.self, property.index, animation, placement)
    case .vec2: return try animate(Vec2.self, property.index, animation, placement)
    case .vec3: return try animate(Vec3.self, property.index, animation, placement)
    case .vec4: return try animate(Vec4.self, property.index, animation, placement)
    case .color: return try animate(Color.self, property.index, animation, placement)
    }
  }

  /// The slot of `curve` in `curves`, added there when it is new.
  mutating func curveSlot(_ curve: TimingCurve) -> Int32 {
    if lastCurveSlot >= 0 && curves[Int(lastCurveSlot)] == curve { return lastCurveSlot }
    if let index = curveIndex[curve] {
      lastCurveSlot = index
      return index
    }
    curves.append(curve)
    addCurveEntry(for: curve)
    let index = Int32(curves.count - 1)
    curveIndex[curve] = index
    lastCurveSlot = index
    return index
  }

  mutating func animate<V: EngineValue>(
    _ type: V.Type, _ property: Int32, _ animation: Animation, _ placement: Placement
  ) throws(EngineError) -> NodeID {
    let base = stores[keyPath: V.store].properties[Int(property)].base
    // What the headings hold before the placement, to keep them past it (below).
    let generationBefore = stores[keyPath: V.store].generation
    let filledBeforeBefore = stores[keyPath: V.store].hasHadEffectsFillingBefore
    let headsForBase = stores[keyPath: V.store].headsForBaseWithOneWaiting(property)
    var effect: Effect<V>
    var frames: [TrackFrame<V>]?
    switch animation.shape {
    case .tween(let from, let to, let curve):
      effect = Effect(
        node: -1, property: property, curve: curveSlot(curve), from: from.flatMap(V.init) ?? base,
        to: V(to) ?? base, hasExplicitFrom: from != nil, hasValues: !animation.resolvesValuesAtStart,
        resolvesValuesAtStart: animation.resolvesValuesAtStart, composition: animation.composition)
    case .keyframes(let keyframes):
      guard !keyframes.isEmpty,
        keyframes.allSatisfy({ (0...1).contains($0.offset) }),
        zip(keyframes, keyframes.dropFirst()).allSatisfy({ $0.offset <= $1.offset })
      else { throw .invalidKeyframes }
      frames = keyframes.map {
        TrackFrame(offset: $0.offset, value: $0.value.flatMap(V.init), curve: curveSlot($0.curve))
      }
      let explicitFirst = keyframes[0].offset == 0 && keyframes[0].value != nil
      effect = Effect(
        node: -1, property: property, curve: -1, from: frames![0].value ?? base, to: frames!.last!.value ?? base,
        hasExplicitFrom: explicitFirst, hasValues: !animation.resolvesValuesAtStart,
        resolvesValuesAtStart: animation.resolvesValuesAtStart, composition: animation.composition)
    }
    effect.colorSpace = animation.colorSpace
    let index = stores[keyPath: V.store].allocateEffect(effect)
    if let frames { stores[keyPath: V.store].tracks[index] = frames }
    let node: Int32
    do {
      node = try makeNode(
        kind: .effect, valueKind: V.kind, payload: index, timing: animation.timing, rate: animation.rate,
        placement: placement)
    } catch {
      stores[keyPath: V.store].freeEffects.append(index)
      throw error
    }
    stores[keyPath: V.store].effects[Int(index)].node = node
    stores[keyPath: V.store].link(index)
    if nodes[Int(node)].parent < 0,
      let problem = Self.endProblem(of: node, rate: nil, local: nil, now: now, nodes, nodeExtras, timelines)
    {
      removeSubtree(node)
      throw problem
    }
    // (A takeover where it is placed does not make the property leave rest again.)
    let wasAnimating = stores[keyPath: V.store].properties[Int(property)].animating > 0
    // Placed on the engine, or in a timeline already playing: a backwards fill shows now.
    let top = topLevelAncestor(of: node)
    if top == node || !nodes[Int(top)].isPaused { armBackwardsFill(in: node) }
    if nodes[Int(node)].parent < 0 {
      // A standalone animation holds its property from the moment it is added: a property
      // is animating while an animation on it is delayed or active.
      stores[keyPath: V.store].effects[Int(index)].counted = true
      stores[keyPath: V.store].properties[Int(property)].animating += 1
      if stores[keyPath: V.store].properties[Int(property)].animating == 1 && !wasAnimating {
        scheduleLeavingRest(PropertyID(kind: V.kind, index: property))
      }
    }
    reschedule(topLevelAncestor(of: node))
    let placed = stores[keyPath: V.store].effects[Int(index)]
    if placed.mode == .unresolved && !placed.fillsBefore
      && stores[keyPath: V.store].hasHadEffectsFillingBefore == filledBeforeBefore
    {
      // It shows nothing before it starts, and `target` passes over it: no property's
      // heading changed. So the first of many additive starts on a property at one instant
      // need not walk its list of those placed (issue 14's front.run: a walk of 177
      // effects on each of 999 properties). The heading is recorded at the second
      // placement on a property, not the first: a property with one animation, the usual
      // case, keeps no entry (16 bytes an animation in engine.memory).
      stores[keyPath: V.store].headings.keep(from: generationBefore, to: stores[keyPath: V.store].generation)
      if headsForBase {
        stores[keyPath: V.store].headings.record(
          base, of: property, at: stores[keyPath: V.store].generation)
      }
    }
    return id(of: node)
  }

  /// Places a `set` item in a timeline at `time` of its time (GSAP's `tl.set`). Crossed
  /// forwards (or sought past), it records the property's value, sets the base value to
  /// `value`, ends the property's animations outside its timeline (as `set(_:to:)` does) and
  /// masks its own timeline's animations on the property that have started, while the
  /// playhead is past it; crossed backwards (or sought before), it puts the recorded value
  /// back and unmasks them. It fires no property event.
  ///
  /// With `resolvesValueWhenCrossed`, `value` is a placeholder: the first forward crossing
  /// asks for the value (`.needsValues`, answered by `setValues`), as an animation that
  /// resolves its values at its start does.
  public mutating func addSet(
    _ property: PropertyID, to value: AnimationValue, in timeline: NodeID, at time: Nanoseconds,
    resolvesValueWhenCrossed: Bool = false
  ) throws(EngineError) -> NodeID {
    guard contains(property) else { throw .unknownProperty }
    guard value.kind == property.kind else { throw .typeMismatch(expected: property.kind, found: value.kind) }
    var animation = Animation.tween(to: value, duration: 0, fill: .forwards)
    animation.resolvesValuesAtStart = resolvesValueWhenCrossed
    let id = try animate(property, with: animation, placement: .timeline(timeline, at: time))
    let node = nodes[Int(id.index)]
    switch property.kind {
    case .number: stores.numbers.effects[Int(node.payload)].isSet = true
    case .vec2: stores.vec2s.effects[Int(node.payload)].isSet = true
    case .vec3: stores.vec3s.effects[Int(node.payload)].isSet = true
    case .vec4: stores.vec4s.effects[Int(node.payload)].isSet = true
    case .color: stores.colors.effects[Int(node.payload)].isSet = true
    }
    return id
  }

  /// Supplies the values of an animation that resolves them at its start (answering
  /// `.needsValues`), or changes them before it starts: the tween's `from` (nil: the current
  /// value) and `to`, or the keyframes' values in order.
  public mutating func setValues(of id: NodeID, from: AnimationValue?, to values: [AnimationValue]) throws(EngineError)
  {
    let node = try resolve(id)
    guard nodes[Int(node)].kind == .effect else { throw .unknownNode }
    let kind = nodes[Int(node)].valueKind
    for value in values + (from.map { [$0] } ?? []) where value.kind != kind {
      throw .typeMismatch(expected: kind, found: value.kind)
    }
    switch kind {
    case .number: setValues(Double.self, nodes[Int(node)].payload, from, values)
    case .vec2: setValues(Vec2.self, nodes[Int(node)].payload, from, values)
    case .vec3: setValues(Vec3.self, nodes[Int(node)].payload, from, values)
    case .vec4: setValues(Vec4.self, nodes[Int(node)].payload, from, values)
    case .color: setValues(Color.self, nodes[Int(node)].payload, from, values)
    }
  }

  mutating func setValues<V: EngineValue>(
    _ type: V.Type, _ effect: Int32, _ from: AnimationValue?, _ values: [AnimationValue]
  ) {
    stores[keyPath: V.store].dropSampler(of: effect)
    let typed = values.compactMap(V.init)
    if var frames = stores[keyPath: V.store].tracks[effect] {
      // Keyframe values fill the keyframes in order; a missing first keyframe stays missing.
      var remaining = typed[...]
      for i in frames.indices where !(i == 0 && frames[0].value == nil && typed.count < frames.count) {
        if let next = remaining.popFirst() { frames[i].value = next }
      }
      stores[keyPath: V.store].tracks[effect] = frames
      if let first = frames.first?.value { stores[keyPath: V.store].effects[Int(effect)].from = first }
      if let last = frames.last?.value { stores[keyPath: V.store].effects[Int(effect)].to = last }
    } else if let to = typed.last {
      stores[keyPath: V.store].effects[Int(effect)].to = to
    }
    if let from = from.flatMap(V.init) {
      stores[keyPath: V.store].effects[Int(effect)].from = from
      stores[keyPath: V.store].effects[Int(effect)].hasExplicitFrom = true
    }
    stores[keyPath: V.store].effects[Int(effect)].hasValues = true
  }

  /// Removes a node and everything in it (a timeline's children). Its animations stop
  /// having output, and its callbacks will not fire. Fires no event.
  public mutating func remove(_ id: NodeID) throws(EngineError) {
    let index = try resolve(id)
    stopPlayheadTween(of: index)
    let top = topLevelAncestor(of: index)
    removeSubtree(index)
    if top != index { reschedule(top) }
  }

  mutating func removeSubtree(_ index: Int32) {
    let node = nodes[Int(index)]
    switch node.kind {
    case .free: return
    case .timeline:
      for child in timelines[Int(node.payload)].children { removeSubtree(child) }
      timelines[Int(node.payload)].children = []
      freeTimelines.append(node.payload)
    case .callback:
      freeCallbacks.append(node.payload)
    case .effect:
      switch node.valueKind {
      case .number: removeEffect(Double.self, node.payload)
      case .vec2: removeEffect(Vec2.self, node.payload)
      case .vec3: removeEffect(Vec3.self, node.payload)
      case .vec4: removeEffect(Vec4.self, node.payload)
      case .color: removeEffect(Color.self, node.payload)
      }
    }
    if node.parent >= 0 {
      let parentNode = nodes[Int(node.parent)]
      if parentNode.kind == .timeline {
        timelines[Int(parentNode.payload)].children.removeAll { $0 == index }
      }
    }
    freeExtras(of: index)
    nodes[Int(index)].kind = .free
    versions[Int(index)] &+= 1
    freeNodes.append(index)
  }

  /// Why a top-level node cannot play as it is: it would reach the end it plays toward (its
  /// end going forwards, its start going backwards) after the end of time. Nil when it gets
  /// there in time, never gets there (an infinite one, or one that loops backwards too), or
  /// stands still. `rate` and `local` ask about a change before it is made (a new speed, a
  /// seek); a paused node is asked about as if it resumed now.
  ///
  /// A node that plays, asked about as it is, arrives where its playback says: the time the
  /// scheduler would give its end, exact and fixed while the clock runs. So a node that was
  /// in time stays in time as time passes, and a session saved later restores (counted from
  /// the clock instead, through `Double`s that near 2⁶² are 512 ns apart, it could cross over
  /// between one instant and the next).
  func endProblem(of index: Int32, rate newRate: Double? = nil, local newLocal: Nanoseconds? = nil) -> EngineError? {
    Self.endProblem(of: index, rate: newRate, local: newLocal, now: now, nodes, nodeExtras, timelines)
  }

  /// The same, over the arrays it reads, as the functions of Engine+Time.swift are, for
  /// `animate`, which asks it for every animation it adds: called there, the method is handed
  /// a copy of the whole engine, and marked `@inline(__always)` it was still not inlined into
  /// `animate` (the optimizer stops inlining into a function that large).
  static func endProblem(
    of index: Int32, rate newRate: Double?, local newLocal: Nanoseconds?, now: Nanoseconds,
    _ nodes: ChunkedArray<Node>, _ nodeExtras: [NodeExtras], _ timelines: [TimelineRecord]
  ) -> EngineError? {
    let node = nodes[Int(index)]
    guard node.parent < 0 else { return nil }
    let rate = newRate ?? rate(of: node, nodeExtras)
    guard rate != 0, rate.isFinite else { return nil }
    let points = EventPoints(timing(of: node, nodeExtras), hasStarted: node.hasStarted)
    let target: Nanoseconds
    if rate > 0 {
      guard let end = points.end else { return nil }
      target = end
    } else {
      guard !points.wraps else { return nil }
      target = points.start
    }
    let playback = playback(of: node, nodeExtras)
    let arrival: Int128
    if newRate == nil, newLocal == nil, !playback.isHeld,
      let time = parentThreshold(of: playback, reaching: target, parentForward: true)
    {
      arrival = Int128(time)
    } else {
      let local = newLocal ?? localTime(of: index, atParent: now, nodes, nodeExtras, timelines)
      let remaining = rate > 0 ? Int128(target) - Int128(local) : Int128(local) - Int128(target)
      guard remaining > 0 else { return nil }
      arrival = Int128(now) + Int128(unscaled(clampedToNanoseconds(remaining), by: abs(rate)))
    }
    return arrival >= Int128(Self.endOfTime) ? .endsAfterEndOfTime : nil
  }

  /// Why a control that changes a node's speed (`rate`) or place (`local`), or resumes it,
  /// must refuse: it would get to its end after the end of time (`endProblem`), or, when
  /// `startsAgain` (it moves on from a start time solved anew), its place would have no
  /// clock time at that speed (`startProblem`). Nil for the node as it is when both are nil.
  func moveProblem(
    of index: Int32, rate newRate: Double? = nil, local newLocal: Nanoseconds? = nil, startsAgain: Bool
  ) -> EngineError? {
    if let problem = endProblem(of: index, rate: newRate, local: newLocal) { return problem }
    guard startsAgain else { return nil }
    return startProblem(
      local: newLocal ?? localTime(of: index, atParent: parentTime(of: index)),
      rate: newRate ?? rate(of: nodes[Int(index)]))
  }

  /// Why a node cannot move on from local time `local` at `rate`: the parent time at which
  /// its local time was 0, parent time − local / rate, would be beyond the end of time either
  /// way (3 s at speed 1e-300). Its start time would saturate, and its local time read from it
  /// would jump (a finished 3 s timeline set to speed 1e-300 read 0 s, and completed again).
  /// Nil when it stands still.
  func startProblem(local: Nanoseconds, rate: Double) -> EngineError? {
    guard rate != 0, rate.isFinite else { return nil }
    return Int128(unscaled(local, by: rate)).magnitude >= UInt128(Self.endOfTime) ? .endsAfterEndOfTime : nil
  }

  mutating func removeEffect<V: EngineValue>(_ type: V.Type, _ effect: Int32) {
    let slot = stores[keyPath: V.store].effects[Int(effect)]
    if slot.counted { stores[keyPath: V.store].properties[Int(slot.property)].animating -= 1 }
    stores[keyPath: V.store].freeEffect(effect)
    if slot.mayShow {
      // Its output goes now: the refreshes to come visit only effects that show one.
      stores[keyPath: V.store].currents[Int(slot.property)] = evaluate(V.self, slot.property, at: now)
    }
  }
}
