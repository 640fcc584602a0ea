// The seeded generator of random operation sequences.
//
// Properties are of two kinds, so that every case stays inside what the rules define: "free"
// ones, moved by top-level animations (retargets, property controls, `set`), and "timeline"
// ones, each moved by the items of one timeline, one item at a time (items on one property do
// not overlap in the timeline's time, and only a property's first item may fill backwards).

import AnimOracle
import AnimTestSupport

/// One differential case: operations at engine times, and the times to compare values at.
struct DifferentialCase: Sendable {
  var steps: [OracleStep]
  var samples: [OracleTime]
  var seed: UInt64 = 0
}

/// What a case was generated to exercise (the oracle's tally adds what it really did).
struct Features: OptionSet, Sendable {
  let rawValue: Int
  static let shorterRetarget = Features(rawValue: 1)
  static let negativeDelay = Features(rawValue: 2)
  static let zeroDuration = Features(rawValue: 4)
  static let backwardsFill = Features(rawValue: 8)
  static let timelineSet = Features(rawValue: 16)
  static let otherRates = Features(rawValue: 32)
  static let pauseSpeedResume = Features(rawValue: 64)
  static let stagger = Features(rawValue: 128)
}

struct CaseGenerator {
  var random: SeededRandom
  /// A stream of its own for groups and their staggered statements, so that adding them left
  /// every other draw of a seed as it was (the seeds of the findings still name their cases).
  var groupRandom: SeededRandom
  let ms: OracleTime = 1_000_000

  init(seed: UInt64) {
    random = SeededRandom(seed: seed)
    groupRandom = SeededRandom(seed: seed ^ 0x6772_6F75_7073_0000)
  }

  var steps: [OracleStep] = []
  var nodeCount = 0
  var features: Features = []

  mutating func emit(_ time: OracleTime, _ operation: OracleOperation) -> Int {
    steps.append(OracleStep(time: time, operation))
    if case .add = operation {
      nodeCount += 1
      return nodeCount - 1
    }
    return -1
  }

  mutating func time(upTo limit: OracleTime) -> OracleTime {
    var t = random.int(0...(limit / ms)) * ms
    if random.chance(0.15) { t += random.int(0...(ms - 1)) }
    return t
  }

  mutating func curve() -> OracleCurve {
    switch random.int(0...9) {
    case 0...3: return .linear
    case 4: return random.pick([.ease, .easeIn, .easeOut, .easeInOut])
    case 5, 6:
      func coordinate(_ r: inout SeededRandom) -> Double { Double(r.int(0...100)) / 100 }
      return .cubic(
        coordinate(&random), Double(random.int(-50...150)) / 100, coordinate(&random),
        Double(random.int(-50...150)) / 100)
    default:
      let jump = random.pick(OracleStepJump.allCases)
      return .steps(random.int((jump == .jumpNone ? 2 : 1)...5), jump)
    }
  }

  mutating func rate() -> Double {
    random.chance(0.7) ? 1 : random.pick([0.25, 0.5, 2, 3, 7, 1.5, 0.3])
  }

  /// An effect timing: durations including 0, delays including negative ones.
  mutating func timing(duration: OracleTime? = nil, allowInfinite: Bool, allowBackwards: Bool) -> OracleTiming {
    var d = duration ?? (random.chance(0.12) ? 0 : random.int(1...2500) * ms)
    if random.chance(0.1) { d += random.int(1...999_999) }
    let iterations: Double
    if allowInfinite && d > 0 && random.chance(0.05) {
      iterations = .infinity
    } else {
      iterations = random.chance(0.7) ? 1 : random.pick([2, 3, 0.5, 1.5, 2.5])
    }
    var timing = OracleTiming(duration: d, iterations: iterations)
    if d == 0 { features.insert(.zeroDuration) }
    let active = timing.activeDuration ?? d
    switch random.int(0...9) {
    case 0...1 where iterations.isFinite:
      timing.delay = -Int64(Double(active) * 1.3 * random.unit())
      if timing.delay < 0 { features.insert(.negativeDelay) }
    case 2, 3: timing.delay = random.int(1...800) * ms
    default: break
    }
    timing.autoreverse = random.chance(0.2)
    var fills: [OracleFill] = [.forwards, .forwards, .forwards, .none]
    if allowBackwards { fills += [.backwards, .both] }
    timing.fill = random.pick(fills)
    if timing.fill.backwardsFill { features.insert(.backwardsFill) }
    return timing
  }

  /// How long an item lasts in its parent's time (grammar.md § Timing: its end for placement is
  /// start + max(delay + active duration, 0), over its rate).
  static func extent(_ timing: OracleTiming, rate: Double) -> OracleTime {
    let end = max(timing.delay + (timing.activeDuration ?? 0), 0)
    return OracleArithmetic.roundQuotient(end, abs(rate))
  }

  // MARK: - A case

  mutating func generate() -> DifferentialCase {
    let propertyCount = random.int(2...4)
    var free: [Int] = []
    var lanes: [Int] = []
    for p in 0..<propertyCount {
      _ = emit(0, .addProperty(Double(random.int(-50...50))))
      if p == 0 || random.chance(0.5) { free.append(p) } else { lanes.append(p) }
    }
    let horizon = random.int(2...6) * 1000 * ms
    var timelines: [(node: Int, finite: Bool, sets: Bool)] = []
    // Each timeline has lanes of its own.
    if lanes.count >= 2 && random.chance(0.5) {
      let cut = random.int(1...(lanes.count - 1))
      timelines.append(makeTimeline(lanes: Array(lanes[..<cut])))
      timelines.append(makeTimeline(lanes: Array(lanes[cut...])))
    } else if !lanes.isEmpty {
      timelines.append(makeTimeline(lanes: lanes))
    }
    // Top-level work on the free properties, and controls, at random instants.
    var ends: [Int: OracleTime] = [:]
    var animated: Set<Int> = []
    var plays: [Int: OracleTime] = [:]
    for (i, timeline) in timelines.enumerated() {
      let t = i == 0 ? 0 : time(upTo: horizon / 2)
      plays[timeline.node] = t
      _ = emit(t, .control(.play, .node(timeline.node)))
    }
    var timed: [OracleStep] = []
    let count = random.int(4...14)
    var pauseSpeedResume: [OracleSubject: Int] = [:]
    var cancelled = Set<Int>()
    var startsStackAt: [Int: OracleTime] = [:]
    // Generated in time order, so that what the generator knows of a property (whether it
    // was animated, until when it is busy) is what is true at that time: an explicit `from`,
    // keyframes or a spring then only ever start a property's stack.
    let times = (0..<count).map { _ in time(upTo: horizon) }.sorted()
    // A control on a property whose stack-starter has not yet started (paused at once, or in
    // its delay) moves its start to where the generator cannot know it: nothing more joins
    // that property. (A spring that starts on top of a stack takes its velocity, rule 1, which
    // the oracle does not compute: seeds 26072281, 26167340.)
    func holdBackStarter(of subject: OracleSubject, at t: OracleTime) {
      if case .property(let q) = subject, let joins = startsStackAt[q], t <= joins { startsStackAt[q] = .max }
    }
    for t in times {
      let p = random.pick(free)
      var operation: OracleOperation
      switch random.int(0...19) {
      case 0...7:
        let busy = (ends[p] ?? -1) > t
        let first = !animated.contains(p)
        // One that only starts a stack (explicit from, keyframes, a spring) and is still in its
        // delay does not start it yet: nothing joins before it does.
        if !first, let joins = startsStackAt[p], t <= joins { continue }
        var shape: OracleShape = .tween(from: nil, to: Double(random.int(-200...200)), curve: curve())
        var duration: OracleTime?
        if busy, let end = ends[p], end < .max / 2, random.chance(0.6) {
          duration = max(0, (end - t) * Int64(random.int(1...9)) / 10)
          features.insert(.shorterRetarget)
        }
        if first && random.chance(0.25) {
          shape = .tween(from: Double(random.int(-200...200)), to: Double(random.int(-200...200)), curve: curve())
        }
        var spring = false
        if first && random.chance(0.12) {
          let s = OracleSpring(
            response: Double(random.int(2...9)) / 10, dampingFraction: random.pick([0.3, 0.6, 1, 1.5]))
          shape = .tween(from: nil, to: Double(random.int(-200...200)), curve: .spring(s))
          duration = s.settlingNanoseconds
          spring = true
        }
        var timing = self.timing(duration: duration, allowInfinite: !busy, allowBackwards: true)
        if spring {
          // Its length is its settling time exactly (timing(duration:) may add up to 1 ms,
          // which would stretch the oracle's spring but not the engine's).
          timing.duration = duration!
          timing.iterations = 1
          timing.delay = 0
        }
        if first && !spring && random.chance(0.15) {
          timing.delay = max(timing.delay, 0)
          shape = keyframes(duration: timing.duration)
        }
        let rate = spring ? 1 : self.rate()
        if rate != 1 { features.insert(.otherRates) }
        var startsStack = spring
        if case .keyframes = shape { startsStack = true }
        if case .tween(let from, _, _) = shape, from != nil { startsStack = true }
        if startsStack {
          // It joins its property's stack at placement when it fills backwards or its delay is
          // not positive (rules 2 and 3), else when its delay ends.
          let wait =
            timing.fill == .backwards || timing.fill == .both || timing.delay <= 0
            ? 0 : Int64((Double(timing.delay) / abs(rate)).rounded(.up))
          startsStackAt[p] = t + wait
        }
        operation = .add(
          .animation(property: p, shape: shape, timing: timing, rate: rate, replace: !first && random.chance(0.1)), .now
        )
        let extent = Self.extent(timing, rate: rate)
        ends[p] = timing.iterations.isInfinite ? .max : max(ends[p] ?? 0, t + extent)
        animated.insert(p)
      case 8...13:
        var subject: OracleSubject = .property(p)
        if !timelines.isEmpty && random.chance(0.6) {
          let timeline = random.pick(timelines)
          if (plays[timeline.node] ?? .max) > t { continue }
          subject = .node(timeline.node)
        }
        var controls: [OracleControl] = [.pause, .resume, .reverse, .speed(random.pick([0.5, 2, -1, 3, 0.25, 1, -2]))]
        controls += [.pause, .resume, .reverse]
        if case .node(let n) = subject {
          let finite = timelines.first { $0.node == n }!.finite
          if finite { controls.append(.finish) }
          controls += [.seek(random.int(0...3000) * ms), .play, .cancel]
        } else {
          controls += [.finish, .cancel]
        }
        var control = random.pick(controls)
        if case .node(let n) = subject {
          if cancelled.contains(n) { control = .play }
          if control == .cancel { cancelled.insert(n) } else if control == .play { cancelled.remove(n) }
        }
        if case .speed(let r) = control, abs(r) != 1 { features.insert(.otherRates) }
        // A pause, a speed, then a resume of one subject.
        switch (control, pauseSpeedResume[subject] ?? 0) {
        case (.pause, _): pauseSpeedResume[subject] = 1
        case (.speed, 1): pauseSpeedResume[subject] = 2
        case (.resume, 2): features.insert(.pauseSpeedResume)
        default: break
        }
        holdBackStarter(of: subject, at: t)
        operation = .control(control, subject)
      case 14:
        operation = .set(property: p, value: Double(random.int(-100...100)))
        ends[p] = nil
      default:
        // A pause, a speed and a resume in a row.
        let subject: OracleSubject
        if let timeline = timelines.first, random.chance(0.5), (plays[timeline.node] ?? .max) <= t,
          !cancelled.contains(timeline.node)
        {
          subject = .node(timeline.node)
        } else {
          subject = .property(p)
        }
        holdBackStarter(of: subject, at: t)
        timed.append(OracleStep(time: t, .control(.pause, subject)))
        let t2 = t + random.int(1...500) * ms + (random.chance(0.3) ? random.int(1...999) : 0)
        timed.append(OracleStep(time: t2, .control(.speed(random.pick([0.25, 2, 7, -1, 0.5])), subject)))
        let t3 = t2 + random.int(1...500) * ms
        timed.append(OracleStep(time: t3, .control(.resume, subject)))
        features.insert(.pauseSpeedResume)
        features.insert(.otherRates)
        continue
      }
      timed.append(OracleStep(time: t, operation))
    }
    timed += groupSteps(properties: propertyCount, horizon: horizon)
    // Operations in time order; at one instant, in the order generated.
    let setup = steps
    let sorted = timed.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
      \.element)
    // Nodes are numbered by the order they are added: renumber the top-level animations.
    let all = (setup + sorted).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
    let end = (all.map(\.time).max() ?? 0) + random.int(500...3000) * ms
    var samples = Set(all.map(\.time))
    for _ in 0..<40 { samples.insert(random.int(0...end)) }
    for _ in 0..<10 { samples.insert(random.int(0...(end / ms)) * ms) }
    samples.insert(end)
    return DifferentialCase(steps: all, samples: samples.sorted())
  }

  /// A group of properties (added after the others, at 0) and staggered statements on it
  /// (grammar.md § Stagger), some followed by a control on every member (`pause dots.y`).
  /// Drawn from `groupRandom` only.
  mutating func groupSteps(properties first: Int, horizon: OracleTime) -> [OracleStep] {
    guard groupRandom.chance(0.35) else { return [] }
    let count = groupRandom.int(2...7)
    let members = Array(first..<(first + count))
    for _ in members { _ = emit(0, .addProperty(Double(groupRandom.int(-50...50)))) }
    var result: [OracleStep] = []
    var times: [OracleTime] = []
    for _ in 0..<groupRandom.int(1...3) {
      var t = groupRandom.int(0...(horizon / ms)) * ms
      if groupRandom.chance(0.15) { t += groupRandom.int(0...(ms - 1)) }
      times.append(t)
    }
    var busyUntil: OracleTime = -1
    for t in times.sorted() {
      let stagger = makeStagger(count: count)
      // (`timing`, `curve` and `rate` draw from `random`: swap the streams for them.)
      swap(&random, &groupRandom)
      let shape = OracleShape.tween(from: nil, to: Double(random.int(-200...200)), curve: curve())
      let timing = self.timing(allowInfinite: t >= busyUntil, allowBackwards: true)
      let rate = self.rate()
      swap(&random, &groupRandom)
      for (k, p) in members.enumerated() {
        let member = OracleStaggeredMember(
          property: p, shape: shape, timing: timing, rate: rate, stagger: stagger, member: k, count: count)
        result.append(OracleStep(time: t, .add(.staggered(member), .now)))
      }
      let offsets = stagger.offsets(count: count)
      for offset in offsets {
        var memberTiming = timing
        memberTiming.delay += offset
        busyUntil =
          timing.iterations.isInfinite ? .max : max(busyUntil, t + Self.extent(memberTiming, rate: rate))
      }
      features.insert(.stagger)
      if groupRandom.chance(0.5) {
        let later = t + groupRandom.int(1...1500) * ms
        let controls: [OracleControl] = [.pause, .reverse, .finish, .cancel, .seek(groupRandom.int(0...2000) * ms)]
        var control = groupRandom.pick(controls)
        if control == .finish && timing.iterations.isInfinite { control = .pause }
        for p in members { result.append(OracleStep(time: later, .control(control, .property(p)))) }
        if control == .pause {
          let resume = later + groupRandom.int(1...800) * ms
          for p in members { result.append(OracleStep(time: resume, .control(.resume, .property(p)))) }
        }
      }
    }
    return result
  }

  /// A random stagger clause for `count` members.
  mutating func makeStagger(count: Int) -> OracleStagger {
    var stagger = OracleStagger(amount: groupRandom.int(0...250) * ms)
    if groupRandom.chance(0.2) { stagger.amount += groupRandom.int(1...999_999) }
    stagger.isTotal = groupRandom.chance(0.2)
    let origins: [OracleStagger.Origin] = [
      .start, .start, .end, .center, .edges, .member(groupRandom.int(0...(count - 1))),
      .random(seed: UInt64(groupRandom.int(0...1_000_000))),
    ]
    stagger.origin = groupRandom.pick(origins)
    if groupRandom.chance(0.25), stagger.origin != .edges {
      let divisors = (1...count).filter { count % $0 == 0 }
      let columns = groupRandom.pick(divisors)
      stagger.grid = (columns, count / columns)
    }
    if groupRandom.chance(0.25) {
      stagger.curve = groupRandom.pick([
        .easeIn, .easeOut, .easeInOut, .cubic(0.3, -0.4, 0.7, 1.4), .steps(2, .jumpEnd),
      ])
      // An even spread: a symmetric curve's middle member (CURVE(0.5) = 0.5 exactly) then
      // lands on a whole nanosecond, not on a tie that the last bit of either side's curve
      // would round one way or the other (seeds 9000825 and 9001053).
      stagger.amount -= stagger.amount % 2
    }
    return stagger
  }

  mutating func keyframes(duration: OracleTime) -> OracleShape {
    var percents = Set([100.0])
    if random.chance(0.6) { percents.insert(0) }
    for _ in 0..<random.int(0...3) { percents.insert(Double(random.int(1...99))) }
    if random.chance(0.2) { percents.insert(Double(random.int(1...99)) + 0.5) }
    let frames = percents.sorted().map { percent in
      OracleKeyframe(
        percent: percent, duration: duration, value: Double(random.int(-200...200)),
        curve: percent == 0 ? .linear : curve())
    }
    return .keyframes(frames)
  }

  /// A timeline declared at time 0: items on its lanes, groups (two levels of `speed`), `set`
  /// and `emit` items. Its duration is the end of its last item, as the runtime computes it.
  mutating func makeTimeline(lanes: [Int]) -> (node: Int, finite: Bool, sets: Bool) {
    var timing = OracleTiming(duration: 0, iterations: random.chance(0.75) ? 1 : 2, autoreverse: random.chance(0.25))
    if random.chance(0.2) { timing.delay = random.int(1...500) * ms }
    let rate = self.rate()
    if rate != 1 { features.insert(.otherRates) }
    let index = steps.count
    let node = emit(0, .add(.timeline(timing: timing, rate: rate), .idle))
    var cursor: [Int: OracleTime] = [:]
    var firstOnLane = Set(lanes)
    var end: OracleTime = 0
    var hasSet = false
    for _ in 0..<random.int(1...5) {
      let lane = random.pick(lanes)
      let start = (cursor[lane] ?? 0) + (random.chance(0.5) ? 0 : random.int(0...700) * ms)
      switch random.int(0...9) {
      case 0...5:
        let (extent, setOffset) = item(lane: lane, in: node, at: start, first: firstOnLane.contains(lane))
        firstOnLane.remove(lane)
        cursor[lane] = start + extent
        end = max(end, start + extent)
        // Sometimes a `set` in the middle of that item.
        let activeFrom = start + setOffset
        if extent - setOffset > 2 * ms && random.chance(0.35) {
          // Inside the item's active interval (after its delay).
          let at = activeFrom + random.int(1...((extent - setOffset) / ms - 1)) * ms
          _ = emit(
            0, .add(.set(property: lane, value: Double(random.int(-100...100))), .inTimeline(node: node, at: at)))
          features.insert(.timelineSet)
          hasSet = true
        }
      case 6...8:
        // A group, maybe with a group inside (two levels of `speed`).
        var groupTiming = OracleTiming(
          duration: 0, iterations: random.chance(0.8) ? 1 : 2, autoreverse: random.chance(0.3))
        let groupRate = random.pick([1, 1, 2, 0.5, 3])
        if groupRate != 1 { features.insert(.otherRates) }
        let groupStep = steps.count
        let group = emit(0, .add(.timeline(timing: groupTiming, rate: groupRate), .inTimeline(node: node, at: start)))
        let extent = item(lane: lane, in: group, at: 0, first: false).extent
        var length = extent
        if random.chance(0.4) {
          let innerRate = random.pick([2, 0.5, 1.5])
          let innerStep = steps.count
          var innerTiming = OracleTiming(duration: 0)
          let inner = emit(
            0, .add(.timeline(timing: innerTiming, rate: innerRate), .inTimeline(node: group, at: extent)))
          let innerExtent = item(lane: lane, in: inner, at: 0, first: false).extent
          innerTiming.duration = innerExtent
          steps[innerStep].operation = .add(
            .timeline(timing: innerTiming, rate: innerRate), .inTimeline(node: group, at: extent))
          length = extent + Self.extent(innerTiming, rate: innerRate)
        }
        groupTiming.duration = length
        steps[groupStep].operation = .add(
          .timeline(timing: groupTiming, rate: groupRate), .inTimeline(node: node, at: start))
        let groupExtent = Self.extent(groupTiming, rate: groupRate)
        cursor[lane] = start + groupExtent
        firstOnLane.remove(lane)
        end = max(end, start + groupExtent)
      default:
        _ = emit(0, .add(.callback(key: steps.count, firesBackwards: true), .inTimeline(node: node, at: start)))
        end = max(end, start)
      }
    }
    timing.duration = end
    steps[index].operation = .add(.timeline(timing: timing, rate: rate), .idle)
    return (node, timing.activeDuration != nil, hasSet)
  }

  /// An animation item on `lane` at `start` of `parent`; returns its extent there.
  mutating func item(lane: Int, in parent: Int, at start: OracleTime, first: Bool) -> (
    extent: OracleTime, delay: OracleTime
  ) {
    var timing = self.timing(allowInfinite: false, allowBackwards: first)
    let rate = random.chance(0.8) ? 1 : random.pick([2, 0.5, 3])
    if rate != 1 { features.insert(.otherRates) }
    var shape: OracleShape = .tween(
      from: random.chance(0.5) ? Double(random.int(-200...200)) : nil, to: Double(random.int(-200...200)),
      curve: curve())
    if random.chance(0.2) {
      timing.delay = max(timing.delay, 0)
      shape = keyframes(duration: timing.duration)
    }
    _ = emit(
      0,
      .add(
        .animation(property: lane, shape: shape, timing: timing, rate: rate, replace: false),
        .inTimeline(node: parent, at: start)))
    return (Self.extent(timing, rate: rate), OracleArithmetic.roundQuotient(max(timing.delay, 0), rate))
  }
}

extension OracleFill {
  var backwardsFill: Bool { self == .backwards || self == .both }
}
