// PendingEventQueue: the engine's pending events, earliest first, ties in the order they were
// scheduled.
//
// Two parts: the entries due up to `horizon` in a heap (swift-collections' `Heap`), and the
// later ones unsorted in buckets by time, the earliest bucket coming into the heap when it
// runs dry. A heap of everything (a million callbacks) would miss the cache at every level of
// every pop; a heap kept near `nearLimit` entries stays within a core's cache.
//
// The queue knows nothing of nodes: an entry is a time, a sequence and a slot. Which entries
// are stale (a node rescheduled since) is the engine's to say; the queue drops the ones it is
// told are stale when a bucket comes in, and hands out the rest for the engine to skip.

import HeapModule

struct PendingEventQueue: Sendable {
  /// An entry, 16 bytes: the next event of a top-level node's tree, or a callback scheduled
  /// on the engine (its key in the entry when it is below 2^30, else in the engine's
  /// `engineCallbackKeys`). Ordered by time, then by sequence: at one instant, scheduling
  /// order.
  ///
  /// A node's entry is live while the engine's `versions[node]` is its sequence:
  /// rescheduling or removing the node changes that, and older entries are skipped when
  /// they come up.
  struct Entry: Comparable, Sendable {
    var time: Nanoseconds
    /// The sequence in the high half, the slot's bits in the low half.
    var tag: UInt64

    init(time: Nanoseconds, sequence: UInt32, slot: Int32) {
      self.time = time
      tag = UInt64(sequence) << 32 | UInt64(UInt32(bitPattern: slot))
    }

    var sequence: UInt32 {
      get { UInt32(truncatingIfNeeded: tag >> 32) }
      set { tag = UInt64(newValue) << 32 | (tag & 0xFFFF_FFFF) }
    }
    /// A top-level node (≥ 0), or an engine callback: `~(key << 1)` for a key in 0..<2^30,
    /// `~(s << 1 | 1)` for slot `s` of `engineCallbackKeys`.
    var slot: Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: tag)) }

    /// One unsigned 128-bit comparison: the time with its sign bit flipped, then the tag.
    @inline(__always) var orderKey: UInt128 {
      UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(tag)
    }
    @inline(__always) static func < (a: Entry, b: Entry) -> Bool { a.orderKey < b.orderKey }
    @inline(__always) static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.tag == b.tag }
  }

  /// The size the heap is kept near: 256 kB, well within a core's cache.
  static let defaultNearLimit = 16_384

  /// The entries due up to `horizon`.
  private(set) var near = Heap<Entry>()
  /// Every entry in `near` is due at or before this; every one in a bucket after.
  private(set) var horizon: Nanoseconds = .max
  /// The buckets, the earliest last; each holds the entries due after the next one's
  /// bound (the horizon, for the last) and by its own bound. The first bound is `.max`.
  private(set) var laterBuckets: [ChunkedArray<Entry>] = []
  private(set) var laterBounds: [Nanoseconds] = []
  /// The size `near` is kept near (lowered by tests, to reach it).
  var nearLimit = PendingEventQueue.defaultNearLimit
  /// When `near` grows to this, its later half moves out (see `split`).
  var splitSize = PendingEventQueue.defaultNearLimit
  /// The last sequence given to an entry. When it would pass `sequenceLimit`, the live
  /// entries are renumbered from 1 in order (`renumber`), so scheduling order holds forever.
  var lastSequence: UInt32 = 0
  /// Where sequences are renumbered (lowered by tests, to reach it).
  var sequenceLimit: UInt32 = .max

  /// Whether sequences have run out: the live entries must be renumbered before the next.
  var needsRenumbering: Bool { lastSequence >= sequenceLimit }

  /// The sequence for a new entry: one more than the last (renumber first when
  /// `needsRenumbering`).
  mutating func nextSequence() -> UInt32 {
    lastSequence &+= 1
    return lastSequence
  }

  /// Every entry, stale or not, in no particular order (the heap's, then the buckets').
  var entries: [Entry] {
    Array(near.unordered) + laterBuckets.flatMap { $0.array }
  }

  /// Whether any entry satisfies `predicate`.
  func contains(where predicate: (Entry) -> Bool) -> Bool {
    near.unordered.contains(where: predicate) || laterBuckets.contains { $0.contains(where: predicate) }
  }

  /// The earliest time of the entries that satisfy `isIncluded`, if any.
  func earliestTime(where isIncluded: (Entry) -> Bool) -> Nanoseconds? {
    // The heap's entries come before the buckets', and each bucket's before the next's.
    func earliest<Entries: Sequence<Entry>>(_ entries: Entries) -> Nanoseconds? {
      var next: Nanoseconds?
      for entry in entries where isIncluded(entry) { next = min(next ?? entry.time, entry.time) }
      return next
    }
    if let next = earliest(near.unordered) { return next }
    for bucket in laterBuckets.reversed() {
      if let next = earliest(bucket) { return next }
    }
    return nil
  }

  /// Adds an entry: into the heap when it is due by the horizon, else into the bucket of
  /// its time.
  @inline(__always) mutating func insert(_ entry: Entry) {
    if entry.time <= horizon || laterBuckets.isEmpty {
      // (No buckets with a horizon short of the end of time is never expected; everything
      // is in the heap then, so the horizon can be the end of time.)
      if laterBuckets.isEmpty { horizon = .max }
      near.insert(entry)
      if near.count >= splitSize { split() }
    } else {
      laterBuckets[laterBucket(of: entry.time)].append(entry)
    }
  }

  /// The earliest entry (stale or not), if any; when the heap has run dry, the earliest
  /// bucket of later ones comes into it first, without the entries `versions` says are stale.
  @inline(__always) mutating func first(versions: ChunkedArray<UInt32>) -> Entry? {
    if let first = near.min { return first }
    if laterBuckets.isEmpty { return nil }
    refill(versions: versions)
    return near.min
  }

  /// Removes the earliest entry of the heap (the one `first` gave).
  @inline(__always) mutating func removeFirst() {
    near.removeMin()
  }

  /// Removes every entry due at `time` (all in the heap: `time` is at or before the
  /// horizon), returning them.
  mutating func removeAll(at time: Nanoseconds) -> [Entry] {
    var kept: [Entry] = []
    var removed: [Entry] = []
    for entry in near.unordered {
      if entry.time != time { kept.append(entry) } else { removed.append(entry) }
    }
    near = Heap(kept)
    return removed
  }

  /// Replaces everything with `live` (the live entries, in any order), renumbered 1, 2, …
  /// in the order of their sequences, all given since the last renumbering. Returns them
  /// renumbered, for the engine to give each node its entry's new sequence.
  mutating func renumber(_ live: [Entry]) -> [Entry] {
    var live = live
    live.sort { $0.sequence < $1.sequence }
    for i in live.indices { live[i].sequence = UInt32(truncatingIfNeeded: i + 1) }
    lastSequence = UInt32(truncatingIfNeeded: live.count)
    // The later ones in one bucket to the end of time (split again when it comes up).
    let later = live.filter { $0.time > horizon }
    laterBuckets = horizon == .max ? [] : [ChunkedArray(later)]
    laterBounds = horizon == .max ? [] : [.max]
    near = Heap(live.filter { $0.time <= horizon })
    return live
  }

  /// Replaces everything with `entries` and `lastSequence` (a snapshot's, read back).
  mutating func restore(_ entries: [Entry], lastSequence: UInt32) {
    near = Heap(entries)
    horizon = .max
    laterBuckets = []
    laterBounds = []
    self.lastSequence = lastSequence
    splitSize = max(nearLimit, 2 * near.count)
  }

  /// The bucket for an entry due after the horizon: the earliest whose bound is at or
  /// after its time (bounds fall from the first bucket, whose bound is the end of time, to
  /// the last, the earliest).
  func laterBucket(of time: Nanoseconds) -> Int {
    var low = 0  // laterBounds[low] >= time
    var high = laterBounds.count  // the first index whose bound is below time
    while high - low > 1 {
      let middle = (low + high) / 2
      if laterBounds[middle] >= time { low = middle } else { high = middle }
    }
    return low
  }

  /// Up to about `size` of `entries`' times, evenly spread over them, sorted.
  static func sampleTimes(of entries: [Entry], size: Int = 256) -> [Nanoseconds] {
    let stride = max(1, entries.count / size)
    var times: [Nanoseconds] = []
    times.reserveCapacity(entries.count / stride + 1)
    var i = 0
    while i < entries.count {
      times.append(entries[i].time)
      i += stride
    }
    times.sort()
    return times
  }

  /// Moves the later half (about) of the heap out, into a new earliest bucket, lowering
  /// the horizon.
  mutating func split() {
    let entries = Array(near.unordered)
    let times = Self.sampleTimes(of: entries)
    let cut = times[times.count / 2]
    if cut < horizon {
      var nearer: [Entry] = []
      var later: [Entry] = []
      nearer.reserveCapacity(entries.count / 2 + entries.count / 8)
      later.reserveCapacity(entries.count / 2 + entries.count / 8)
      for entry in entries {
        if entry.time <= cut { nearer.append(entry) } else { later.append(entry) }
      }
      laterBuckets.append(ChunkedArray(later))
      laterBounds.append(horizon)
      horizon = cut
      near = Heap(nearer)
    }
    // Not again before it has doubled: entries that all share one time cannot be split.
    splitSize = max(nearLimit, 2 * near.count)
  }

  /// Brings the earliest bucket of later entries into the empty heap, raising the horizon
  /// to its bound; a bucket of more than a sixteenth of the heap's size limit is first
  /// split into buckets by time (the smaller the heap, the cheaper each event it hands out).
  /// Stale node entries (whose sequence is not their node's version) are dropped on the way.
  mutating func refill(versions: ChunkedArray<UInt32>) {
    while near.isEmpty, let chunked = laterBuckets.popLast() {
      var bucket = chunked.array
      let bound = laterBounds.removeLast()
      // (A plain loop: a closure reading `versions` could copy it for each entry.)
      var kept = 0
      for i in bucket.indices {
        let entry = bucket[i]
        if entry.slot < 0 || (Int(entry.slot) < versions.count && versions[Int(entry.slot)] == entry.sequence) {
          bucket[kept] = entry
          kept += 1
        }
      }
      bucket.removeLast(bucket.count - kept)
      if bucket.count > max(1, nearLimit / 16), pushSplit(bucket, below: bound) { continue }
      horizon = bound
      near = Heap(bucket)
    }
    splitSize = max(nearLimit, 2 * near.count)
  }

  /// Splits `entries` (all due after the horizon, by `bound`) into buckets of about a 64th
  /// of the heap's size limit (at most 256 buckets), by times sampled from them, and pushes
  /// them, the earliest last. False, pushing nothing, when their times are too alike.
  mutating func pushSplit(_ entries: [Entry], below bound: Nanoseconds) -> Bool {
    let wanted = min(256, max(2, entries.count / max(1, nearLimit / 64)))
    let times = Self.sampleTimes(of: entries, size: 8 * wanted)
    // Ascending cuts, each the bound of a bucket; the last bucket's bound is `bound`.
    var cuts: [Nanoseconds] = []
    for k in 1..<wanted {
      let cut = times[times.count * k / wanted]
      if cut < bound, cut != cuts.last { cuts.append(cut) }
    }
    guard !cuts.isEmpty else { return false }
    // Padded to 256 with the end of time, for a search without branches: a bucket's index
    // is the number of cuts before the entry's time.
    let padded = cuts + repeatElement(Nanoseconds.max, count: 256 - cuts.count)
    let bucketCount = cuts.count + 1
    var indices = [UInt8](repeating: 0, count: entries.count)
    var counts = [Int](repeating: 0, count: bucketCount)
    padded.withUnsafeBufferPointer { padded in
      for i in entries.indices {
        let time = entries[i].time
        var low = 0
        var step = 128
        while step > 0 {
          // (A multiply, not a branch: which way it goes is a coin toss.)
          let below = unsafeBitCast(padded[low &+ step &- 1] < time, to: UInt8.self)
          low &+= step &* Int(below)
          step >>= 1
        }
        indices[i] = UInt8(truncatingIfNeeded: low)
        counts[low] += 1
      }
    }
    // Scattered in bucket order into one array, then cut into the buckets.
    var next = [Int](repeating: 0, count: bucketCount)
    for b in 1..<bucketCount { next[b] = next[b - 1] + counts[b - 1] }
    let starts = next
    let count = entries.count
    let sorted = [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
      for i in 0..<count {
        let b = Int(indices[i])
        (buffer.baseAddress! + next[b]).initialize(to: entries[i])
        next[b] += 1
      }
      initialized = count
    }
    for b in (0..<bucketCount).reversed() {
      laterBuckets.append(ChunkedArray(sorted[starts[b]..<(starts[b] + counts[b])]))
      laterBounds.append(b == cuts.count ? bound : cuts[b])
    }
    return true
  }
}
