import AnimTestSupport
import Synchronization
import Testing

@testable import AnimCore

@Suite struct ManualClockTests {
  @Test func movesExactlyAsToldAndNeverReportsAGap() {
    var clock = ManualClock()
    #expect(clock.read() == ClockReading(time: 0, gap: 0))
    var expected: Nanoseconds = 0
    var random = SeededRandom(seed: 5)
    for _ in 0..<10_000 {
      let step = Int64.random(in: 0...5_000_000_000, using: &random)  // up to 5 s: no gaps here
      let moved = clock.advance(by: step)
      #expect(moved)
      expected += step
      #expect(clock.read() == ClockReading(time: expected, gap: 0))
    }
    let set = clock.set(to: expected + 17)
    #expect(set)
    #expect(clock.read().time == expected + 17)
  }

  @Test func onlyMovesForward() {
    var clock = ManualClock(startingAt: 1_000)
    #expect(clock.read().time == 1_000)
    let movedBack = clock.advance(by: -1)
    let setBack = clock.set(to: 999)
    let setSame = clock.set(to: 1_000)  // setting to the same time is allowed
    #expect(!movedBack && !setBack && setSame)
    #expect(clock.read().time == 1_000)
  }

  @Test func saturatesInsteadOfTrapping() {
    var clock = ManualClock(startingAt: .max - 5)
    let moved = clock.advance(by: 100)
    #expect(moved)
    #expect(clock.read().time == .max)
  }
}

/// Raw times scripted by a test, shared with the clock's `@Sendable` raw source.
private final class ScriptedRawTime: Sendable {
  private let times: Mutex<[Nanoseconds]>
  private let reads = Atomic<Int>(0)

  init(_ times: [Nanoseconds]) { self.times = Mutex(times) }

  /// The next scripted time; each call consumes one.
  func next() -> Nanoseconds {
    reads.add(1, ordering: .relaxed)
    return times.withLock { $0.removeFirst() }
  }

  var readCount: Int { reads.load(ordering: .relaxed) }
}

@Suite struct MonotonicClockTests {
  private func clock(_ raw: ScriptedRawTime, threshold: Nanoseconds = 1_000_000_000) -> MonotonicClock {
    MonotonicClock(gapThreshold: threshold, rawTime: { raw.next() })
  }

  @Test func engineTimeFollowsRawDeltasBelowTheThreshold() {
    // Raw 5 s, +16 ms, +1 s exactly (not above the threshold), +1 ns.
    let raw = ScriptedRawTime([5_000_000_000, 5_016_000_000, 6_016_000_000, 6_016_000_001])
    var clock = clock(raw)
    #expect(clock.read() == ClockReading(time: 0, gap: 0))
    #expect(clock.read() == ClockReading(time: 16_000_000, gap: 0))
    #expect(clock.read() == ClockReading(time: 1_016_000_000, gap: 0))
    #expect(clock.read() == ClockReading(time: 1_016_000_001, gap: 0))
    #expect(raw.readCount == 4)  // one raw read per reading
  }

  @Test func aDeltaAboveTheThresholdIsAPause() {
    // +10 ms, then a 1 s + 1 ns jump (a gap: time stays), then +20 ms.
    let raw = ScriptedRawTime([0, 10_000_000, 1_010_000_001, 1_030_000_001])
    var clock = clock(raw)
    _ = clock.read()
    #expect(clock.read() == ClockReading(time: 10_000_000, gap: 0))
    #expect(clock.read() == ClockReading(time: 10_000_000, gap: 1_000_000_001))
    #expect(clock.read() == ClockReading(time: 30_000_000, gap: 0))
    #expect(clock.totalGap == 1_000_000_001)
  }

  @Test func aNotedSuspensionMakesTheNextDeltaAGapHoweverShort() {
    let raw = ScriptedRawTime([100, 200, 450, 500])
    var clock = clock(raw)
    _ = clock.read()
    #expect(clock.read() == ClockReading(time: 100, gap: 0))
    clock.noteSuspension()
    #expect(clock.read() == ClockReading(time: 100, gap: 250))
    #expect(clock.read() == ClockReading(time: 150, gap: 0))  // back to normal
  }

  /// Issue 13: the engine stopped short of a reading (interrupted, or unable to keep up):
  /// the clock goes back to where it stopped, the rest a gap, and reads on from there.
  @Test func timeLeftOutAfterWhereTheEngineStoppedIsAGap() {
    let raw = ScriptedRawTime([0, 500, 700])
    var clock = clock(raw)
    _ = clock.read()
    #expect(clock.read() == ClockReading(time: 500, gap: 0))
    clock.leaveOut(after: 120)
    #expect(clock.totalGap == 380)
    #expect(clock.read() == ClockReading(time: 320, gap: 0))  // 120 + 200
    clock.leaveOut(after: 900)  // later than the reading: nothing
    #expect(clock.totalGap == 380)
  }

  @Test func aRawClockSteppingBackwardsDoesNotMoveTimeBack() {
    let raw = ScriptedRawTime([1_000, 900, 950])
    var clock = clock(raw)
    _ = clock.read()
    #expect(clock.read() == ClockReading(time: 0, gap: 0))
    #expect(clock.read() == ClockReading(time: 50, gap: 0))
  }

  @Test func extremeRawTimesSaturate() {
    let raw = ScriptedRawTime([.min, .max, .max])
    var clock = MonotonicClock(startTime: .max - 1, gapThreshold: .max, rawTime: { raw.next() })
    #expect(clock.read().time == .max - 1)
    #expect(clock.read() == ClockReading(time: .max, gap: 0))  // delta overflows: saturate
    #expect(clock.read() == ClockReading(time: .max, gap: 0))
  }

  @Test func theSystemClockIsMonotonic() {
    var previous = MonotonicClock.systemMonotonicTime()
    for _ in 0..<1_000 {
      let now = MonotonicClock.systemMonotonicTime()
      #expect(now >= previous)
      previous = now
    }
    var clock = MonotonicClock()
    let first = clock.read()
    let second = clock.read()
    #expect(first.time == 0)
    #expect(second.time >= 0)
  }
}
