// Samplers: the hot path of a refresh, for the usual animation.
//
// Most animations on most frames are a standalone tween or spring, alone on its property,
// playing at rate 1 in its one forward pass. For each such animation that is showing a
// value, the store keeps a sampler: everything its value needs, copied into one dense
// array, so a refresh reads that array front to back instead of following an effect to its
// node, its property and its curve in three other arrays. A sampler is a cache, never the
// truth: the engine drops it whenever its node is rescheduled (which every change of
// playback or timing does), and whenever the effect or its property's list changes. A
// dropped sampler's effect goes back to the general path, which may build it a new one.

/// What a refresh needs to compute one animation's value without reading its effect or node.
/// 56 bytes for a number: the fewer, the more of them stay in the cache.
struct Sampler<V: EngineValue>: Sendable {
  /// The engine time its active interval starts: the node's start time plus its delay (it
  /// plays at rate 1, unheld, so its local time is now − start).
  var activeStart: Nanoseconds
  var duration: Nanoseconds
  var from: V
  var to: V
  var velocity: V
  var effect: Int32
  var property: Int32
  var curve: SamplerCurve
}

/// A sampler's curve (its kind, and its index in the table of that kind, or in `curves` for
/// the others) with the effect's few small settings, packed in 8 bytes.
struct SamplerCurve: Sendable {
  var kind: CurveEntry.Kind
  var fill: FillMode
  var mode: EffectMode
  var colorSpace: ColorSpace
  var index: Int32
}

extension ValueStore {
  /// Drops effect `index`'s sampler, if it has one, and hands the effect back to the
  /// general path (its showing bit) when it still shows a value.
  mutating func dropSampler(of index: Int32) {
    let slot = effects[Int(index)].sampler
    guard slot >= 0 else { return }
    removeSampler(at: Int(slot))
    if effects[Int(index)].mayShow { markShowing(index) }
  }

  /// Adds a sampler for its effect, which must not have one (nor a showing bit: the
  /// sampler computes it from now on).
  mutating func addSampler(_ sampler: Sampler<V>) {
    effects[Int(sampler.effect)].sampler = Int32(samplers.count)
    samplers.append(sampler)
  }

  /// Removes sampler `slot` (the last one takes its place) and unlinks its effect.
  mutating func removeSampler(at slot: Int) {
    let effect = samplers[slot].effect
    effects[Int(effect)].sampler = -1
    let last = samplers.removeLast()
    if slot < samplers.count {
      samplers[slot] = last
      effects[Int(last.effect)].sampler = Int32(slot)
    }
  }

  /// Drops the samplers of every effect on `property`: its list changed.
  mutating func dropSamplers(onProperty property: Int32) {
    // (With no sampler at all there is nothing to drop: a script that starts many
    // animations on one property at one instant walked its list at each.)
    guard !samplers.isEmpty else { return }
    var cursor = properties[Int(property)].firstEffect
    while cursor >= 0 {
      dropSampler(of: cursor)
      cursor = effects[Int(cursor)].next
    }
  }
}

extension AnimationEngine {
  /// Drops the sampler of node `index`'s animation, if it has one: its playback or timing
  /// changed (it is being rescheduled), which the sampler copied.
  mutating func dropSampler(ofNode index: Int32) {
    let node = nodes[Int(index)]
    guard node.kind == .effect else { return }
    switch node.valueKind {
    case .number: stores.numbers.dropSampler(of: node.payload)
    case .vec2: stores.vec2s.dropSampler(of: node.payload)
    case .vec3: stores.vec3s.dropSampler(of: node.payload)
    case .vec4: stores.vec4s.dropSampler(of: node.payload)
    case .color: stores.colors.dropSampler(of: node.payload)
    }
  }

  /// A sampler for effect `index`, if it has the usual shape: standalone, showing, playing
  /// forwards at rate 1, one forward pass with a duration, a timing curve (not keyframes).
  /// The caller has checked that it is alone on its property.
  func makeSampler<V: EngineValue>(_ store: ValueStore<V>, effect index: Int32) -> Sampler<V>? {
    let effect = store.effects[Int(index)]
    guard effect.isShowing, effect.curve >= 0, effect.next < 0, !effect.hasShift, !effect.fillsBefore else {
      return nil
    }
    let node = nodes[Int(effect.node)]
    // Rate 1, one pass and no end delay: a node without extras. (Checked first: a refresh
    // asks again on every frame for each effect that cannot have a sampler.)
    guard node.parent < 0, node.extras < 0, !node.isHeld, node.direction == .normal, node.delay >= 0,
      node.duration > 0, !node.delay.addingReportingOverflow(node.duration).overflow,
      !node.time.addingReportingOverflow(node.delay).overflow
    else { return nil }
    let entry = curveEntries[Int(effect.curve)]
    return Sampler(
      activeStart: node.time + node.delay, duration: node.duration, from: effect.from,
      to: effect.to, velocity: store.velocity(ofEffect: index), effect: index, property: effect.property,

      curve: SamplerCurve(
        kind: entry.kind, fill: node.fill, mode: effect.mode, colorSpace: effect.colorSpace,
        index: entry.kind == .other ? effect.curve : entry.index))
  }

  /// The value of a sampler's property at engine time `time`: what `evaluate` gives, by the
  /// same steps. `properties` are the store's, for the base value.
  ///
  /// `sampledProgress` for the sampler's timing, on the time since its active interval
  /// starts: local − delay = (now − start) − delay = now − activeStart, exactly, and when
  /// that overflows its sign still says which side of the interval it is, as the saturated
  /// local time does.
  @inline(__always)
  func value<V: EngineValue>(
    of sampler: Sampler<V>, properties: UnsafeBufferPointer<PropertySlot<V>>, at time: Nanoseconds
  ) -> V {
    let (since, overflow) = time.subtractingReportingOverflow(sampler.activeStart)
    let progress: Double
    var beforeFlag = false
    if overflow ? time < 0 : since < 0 {
      guard sampler.curve.fill.fillsBackwards else { return properties[Int(sampler.property)].base }
      (progress, beforeFlag) = (0, true)
    } else if overflow || since >= sampler.duration {
      guard sampler.curve.fill.fillsForwards else { return properties[Int(sampler.property)].base }
      progress = 1
    } else {
      progress = Double(since) / Double(sampler.duration)
    }
    let output = shapeTween(
      entry: CurveEntry(kind: sampler.curve.kind, index: sampler.curve.index), curveIndex: sampler.curve.index,
      isSpring: sampler.curve.mode == .spring, from: sampler.from, to: sampler.to, velocity: sampler.velocity,
      colorSpace: sampler.curve.colorSpace, progress: progress, beforeFlag: beforeFlag)
    return sampler.curve.mode == .additive
      ? properties[Int(sampler.property)].base + (output - sampler.from) : output
  }

  /// Computes every sampler's property into `currents`, at `now`.
  func runSamplers<V: EngineValue>(_ store: ValueStore<V>, into currents: inout [V]) {
    let time = now
    store.samplers.withUnsafeBufferPointer { samplers in
      store.properties.withUnsafeBufferPointer { properties in
        currents.withUnsafeMutableBufferPointer { currents in
          for sampler in samplers {
            currents[Int(sampler.property)] = value(of: sampler, properties: properties, at: time)
          }
        }
      }
    }
  }

  /// A tween's value at directed progress `progress`: `shapeValue` for a timing curve.
  @inline(__always)
  func shapeTween<V: EngineValue>(
    curve index: Int32, isSpring: Bool, from: V, to: V, velocity: V, colorSpace: ColorSpace, progress: Double,
    beforeFlag: Bool
  ) -> V {
    shapeTween(
      entry: curveEntries[Int(index)], curveIndex: index, isSpring: isSpring, from: from, to: to, velocity: velocity,
      colorSpace: colorSpace, progress: progress, beforeFlag: beforeFlag)
  }

  /// `shapeTween(curve:...)` with the curve's entry already read.
  @inline(__always)
  func shapeTween<V: EngineValue>(
    entry: CurveEntry, curveIndex index: Int32, isSpring: Bool, from: V, to: V, velocity: V, colorSpace: ColorSpace,
    progress: Double, beforeFlag: Bool
  ) -> V {
    let eased: Double
    switch entry.kind {
    case .linear:
      eased = progress
    case .cubicBezier:
      eased = beziers[Int(entry.index)].progress(at: progress)
    case .spring:
      if isSpring {
        // Spring physics from `from` toward `to` with the effect's initial velocity.
        if progress >= 1 { return to }
        let spring = springs[Int(entry.index)]
        let seconds = max(progress, 0) * spring.secondsPerProgress
        // `spring.motion.state(...).value`, without the derivatives.
        let (p, q) = spring.motion.valueResponses(at: seconds)
        return to + (from - to).scaled(by: p) + velocity.scaled(by: q)
      }
      eased = springs[Int(entry.index)].progress(at: progress)
    case .other:
      eased = curves[Int(index)].progress(at: progress, beforeFlag: beforeFlag)
    }
    return V.interpolate(from: from, to: to, progress: eased, in: colorSpace)
  }
}
