import Testing

@testable import AnimCore

/// `Headings` (the kept `target` of each property) and the store's doubly linked lists of
/// effects (`ValueStore.previous`), which let many starts on one property at one instant
/// each cost the same.
@Suite("Engine: kept headings and the effects' lists")
struct HeadingsTests {
  @Test func anEntryHoldsOnlyAtTheGenerationItWasRecordedAt() {
    var headings = Headings<Double>()
    #expect(headings.heading(of: 0, at: 0) == nil)
    headings.record(5, of: 3, at: 7)
    #expect(headings.heading(of: 3, at: 7) == 5)
    #expect(headings.heading(of: 3, at: 8) == nil)
    #expect(headings.heading(of: 2, at: 7) == nil)
    #expect(headings.heading(of: 4, at: 7) == nil)
    // A record at a new generation makes the others stale, even at a later record's time.
    headings.record(9, of: 1, at: 8)
    #expect(headings.heading(of: 1, at: 8) == 9)
    #expect(headings.heading(of: 3, at: 8) == nil)
    headings.record(2, of: 1, at: 8)
    #expect(headings.heading(of: 1, at: 8) == 2)
  }

  @Test func carryKeepsTheOtherEntriesOnlyFromTheGenerationTheyHoldAt() {
    var headings = Headings<Double>()
    headings.record(1, of: 0, at: 10)
    headings.record(2, of: 1, at: 10)
    headings.carry(30, of: 1, from: 10, to: 14)
    #expect(headings.heading(of: 0, at: 14) == 1)
    #expect(headings.heading(of: 1, at: 14) == 30)
    #expect(headings.heading(of: 0, at: 10) == nil)
    // Carried from a generation the entries do not hold at: only the carried one holds.
    headings.carry(40, of: 2, from: 15, to: 20)
    #expect(headings.heading(of: 2, at: 20) == 40)
    #expect(headings.heading(of: 0, at: 20) == nil)
    #expect(headings.heading(of: 1, at: 20) == nil)
  }

  /// Three effects on one property, linked in order, then taken off in the middle, at the
  /// end and at the front: the list and its last effect follow, and one not on the list is
  /// left alone.
  @Test func unlinkTakesAnEffectOffWithoutWalkingAndKeepsTheListWhole() {
    var store = ValueStore<Double>()
    store.properties.append(PropertySlot(base: 0))
    store.currents.append(0)
    func effect() -> Effect<Double> {
      Effect(
        node: 0, property: 0, curve: 0, from: 0, to: 1, hasExplicitFrom: false, hasValues: true,
        resolvesValuesAtStart: false, composition: .automatic)
    }
    let a = store.allocateEffect(effect())
    let b = store.allocateEffect(effect())
    let c = store.allocateEffect(effect())
    let d = store.allocateEffect(effect())
    for index in [a, b, c] { store.link(index) }
    #expect(store.effects(on: 0) == [a, b, c])
    store.unlink(d)
    #expect(store.effects(on: 0) == [a, b, c])
    store.unlink(b)
    #expect(store.effects(on: 0) == [a, c])
    #expect(store.properties[0].lastEffect == c)
    store.moveToTop(a)
    #expect(store.effects(on: 0) == [c, a])
    store.unlink(a)
    #expect(store.effects(on: 0) == [c])
    #expect(store.properties[0].lastEffect == c)
    store.unlink(c)
    #expect(store.effects(on: 0).isEmpty)
    #expect(store.properties[0].firstEffect == -1 && store.properties[0].lastEffect == -1)
    store.link(b)
    store.link(c)
    #expect(store.effects(on: 0) == [b, c])
    // Rebuilt from the lists, as after reading a snapshot.
    store.relinkLastEffects()
    #expect(store.previous[Int(c)] == b && store.previous[Int(b)] == -1 && store.previous[Int(a)] == -1)
    store.unlink(c)
    #expect(store.effects(on: 0) == [b])
  }

  /// Forty animations placed at 0 on one property (interleaved with forty on another), all
  /// counted from their placement, so each starts additively from where the property is
  /// heading: the k-th (k = 1…40) to 2k. The changes telescope: halfway through, the value
  /// is half of the last target, 40; at the end, 80. The other property's, to 4k: 80 and 160.
  @Test func manyAdditiveStartsAtOneInstantFollowTheFormula() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(0))
    for k in 1...40 {
      _ = try engine.animate(x, with: .tween(to: .number(Double(2 * k)), duration: s), placement: .engine(at: 0))
      _ = try engine.animate(y, with: .tween(to: .number(Double(4 * k)), duration: s), placement: .engine(at: 0))
    }
    try engine.advance(to: 0)
    #expect(engine.target(Double.self, x.index, excluding: -1) == 80)
    #expect(engine.target(Double.self, y.index, excluding: -1) == 160)
    try engine.advance(to: 500 * ms)
    #expect(number(engine, x) == 40)
    #expect(number(engine, y) == 80)
    try engine.advance(to: 2 * s)
    #expect(number(engine, x) == 80)
    #expect(number(engine, y) == 160)
  }

  /// After additive starts, changes that `carry` does not account for (a cancel, a `set`, a
  /// takeover, a new start placed later): the kept heading is each time the one a walk of
  /// the list gives.
  @Test func theKeptHeadingIsTheWalkedOneAfterEveryKindOfChange() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let y = engine.addProperty(.number(10))
    var ids: [NodeID] = []
    func agree(_ step: String) {
      for p in [x, y] {
        let kept = engine.target(Double.self, p.index, excluding: -1)
        let walked = engine.walkedTarget(Double.self, p.index, excluding: -1)
        #expect(kept == walked, "\(step): property \(p.index)")
      }
    }
    for k in 1...6 {
      ids.append(
        try engine.animate(x, with: .tween(to: .number(Double(10 * k)), duration: s), placement: .engine(at: 0)))
      _ = try engine.animate(
        y, with: .tween(to: .number(Double(-3 * k)), duration: s, delay: Nanoseconds(k) * 100 * ms),
        placement: .engine(at: 0))
    }
    try engine.advance(to: 0)
    agree("started")
    #expect(engine.target(Double.self, x.index, excluding: -1) == 60)
    try engine.advance(to: 250 * ms)
    agree("a delayed one started")
    try engine.cancel(ids[2])
    agree("cancelled")
    _ = try engine.animate(x, with: .tween(to: .number(7), duration: s), placement: .engine(at: 250 * ms))
    try engine.advance(to: 300 * ms)
    agree("one more")
    try engine.set(y, to: .number(1))
    agree("set")
    _ = try engine.animate(
      x, with: .tween(to: .number(-5), duration: s, composition: .replace), placement: .engine(at: 300 * ms))
    try engine.advance(to: 400 * ms)
    agree("taken over")
    #expect(engine.target(Double.self, x.index, excluding: -1) == -5)
    try engine.advance(to: 3 * s)
    agree("ended")
    #expect(number(engine, x) == -5)
  }

  /// An animation placed that shows nothing before it starts changes no heading: the
  /// headings stay kept past its placement (a property with one such animation heads for
  /// its base value), so the first of many additive starts need not walk the list. Each kept
  /// heading is the walked one, after every kind of placement, those that do show something
  /// before they start (a backwards fill) included.
  @Test func aPlacementThatShowsNothingKeepsTheHeadings() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(3))
    let y = engine.addProperty(.number(10))
    func kept(_ p: PropertyID) -> Double? {
      let store = engine.stores[keyPath: Double.store]
      return store.headings.heading(of: p.index, at: store.generation)
    }
    func agree(_ step: String) {
      for p in [x, y] {
        if let heading = kept(p) {
          #expect(heading == engine.walkedTarget(Double.self, p.index, excluding: -1), "\(step): property \(p.index)")
        }
      }
    }
    for k in 1...5 {
      _ = try engine.animate(x, with: .tween(to: .number(Double(2 * k)), duration: s), placement: .engine(at: 0))
      _ = try engine.animate(
        y, with: .tween(to: .number(Double(-k)), duration: s, delay: 100 * ms), placement: .engine(at: 0))
      // (From the second on: a property with one animation, the usual case, keeps none.)
      #expect(kept(x) == (k == 1 ? nil : 3), "placed \(k)")
      #expect(kept(y) == (k == 1 ? nil : 10), "placed \(k)")
    }
    let timeline = try engine.addTimeline(
      timing: EffectTiming(duration: 2 * s, fill: .forwards), placement: .engine(at: 0))
    _ = try engine.animate(
      x,
      with: Animation(
        shape: .keyframes([Keyframe(offset: 1, value: .number(50))]), timing: EffectTiming(duration: s, fill: .forwards)
      ),
      placement: .timeline(timeline, at: 0))
    #expect(kept(x) == 3)
    // Filling backwards, it takes its place in the stack where it is placed: a walk again.
    _ = try engine.animate(
      y, with: .tween(from: .number(-40), to: .number(40), duration: s, delay: s, fill: .both),
      placement: .engine(at: 0))
    #expect(kept(y) == nil)
    agree("a backwards fill placed")
    #expect(engine.target(Double.self, y.index, excluding: -1) == 40)
    try engine.advance(to: 0)
    agree("started")
    #expect(engine.target(Double.self, x.index, excluding: -1) == 50)
    try engine.advance(to: 3 * s)
    agree("ended")
    #expect(number(engine, x) == 50)
  }
}
