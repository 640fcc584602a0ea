// EffectWalk: the fold of one property's list of effects into its value (what `evaluate`
// computes), taken one effect at a time, so that a refresh of many properties with long
// lists can walk several lists side by side.
//
// A list is a chain of indices into the store's effects: each step waits for the effect it
// reads before it knows the next. A property with hundreds of effects placed among other
// properties' (issue 14's front.run: 999 properties, 177 each, placed in turn) has each of
// them on a cache line of its own, and its walk is one memory wait after another. Walks of
// several properties interleaved step by step let the processor wait for several effects
// at once: the lists are the same, the sum for each property is the same, in its order.

/// One property's fold of its list of effects, part way.
struct EffectWalk<V: EngineValue> {
  /// The next effect to read, or -1 at the end of the list.
  var cursor: Int32
  /// The value so far: the base value with the effects read so far applied.
  var value: V
  /// Whether an effect read so far replaced the value.
  var replaced = false
  /// The backwards fill read so far that starts first: it shows in place of the base value.
  var filling: (value: V, untilStart: Double)?
  let base: V

  /// A walk from the start of the list of the property whose slot is `slot`.
  @inline(__always)
  init(_ slot: PropertySlot<V>) {
    cursor = slot.firstEffect
    value = slot.base
    base = slot.base
  }

  /// The property's value, once the walk has reached the end of its list. An animation
  /// waiting to start with a backwards fill shows its first value in place of the base
  /// value (the one that starts first, when several wait): what runs adds to it, or
  /// replaces it.
  @inline(__always)
  var result: V {
    if let filling, !replaced { return filling.value + (value - base) }
    return value
  }
}

extension AnimationEngine {
  /// Applies the effect at `walk`'s cursor, at engine time `time`, and moves on.
  @inline(__always)
  func step<V: EngineValue>(_ walk: inout EffectWalk<V>, _ store: ValueStore<V>, at time: Nanoseconds) {
    let cursor = walk.cursor
    let effect = store.effects[Int(cursor)]
    walk.cursor = effect.next
    if effect.fillsBefore, let shown = fillBefore(of: effect, cursor, store, at: time),
      walk.filling.map({ shown.untilStart < $0.untilStart }) ?? true
    {
      // (Plus the changes of additive animations that completed above it while it waits.)
      walk.filling = effect.hasShift ? (shown.value + store.shift(ofEffect: cursor), shown.untilStart) : shown
    }
    if !effect.muted, effect.mode != .unresolved, let output = output(of: effect, cursor, store, at: time) {
      if effect.mode == .additive {
        walk.value = walk.value + (output - effect.from)
      } else {
        walk.value = effect.hasShift ? output + store.shift(ofEffect: cursor) : output
        walk.replaced = true
      }
    } else if effect.hasShift, !effect.muted, effect.mode != .unresolved {
      // Showing nothing itself (waiting again in its delay, sought back there), a replacing
      // one still keeps the changes that completed above it.
      walk.value = walk.value + store.shift(ofEffect: cursor)
    }
  }

  /// The values at engine time `time` of the properties `listed` (indices into
  /// `properties`), written to `currents`: their walks eight at a time, interleaved step by
  /// step (a lane whose list ends takes the next property).
  func evaluateInterleaved<V: EngineValue>(
    _ listed: [Int32], _ store: ValueStore<V>, _ properties: [PropertySlot<V>], into currents: inout [V],
    at time: Nanoseconds
  ) {
    guard listed.count > 1 else {
      for property in listed { currents[Int(property)] = evaluate(store, slot: properties[Int(property)], at: time) }
      return
    }
    // (Never more lanes than properties: each lane starts with one.)
    let lanes = min(8, listed.count)
    withUnsafeTemporaryAllocation(of: EffectWalk<V>.self, capacity: lanes) { walks in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: lanes) { owners in
        for lane in 0..<lanes {
          owners[lane] = listed[lane]
          walks.initializeElement(at: lane, to: EffectWalk(properties[Int(listed[lane])]))
        }
        var next = lanes
        var active = lanes
        while active > 0 {
          for lane in 0..<lanes where owners[lane] >= 0 {
            if walks[lane].cursor >= 0 {
              step(&walks[lane], store, at: time)
              continue
            }
            currents[Int(owners[lane])] = walks[lane].result
            if next < listed.count {
              owners[lane] = listed[next]
              walks[lane] = EffectWalk(properties[Int(listed[next])])
              next += 1
            } else {
              owners[lane] = -1
              active -= 1
            }
          }
        }
        _ = walks.deinitialize()
      }
    }
  }
}
