// Engine+Inspection: what a view of the motion asks of an animation beyond its value: whether
// it is held or running backwards once its timelines are counted, and the values it moves
// between. `anim run`'s live view marks and scales its bars with them (and so will the stage's
// lanes and gauges).

extension AnimationEngine {
  /// How an animation plays in effect, the timelines around it included.
  public struct EffectivePlayback: Sendable, Hashable {
    /// It, or a timeline around it, is paused.
    public var isPaused: Bool
    /// Its rate times its timelines' rates is negative: it runs backwards.
    public var isReversed: Bool
  }

  /// How the animation or timeline `id` plays in effect.
  public func effectivePlayback(of id: NodeID) throws(EngineError) -> EffectivePlayback {
    var index = try resolve(id)
    var playback = EffectivePlayback(isPaused: false, isReversed: false)
    while index >= 0 {
      let node = nodes[Int(index)]
      if node.isPaused { playback.isPaused = true }
      if rate(of: node) < 0 { playback.isReversed.toggle() }
      index = node.parent
    }
    return playback
  }

  /// The properties the animations in `id` act on (`id`'s own, for an animation), each once,
  /// in the order met (depth first, in item order).
  public func properties(under id: NodeID) throws(EngineError) -> [PropertyID] {
    var found: [PropertyID] = []
    var seen = Set<PropertyID>()
    var stack = [try resolve(id)]
    while let index = stack.popLast() {
      let node = nodes[Int(index)]
      switch node.kind {
      case .effect:
        if let property = property(of: self.id(of: index)), seen.insert(property).inserted { found.append(property) }
      case .timeline:
        stack += timelines[Int(node.payload)].children.reversed()
      case .callback, .free:
        break
      }
    }
    return found
  }

  /// The values the animation `id` moves between: its `from` once known (it starts from the
  /// property's value where none was given), its `to`, or each keyframe's value. Empty for a
  /// timeline.
  public func endpoints(of id: NodeID) throws(EngineError) -> [AnimationValue] {
    let index = try resolve(id)
    let node = nodes[Int(index)]
    guard node.kind == .effect else { return [] }
    switch node.valueKind {
    case .number: return endpoints(Double.self, effect: node.payload)
    case .vec2: return endpoints(Vec2.self, effect: node.payload)
    case .vec3: return endpoints(Vec3.self, effect: node.payload)
    case .vec4: return endpoints(Vec4.self, effect: node.payload)
    case .color: return endpoints(Color.self, effect: node.payload)
    }
  }

  private func endpoints<V: EngineValue>(_ type: V.Type, effect index: Int32) -> [AnimationValue] {
    let store = stores[keyPath: V.store]
    let effect = store.effects[Int(index)]
    let resolved = effect.mode != .unresolved
    if let frames = store.tracks[index] {
      return (resolved ? [effect.from.animationValue] : []) + frames.compactMap { $0.value?.animationValue }
    }
    return (resolved ? [effect.from.animationValue] : []) + [effect.to.animationValue]
  }
}
