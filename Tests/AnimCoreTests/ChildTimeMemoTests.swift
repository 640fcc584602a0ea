import Testing

@testable import AnimCore

/// A refresh reads a timeline's time once for all its effects (`childTimes`), at a rate other
/// than ±1 too, and keeps nothing after: values are each item's own.
@Suite("Engine: a timeline's time read once per refresh")
struct ChildTimeMemoTests {
  /// T at speed 2 holds 50 items, item k on p_k from 0 to 100 over 1 s at k · 10 ms (linear).
  /// At engine time 250 ms T reads 500 ms: item k is (500 − 10k) / 1000 of the way.
  @Test func eachItemReadsItsOwnTimeAndNothingIsKept() throws {
    var engine = AnimationEngine()
    let t = try engine.addTimeline(timing: EffectTiming(duration: 2 * s, fill: .forwards), rate: 2)
    var properties: [PropertyID] = []
    for k in 0..<50 {
      let p = engine.addProperty(.number(0))
      properties.append(p)
      _ = try engine.animate(
        p, with: .tween(from: .number(0), to: .number(100), duration: 1 * s),
        placement: .timeline(t, at: Int64(k) * 10 * ms))
    }
    try engine.play(t)
    try engine.advance(to: 250 * ms)
    #expect(engine.childTimes == nil)
    for (k, p) in properties.enumerated() {
      #expect(abs(number(engine, p) - Double(500 - 10 * k) / 10) < 1e-9, "item \(k)")
    }
  }
}
