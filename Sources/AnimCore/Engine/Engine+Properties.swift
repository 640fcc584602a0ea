// Properties: adding them, reading their values (now or at a time), setting them.

extension AnimationEngine {
  /// The number of properties of one kind from which their lists grow fourfold.
  static let largeStoreSize = 1 << 16

  /// Adds a property with its initial (base) value.
  public mutating func addProperty(_ value: AnimationValue) -> PropertyID {
    switch value {
    case .number(let x): addProperty(x)
    case .vec2(let v): addProperty(v)
    case .vec3(let v): addProperty(v)
    case .vec4(let v): addProperty(v)
    case .color(let c): addProperty(c)
    }
  }

  mutating func addProperty<V: EngineValue>(_ value: V) -> PropertyID {
    // A large store grows fourfold, not twofold. Each growth copies the lists into new
    // storage while the old is still held: a script of 810,000 properties peaked, when
    // its properties' list doubled at 524,288, 3.6 MB above where it ended (issue 14's
    // front.run.memory). The room a fourfold growth leaves is fresh memory, which takes
    // no resident pages until it is written, and the last growth comes at a quarter of
    // the size. (The sampler reads these lists as contiguous buffers: chunks would cost it.)
    // (Each list by its own capacity: an array's is its allocation's, rounded up.)
    let count = stores[keyPath: V.store].properties.count
    if count >= Self.largeStoreSize {
      if count == stores[keyPath: V.store].properties.capacity {
        stores[keyPath: V.store].properties.reserveCapacity(4 * count)
      }
      if count == stores[keyPath: V.store].currents.capacity {
        stores[keyPath: V.store].currents.reserveCapacity(4 * count)
      }
    }
    stores[keyPath: V.store].properties.append(PropertySlot(base: value))
    stores[keyPath: V.store].currents.append(value)
    return PropertyID(kind: V.kind, index: Int32(stores[keyPath: V.store].properties.count - 1))
  }

  /// Whether the property is one of this engine's.
  public func contains(_ property: PropertyID) -> Bool {
    let count =
      switch property.kind {
      case .number: stores.numbers.properties.count
      case .vec2: stores.vec2s.properties.count
      case .vec3: stores.vec3s.properties.count
      case .vec4: stores.vec4s.properties.count
      case .color: stores.colors.properties.count
      }
    return property.index >= 0 && Int(property.index) < count
  }

  /// The property's value now (as of the last advance, or the event being handled).
  public func value(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: evaluate(Double.self, property.index, at: now).animationValue
    case .vec2: evaluate(Vec2.self, property.index, at: now).animationValue
    case .vec3: evaluate(Vec3.self, property.index, at: now).animationValue
    case .vec4: evaluate(Vec4.self, property.index, at: now).animationValue
    case .color: evaluate(Color.self, property.index, at: now).animationValue
    }
  }

  /// The property's value at engine time `time`, should nothing change until then.
  public func value(of property: PropertyID, at time: Nanoseconds) -> AnimationValue {
    switch property.kind {
    case .number: evaluate(Double.self, property.index, at: time).animationValue
    case .vec2: evaluate(Vec2.self, property.index, at: time).animationValue
    case .vec3: evaluate(Vec3.self, property.index, at: time).animationValue
    case .vec4: evaluate(Vec4.self, property.index, at: time).animationValue
    case .color: evaluate(Color.self, property.index, at: time).animationValue
    }
  }

  /// The value the property shows when no animation has output: its initial value, then
  /// the value each finished animation left, or the last `set`.
  public func baseValue(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: stores.numbers.properties[Int(property.index)].base.animationValue
    case .vec2: stores.vec2s.properties[Int(property.index)].base.animationValue
    case .vec3: stores.vec3s.properties[Int(property.index)].base.animationValue
    case .vec4: stores.vec4s.properties[Int(property.index)].base.animationValue
    case .color: stores.colors.properties[Int(property.index)].base.animationValue
    }
  }

  /// The property's rate of change now, in value units per second.
  public func velocity(of property: PropertyID) -> AnimationValue {
    switch property.kind {
    case .number: velocity(Double.self, property.index).animationValue
    case .vec2: velocity(Vec2.self, property.index).animationValue
    case .vec3: velocity(Vec3.self, property.index).animationValue
    case .vec4: velocity(Vec4.self, property.index).animationValue
    case .color: velocity(Color.self, property.index).animationValue
    }
  }

  /// Whether any animation on the property has started and not completed.
  public func isAnimating(_ property: PropertyID) -> Bool {
    switch property.kind {
    case .number: stores.numbers.properties[Int(property.index)].animating > 0
    case .vec2: stores.vec2s.properties[Int(property.index)].animating > 0
    case .vec3: stores.vec3s.properties[Int(property.index)].animating > 0
    case .vec4: stores.vec4s.properties[Int(property.index)].animating > 0
    case .color: stores.colors.properties[Int(property.index)].animating > 0
    }
  }

  /// The property an animation animates; nil for a timeline or callback.
  public func property(of id: NodeID) -> PropertyID? {
    guard let index = try? resolve(id), nodes[Int(index)].kind == .effect else { return nil }
    return effectProperty(of: index)
  }

  /// The animations on the property, oldest first (by the order their top-level nodes were
  /// made in; a timeline's items in their order on the property).
  public func animations(on property: PropertyID) -> [NodeID] {
    func ids<V: EngineValue>(_ type: V.Type) -> [NodeID] {
      let store = stores[keyPath: V.store]
      // The property's list is in the order they took it (one leaving its delay moves to
      // the top), not the order they were made in.
      // (A timeline's `set` items are not animations.)
      let listed = store.effects(on: property.index).enumerated().filter { !store.effects[Int($0.element)].isSet }
        .map { position, effect in (node: store.effects[Int(effect)].node, position: position) }
      return listed.sorted {
        (nodes[Int(topLevelAncestor(of: $0.node))].order, $0.position)
          < (nodes[Int(topLevelAncestor(of: $1.node))].order, $1.position)
      }.map { id(of: $0.node) }
    }
    switch property.kind {
    case .number: return ids(Double.self)
    case .vec2: return ids(Vec2.self)
    case .vec3: return ids(Vec3.self)
    case .vec4: return ids(Vec4.self)
    case .color: return ids(Color.self)
    }
  }

  /// Sets the property's base value at once and ends its animations (timeline animations
  /// on it stop having output until they start again). Fires no event.
  public mutating func set(_ property: PropertyID, to value: AnimationValue) throws(EngineError) {
    guard contains(property) else { throw .unknownProperty }
    guard value.kind == property.kind else { throw .typeMismatch(expected: property.kind, found: value.kind) }
    switch value {
    case .number(let x): set(property.index, to: x)
    case .vec2(let v): set(property.index, to: v)
    case .vec3(let v): set(property.index, to: v)
    case .vec4(let v): set(property.index, to: v)
    case .color(let c): set(property.index, to: c)
    }
  }

  mutating func set<V: EngineValue>(_ property: Int32, to value: V) {
    for effect in stores[keyPath: V.store].effects(on: property) {
      end(V.self, effect, absorbing: false)
    }
    stores[keyPath: V.store].properties[Int(property)].base = value
    stores[keyPath: V.store].currents[Int(property)] = value
  }
}
