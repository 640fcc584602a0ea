import AnimTestSupport
import Testing

@testable import AnimCore

/// The pending-event queue on its own, without an engine: entries come out by time, ties by
/// sequence (the order they were scheduled in), whether they waited in the heap or in a
/// later bucket; stale node entries are dropped only as a bucket comes in; renumbering keeps
/// the order. Every expected order is the rule's, (time, sequence) ascending, computed from
/// the entries put in.
@Suite("PendingEventQueue")
struct PendingEventQueueTests {
  typealias Entry = PendingEventQueue.Entry

  /// No node has been rescheduled: every node entry's sequence is its version.
  static func versions(for entries: [Entry]) -> ChunkedArray<UInt32> {
    let nodes = entries.map(\.slot).filter { $0 >= 0 }.max().map { Int($0) + 1 } ?? 0
    var versions = ChunkedArray<UInt32>(Array(repeating: 0, count: nodes))
    for entry in entries where entry.slot >= 0 { versions[Int(entry.slot)] = entry.sequence }
    return versions
  }

  /// Everything, in the order the queue hands it out.
  static func drain(_ queue: inout PendingEventQueue, versions: ChunkedArray<UInt32>) -> [Entry] {
    var out: [Entry] = []
    while let first = queue.first(versions: versions) {
      queue.removeFirst()
      out.append(first)
    }
    return out
  }

  static func byRule(_ entries: [Entry]) -> [Entry] {
    entries.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
  }

  @Test func anEntryIsSixteenBytesAndKeepsItsFields() {
    #expect(MemoryLayout<Entry>.stride == 16)
    let node = Entry(time: -7, sequence: .max, slot: 12)
    #expect(node.time == -7 && node.sequence == .max && node.slot == 12)
    var callback = Entry(time: 5, sequence: 3, slot: ~(41 << 1))
    callback.sequence = 9
    #expect(callback.sequence == 9 && callback.slot == ~(41 << 1))
  }

  /// By time (negative times first: the sign bit is flipped for the one comparison), then
  /// by sequence, whatever the slot.
  @Test func entriesComeOutByTimeThenSequence() {
    var random = SeededRandom(seed: 14)
    var queue = PendingEventQueue()
    var entries: [Entry] = []
    for _ in 0..<500 {
      let sequence = queue.nextSequence()
      // Few distinct times, so that many share one; slots that would sort the other way.
      let time = Nanoseconds(random.next() % 20) - 5
      let slot = random.next() % 2 == 0 ? Int32(1000 - sequence) : ~Int32(sequence << 1)
      entries.append(Entry(time: time, sequence: sequence, slot: slot))
    }
    for entry in entries.shuffled(using: &random) { queue.insert(entry) }
    #expect(queue.laterBuckets.isEmpty)
    #expect(Self.drain(&queue, versions: Self.versions(for: entries)) == Self.byRule(entries))
  }

  @Test func tiesAtOneInstantComeOutInSchedulingOrder() {
    var queue = PendingEventQueue()
    let sequences = (0..<5).map { _ in queue.nextSequence() }
    // Inserted last first: the sequence decides, not the insertion.
    for sequence in sequences.reversed() { queue.insert(Entry(time: 3, sequence: sequence, slot: ~0)) }
    #expect(Self.drain(&queue, versions: ChunkedArray()).map(\.sequence) == [1, 2, 3, 4, 5])
  }

  /// With a small heap, the later half moves out into buckets (the horizon falls below the
  /// end of time), later entries go straight to their bucket, and everything still comes
  /// out by the rule as the buckets come back in.
  @Test(arguments: [1, 2, 4, 16])
  func entriesWaitingInLaterBucketsComeOutInOrder(nearLimit: Int) {
    var random = SeededRandom(seed: UInt64(nearLimit))
    var queue = PendingEventQueue()
    queue.nearLimit = nearLimit
    queue.splitSize = nearLimit
    var entries: [Entry] = []
    for i in 0..<2_000 {
      let entry = Entry(
        time: Nanoseconds(random.next() % 300), sequence: queue.nextSequence(), slot: ~Int32(i << 1))
      entries.append(entry)
      queue.insert(entry)
    }
    #expect(queue.horizon < .max)
    #expect(!queue.laterBuckets.isEmpty)
    // The heap holds what is due by the horizon; every bucket what is due after it.
    #expect(queue.near.unordered.allSatisfy { $0.time <= queue.horizon })
    #expect(queue.laterBuckets.allSatisfy { $0.allSatisfy { $0.time > queue.horizon } })
    #expect(queue.entries.count == entries.count)
    #expect(Self.drain(&queue, versions: ChunkedArray()) == Self.byRule(entries))
    // Empty: whatever comes in next goes into the heap, however late.
    queue.insert(Entry(time: .max, sequence: queue.nextSequence(), slot: ~0))
    #expect(queue.near.count == 1)
  }

  /// An entry inserted between two pops, after the horizon, waits in its bucket and still
  /// comes out in its place.
  @Test func anEntryInsertedAfterTheHorizonComesOutInItsPlace() {
    var queue = PendingEventQueue()
    queue.nearLimit = 2
    queue.splitSize = 2
    var entries: [Entry] = []
    for time: Nanoseconds in [10, 20, 30, 40] {
      let entry = Entry(time: time, sequence: queue.nextSequence(), slot: ~0)
      entries.append(entry)
      queue.insert(entry)
    }
    let horizon = queue.horizon
    #expect(horizon < 40)
    let first = queue.first(versions: ChunkedArray())
    queue.removeFirst()
    #expect(first == entries[0])
    let late = Entry(time: horizon + 1, sequence: queue.nextSequence(), slot: ~0)
    queue.insert(late)
    #expect(!queue.near.unordered.contains(late))
    #expect(Self.drain(&queue, versions: ChunkedArray()) == Self.byRule(Array(entries.dropFirst()) + [late]))
  }

  /// A node entry whose sequence is no longer its node's version is dropped when its bucket
  /// comes into the heap; one already in the heap is handed out (the engine skips it, by
  /// `isLive`), and a callback is never dropped.
  @Test func staleNodeEntriesAreDroppedAsTheirBucketComesIn() {
    var queue = PendingEventQueue()
    queue.nearLimit = 2
    queue.splitSize = 2
    let early = Entry(time: 1, sequence: queue.nextSequence(), slot: 0)
    let earlyStale = Entry(time: 2, sequence: queue.nextSequence(), slot: 3)
    queue.insert(early)
    queue.insert(earlyStale)  // the heap splits here: its horizon is 2 now
    #expect(queue.horizon == 2)
    let lateStale = Entry(time: 50, sequence: queue.nextSequence(), slot: 1)
    let lateCallback = Entry(time: 60, sequence: queue.nextSequence(), slot: ~(7 << 1))
    let lateLive = Entry(time: 70, sequence: queue.nextSequence(), slot: 2)
    for entry in [lateStale, lateCallback, lateLive] { queue.insert(entry) }
    #expect(queue.laterBuckets.map(\.count).reduce(0, +) == 3)
    // Nodes 1 and 3 rescheduled since (their versions moved on); nodes 0 and 2 are live.
    let versions = ChunkedArray<UInt32>([early.sequence, 99, lateLive.sequence, 99])
    #expect(Self.drain(&queue, versions: versions) == [early, earlyStale, lateCallback, lateLive])
  }

  @Test func removingAnInstantTakesExactlyItsEntries() {
    var queue = PendingEventQueue()
    var entries: [Entry] = []
    for (i, time) in [Nanoseconds](arrayLiteral: 4, 2, 4, 9, 4, 1).enumerated() {
      let entry = Entry(time: time, sequence: queue.nextSequence(), slot: Int32(i))
      entries.append(entry)
      queue.insert(entry)
    }
    let removed = queue.removeAll(at: 4)
    #expect(Set(removed.map(\.sequence)) == Set(entries.filter { $0.time == 4 }.map(\.sequence)))
    let versions = Self.versions(for: entries)
    #expect(Self.drain(&queue, versions: versions) == Self.byRule(entries.filter { $0.time != 4 }))
  }

  /// Renumbering gives the live entries 1, 2, … in the order of their old sequences, so the
  /// order at one instant is kept; the later ones wait in a bucket past the horizon.
  @Test func renumberingKeepsTheOrder() {
    var queue = PendingEventQueue()
    queue.nearLimit = 4
    queue.splitSize = 4
    var entries: [Entry] = []
    for i in 0..<12 {
      // Sequences with gaps (stale ones dropped in between), three to an instant.
      queue.lastSequence += 3
      let entry = Entry(time: Nanoseconds(i / 3) * 10, sequence: queue.nextSequence(), slot: ~Int32(i << 1))
      entries.append(entry)
      queue.insert(entry)
    }
    let horizon = queue.horizon
    #expect(horizon < .max)
    let renumbered = queue.renumber(entries.reversed())
    #expect(renumbered.map(\.sequence) == (1...12).map(UInt32.init))
    #expect(renumbered.map(\.slot) == entries.map(\.slot))
    #expect(queue.lastSequence == 12)
    #expect(queue.laterBuckets.count == 1)
    #expect(queue.laterBuckets[0].allSatisfy { $0.time > horizon })
    #expect(Self.drain(&queue, versions: ChunkedArray()).map(\.slot) == entries.map(\.slot))
  }

  @Test func sequencesRunOutAtTheLimit() {
    var queue = PendingEventQueue()
    queue.sequenceLimit = 3
    for expected: UInt32 in 1...3 {
      #expect(!queue.needsRenumbering)
      #expect(queue.nextSequence() == expected)
    }
    #expect(queue.needsRenumbering)
  }

  /// A snapshot's entries come back all in the heap, with its last sequence.
  @Test func restoringPutsEverythingInTheHeap() {
    var queue = PendingEventQueue()
    queue.nearLimit = 2
    queue.splitSize = 2
    for time: Nanoseconds in [5, 6, 7, 8] { queue.insert(Entry(time: time, sequence: queue.nextSequence(), slot: ~0)) }
    let entries = [Entry(time: 9, sequence: 2, slot: ~0), Entry(time: 3, sequence: 1, slot: ~0)]
    queue.restore(entries, lastSequence: 2)
    #expect(queue.horizon == .max && queue.laterBuckets.isEmpty)
    #expect(queue.lastSequence == 2)
    #expect(Self.drain(&queue, versions: ChunkedArray()) == Self.byRule(entries))
  }
}
