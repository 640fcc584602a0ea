import Foundation
import Testing

@testable import AnimCore

/// Animations share their curves by slot (`AnimationEngine.curveSlot`): each distinct curve is
/// kept once, and the slot last given is compared before the table is hashed. These tests hold
/// that shortcut to the table: whatever curve came last, an animation's curve is the one it
/// was given, kept once.
@Suite("Engine: curve slots")
struct CurveSlotTests {
  static let easeIn = TimingCurve.cubicBezier(CubicBezier.easeIn)
  static let easeOut = TimingCurve.cubicBezier(CubicBezier.easeOut)

  /// The curve of the animation `node`, as its effect's slot names it.
  static func curve(of node: NodeID, in engine: AnimationEngine) -> TimingCurve {
    let effect = engine.stores.numbers.effects[Int(engine.nodes[Int(node.index)].payload)]
    return engine.curves[Int(effect.curve)]
  }

  @Test func eachDistinctCurveIsKeptOnceWhateverCameLast() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    let order = [Self.easeIn, Self.easeIn, Self.easeOut, Self.easeIn, .linear, Self.easeOut, .linear]
    var nodes: [NodeID] = []
    for curve in order {
      let animation = Animation.tween(to: .number(1), duration: 1_000 * ms, curve: curve)
      nodes.append(try engine.animate(p, with: animation, placement: .engine(at: 0)))
    }
    #expect(engine.curves.count == 3)
    #expect(Set(engine.curves).count == 3)
    for (node, curve) in zip(nodes, order) {
      #expect(Self.curve(of: node, in: engine) == curve)
    }
  }

  @Test func aRestoredEngineFindsTheCurvesItHolds() throws {
    var engine = AnimationEngine()
    let p = engine.addProperty(.number(0))
    _ = try engine.animate(
      p, with: .tween(to: .number(1), duration: 1_000 * ms, curve: Self.easeOut), placement: .engine(at: 0))
    _ = try engine.animate(
      p, with: .tween(to: .number(2), duration: 1_000 * ms, curve: Self.easeIn), placement: .engine(at: 0))
    var restored = try JSONDecoder().decode(AnimationEngine.self, from: try JSONEncoder().encode(engine))
    let again = try restored.animate(
      p, with: .tween(to: .number(3), duration: 1_000 * ms, curve: Self.easeOut), placement: .engine(at: 0))
    #expect(restored.curves.count == 2)
    #expect(Self.curve(of: again, in: restored) == Self.easeOut)
  }
}
