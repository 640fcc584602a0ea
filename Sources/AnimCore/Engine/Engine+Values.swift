// Values: what each animation outputs, how the animations on one property combine, and what
// starting and completing do to a property.
//
// A property's value is its base value with its animations applied in the order they
// started: a replacing animation (the first on a property at rest, `merge replace`, a
// spring taking over) sets the value; an additive one (a timing curve started while the
// property was animating) adds its change, its value minus the target it started from. So a
// retarget has no jump: value = newest target − Σ remaining changes. When an animation
// completes with a fill, the value it ended at becomes the base value and it falls silent
// until it starts again.

extension AnimationEngine {
  /// The value of property `property` at engine time `time`.
  ///
  /// Inlined, as the other small readers the event path calls (`resolve`, `effectProperty`,
  /// `needsValues`, `edgeValue`): called from a mutating method, a non-mutating method
  /// gets a copy of the whole engine (624 bytes) to read.
  @inline(__always)
  func evaluate<V: EngineValue>(_ type: V.Type, _ property: Int32, at time: Nanoseconds) -> V {
    let store = stores[keyPath: V.store]
    return evaluate(store, property, at: time)
  }

  @inline(__always)
  func evaluate<V: EngineValue>(_ store: ValueStore<V>, _ property: Int32, at time: Nanoseconds) -> V {
    evaluate(store, slot: store.properties[Int(property)], at: time)
  }

  /// The value of the property whose slot is `slot` (`store`'s properties are not read, so
  /// `refresh` can hold them apart while it writes them).
  @inline(__always)
  func evaluate<V: EngineValue>(_ store: ValueStore<V>, slot: PropertySlot<V>, at time: Nanoseconds) -> V {
    var walk = EffectWalk(slot)
    while walk.cursor >= 0 { step(&walk, store, at: time) }
    return walk.result
  }

  /// The first value an effect that fills backwards shows while it waits for its active
  /// phase at engine time `time`, and how long until it starts (in its parent's time);
  /// nil when it is not waiting.
  @inline(__always)
  func fillBefore<V: EngineValue>(
    of effect: Effect<V>, _ index: Int32, _ store: ValueStore<V>, at time: Nanoseconds
  ) -> (value: V, untilStart: Double)? {
    let node = nodes[Int(effect.node)]
    let timing = timing(of: node)
    let state = localState(of: effect.node, at: time)
    var computed = timing.computedTiming(localTime: state.local, goingBackwards: state.direction < 0)
    let points = EventPoints(timing, hasStarted: false)
    // Come back to its start from its active side (recorded a nanosecond short of it, having
    // completed there, or beyond it, at a pass boundary it reads the next pass's start at),
    // it ends there: it no longer shows its backwards fill (grammar.md § Timing), also while
    // the instant's events are still being delivered, before its own `complete` (a `from`
    // resolved, or a value taken over, by another item crossed first reads what it left, not
    // its fill).
    if state.local == points.start && state.direction < 0
      && ((node.hasStarted && node.lastLocal == saturatingSum(points.start, -1)) || node.lastLocal > points.start)
    {
      return nil
    }
    if state.local == points.start
      && (computed.phase == .active || (computed.phase == .after && hasWaitedAtStart(node, at: state.local)))
    {
      // At its very start and still waiting (it has not started: placed and paused at once,
      // its negative delay putting that start part-way): what its before phase shows there,
      // the value max(local − delay, 0) into it. (One of no length is past its end there
      // by Web Animations' phases: not started, it is waiting all the same.)
      computed = timing.computedTiming(localTime: state.local, goingBackwards: true)
    }
    guard computed.phase == .before, let progress = computed.directedProgress else { return nil }
    let rate = abs(rate(of: node))
    let untilStart = rate > 0 ? Double(points.start - state.local) / rate : .infinity
    let value = shapeValue(
      of: effect, index, store, progress: progress, beforeFlag: computed.beforeFlag,
      passForwards: computed.isGoingForwards ?? true, duration: timing.iterationDuration)
    return (value, untilStart)
  }

  /// The value an effect shows at engine time `time`, or nil when it has none (outside its
  /// active interval and fill).
  @inline(__always)
  func output<V: EngineValue>(of effect: Effect<V>, _ index: Int32, _ store: ValueStore<V>, at time: Nanoseconds) -> V?
  {
    let node = nodes[Int(effect.node)]
    let timing = timing(of: node)
    let state: (local: Nanoseconds, direction: Int)
    if node.parent < 0 {
      // A top-level node: its parent time is the engine's. Playing at rate 1 (the usual
      // case), its local time is exactly time − start, which `currentTime` would compute
      // through a call to `scaled`.
      let rate = rate(of: node)
      let local =
        rate == 1 && !node.isHeld ? saturatingDifference(time, node.time) : localTime(of: effect.node, atParent: time)
      state = (local, rate < 0 ? -1 : 1)
    } else {
      state = localState(of: effect.node, at: time)
    }
    // `wrapped` changes only a local time at or below the delay and 0: skip the call otherwise.
    let local =
      node.hasStarted && state.local <= max(node.delay, 0)
      ? timing.wrapped(state.local, hasStarted: true) : state.local
    var backwards = state.direction < 0
    if local >= 0 && local <= max(node.delay, 0), local == EventPoints(timing, hasStarted: false).start,
      let crossed = hasCrossedStart(node, at: local)
    {
      // Standing exactly at its start, it shows the side it has crossed to, whichever way it
      // would move from there: not started (placed and paused at once), its before phase;
      // started and then turned back while it stands (reversed or sped backwards while
      // paused), its active phase, until it moves and completes there (grammar.md § Timing).
      backwards = !crossed
    } else if node.lastLocal == local || node.lastLocal == saturatingSum(local, 1),
      let end = EventPoints(timing, hasStarted: node.hasStarted).end, local == end
    {
      // Likewise exactly at its end: come back into it from beyond (its start reversed,
      // landed there), it shows its active phase, the end of its last pass, until it moves,
      // though its direction now be forwards (sped up forwards while paused there); having
      // completed there forwards (recorded just past it), it shows its after phase, though
      // turned back. A speed change never makes the value jump.
      if node.lastLocal == end && node.turn < 0 { backwards = true }
      if node.lastLocal == end + 1 { backwards = false }
    }
    let sampled = timing.sampledProgress(localTime: local, goingBackwards: backwards)
    guard let progress = sampled.progress else { return nil }
    return shapeValue(
      of: effect, index, store, progress: progress, beforeFlag: sampled.beforeFlag, passForwards: sampled.passForwards,
      duration: timing.iterationDuration)
  }

  /// Whether a node standing at its start `start` has crossed it forwards (its start fired,
  /// and it has not completed back there since); nil when its record does not say, as when
  /// it was last crossed elsewhere: its time reads its start only by Web Animations' rule
  /// that a timeline's pass boundary belongs to the pass it starts, while crossing has left
  /// it at its end in the pass before (come back into it from its end, exactly at that
  /// boundary). Read as active there, it showed its start value, which a takeover at that
  /// instant then kept (seeds 6073866, 6064393).
  @inline(__always)
  func hasCrossedStart(_ node: Node, at start: Nanoseconds) -> Bool? {
    if node.lastLocal != start {
      guard node.lastLocal >= saturatingSum(start, -1) && node.lastLocal <= saturatingSum(start, 1) else { return nil }
      return node.lastLocal > start
    }
    return node.turn > 0 ? true : node.turn < 0 ? false : nil
  }

  /// Whether `node`, standing at its start `start`, has not crossed it: known not crossed,
  /// or never started and standing where its record began (placed, or its timeline played,
  /// and paused at once: seed 24139644, an item whose negative delay skips it all).
  func hasWaitedAtStart(_ node: Node, at start: Nanoseconds) -> Bool {
    switch hasCrossedStart(node, at: start) {
    case false?: true
    case nil: !node.hasStarted && node.lastLocal == start
    case true?: false
    }
  }

  /// The effect's value at directed progress `progress` (0...1 through a pass of
  /// `duration`, which runs forwards or, `passForwards` false, backwards).
  @inline(__always)
  func shapeValue<V: EngineValue>(
    of effect: Effect<V>, _ index: Int32, _ store: ValueStore<V>, progress: Double, beforeFlag: Bool,
    passForwards: Bool = true, duration: Nanoseconds
  ) -> V {
    if effect.curve >= 0 {
      return shapeTween(
        curve: effect.curve, isSpring: effect.mode == .spring, from: effect.from, to: effect.to,
        velocity: effect.hasVelocity ? store.springVelocities[index] ?? .zero : .zero, colorSpace: effect.colorSpace,
        progress: progress, beforeFlag: beforeFlag)
    }
    // A keyframe track: find the segment, ease it with the curve of the keyframe it ends at.
    // Before the first keyframe the track runs from `from`: the first keyframe's value when
    // it is at 0, else the value the property had when the track started.
    guard let frames = store.tracks[index], !frames.isEmpty else { return effect.to }
    // Positions are whole nanoseconds of the pass, round(offset · duration) (halves up),
    // and a segment's progress is (t − a) / (b − a) on those integers, t the pass's time
    // (progress is t / duration, computed from the integer t, so it gives t back exactly).
    // In a backwards pass t is the mirror of the time run forwards, duration − that time:
    // at the end of a fractional last pass (progress from the count, 1.5 passes of 3 ns end
    // 1.5 ns into the second), the forwards time rounds up (the active duration's rounding)
    // and its mirror down, where rounding the mirrored progress would round up again.
    let length = Double(max(duration, 0))
    let exact = length > 0 && length < 0x1p52
    let time =
      !exact ? progress : passForwards ? (progress * length).rounded() : length - ((1 - progress) * length).rounded()
    func position(_ offset: Double) -> Double {
      guard exact else { return offset }
      // An offset is p / 100 for a percent p, which a Double holds only nearly (35 % is
      // 0.34999999999999997…): a product within that error of a half is the half, which
      // rounds up (round(p / 100 · duration), halves up, exactly).
      let product = offset * length
      let whole = product.rounded(.down)
      if abs(product - whole - 0.5) <= length * 0x1p-50 { return whole + 1 }
      return product.rounded(.toNearestOrAwayFromZero)
    }
    var previousPosition = 0.0
    var previousValue = effect.from
    for frame in frames {
      let value = frame.value ?? effect.from
      let framePosition = position(frame.offset)
      if time <= framePosition {
        let span = framePosition - previousPosition
        let local = span > 0 ? (time - previousPosition) / span : 1
        let eased = curves[Int(frame.curve)].progress(at: local, beforeFlag: beforeFlag)
        return V.interpolate(from: previousValue, to: value, progress: eased, in: effect.colorSpace)
      }
      previousPosition = framePosition
      previousValue = value
    }
    return previousValue
  }

  /// The property's velocity now, in value units per second: the three-point one-sided
  /// difference over the next 100 µs (second-order accurate). One-sided ahead, because an
  /// animation that has just started has no past, and the animations a new one takes over
  /// from are still in place when it asks.
  func velocity<V: EngineValue>(_ type: V.Type, _ property: Int32) -> V {
    let h: Nanoseconds = 50_000
    let f0 = evaluate(V.self, property, at: now)
    let f1 = evaluate(V.self, property, at: saturatingSum(now, h))
    let f2 = evaluate(V.self, property, at: saturatingSum(now, 2 * h))
    return (f1.scaled(by: 4) - f0.scaled(by: 3) - f2).scaled(by: 1e9 / Double(2 * h))
  }

  /// Where the property is heading: its base value with every animation on it run to its
  /// end, leaving out effect `excluded`. Kept in the store's `headings` when `excluded`
  /// adds nothing to it (not started, not waiting with a backwards fill), so that the
  /// additive starts of many animations on one property do not each walk its list (issue
  /// 14's front.run: a fifth of a trace that starts them at one instant).
  mutating func target<V: EngineValue>(_ type: V.Type, _ property: Int32, excluding excluded: Int32) -> V {
    // (The store is read in one call, which returns before the entry is written: a copy of
    // it still held there would make the write copy the headings.)
    let (value, generation) = stores[keyPath: V.store].keptOrWalkedTarget(property, excluding: excluded)
    if let generation { stores[keyPath: V.store].headings.record(value, of: property, at: generation) }
    return value
  }

  /// `target`, walking the property's list.
  func walkedTarget<V: EngineValue>(_ type: V.Type, _ property: Int32, excluding excluded: Int32) -> V {
    stores[keyPath: V.store].walkedTarget(property, excluding: excluded)
  }
}

extension ValueStore {
  /// `AnimationEngine.target`'s value, kept or walked, and the generation to keep a walked
  /// one at (nil: kept already, or not to be kept, `excluded` adding something to it).
  func keptOrWalkedTarget(_ property: Int32, excluding excluded: Int32) -> (V, UInt64?) {
    let excludedAddsNothing =
      excluded < 0 || (effects[Int(excluded)].mode == .unresolved && !effects[Int(excluded)].fillsBefore)
    if excludedAddsNothing, let heading = headings.heading(of: property, at: generation) { return (heading, nil) }
    return (walkedTarget(property, excluding: excluded), excludedAddsNothing ? generation : nil)
  }

  /// Whether the property heads for its base value with one effect on its list, waiting
  /// and showing nothing (`walkedTarget` of a list of one, without the walk).
  func headsForBaseWithOneWaiting(_ property: Int32) -> Bool {
    let first = properties[Int(property)].firstEffect
    guard first >= 0, first == properties[Int(property)].lastEffect else { return false }
    return effects[Int(first)].mode == .unresolved && !effects[Int(first)].fillsBefore
  }

  /// Where the property is heading, leaving out effect `excluded`, by a walk of its list.
  func walkedTarget(_ property: Int32, excluding excluded: Int32) -> V {
    let store = self  // (the walk as the engine's was written, reading a store)
    var value = store.properties[Int(property)].base
    // One waiting to start that shows its first value in place of the base value heads,
    // once it runs, for its own target.
    // (The list is walked in place: an array of it at each of many starts on one property
    // was a fifth of a trace that starts them.)
    let first = store.properties[Int(property)].firstEffect
    var cursor = store.hasHadEffectsFillingBefore ? first : -1
    while cursor >= 0 {
      let effect = store.effects[Int(cursor)]
      if cursor != excluded && effect.fillsBefore && effect.mode == .unresolved {
        value = effect.hasShift ? effect.to + store.shift(ofEffect: cursor) : effect.to
        break
      }
      cursor = effect.next
    }
    cursor = first
    while cursor >= 0 {
      let effect = store.effects[Int(cursor)]
      if cursor != excluded && !effect.muted && effect.mode != .unresolved {
        value =
          effect.mode == .additive
          ? value + (effect.to - effect.from) : effect.hasShift ? effect.to + store.shift(ofEffect: cursor) : effect.to
      }
      cursor = effect.next
    }
    return value
  }
}

extension AnimationEngine {
  /// Refreshes the stored current value of every animated property (after an advance).
  /// Nothing they are computed from changed since the last refresh (`revision`): they are
  /// what it computed, and it is skipped. (A trace to time 0 refreshed three times with
  /// nothing between: the start's advance, the first frame's and the last one's, each a
  /// walk of every animated property's effects.)
  mutating func refreshCurrentValues() {
    guard revision != refreshedRevision else { return }
    // Every effect of a timeline reads the timeline's time at `now`: worked out once each.
    childTimes = ChildTimeMemo(time: now)
    defer {
      childTimes = nil
      refreshedRevision = revision
    }
    refresh(Double.self)
    refresh(Vec2.self)
    refresh(Vec3.self)
    refresh(Vec4.self)
    refresh(Color.self)
  }

  /// Refreshes the current values of the properties whose effects show a value, visiting
  /// the showing effects in index order (so the arrays are read front to back). An effect
  /// found no longer showing has its bit cleared and its property computed once more, to
  /// what the rest show.
  mutating func refresh<V: EngineValue>(_ type: V.Type) {
    guard !stores[keyPath: V.store].showing.isEmpty || !stores[keyPath: V.store].samplers.isEmpty else { return }
    var store = stores[keyPath: V.store]
    stores[keyPath: V.store] = ValueStore()  // hand the arrays over, so writes do not copy them
    // The loop calls the engine's non-mutating helpers (`evaluate`, `makeSampler`), and each
    // such call from a mutating method copies the whole engine, 624 bytes and a retain of
    // every array: once here instead of once per animation.
    let engine = self
    engine.refresh(&store)
    stores[keyPath: V.store] = store
  }

  /// The loop of `refresh`, over the store the engine handed over.
  private func refresh<V: EngineValue>(_ store: inout ValueStore<V>) {
    // The arrays the loop writes, apart from the store that `evaluate` reads.
    var currents = store.currents
    store.currents = []
    if store.refreshCount == .max {
      for i in store.properties.indices { store.properties[i].refreshed = 0 }
      store.refreshCount = 0
    }
    store.refreshCount += 1
    let stamp = store.refreshCount
    // The samplers first, from their dense array with no effect or node read.
    runSamplers(store, into: &currents)
    var showing = store.showing
    store.showing = []
    // The loop below writes only these, and reads the rest of the store: held apart, the
    // store goes to it as a plain argument, not copied (with a retain of each of its arrays)
    // for each call it makes.
    var properties = store.properties
    store.properties = []
    var made: [Sampler<V>] = []
    computeShowing(store, &properties, &currents, &showing, stamp: stamp, newSamplers: &made)
    store.properties = properties
    // From the next refresh on, these compute their properties.
    for sampler in made { store.addSampler(sampler) }
    while let last = showing.last, last == 0 { showing.removeLast() }
    store.currents = currents
    store.showing = showing
  }

  /// The general path of `refresh`: computes the property of each effect that may be
  /// showing a value (its bit in `showing`), clearing the bits of those that no longer show
  /// one, and makes a sampler for each that can have one (their bits cleared too).
  private func computeShowing<V: EngineValue>(
    _ store: ValueStore<V>, _ properties: inout [PropertySlot<V>], _ currents: inout [V], _ showing: inout [UInt64],
    stamp: UInt32, newSamplers: inout [Sampler<V>]
  ) {
    // The properties with more than one effect, computed after the loop, side by side
    // (EffectWalk.swift).
    var shared: [Int32] = []
    for word in showing.indices where showing[word] != 0 {
      var bits = showing[word]
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        bits &= bits &- 1
        let index = word << 6 | bit
        let effect = store.effects[index]
        let property = Int(effect.property)
        if !effect.mayShow {
          showing[word] &= ~(1 << UInt64(bit))
        }
        if effect.next < 0 && properties[property].firstEffect == Int32(index) {
          // Alone on its property (the usual case): no need to mark it computed.
          currents[property] = evaluate(store, slot: properties[property], at: now)
          if effect.isShowing, let sampler = makeSampler(store, effect: Int32(index)) {
            newSamplers.append(sampler)
            showing[word] &= ~(1 << UInt64(bit))
          }
        } else if properties[property].refreshed != stamp {
          properties[property].refreshed = stamp
          shared.append(Int32(property))
        }
      }
    }
    evaluateInterleaved(shared, store, properties, into: &currents, at: now)
  }

  /// The current (last refreshed) value of a number property: the fast read for hosts that
  /// sample many properties per frame. Inlinable, so a host's loop reads the value directly.
  @inlinable
  public func currentNumber(of property: PropertyID) -> Double? {
    guard property.kind == .number, Int(property.index) < stores.numbers.currents.count else { return nil }
    return stores.numbers.currents[Int(property.index)]
  }

  /// The property's value as of the last advance (or `set`, `finish`, `cancel`): what
  /// `value(of:)` gave then, kept, so reading it costs no evaluation.
  public func currentValue(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: stores.numbers.currents[Int(property.index)].animationValue
    case .vec2: stores.vec2s.currents[Int(property.index)].animationValue
    case .vec3: stores.vec3s.currents[Int(property.index)].animationValue
    case .vec4: stores.vec4s.currents[Int(property.index)].animationValue
    case .color: stores.colors.currents[Int(property.index)].animationValue
    }
  }

  // MARK: - Starting and completing

  @inline(__always)
  func effectProperty(of node: Int32) -> PropertyID {
    let n = nodes[Int(node)]
    switch n.valueKind {
    case .number: return PropertyID(kind: .number, index: stores.numbers.effects[Int(n.payload)].property)
    case .vec2: return PropertyID(kind: .vec2, index: stores.vec2s.effects[Int(n.payload)].property)
    case .vec3: return PropertyID(kind: .vec3, index: stores.vec3s.effects[Int(n.payload)].property)
    case .vec4: return PropertyID(kind: .vec4, index: stores.vec4s.effects[Int(n.payload)].property)
    case .color: return PropertyID(kind: .color, index: stores.colors.effects[Int(n.payload)].property)
    }
  }

  @inline(__always)
  func needsValues(_ node: Int32) -> Bool {
    func check<V: EngineValue>(_ type: V.Type) -> Bool {
      let effect = stores[keyPath: V.store].effects[Int(nodes[Int(node)].payload)]
      return effect.resolvesValuesAtStart && !effect.hasValues
    }
    switch nodes[Int(node)].valueKind {
    case .number: return check(Double.self)
    case .vec2: return check(Vec2.self)
    case .vec3: return check(Vec3.self)
    case .vec4: return check(Vec4.self)
    case .color: return check(Color.self)
    }
  }

  /// An effect node starts (in either direction). Returns whether its property left rest.
  mutating func activate(_ node: Int32, forward: Bool) -> Bool {
    switch nodes[Int(node)].valueKind {
    case .number: activate(Double.self, nodes[Int(node)].payload, forward: forward)
    case .vec2: activate(Vec2.self, nodes[Int(node)].payload, forward: forward)
    case .vec3: activate(Vec3.self, nodes[Int(node)].payload, forward: forward)
    case .vec4: activate(Vec4.self, nodes[Int(node)].payload, forward: forward)
    case .color: activate(Color.self, nodes[Int(node)].payload, forward: forward)
    }
  }

  mutating func activate<V: EngineValue>(_ type: V.Type, _ index: Int32, forward: Bool = true) -> Bool {
    var effect = stores[keyPath: V.store].effects[Int(index)]
    if effect.isSet {
      if forward { applySet(V.self, index) } else { revertSet(V.self, index) }
      return false
    }
    // Hidden by a timeline `set` the playhead is past: it stays silent.
    if effect.masked { return false }
    let property = effect.property
    // A property that was animating and is taken over (a spring, `merge replace`) does not
    // leave rest, even though the animations it had are ended on the way.
    let wasAnimating =
      stores[keyPath: V.store].properties[Int(property)].animating > (effect.counted ? 1 : 0)
      || effect.counted
    if effect.muted && !effect.inStack && effect.mode != .unresolved && !effect.isSet {
      // Starting again (a timeline going back over it) outside the stack it left, it joins
      // the property as a newcomer would (what it left went into the base value when that
      // stack ended, and stays there): one that replaces by itself (an explicit `from`,
      // `merge replace`, a spring) takes the property over again; another adds to what
      // shows, from where that is heading, or, with nothing showing, starts a stack of its
      // own with the values it settled the first time.
      effect.committedAtEnd = nil
      let intrinsic = effect.hasExplicitFrom || effect.composition == .replace || effect.mode == .spring
      let others = stores[keyPath: V.store].containsEffect(on: property, except: index, where: \.isShowing)
      if intrinsic {
        if others { supersede(V.self, property, except: index, includingActive: true) }
      } else if others {
        effect.from = target(V.self, property, excluding: index)
        effect.mode = .additive
      } else {
        effect.mode = .replace
      }
    }
    if effect.muted {
      if effect.mode == .additive, let atEnd = effect.committedAtEnd {
        // Its change went into the base value when it completed; it shows it again itself.
        let edge = edgeValue(of: effect, index, atEnd: atEnd)
        uncommit(V.self, edge - effect.from, above: index)
      }
      effect.muted = false
      effect.committedAtEnd = nil
    }
    // Sought back before its start (a standalone one), it waited in its place: it starts
    // again there, its values and its place in the stack as they were.
    let waitedInPlace =
      effect.inStack && !effect.muted && effect.mode != .unresolved && nodes[Int(effect.node)].parent < 0
    var springVelocity: V?
    var spared: [Int32] = []
    // For an additive start: the store's generation at which `target` gave its `from`.
    var headingAt: UInt64?
    // A standalone animation that filled backwards took its place in the property's stack
    // where it was placed (at its base: it replaced): what joined since stays above it.
    let joinedWhenPlaced = effect.fillsBefore && effect.mode == .unresolved && nodes[Int(effect.node)].parent < 0
    if joinedWhenPlaced {
      let isSpring = effect.curve >= 0 && curves[Int(effect.curve)].isSpring
      if isSpring, case .spring(let spring) = curves[Int(effect.curve)] {
        effect.mode = .spring
        springVelocity = (effect.to - effect.from).scaled(by: spring.initialVelocity)
      } else {
        effect.mode = .replace
      }
    } else if effect.mode == .unresolved, nodes[Int(effect.node)].parent < 0,
      hasNewerWaitingTakeover(V.self, above: index)
    {
      // A takeover placed after it took the property over where it was placed (its
      // backwards fill) and waits to start: it took it over from this one too, which is
      // dropped as it starts (grammar.md § Retargeting). Its `start` is all it does.
      end(V.self, index, absorbing: false)
      return false
    } else if effect.mode == .unresolved {
      // Animating with something else (a standalone animation counts itself from the start
      // of its delay).
      let animating = stores[keyPath: V.store].properties[Int(property)].animating > (effect.counted ? 1 : 0)
      let isSpring = effect.curve >= 0 && curves[Int(effect.curve)].isSpring
      let replaces = isSpring || !animating || effect.composition == .replace || effect.hasExplicitFrom
      // Taking over, it spares what was placed after it and waits to add to what runs
      // (`newerWaiting`), which shows nothing of its own yet: the value it takes over is
      // the one below those.
      if replaces { spared = newerWaiting(V.self, above: index) }
      for other in spared { stores[keyPath: V.store].effects[Int(other)].muted = true }
      // (Only a takeover starts from the value now: an additive one starts from the target,
      // and evaluating every effect on the property at each of many additive starts at one
      // instant cost the square of their number: issue 14's front.run.)
      let current = replaces ? evaluate(V.self, property, at: now) : .zero
      var velocity: V = .zero
      if isSpring {
        if animating {
          velocity = self.velocity(V.self, property)
        } else if case .spring(let spring) = curves[Int(effect.curve)] {
          let from = effect.hasExplicitFrom ? effect.from : current
          velocity = (effect.to - from).scaled(by: spring.initialVelocity)
        }
      }
      for other in spared { stores[keyPath: V.store].effects[Int(other)].muted = false }
      if isSpring {
        // (One that fills backwards settled its `from` when it was placed.)
        if !effect.hasExplicitFrom && !effect.fillsBefore && !effect.settledFrom { effect.from = current }
        effect.mode = .spring
        springVelocity = velocity
        supersede(V.self, property, except: index, includingActive: true, sparing: spared)
      } else if replaces {
        // (One that fills backwards settled its `from` when it was placed.)
        if !effect.hasExplicitFrom && !effect.fillsBefore && !effect.settledFrom { effect.from = current }
        effect.mode = .replace
        supersede(V.self, property, except: index, includingActive: animating, sparing: spared)
      } else {
        effect.from = target(V.self, property, excluding: index)
        effect.mode = .additive
        headingAt = stores[keyPath: V.store].generation
      }
    }
    effect.inStack = true
    var startsProperty = false
    if !effect.counted {
      effect.counted = true
      stores[keyPath: V.store].properties[Int(property)].animating += 1
      startsProperty = !wasAnimating && stores[keyPath: V.store].properties[Int(property)].animating == 1
    }
    // Superseding unlinked the others from the property's list, which may have changed
    // this effect's link: keep the list's, not the copy's from before.
    effect.next = stores[keyPath: V.store].effects[Int(index)].next
    effect.sampler = stores[keyPath: V.store].effects[Int(index)].sampler
    stores[keyPath: V.store].effects[Int(index)] = effect
    if let springVelocity { stores[keyPath: V.store].setVelocity(springVelocity, ofEffect: index) }
    // Its property's list changes: no effect on it stays on a sampler.
    stores[keyPath: V.store].dropSamplers(onProperty: property)
    if !joinedWhenPlaced && !waitedInPlace { stores[keyPath: V.store].moveToTop(index) }
    stores[keyPath: V.store].markShowing(index)
    if let headingAt {
      // An additive start: now on top of its property's stack, it adds its change to where
      // the property was heading (what `target` gave it as its `from`, leaving it out), and
      // its writes since changed no other property's heading (its own list, its sampler
      // and its neighbours', its count). The same sum as `walkedTarget`'s, in its order.
      stores[keyPath: V.store].headings.carry(
        effect.from + (effect.to - effect.from), of: property, from: headingAt,
        to: stores[keyPath: V.store].generation)
    }
    // Those placed after it, waiting with a backwards fill to add to what runs, stay above
    // it, their change measured anew from where the stack heads now that it has taken over.
    for other in spared {
      stores[keyPath: V.store].effects[Int(other)].from = target(V.self, property, excluding: other)
      stores[keyPath: V.store].moveToTop(other)
      stores[keyPath: V.store].markShowing(other)
    }
    return startsProperty
  }

  /// The standalone animations on effect `index`'s property placed after it (later in its
  /// list, not yet in the stack) that wait with a backwards fill to add to what runs: a
  /// takeover by `index` drops only what was placed before it (grammar.md § Retargeting).
  func newerWaiting<V: EngineValue>(_ type: V.Type, above index: Int32) -> [Int32] {
    let store = stores[keyPath: V.store]
    let taker = nodes[Int(store.effects[Int(index)].node)]
    // (A standalone one compares the order the nodes were made in: one it spared before
    // went to the top of the list, above those placed after it.)
    let first = store.properties[Int(store.effects[Int(index)].property)].firstEffect
    var result: [Int32] = []
    var cursor = taker.parent < 0 ? first : store.effects[Int(index)].next
    while cursor >= 0 {
      let effect = store.effects[Int(cursor)]
      let node = nodes[Int(effect.node)]
      if node.fill.fillsBackwards && effect.mode == .additive && !effect.inStack && node.parent < 0
        && (taker.parent >= 0 || node.order > taker.order)
      {
        result.append(cursor)
      }
      cursor = effect.next
    }
    return result
  }

  /// Whether a standalone takeover placed after standalone effect `index`, on its property,
  /// took the property over where it was placed (its backwards fill) and waits to start.
  func hasNewerWaitingTakeover<V: EngineValue>(_ type: V.Type, above index: Int32) -> Bool {
    let store = stores[keyPath: V.store]
    guard store.hasHadEffectsFillingBefore else { return false }
    let placedAt = nodes[Int(store.effects[Int(index)].node)].order
    return store.containsEffect(on: store.effects[Int(index)].property, except: index) { effect in
      guard effect.fillsBefore, effect.mode == .unresolved else { return false }
      let node = nodes[Int(effect.node)]
      return node.parent < 0 && node.order > placedAt
    }
  }

  /// Silences the other effects on a property that a new replacing one takes over: those
  /// filling, and the active ones too when `includingActive` (a standalone one is removed).
  mutating func supersede<V: EngineValue>(
    _ type: V.Type, _ property: Int32, except keep: Int32, includingActive: Bool, sparing spared: [Int32] = []
  ) {
    for other in stores[keyPath: V.store].effects(on: property) where other != keep && !spared.contains(other) {
      let effect = stores[keyPath: V.store].effects[Int(other)]
      // (A standalone one waiting in its delay with a backwards fill is in the stack from its
      // placement: one that takes the property over drops it too.)
      let waitingInStack = includingActive && effect.fillsBefore && nodes[Int(effect.node)].parent < 0
      guard effect.mode != .unresolved || waitingInStack else { continue }
      if effect.counted && !includingActive { continue }
      // Taking over a moving property keeps the value it had as its base value: when the
      // newcomer ends without a fill, the property shows what it was taken over at.
      // (An item of a timeline still in its active interval keeps its property animating:
      // grammar.md's "animating while an animation on it is delayed or active".)
      end(V.self, other, absorbing: includingActive, keepsCounting: nodes[Int(effect.node)].parent >= 0)
    }
  }

  /// Ends an effect's hold on its property without an event: it stops counting as
  /// animating and falls silent; a standalone one is removed. With `absorbing`, the value it
  /// shows now goes into the base value first (`cancel`).
  mutating func end<V: EngineValue>(_ type: V.Type, _ index: Int32, absorbing: Bool, keepsCounting: Bool = false) {
    stores[keyPath: V.store].dropSampler(of: index)
    let effect = stores[keyPath: V.store].effects[Int(index)]
    let property = effect.property
    if absorbing, !effect.muted, effect.mode != .unresolved,
      let output = output(of: effect, index, stores[keyPath: V.store], at: now)
    {
      if effect.mode == .additive {
        // Its change stays where an additive change that completes goes: under a replacing
        // animation still running below it, as that one's shift (so that ending that one in
        // turn keeps it too: `cancel` ends them one at a time); else in the base value.
        commit(V.self, output - effect.from, above: index)
      } else {
        stores[keyPath: V.store].properties[Int(property)].base =
          effect.hasShift ? output + stores[keyPath: V.store].shift(ofEffect: index) : output
      }
    } else if absorbing, !effect.muted, effect.mode != .unresolved, effect.hasShift {
      // Showing nothing itself (waiting again in its delay), it kept what completed above it.
      stores[keyPath: V.store].properties[Int(property)].base =
        stores[keyPath: V.store].properties[Int(property)].base + stores[keyPath: V.store].shift(ofEffect: index)
    } else if absorbing, effect.fillsBefore,
      let shown = fillBefore(of: effect, index, stores[keyPath: V.store], at: now)
    {
      // One waiting with a backwards fill shows its first value (and what completed above
      // it) in place of the base value: that is the value kept.
      stores[keyPath: V.store].properties[Int(property)].base =
        effect.hasShift ? shown.value + stores[keyPath: V.store].shift(ofEffect: index) : shown.value
    }
    stores[keyPath: V.store].setShift(nil, ofEffect: index)
    stores[keyPath: V.store].effects[Int(index)].fillsBefore = false
    stores[keyPath: V.store].effects[Int(index)].inStack = false
    if effect.counted && !keepsCounting {
      stores[keyPath: V.store].effects[Int(index)].counted = false
      stores[keyPath: V.store].properties[Int(property)].animating -= 1
    }
    stores[keyPath: V.store].effects[Int(index)].muted = true
    // A replacing one that had completed keeps the edge it left its value at (a jump back
    // across it puts its other edge's value back); an additive one's change is no longer in
    // the base value once another took over.
    if effect.mode == .additive || !effect.muted { stores[keyPath: V.store].effects[Int(index)].committedAtEnd = nil }
    if nodes[Int(effect.node)].parent < 0 {
      removeSubtree(effect.node)
    }
  }

  /// The value an effect shows at the end of its active interval (`atEnd`) or at its start.
  @inline(__always)
  func edgeValue<V: EngineValue>(of effect: Effect<V>, _ index: Int32, atEnd: Bool) -> V {
    var timing = timing(of: effect.node)
    timing.fill = .both
    let points = EventPoints(timing, hasStarted: false)
    let local = atEnd ? (points.end ?? points.start) : points.start
    let computed = timing.computedTiming(localTime: local, goingBackwards: !atEnd)
    let store = stores[keyPath: V.store]
    return shapeValue(
      of: effect, index, store, progress: computed.directedProgress ?? (atEnd ? 1 : 0), beforeFlag: computed.beforeFlag,
      passForwards: computed.isGoingForwards ?? true, duration: timing.iterationDuration)
  }

  /// An effect node completes (at its end, or at its start going backwards). Its value
  /// there becomes the base value when its fill covers it. Returns whether its property came
  /// to rest.
  mutating func complete(_ node: Int32, forward: Bool) -> Bool {
    switch nodes[Int(node)].valueKind {
    case .number: complete(Double.self, nodes[Int(node)].payload, forward: forward)
    case .vec2: complete(Vec2.self, nodes[Int(node)].payload, forward: forward)
    case .vec3: complete(Vec3.self, nodes[Int(node)].payload, forward: forward)
    case .vec4: complete(Vec4.self, nodes[Int(node)].payload, forward: forward)
    case .color: complete(Color.self, nodes[Int(node)].payload, forward: forward)
    }
  }

  mutating func complete<V: EngineValue>(_ type: V.Type, _ index: Int32, forward: Bool) -> Bool {
    stores[keyPath: V.store].dropSampler(of: index)
    var effect = stores[keyPath: V.store].effects[Int(index)]
    if effect.isSet { return false }  // (its start did its work)
    let property = effect.property
    var rests = false
    if effect.counted {
      effect.counted = false
      stores[keyPath: V.store].properties[Int(property)].animating -= 1
      rests = stores[keyPath: V.store].properties[Int(property)].animating == 0
    }
    // An ended animation keeps its final progress with fill forwards or both and drops out
    // with none or backwards, whichever way it ended (ending at its start, a forwards fill
    // leaves the start value): grammar.md's "after the end, backwards and none leave the
    // base value".
    let fill = nodes[Int(effect.node)].fill
    let fills = fill.fillsForwards
    if !effect.muted, effect.mode != .unresolved {
      let shift = stores[keyPath: V.store].shift(ofEffect: index)
      if fills {
        let edge = edgeValue(of: effect, index, atEnd: forward)
        if effect.mode == .additive {
          // Its change stays: under a replacing animation still running below it, as that
          // one's shift (which it would otherwise hide); else in the base value.
          commit(V.self, edge - effect.from, above: index)
        } else {
          stores[keyPath: V.store].properties[Int(property)].base = effect.hasShift ? edge + shift : edge
        }
        effect.committedAtEnd = forward
      } else {
        // Its own term drops out; what completed above it stays.
        if effect.mode != .additive && effect.hasShift {
          stores[keyPath: V.store].properties[Int(property)].base =
            stores[keyPath: V.store].properties[Int(property)].base + shift
        }
        effect.committedAtEnd = nil
      }
      effect.muted = true
    } else if !effect.muted, effect.mode == .unresolved {
      // Played back to where it was placed before it started: with `fill both`, the `from`
      // it showed while it waited is its start value, which a forwards fill leaves; else its
      // own term drops out. What completed above it while it waited stays.
      let shift = stores[keyPath: V.store].shift(ofEffect: index)
      let base = stores[keyPath: V.store].properties[Int(property)].base
      if effect.fillsBefore, fills, let shown = fillBefore(of: effect, index, stores[keyPath: V.store], at: now) {
        stores[keyPath: V.store].properties[Int(property)].base = effect.hasShift ? shown.value + shift : shown.value
      } else if effect.hasShift {
        stores[keyPath: V.store].properties[Int(property)].base = base + shift
      }
    }
    // Ended, it is not waiting to start: its backwards fill no longer shows, whichever way
    // its timeline turns while it stands there (at its start, reversed, the rules drop its
    // term). A new pass of its timeline, or `play`, arms it again.
    effect.fillsBefore = false
    effect.next = stores[keyPath: V.store].effects[Int(index)].next
    effect.hasShift = stores[keyPath: V.store].effects[Int(index)].hasShift
    stores[keyPath: V.store].effects[Int(index)] = effect
    stores[keyPath: V.store].setShift(nil, ofEffect: index)
    // The last one that showed a value ended: the stack is over. (One armed to fill
    // backwards counts only while it shows that fill: an item of a new pass that is past
    // its start, or finished where it was placed, shows nothing more in this pass.)
    if !stores[keyPath: V.store].containsEffect(on: property, where: \.isShowing)
      && !isFillingBefore(V.self, property)
    {
      stores[keyPath: V.store].endStack(on: property)
    }
    return rests
  }

  /// A standalone effect sought back into its delay (or, reversed, past its end) waits there
  /// in its place: it stays in its property's stack, counted as animating it, with the
  /// values it settled; its output is its before (or after) phase until it moves back in.
  mutating func waitAgain(_ node: Int32) {
    // As before it started: reversed there, it has nothing to finish.
    nodes[Int(node)].hasStarted = false
    switch nodes[Int(node)].valueKind {
    case .number: waitAgain(Double.self, nodes[Int(node)].payload)
    case .vec2: waitAgain(Vec2.self, nodes[Int(node)].payload)
    case .vec3: waitAgain(Vec3.self, nodes[Int(node)].payload)
    case .vec4: waitAgain(Vec4.self, nodes[Int(node)].payload)
    case .color: waitAgain(Color.self, nodes[Int(node)].payload)
    }
  }

  mutating func waitAgain<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    // (What it shows changes phase: no effect on its property stays on a sampler.)
    stores[keyPath: V.store].dropSamplers(onProperty: stores[keyPath: V.store].effects[Int(index)].property)
  }

  /// Whether an effect on `property` shows its first value now, waiting with a backwards
  /// fill for its active phase.
  func isFillingBefore<V: EngineValue>(_ type: V.Type, _ property: Int32) -> Bool {
    let store = stores[keyPath: V.store]
    var cursor = store.properties[Int(property)].firstEffect
    while cursor >= 0 {
      let effect = store.effects[Int(cursor)]
      if effect.fillsBefore && fillBefore(of: effect, cursor, store, at: now) != nil { return true }
      cursor = effect.next
    }
    return false
  }

  /// The replacing effect (a tween or spring that sets the value) still showing below effect
  /// `index` on its property, nearest to it: the one whose output the effects above add to.
  func replacingEffect<V: EngineValue>(_ type: V.Type, below index: Int32) -> Int32? {
    let store = stores[keyPath: V.store]
    var found: Int32?
    var cursor = store.properties[Int(store.effects[Int(index)].property)].firstEffect
    while cursor >= 0 && cursor != index {
      let effect = store.effects[Int(cursor)]
      // (Or one that waits to start with a backwards fill, taking its place in place of the
      // base value: it shows its first value now and replaces, once it runs.)
      let waitsInPlace = effect.fillsBefore && effect.mode == .unresolved && nodes[Int(effect.node)].parent < 0
      if (effect.isShowing && effect.mode != .additive) || waitsInPlace { found = cursor }
      cursor = effect.next
    }
    return found
  }

  /// Keeps the change an additive effect leaves when it completes with its fill: as the
  /// shift of the replacing effect still running below it, or in the base value.
  mutating func commit<V: EngineValue>(_ type: V.Type, _ change: V, above index: Int32) {
    if let replacing = replacingEffect(V.self, below: index) {
      stores[keyPath: V.store].dropSampler(of: replacing)
      let shift = stores[keyPath: V.store].shift(ofEffect: replacing)
      stores[keyPath: V.store].setShift(shift + change, ofEffect: replacing)
    } else {
      let property = Int(stores[keyPath: V.store].effects[Int(index)].property)
      stores[keyPath: V.store].properties[property].base = stores[keyPath: V.store].properties[property].base + change
    }
  }

  /// Takes back a change `commit` kept, when the additive effect that left it shows again.
  mutating func uncommit<V: EngineValue>(_ type: V.Type, _ change: V, above index: Int32) {
    commit(V.self, .zero - change, above: index)
  }

  /// Arms the backwards fill of the effects in node `index`'s tree: each that fills
  /// backwards, with its values known, settles its `from` now (the property's value, unless
  /// given) and shows it whenever it waits for its active phase. Called when an animation
  /// is placed on the engine, and when a timeline plays.
  mutating func armBackwardsFill(in index: Int32) {
    let node = nodes[Int(index)]
    switch node.kind {
    case .free, .callback:
      return
    case .timeline:
      for child in timelines[Int(node.payload)].children { armBackwardsFill(in: child) }
    case .effect:
      guard node.fill.fillsBackwards else { return }
      switch node.valueKind {
      case .number: armBackwardsFill(Double.self, node.payload)
      case .vec2: armBackwardsFill(Vec2.self, node.payload)
      case .vec3: armBackwardsFill(Vec3.self, node.payload)
      case .vec4: armBackwardsFill(Vec4.self, node.payload)
      case .color: armBackwardsFill(Color.self, node.payload)
      }
    }
  }

  mutating func armBackwardsFill<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    guard !effect.fillsBefore, effect.hasValues else { return }
    if effect.mode != .unresolved {
      // Played again: its values are those it settled the first time; one that replaced
      // shows its first value again before it starts (one that added shows nothing).
      guard effect.mode != .additive else { return }
      stores[keyPath: V.store].effects[Int(index)].fillsBefore = true
      stores[keyPath: V.store].hasHadEffectsFillingBefore = true
      stores[keyPath: V.store].dropSamplers(onProperty: effect.property)
      stores[keyPath: V.store].markShowing(index)
      return
    }
    // One placed on a property that is animating, that will add to what runs there, joins
    // its stack now, its values settled (its change is measured from the newest target now,
    // and is 0 until it starts): it shows nothing of its own before it starts.
    let others = stores[keyPath: V.store].properties[Int(effect.property)].animating - (effect.counted ? 1 : 0)
    let isSpring = effect.curve >= 0 && curves[Int(effect.curve)].isSpring
    if !effect.hasExplicitFrom && effect.composition != .replace && !isSpring && others > 0 {
      guard effect.mode == .unresolved else { return }
      stores[keyPath: V.store].effects[Int(index)].from = target(V.self, effect.property, excluding: index)
      stores[keyPath: V.store].effects[Int(index)].mode = .additive
      stores[keyPath: V.store].dropSamplers(onProperty: effect.property)
      stores[keyPath: V.store].markShowing(index)
      return
    }
    // (Settled once: armed again, its timeline played again, it keeps that `from`.)
    if !effect.hasExplicitFrom && !effect.settledFrom {
      stores[keyPath: V.store].effects[Int(index)].from = evaluate(V.self, effect.property, at: now)
      stores[keyPath: V.store].effects[Int(index)].settledFrom = true
    }
    if others > 0 && nodes[Int(effect.node)].parent < 0 {
      // One that replaces (`merge replace`, an explicit `from`, a spring) takes the property
      // over where it is placed, its values settled there: what ran stops, and its first
      // value shows until it starts.
      supersede(V.self, effect.property, except: index, includingActive: true)
    }
    stores[keyPath: V.store].effects[Int(index)].fillsBefore = true
    stores[keyPath: V.store].hasHadEffectsFillingBefore = true
    stores[keyPath: V.store].dropSamplers(onProperty: effect.property)
    stores[keyPath: V.store].markShowing(index)
  }

  // MARK: - Timeline `set` items

  /// A timeline `set` crossed forwards (see `addSet`): records the value, sets the base
  /// value, ends the animations of other trees on the property and masks those of its own
  /// that show a value or count as animating (the items that started before it).
  mutating func applySet<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    guard effect.mode == .unresolved else { return }
    let property = effect.property
    let recorded = evaluate(V.self, property, at: now)
    let tree = topLevelAncestor(of: effect.node)
    for other in stores[keyPath: V.store].effects(on: property) where other != index {
      let o = stores[keyPath: V.store].effects[Int(other)]
      guard !o.isSet, !o.masked else { continue }
      if topLevelAncestor(of: o.node) != tree {
        end(V.self, other, absorbing: false)
      } else if o.isShowing || o.counted || startsBefore(o.node, effect.node) {
        // (One not reached yet that starts before it, as when the timeline is played from its
        // end: it is masked too, while the playhead is past the set.)
        stores[keyPath: V.store].dropSampler(of: other)
        _ = uncount(V.self, other)
        stores[keyPath: V.store].setShift(nil, ofEffect: other)
        stores[keyPath: V.store].effects[Int(other)].muted = true
        stores[keyPath: V.store].effects[Int(other)].committedAtEnd = nil
        stores[keyPath: V.store].setMask(index, ofEffect: other)
      }
    }
    stores[keyPath: V.store].effects[Int(index)].from = recorded
    stores[keyPath: V.store].effects[Int(index)].committedAtEnd = nil
    stores[keyPath: V.store].effects[Int(index)].mode = .replace
    stores[keyPath: V.store].effects[Int(index)].muted = true
    stores[keyPath: V.store].properties[Int(property)].base = effect.to
    stores[keyPath: V.store].currents[Int(property)] = effect.to
    stores[keyPath: V.store].markShowing(index)  // (so the next refresh computes the property)
  }

  /// After an instant's events: each timeline among them that began a new pass from its
  /// start (a forwards repeat, not alternating) arms its items' backwards fills again, so
  /// they show their first values until they start (Web Animations: each pass restarts its
  /// children's time, in their before phase), even if something took their property over
  /// in the pass before. (After the instant, so that what the pass before left at its end,
  /// crossed at this same instant, has settled first.)
  mutating func armBackwardsFillsOfNewPasses(_ events: [Crossed]) {
    for event in events where event.kind == .repeat && event.forward {
      guard let index = try? resolve(event.node), nodes[Int(index)].kind == .timeline else { continue }
      let direction = timing(of: nodes[Int(index)]).direction
      guard direction != .alternate && direction != .alternateReverse else { continue }
      for child in timelines[Int(nodes[Int(index)].payload)].children { armBackwardsFill(in: child) }
    }
  }

  /// A new pass of timeline `index` from its start (after this instant's completes, which
  /// its sets still masked): each of its `set` items is ahead of the playhead again, so it
  /// masks nothing (grammar.md: only while the playhead is past it) and applies again when
  /// crossed. Its value stays as it is.
  mutating func rearmSets(in index: Int32) {
    for child in timelines[Int(nodes[Int(index)].payload)].children where nodes[Int(child)].kind == .effect {
      let payload = nodes[Int(child)].payload
      switch nodes[Int(child)].valueKind {
      case .number: rearmSet(Double.self, payload)
      case .vec2: rearmSet(Vec2.self, payload)
      case .vec3: rearmSet(Vec3.self, payload)
      case .vec4: rearmSet(Vec4.self, payload)
      case .color: rearmSet(Color.self, payload)
      }
    }
  }

  mutating func rearmSet<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    guard stores[keyPath: V.store].effects[Int(index)].isSet else { return }
    for (masked, set) in stores[keyPath: V.store].maskedBy where set == index {
      stores[keyPath: V.store].setMask(nil, ofEffect: masked)
    }
    // What it recorded in the pass before stays, to be put back if the playhead goes back
    // into that pass across it (`committedAtEnd` marks a set that holds such a recording).
    if stores[keyPath: V.store].effects[Int(index)].mode != .unresolved {
      stores[keyPath: V.store].effects[Int(index)].committedAtEnd = true
    }
    stores[keyPath: V.store].effects[Int(index)].mode = .unresolved
  }

  /// Timeline `index` goes back over a pass boundary into the pass before, from its end
  /// (a backwards repeat, not alternating): each of its `set` items that recorded a value in
  /// that pass is behind the playhead again, so it masks again what starts before it on its
  /// property (grammar.md: for as long as the playhead is past it), as it did when that pass
  /// went forwards past it, to put the recording back when crossed backwards. The values stay
  /// as they are.
  mutating func remaskSets(in index: Int32) {
    for child in timelines[Int(nodes[Int(index)].payload)].children where nodes[Int(child)].kind == .effect {
      let payload = nodes[Int(child)].payload
      switch nodes[Int(child)].valueKind {
      case .number: remaskSet(Double.self, payload)
      case .vec2: remaskSet(Vec2.self, payload)
      case .vec3: remaskSet(Vec3.self, payload)
      case .vec4: remaskSet(Vec4.self, payload)
      case .color: remaskSet(Color.self, payload)
      }
    }
  }

  mutating func remaskSet<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    guard effect.isSet, effect.mode == .unresolved, effect.committedAtEnd == true else { return }
    let tree = topLevelAncestor(of: effect.node)
    for other in stores[keyPath: V.store].effects(on: effect.property) where other != index {
      let o = stores[keyPath: V.store].effects[Int(other)]
      guard !o.isSet, !o.masked, topLevelAncestor(of: o.node) == tree, startsBefore(o.node, effect.node) else {
        continue
      }
      stores[keyPath: V.store].dropSampler(of: other)
      _ = uncount(V.self, other)
      stores[keyPath: V.store].setShift(nil, ofEffect: other)
      stores[keyPath: V.store].effects[Int(other)].muted = true
      stores[keyPath: V.store].effects[Int(other)].fillsBefore = false
      stores[keyPath: V.store].effects[Int(other)].committedAtEnd = nil
      stores[keyPath: V.store].setMask(index, ofEffect: other)
    }
    stores[keyPath: V.store].effects[Int(index)].committedAtEnd = nil
    stores[keyPath: V.store].effects[Int(index)].mode = .replace
    stores[keyPath: V.store].dropSamplers(onProperty: effect.property)
    stores[keyPath: V.store].markShowing(index)
  }

  /// Where a node starts in its top-level timeline's time (in that timeline's first pass),
  /// mapped up level by level as rule 6 maps a boundary: its start c in a group is the
  /// group's own time delay + c, reached at the group's start + round((delay + c) / rate).
  /// nil while something in the chain is held or runs backwards (no one place then).
  func placement(inTopLevel index: Int32) -> Nanoseconds? {
    if nodes[Int(index)].isHeld { return nil }
    var time = nodes[Int(index)].time
    var cursor = nodes[Int(index)].parent
    while cursor >= 0, nodes[Int(cursor)].parent >= 0 {
      let group = nodes[Int(cursor)]
      let rate = rate(of: group)
      guard !group.isHeld, rate > 0, rate.isFinite else { return nil }
      time = saturatingSum(group.time, unscaled(saturatingSum(group.delay, time), by: rate))
      cursor = group.parent
    }
    return time
  }

  /// Whether item `a` is placed before item `b` of the same top-level timeline.
  func startsBefore(_ a: Int32, _ b: Int32) -> Bool {
    guard let x = placement(inTopLevel: a), let y = placement(inTopLevel: b) else { return false }
    return x < y
  }

  /// A timeline `set` crossed backwards: the recorded value is the base value again, and
  /// what it masked shows again (at once, for one the playhead is inside).
  /// Puts back what each applied `set` item in the tree of node `index` recorded, the latest
  /// (in item order, depth first) first.
  mutating func revertSets(in index: Int32) {
    var items: [Int32] = []
    var stack: [Int32] = [index]
    while let node = stack.popLast() {
      switch nodes[Int(node)].kind {
      case .timeline: stack += timelines[Int(nodes[Int(node)].payload)].children.reversed()
      case .effect: items.append(node)
      case .free, .callback: break
      }
    }
    for node in items.reversed() {
      let payload = nodes[Int(node)].payload
      switch nodes[Int(node)].valueKind {
      case .number: if stores.numbers.effects[Int(payload)].isSet { revertSet(Double.self, payload) }
      case .vec2: if stores.vec2s.effects[Int(payload)].isSet { revertSet(Vec2.self, payload) }
      case .vec3: if stores.vec3s.effects[Int(payload)].isSet { revertSet(Vec3.self, payload) }
      case .vec4: if stores.vec4s.effects[Int(payload)].isSet { revertSet(Vec4.self, payload) }
      case .color: if stores.colors.effects[Int(payload)].isSet { revertSet(Color.self, payload) }
      }
    }
  }

  mutating func revertSet<V: EngineValue>(_ type: V.Type, _ index: Int32) {
    let effect = stores[keyPath: V.store].effects[Int(index)]
    guard effect.mode != .unresolved || effect.committedAtEnd == true else { return }
    stores[keyPath: V.store].effects[Int(index)].mode = .unresolved
    stores[keyPath: V.store].effects[Int(index)].committedAtEnd = nil
    stores[keyPath: V.store].properties[Int(effect.property)].base = effect.from
    for (masked, set) in stores[keyPath: V.store].maskedBy where set == index {
      stores[keyPath: V.store].setMask(nil, ofEffect: masked)
      let node = stores[keyPath: V.store].effects[Int(masked)].node
      let state = localState(of: node, at: now)
      let timing = timing(of: node)
      let local = timing.wrapped(state.local, hasStarted: nodes[Int(node)].hasStarted)
      if timing.computedTiming(localTime: local, goingBackwards: state.direction < 0).phase == .active {
        _ = activate(V.self, masked)
      }
    }
    stores[keyPath: V.store].currents[Int(effect.property)] = evaluate(V.self, effect.property, at: now)
    stores[keyPath: V.store].markShowing(index)
  }
}
