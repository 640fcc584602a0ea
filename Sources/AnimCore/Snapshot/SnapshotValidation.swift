// Validating a decoded snapshot: a file is outside data, so before an engine read from one
// is used, every index must point where it should, nothing may loop, every time, duration,
// count, rate and value must be in its domain, and the engine's own bookkeeping must agree
// with itself. A file that fails is refused whole, with what is wrong in a few words; one
// that passes can be played, sought, saved and restored like any engine the API built.

/// Why a decoded snapshot was refused: what is wrong, in words that end a sentence
/// ("the saved session is corrupt: node 3's parent is not a timeline").
public struct EngineSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  init(_ description: String) {
    self.description = description
  }
}

extension AnimationEngine {
  /// Checks everything a snapshot holds (see the top of this file); throws at the first fault.
  func validate() throws(EngineSnapshotError) {
    func check(_ condition: Bool, _ what: @autoclosure () -> String) throws(EngineSnapshotError) {
      if !condition { throw EngineSnapshotError(what()) }
    }
    let end = Self.endOfTime
    func inNodes(_ i: Int32) -> Bool { i >= 0 && Int(i) < nodes.count }

    try check(now >= 0 && now < end, "the engine's time is outside 0 to the end of time (2^62 ns)")
    try check(versions.count == nodes.count, "the node tables disagree in length")

    // Nodes: their references, their timing and playback in range, and no parent loops.
    var timelineOwner = [Int32](repeating: -1, count: timelines.count)
    var callbackOwner = [Int32](repeating: -1, count: callbacks.count)
    for (i, node) in nodes.enumerated() where node.kind != .free {
      let index = Int32(i)
      try check(
        node.parent == -1 || (inNodes(node.parent) && nodes[Int(node.parent)].kind == .timeline),
        "node \(i)'s parent is not a timeline")
      try check(node.extras >= -1 && Int(node.extras) < nodeExtras.count, "node \(i)'s extras are not there")
      switch node.kind {
      case .timeline:
        try check(node.payload >= 0 && Int(node.payload) < timelines.count, "timeline node \(i) has no record")
        try check(timelineOwner[Int(node.payload)] == -1, "two nodes share timeline record \(node.payload)")
        timelineOwner[Int(node.payload)] = index
        try check(timelines[Int(node.payload)].node == index, "timeline node \(i)'s record names another node")
      case .callback:
        try check(node.payload >= 0 && Int(node.payload) < callbacks.count, "callback node \(i) has no record")
        try check(callbackOwner[Int(node.payload)] == -1, "two nodes share callback record \(node.payload)")
        callbackOwner[Int(node.payload)] = index
        try check(callbacks[Int(node.payload)].key >= 0, "callback node \(i) has a negative key")
      case .effect:
        try check(effectIndexIsValid(node), "animation node \(i) has no animation")
      case .free:
        break
      }
      try check((-1...1).contains(node.turn), "node \(i)'s turn is not -1, 0 or 1")
      try checkTiming(timing(of: node), "node \(i)", check)
      let playback = playback(of: node)
      try check(playback.rate.isFinite, "node \(i)'s rate is not a finite number")
      // (A start time, a hold time and the last local time may be anything: the engine's
      // arithmetic on them saturates, and a rate far from 1 takes them far from 0. A paused
      // node's offset is what resuming starts again from: in range. Whether resuming now
      // would end after the end of time is `resume`'s to refuse, as for an engine the API
      // built: time passing moves a paused node's end, and a session saved later must restore.)
      if node.parent < 0, let offset = playback.pausedOffset {
        try check(offset > -end && offset < end, "node \(i)'s paused offset is beyond the end of time")
      }
      if node.parent >= 0 {
        let record = timelines[Int(nodes[Int(node.parent)].payload)]
        try check(record.children.contains(index), "node \(i) is not among its parent's children")
      }
      // Following parents reaches the engine within as many steps as there are nodes.
      var ancestor = node.parent
      var steps = 0
      while ancestor >= 0 {
        steps += 1
        try check(steps <= nodes.count, "node \(i) is its own ancestor (a timeline that contains itself)")
        ancestor = nodes[Int(ancestor)].parent
      }
      if node.parent < 0, !playback.isPaused, let problem = endProblem(of: index) {
        throw EngineSnapshotError("node \(i): \(problem)")
      }
    }
    try checkFreeList(freeNodes, count: nodes.count, "free nodes") { nodes[Int($0)].kind == .free }
    try check(
      freeNodes.count == nodes.count(where: { $0.kind == .free }), "the free nodes are not all listed")

    // Timelines: each child once, pointing back at its timeline. (A freed record keeps the
    // node it had; it is on the free list and owned by no node.)
    try checkFreeList(freeTimelines, count: timelines.count, "free timelines") { timelineOwner[Int($0)] == -1 }
    let freeRecords = Set(freeTimelines)
    for (t, record) in timelines.enumerated() where !freeRecords.contains(Int32(t)) {
      try check(timelineOwner[t] == record.node, "timeline record \(t) names a node that is not its timeline")
      var seen = Set<Int32>()
      for child in record.children {
        try check(
          inNodes(child) && nodes[Int(child)].kind != .free, "timeline record \(t) has a child that is not there")
        try check(nodes[Int(child)].parent == record.node, "timeline record \(t) has another timeline's child")
        try check(seen.insert(child).inserted, "timeline record \(t) lists a child twice")
      }
    }
    try checkFreeList(freeCallbacks, count: callbacks.count, "free callbacks") { callbackOwner[Int($0)] == -1 }
    // A spring's own length (its settling time) must have a clock time, as for one made by
    // the API (a velocity of 1e308 settles never; its motion overflows).
    for curve in curves {
      if case .spring(let spring) = curve {
        try check(spring.settlingTime < end, "a spring's settling time is beyond the end of time")
      }
    }
    for extras in nodeExtras {
      try check(extras.rate.isFinite, "a rate is not a finite number")
    }

    // Pending events: due in time, for something that is there. None is due before the
    // engine's time: the engine never schedules one there (`schedule` and `reschedule` take
    // the later of the two) and hands each out when its time comes, so one before now is a
    // corrupt file. Taken as it is, advancing would first go back to it (a clock running
    // backwards), and what ran there would be counted from that past against the engine's
    // time afterwards: a session at 2^62 − 1 ns with one due at 1 s ran, and then could not
    // be saved, its timeline ending after the end of time.
    for entry in pending.entries {
      try check(entry.time >= 0 && entry.time < end, "a pending event is due outside 0 to the end of time")
      try check(entry.time >= now, "a pending event is due before the engine's time")
      if entry.slot >= 0 {
        try check(
          inNodes(entry.slot) && nodes[Int(entry.slot)].kind != .free, "a pending event is for a node that is not there"
        )
      } else {
        try check(
          ~entry.slot & 1 == 0 || Int(~entry.slot >> 1) < engineCallbackKeys.count, "a pending callback is not there")
      }
    }
    try check(propertiesLeavingRest.properties.allSatisfy(contains), "a property leaving rest is not there")

    try checkStore(stores.numbers, check)
    try checkStore(stores.vec2s, check)
    try checkStore(stores.vec3s, check)
    try checkStore(stores.vec4s, check)
    try checkStore(stores.colors, check)
  }

  /// A timing in its domain: durations and counts at least 0, every time and the whole
  /// active interval before the end of time, counts not NaN.
  private func checkTiming(
    _ timing: EffectTiming, _ what: String,
    _ check: (Bool, @autoclosure () -> String) throws(EngineSnapshotError) -> Void
  ) throws(EngineSnapshotError) {
    let end = Self.endOfTime
    try check(timing.duration >= 0 && timing.duration < end, "\(what)'s duration is negative or beyond the end of time")
    try check(timing.delay > -end && timing.delay < end, "\(what)'s delay is beyond the end of time")
    try check(timing.endDelay > -end && timing.endDelay < end, "\(what)'s end delay is beyond the end of time")
    try check(!timing.iterations.isNaN && timing.iterations >= 0, "\(what)'s pass count is negative or not a number")
    // In integers, from the active duration the engine plays (in `Double`s, 512 ns apart
    // near 2⁶², a node the engine placed to end just in time was refused).
    if timing.iterations.isFinite, let activeDuration = timing.activeDuration {
      let active = Int128(activeDuration)
      let whole = Int128(timing.delay.magnitude) + active + Int128(timing.endDelay.magnitude)
      try check(
        active < Int128(end) && whole < Int128(end),
        "\(what) would end after the end of time")
    }
  }

  /// A free list: each entry in range, once, and free (by `isFree`).
  private func checkFreeList(
    _ list: [Int32], count: Int, _ what: String, isFree: (Int32) -> Bool
  ) throws(EngineSnapshotError) {
    var seen = Set<Int32>()
    for entry in list {
      guard entry >= 0, Int(entry) < count, isFree(entry), seen.insert(entry).inserted else {
        throw EngineSnapshotError("the list of \(what) is wrong")
      }
    }
  }

  func effectIndexIsValid(_ node: Node) -> Bool {
    let i = Int(node.payload)
    guard i >= 0 else { return false }
    switch node.valueKind {
    case .number: return i < stores.numbers.effects.count
    case .vec2: return i < stores.vec2s.effects.count
    case .vec3: return i < stores.vec3s.effects.count
    case .vec4: return i < stores.vec4s.effects.count
    case .color: return i < stores.colors.effects.count
    }
  }

  /// One value type's properties and animations: every list ends, each animation is on one
  /// property's list (or free), points back at its node and property, and every value,
  /// offset and velocity is finite.
  private func checkStore<V: EngineValue>(
    _ store: ValueStore<V>, _ check: (Bool, @autoclosure () -> String) throws(EngineSnapshotError) -> Void
  ) throws(EngineSnapshotError) {
    let kind = V.kind.rawValue
    let effects = store.effects.count
    try check(store.currents.count == store.properties.count, "the \(kind) values disagree in number")
    try check(store.currents.allSatisfy(\.isFiniteValue), "a \(kind) value is not finite")
    var listed = [Bool](repeating: false, count: effects)
    for (p, slot) in store.properties.enumerated() {
      try check(slot.base.isFiniteValue, "a \(kind) property's value is not finite")
      try check(
        slot.firstEffect >= -1 && Int(slot.firstEffect) < effects, "a \(kind) property's animations are not there")
      var cursor = slot.firstEffect
      var counted: Int32 = 0
      while cursor >= 0 {
        try check(Int(cursor) < effects, "a \(kind) animation list leads nowhere")
        try check(!listed[Int(cursor)], "a \(kind) animation list loops or is shared")
        listed[Int(cursor)] = true
        let effect = store.effects[Int(cursor)]
        try check(Int(effect.property) == p, "a \(kind) animation is listed on another property")
        try check(effect.next >= -1, "a \(kind) animation list leads nowhere")
        if effect.counted { counted += 1 }
        cursor = effect.next
      }
      try check(slot.animating == counted, "a \(kind) property's count of running animations is wrong")
    }
    for (e, effect) in store.effects.enumerated() where listed[e] {
      let index = Int32(e)
      try check(
        effect.node >= 0 && Int(effect.node) < nodes.count && nodes[Int(effect.node)].kind == .effect
          && nodes[Int(effect.node)].payload == index && nodes[Int(effect.node)].valueKind == V.kind,
        "a \(kind) animation's node is not its own")
      try check(effect.curve >= -1 && Int(effect.curve) < curves.count, "a \(kind) animation's curve is not there")
      try check(effect.curve >= 0 || store.tracks[index] != nil, "a \(kind) keyframe animation has no keyframes")
      try check(
        effect.from.isFiniteValue && effect.to.isFiniteValue && store.velocity(ofEffect: index).isFiniteValue
          && (!effect.hasShift || store.shift(ofEffect: index).isFiniteValue),
        "a \(kind) animation's values are not finite")
      if let mask = store.maskedBy[index] {
        try check(
          mask >= 0 && Int(mask) < effects && listed[Int(mask)] && store.effects[Int(mask)].isSet,
          "a \(kind) animation's mask is not a set")
      }
    }
    // Every animation is on a list or free, and nothing else is free.
    try checkFreeList(store.freeEffects, count: effects, "free \(kind) animations") { !listed[Int($0)] }
    try check(
      store.freeEffects.count + listed.count(where: { $0 }) == effects, "a \(kind) animation is neither listed nor free"
    )
    for (index, frames) in store.tracks {
      try check(
        index >= 0 && Int(index) < effects && listed[Int(index)] && store.effects[Int(index)].curve == -1,
        "keyframes belong to no animation")
      try check(!frames.isEmpty, "a keyframe track is empty")
      var previous = 0.0
      for frame in frames {
        try check(
          frame.offset.isFinite && frame.offset >= previous && frame.offset <= 1,
          "keyframe offsets are not in 0...1 and in order")
        previous = frame.offset
        try check(frame.curve >= 0 && Int(frame.curve) < curves.count, "a keyframe's curve is not there")
        try check(frame.value?.isFiniteValue ?? true, "a keyframe's value is not finite")
      }
    }
  }
}

extension EngineValue {
  /// Whether every component is a finite number (a snapshot's values must be).
  var isFiniteValue: Bool {
    switch animationValue {
    case .number(let x): x.isFinite
    case .vec2(let v): v.x.isFinite && v.y.isFinite
    case .vec3(let v): v.x.isFinite && v.y.isFinite && v.z.isFinite
    case .vec4(let v): v.x.isFinite && v.y.isFinite && v.z.isFinite && v.w.isFinite
    case .color(let c):
      c.premultipliedRed.isFinite && c.premultipliedGreen.isFinite && c.premultipliedBlue.isFinite && c.alpha.isFinite
    }
  }
}
