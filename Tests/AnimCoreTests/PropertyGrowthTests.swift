import Testing

@testable import AnimCore

@Suite("Engine: a store of many properties grows fourfold")
struct PropertyGrowthTests {
  /// Past `largeStoreSize` properties of one kind, the lists grow to four times what they
  /// hold, and every property keeps its id and value, animated or not.
  @Test func aLargeStoreGrowsFourfoldAndKeepsEveryProperty() throws {
    var engine = AnimationEngine()
    let large = AnimationEngine.largeStoreSize
    var ids: [PropertyID] = []
    func add() { ids.append(engine.addProperty(.number(Double(ids.count)))) }
    while ids.count < large { add() }
    // Each list grows when it is full past the size, to four times what it then holds
    // (twice, it would be had it doubled as an array does).
    let full = (
      properties: engine.stores.numbers.properties.capacity, currents: engine.stores.numbers.currents.capacity
    )
    for capacity in [full.properties, full.currents].sorted() {
      while ids.count <= capacity { add() }
      if capacity == full.properties { #expect(engine.stores.numbers.properties.capacity >= 4 * capacity) }
      if capacity == full.currents { #expect(engine.stores.numbers.currents.capacity >= 4 * capacity) }
    }
    // Below the size, growth is the array's own: it did not reserve four times as much.
    var small = AnimationEngine()
    for k in 0..<1_000 { _ = small.addProperty(.number(Double(k))) }
    #expect(small.stores.numbers.properties.capacity < 4_000)

    // A color in between: its own store, its own ids.
    let color = engine.addProperty(.color(Color(red: 1, green: 0, blue: 0, alpha: 1)))
    #expect(color.kind == .color && color.index == 0)
    for (k, id) in ids.enumerated() {
      #expect(id.kind == .number && id.index == Int32(k))
    }
    let last = ids[ids.count - 1]
    _ = try engine.animate(last, with: .tween(to: .number(0), duration: s), placement: .engine(at: 0))
    try engine.advance(to: s / 4)
    let from = Double(ids.count - 1)
    #expect(abs(number(engine, last) - from * 0.75) < 1e-9)
    for k in stride(from: 0, to: ids.count - 1, by: 997) {
      #expect(number(engine, ids[k]) == Double(k))
    }
    #expect(number(engine, ids[large]) == Double(large))
  }
}
