import AnimTestSupport
import Foundation
import Testing

@testable import AnimCore

/// How the engine stores its nodes: 56 bytes each, a rate or iteration count other than 1
/// in a side table, top-level order as a number in the node, all in chunked arrays.
@Suite("Engine: node storage")
struct EngineNodeTests {
  /// The starts at one instant, as (node, kind) in the order they fired.
  func startsAt(_ time: Nanoseconds, _ engine: inout AnimationEngine) throws -> [NodeID] {
    var started: [NodeID] = []
    try engine.advance(to: time) { _, event in
      if event.kind == .start, event.time == time, case .node(let node) = event.subject { started.append(node) }
    }
    return started
  }

  /// Same-instant events follow the order nodes were made in, also after the orders are
  /// renumbered (here every few nodes) and while older nodes complete and free their slots.
  @Test(arguments: [UInt32(3), 7, .max])
  func sameInstantStartsFollowCreationOrderAcrossRenumbering(limit: UInt32) throws {
    var engine = AnimationEngine()
    engine.orderLimit = limit
    let properties = (0..<6).map { _ in engine.addProperty(.number(0)) }
    var random = SeededRandom(seed: 11)
    var previous = 0
    for round in 0..<12 {
      let start = Nanoseconds(round + 1) * s
      var made: [NodeID] = []
      for i in 0..<(2 + Int(random.next() % 4)) {
        made.append(
          try engine.animate(
            properties[(round + i) % 6], with: .tween(to: .number(Double(i)), duration: 500 * ms),
            placement: .engine(at: start)))
      }
      // Slots freed by the last round's animations are reused in shuffled order.
      #expect(try startsAt(start, &engine) == made, "round \(round)")
      // Below the limit, unless more nodes than that are alive at once (last round's too).
      #expect(engine.nextOrder <= max(limit, UInt32(previous + made.count)))
      previous = made.count
      #expect(engine.topLevelNodes == made)
    }
  }

  /// A rate or iteration count other than 1 takes an entry of the side table; going back to
  /// 1, or the node going away, gives it back for the next.
  @Test func ratesAndIterationCountsTakeASideEntryAndGiveItBack() throws {
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let plain = try engine.animate(x, with: .tween(to: .number(1), duration: s), placement: .engine(at: 0))
    #expect(engine.nodeExtras.isEmpty)
    try engine.setRate(2, of: plain)
    #expect(engine.nodeExtras.count == 1)
    #expect(try engine.status(of: plain).rate == 2)
    try engine.setRate(1, of: plain)
    #expect(engine.nodes[Int(plain.index)].extras == -1)
    #expect(engine.freeNodeExtras == [0])

    let y = engine.addProperty(.number(0))
    let looping = try engine.animate(
      y, with: .tween(to: .number(1), duration: s, iterations: 2.5), placement: .engine(at: 0))
    #expect(engine.nodeExtras.count == 1)  // the freed entry, reused
    #expect(engine.timing(of: looping.index).iterations == 2.5)
    try engine.reverse(looping)
    #expect(engine.rate(of: engine.nodes[Int(looping.index)]) == -1)
    try engine.remove(looping)
    #expect(engine.freeNodeExtras == [0])
    #expect(engine.nodeExtras.count == 1)
  }

  /// The packed node gives back every playback and timing it was given.
  @Test func aNodeGivesBackItsPlaybackAndTiming() throws {
    var engine = AnimationEngine(startingAt: 5 * s)
    let x = engine.addProperty(.number(0))
    for direction in [PlaybackDirection.normal, .reverse, .alternate, .alternateReverse] {
      for fill in [FillMode.none, .forwards, .backwards, .both] {
        let timing = EffectTiming(delay: -3 * ms, duration: 7 * ms, iterations: 1.5, direction: direction, fill: fill)
        let node = try engine.animate(
          x, with: Animation(shape: .tween(from: nil, to: .number(1), curve: .linear), timing: timing, rate: -0.5),
          placement: .engine(at: 2 * s))
        #expect(engine.timing(of: node.index) == timing)
        #expect(engine.playback(of: node.index) == Playback(localTime: -1500 * ms, at: 5 * s, rate: -0.5))
        try engine.pause(node)
        #expect(engine.playback(of: node.index).holdTime == -1500 * ms)
        #expect(engine.playback(of: node.index).isPaused)
      }
    }
  }

  /// Chunked storage: indices read and write across chunk boundaries, and removing from the
  /// end gives whole chunks back.
  @Test func aChunkedArrayBehavesAsAnArray() {
    var chunked = ChunkedArray<Int>()
    var plain: [Int] = []
    let size = ChunkedArray<Int>.chunkSize
    for i in 0..<(2 * size + 5) {
      chunked.append(i * 3)
      plain.append(i * 3)
    }
    for i in stride(from: 0, to: plain.count, by: 97) {
      chunked[i] += 1
      plain[i] += 1
    }
    #expect(Array(chunked) == plain)
    #expect(chunked[size] == plain[size] && chunked[size - 1] == plain[size - 1])
    #expect(chunked.array == plain)
    #expect(ChunkedArray(plain) == chunked)
    #expect(ChunkedArray(plain).count == plain.count && ChunkedArray([Int]()).isEmpty)
    chunked.removeLast(size + 6)
    plain.removeLast(size + 6)
    #expect(Array(chunked) == plain)
    #expect(chunked.count == size - 1)
    // One chunk left, grown as an array grows: no more than twice what it holds.
    #expect(chunked.allocatedBytes <= 2 * size * MemoryLayout<Int>.stride + 64)
    let data = try? JSONEncoder().encode(chunked)
    #expect(data == (try? JSONEncoder().encode(plain)))
  }

  /// Appending a buffer at once fills the last chunk, then new ones, as appending each element
  /// does (no chunk holds more than a chunk, whatever its allocation's size); the buffers of
  /// a range cross the chunks in order.
  @Test func aChunkedArrayAppendsAndHandsOutBuffersAcrossChunks() {
    var chunked = ChunkedArray<UInt8>()
    var plain: [UInt8] = []
    let size = ChunkedArray<UInt8>.chunkSize
    for length in [1, 3, 7, 0, 100, size, 2 * size + 1, 5, 1, 999] + Array(repeating: 13, count: 700) {
      let piece = (0..<length).map { UInt8(truncatingIfNeeded: plain.count + $0) }
      piece.withUnsafeBufferPointer { chunked.append(contentsOf: $0) }
      plain += piece
      #expect(chunked.count == plain.count)
    }
    #expect(chunked.array == plain)
    #expect(chunked.chunks.dropLast().allSatisfy { $0.count == size } && chunked.chunks.last!.count <= size)
    for range in [0..<0, 0..<1, 5..<size + 3, (size - 1)..<(3 * size + 2), 17..<plain.count] {
      var read: [UInt8] = []
      chunked.withBuffers(in: range) { read += $0 }
      #expect(read == Array(plain[range]))
    }
  }

  /// Growing leaves no more room spare than the last chunk holds (an array doubling would
  /// leave up to half of everything), and never copies the full chunks.
  @Test(arguments: [1, 3_000, 4_096])
  func growingLeavesNoMoreSpareThanTheLastChunkHolds(inLastChunk: Int) {
    var chunked = ChunkedArray<UInt64>()
    let count = 10 * ChunkedArray<UInt64>.chunkSize + inLastChunk
    for i in 0..<count { chunked.append(UInt64(i)) }
    let used = count * MemoryLayout<UInt64>.stride
    // (The list of chunks itself: a few hundred bytes.)
    #expect(chunked.allocatedBytes - used <= max(4, inLastChunk) * MemoryLayout<UInt64>.stride + 512)
    #expect(chunked.array == (0..<count).map(UInt64.init))
  }
}
