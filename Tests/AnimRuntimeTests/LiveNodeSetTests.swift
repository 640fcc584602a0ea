import AnimCore
import Testing

@testable import AnimRuntime

/// The runtime's set of live standalone animations (`LiveNodeSet`): what a `Set<NodeID>`
/// answered for every node that can still complete.
@Suite struct LiveNodeSetTests {
  static let tween = Animation.tween(to: .number(1), duration: 1_000)

  @Test func aNodeIsFoundOnceAfterItIsMarked() throws {
    var engine = AnimationEngine()
    let property = engine.addProperty(.number(0))
    let first = try engine.animate(property, with: Self.tween, placement: .engine(at: 0))
    let second = try engine.animate(property, with: Self.tween, placement: .engine(at: 0))
    var set = LiveNodeSet()
    let removed1 = set.remove(first)
    #expect(removed1 == false)
    set.insert(second)
    let removed2 = set.remove(first)
    #expect(removed2 == false)
    let removed3 = set.remove(second)
    #expect(removed3 == true)
    let removed4 = set.remove(second)
    #expect(removed4 == false)
  }

  /// A slot given to a new node: the new one is the member, the removed one is not.
  @Test func aReusedSlotHoldsItsNewNode() throws {
    var engine = AnimationEngine()
    let property = engine.addProperty(.number(0))
    let old = try engine.animate(property, with: Self.tween, placement: .engine(at: 0))
    var set = LiveNodeSet()
    set.insert(old)
    try engine.cancel(old)
    let new = try engine.animate(property, with: Self.tween, placement: .engine(at: 0))
    try #require(new.slotIndex == old.slotIndex && new.slotGeneration != old.slotGeneration)
    set.insert(new)
    let removed5 = set.remove(old)
    #expect(removed5 == false)
    let removed6 = set.remove(new)
    #expect(removed6 == true)
  }
}
