import Testing

@testable import AnimCore

/// A refresh of the current values when nothing they are computed from has changed since the
/// last one is skipped (`AnimationEngine.revision`): `anim trace --until 0s` refreshed three
/// times at 0 with nothing between. These tests hold the skip to both halves of its promise:
/// the values read after a skipped refresh are the full evaluation's, and a change made at
/// the same instant, with no time passing, is never skipped.
@Suite("Engine: skipped refreshes")
struct EngineRefreshSkipTests {
  /// An engine with `p` animated linearly from 0 to 100 over 1 s and, on top of it from the
  /// same instant, to 200 over 1 s (additive: it adds its change from the first one's target,
  /// 100), advanced to 250 ms: p = 25 + (125 − 100) = 50 there; `q` at rest at 7.
  func stackedEngine() throws -> (AnimationEngine, p: PropertyID, q: PropertyID) {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let q = engine.addProperty(.number(7))
    _ = try engine.animate(p, with: .tween(to: .number(100), duration: 1_000 * ms), placement: .engine(at: 0))
    _ = try engine.animate(p, with: .tween(to: .number(200), duration: 1_000 * ms), placement: .engine(at: 0))
    try engine.advance(to: 250 * ms)
    return (engine, p, q)
  }

  @Test func anAdvanceToTheSameInstantWithNothingChangedDoesNotRefreshAgain() throws {
    var (engine, p, q) = try stackedEngine()
    #expect(engine.currentValue(of: p) == .number(50))
    #expect(engine.currentValue(of: q) == .number(7))
    let refreshes = engine.stores.numbers.refreshCount
    try engine.advance(to: 250 * ms)
    try engine.advance(to: 250 * ms)
    // Skipped: the store was not walked again, and its values are still the full evaluation's.
    #expect(engine.stores.numbers.refreshCount == refreshes)
    #expect(engine.currentValue(of: p) == .number(50))
    #expect(engine.currentValue(of: p) == engine.value(of: p))
    #expect(engine.currentValue(of: q) == .number(7))
  }

  @Test func anAnimationAddedAtTheSameInstantIsRefreshed() throws {
    var (engine, _, q) = try stackedEngine()
    // Starting now from 20: it shows 20 at once, at progress 0.
    _ = try engine.animate(
      q, with: .tween(from: .number(20), to: .number(120), duration: 1_000 * ms), placement: .engine(at: 250 * ms))
    let refreshes = engine.stores.numbers.refreshCount
    try engine.advance(to: 250 * ms)
    #expect(engine.stores.numbers.refreshCount > refreshes)
    #expect(engine.currentValue(of: q) == .number(20))
    #expect(engine.currentValue(of: q) == engine.value(of: q))
  }

  @Test func aControlAtTheSameInstantIsRefreshed() throws {
    var (engine, p, _) = try stackedEngine()
    let third = try engine.animate(
      p, with: .tween(to: .number(300), duration: 1_000 * ms), placement: .engine(at: 250 * ms))
    try engine.advance(to: 250 * ms)
    // Its change starts at 0 here: p is still 50.
    #expect(engine.currentValue(of: p) == .number(50))
    // Sought to 500 ms of its 1 s with no time passing: it adds half its change, 50.
    try engine.seek(third, to: 500 * ms)
    try engine.advance(to: 250 * ms)
    #expect(engine.currentValue(of: p) == .number(100))
    #expect(engine.currentValue(of: p) == engine.value(of: p))
  }

  @Test func aTimeThatMovesRefreshesAgain() throws {
    var (engine, p, _) = try stackedEngine()
    let refreshes = engine.stores.numbers.refreshCount
    try engine.advance(to: 500 * ms)
    #expect(engine.stores.numbers.refreshCount > refreshes)
    // 50 + (150 − 100) = 100 at 500 ms.
    #expect(engine.currentValue(of: p) == .number(100))
    #expect(engine.currentValue(of: p) == engine.value(of: p))
  }

  @Test func aBaseValueSetAtTheSameInstantIsRead() throws {
    var (engine, _, q) = try stackedEngine()
    try engine.set(q, to: .number(-3))
    try engine.advance(to: 250 * ms)
    #expect(engine.currentValue(of: q) == .number(-3))
    #expect(engine.currentValue(of: q) == engine.value(of: q))
  }
}
