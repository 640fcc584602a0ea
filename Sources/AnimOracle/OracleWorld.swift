// The oracle: a deliberately plain simulation of grammar.md's timing model (§ Timing, § Events, § Control, § Retargeting),
// written from the rules (W3C Web Animations Level 1's timing chain, the rules 1–6, 9,
// 10), not from AnimCore. It keeps, per node, its playback (start time, hold time, rate) and
// the zone it has crossed to; per property, its base value and its stack of animations. Event
// times are found by bisection on the zone functions (each is monotone while its ancestors
// stay in one pass), never from a formula shared with the engine.

/// One run of operations. `Oracle.run` replays a whole list from scratch.
package final class OracleWorld {
  package private(set) var now: OracleTime = 0
  /// A run that passes this instant gives up (the oracle crosses every pass boundary one
  /// by one: a 0.1 ms `repeat forever` over minutes is millions of them), and says so.
  package var deadline: ContinuousClock.Instant?
  package private(set) var gaveUp = false
  /// Every event so far, in order.
  package private(set) var events: [OracleEvent] = []

  struct Entry {
    var node: Int
    /// The value subtracted from the animation's output (rule 1's previous target, or the
    /// base value for the first animation of a stack).
    var reference: Double
    /// nil while live; the output it keeps once ended with a forwards fill.
    var frozen: Double?
    var dropped = false
    /// Joined afresh by its backwards fill as a new pass of its timeline began (it had no
    /// entry left from the pass before, whose end the stack's base value holds).
    var joinedByNewPass = false
  }

  struct Property {
    var base: Double
    var entries: [Entry] = []
  }

  final class Node {
    let id: Int
    let kind: OracleNodeKind
    let parent: Int?
    var children: [Int] = []
    let timing: OracleTiming
    private(set) var bounds: OracleBoundaries
    // Playback (against the parent's time).
    var startTime: OracleTime = 0
    var rate: Double
    var hold: OracleTime?
    var paused = false
    /// While paused from running: the parent time that had passed since the start time, so
    /// that resuming moves the start time by exactly the time paused (rule 6: pause and
    /// resume never drift; solving it back from the rounded hold time would round once per
    /// pause). Anything else that sets the hold time clears it.
    var pausedOffset: OracleTime?
    // What has been crossed.
    var zone: Int64 = 0
    var forward = true
    var started = false {
      didSet { bounds.hasStarted = started }
    }
    var alive = true
    var cancelled = false
    var idle = false
    // Effects.
    var from: Double?
    var to: Double?
    var resolved = false
    var maskedBy: Int?
    /// An item between its start and its end, as crossed (it keeps its property animating).
    var counting = false
    // Timeline `set` items: the value recorded when crossed forwards.
    var recorded: Double?
    /// Where it starts in its parent's time (items) or engine time.
    var placedAt: OracleTime = 0
    /// A top-level animation reversed in its delay, before it started: it plays back to
    /// where it was placed, its local time 0 (reached at its start time), and completes there.
    var playsBackToPlacement = false

    init(id: Int, kind: OracleNodeKind, parent: Int?, timing: OracleTiming, rate: Double) {
      self.id = id
      self.kind = kind
      self.parent = parent
      self.timing = timing
      self.bounds = OracleBoundaries(timing)
      self.rate = rate
    }

    var property: Int? {
      switch kind {
      case .animation(let p, _, _, _, _): p
      case .set(let p, _): p
      default: nil
      }
    }
    var isEffect: Bool { if case .animation = kind { true } else { false } }
    var isTimeline: Bool { if case .timeline = kind { true } else { false } }
    var shape: OracleShape? { if case .animation(_, let s, _, _, _) = kind { s } else { nil } }
    var replaces: Bool {
      if case .animation(_, let shape, _, _, let replace) = kind {
        if replace { return true }
        if case .tween(_, _, .spring) = shape { return true }
        // An explicit `from` (a first keyframe at 0 is one) replaces, as `merge replace` does.
        if case .tween(let from, _, _) = shape, from != nil { return true }
        if case .keyframes(let frames) = shape, let first = frames.first, first.percent == 0, first.value != nil {
          return true
        }
      }
      return false
    }
    var maxZone: Int64 { bounds.count ?? .max }
  }

  var properties: [Property] = []
  var nodes: [Node] = []
  /// Properties that left rest by an operation now: their `start` goes behind this instant's
  /// node events.
  var leavingRest: [Int] = []
  /// Whether an event may be due at `now` (after an operation).
  var checkNow = true

  /// How often each rule was exercised (the differential sample test asserts on these).
  package private(set) var tally: [String: Int] = [:]

  package var propertyCount: Int { properties.count }

  package init() {}

  func count(_ what: String) { tally[what, default: 0] += 1 }

  /// Replays `steps` and returns the run at `time`.
  package static func run(_ steps: [OracleStep], until time: OracleTime) -> OracleWorld {
    let world = OracleWorld()
    for step in steps where step.time <= time {
      world.advance(to: step.time)
      world.apply(step.operation)
    }
    world.advance(to: time)
    return world
  }

  // MARK: - Operations

  package func apply(_ operation: OracleOperation) {
    checkNow = true
    switch operation {
    case .addProperty(let value):
      properties.append(Property(base: value))
    case .add(let kind, let placement):
      add(kind, placement)
    case .set(let property, let value):
      setProperty(property, to: value)
    case .control(let control, .node(let id)):
      self.control(control, node: id)
    case .control(let control, .property(let p)):
      let mine = nodes.filter { $0.alive && $0.parent == nil && $0.property == p && $0.isEffect }
      switch control {
      case .pause, .resume, .reverse, .speed:
        for node in mine { self.control(control, node: node.id) }
      case .seek, .finish, .play:
        if let newest = mine.last { self.control(control, node: newest.id) }
      case .cancel:
        properties[p].base = value(of: p)
        properties[p].entries = []
        for node in mine { node.alive = false }
      }
    }
  }

  func add(_ kind: OracleNodeKind, _ placement: OraclePlacement) {
    if case .staggered(let member) = kind {
      return add(member.animation(offset: member.stagger.offsets(count: member.count)[member.member]), placement)
    }
    let timing: OracleTiming
    var rate = 1.0
    switch kind {
    case .animation(_, _, let t, let r, _):
      timing = t
      rate = r
    case .timeline(let t, let r):
      timing = t
      rate = r
    case .callback, .set, .staggered:
      timing = OracleTiming(duration: 0, fill: .none)
    }
    var parent: Int?
    if case .inTimeline(let p, _) = placement { parent = p }
    let node = Node(id: nodes.count, kind: kind, parent: parent, timing: timing, rate: rate)
    nodes.append(node)
    switch placement {
    case .now:
      node.startTime = now
      node.placedAt = now
      node.forward = rate >= 0
      if rate == 0 { node.hold = 0 }
      if let p = node.property, node.isEffect {
        let wasResting = !isAnimating(p, excluding: node.id)
        if wasResting { leavingRest.append(p) }
        // Rule 2 and 3: a backwards fill or a negative delay resolves and shows at placement.
        // Rule 2: a backwards fill resolves and shows at placement. (One that starts now, with
        // a negative delay or none, joins when its start is crossed, at this instant, so that
        // animations placed at one instant join their stack in the order they were placed;
        // paused at once, it has not started.)
        if timing.fill.backwards { join(node) }
        if timing.delay < 0 { count("negative delay") }
        if timing.duration == 0 { count("zero duration") }
        if rate != 1 && rate != -1 { count("rate other than ±1") }
      }
    case .idle:
      node.idle = true
      node.paused = true
      node.hold = 0
    case .inTimeline(let p, let at):
      nodes[p].children.append(node.id)
      node.startTime = at
      node.placedAt = at
      node.forward = rate >= 0
    }
  }

  func setProperty(_ p: Int, to value: Double) {
    properties[p].base = value
    properties[p].entries = []
    for node in nodes where node.alive && node.parent == nil && node.isEffect && node.property == p {
      node.alive = false
    }
  }

  func control(_ control: OracleControl, node id: Int) {
    let node = nodes[id]
    guard node.alive else { return }
    defer {
      // (Moving backwards from inside its delay, not from where it was placed.)
      if node.parent == nil && node.isEffect {
        node.playsBackToPlacement =
          node.alive && !node.started && node.zone == 0 && node.rate < 0 && node.bounds.start > 0
          && localTime(of: node) > 0
      }
    }
    let p = parentTime(of: node)
    switch control {
    case .pause:
      if !node.paused {
        let wasHeld = node.hold != nil
        node.pausedOffset = wasHeld ? nil : p - node.startTime
        node.hold = localTime(of: node)
        if !wasHeld { holdOnReachedDescendants(node) }
        node.paused = true
      }
    case .resume:
      if node.paused {
        node.paused = false
        release(node, at: p)
      }
    case .reverse:
      setRate(node, -node.rate, at: p)
    case .speed(let r):
      if node.paused { count("speed while paused") }
      if r != 1 && r != -1 { count("rate other than ±1") }
      setRate(node, r, at: p)
    case .seek(let x):
      // Web Animations: setting the current time of an idle (never played, or cancelled)
      // animation makes it paused there, no longer idle: its effects show.
      let current = localTime(of: node)
      if node.idle || node.cancelled {
        node.idle = false
        node.cancelled = false
        node.paused = true
      }
      node.pausedOffset = nil
      // The jump is made held (as finish's silent part is): what it passes is found by the
      // timeline's local time, not by when a running one would reach it (a timeline playing
      // backwards sought past its end reaches its items' ends going up, Web Animations' after
      // phase). It runs on from there.
      if node.rate != 0 { node.forward = node.rate > 0 }
      travelSilently(node, from: current, to: x, parentTime: p, turning: true)
      node.hold = x
      release(node, at: p)
    case .play:
      // Finished: at the edge it was travelling to, held there or (resumed there) not.
      let finished = !node.paused && (node.forward ? node.zone >= node.maxZone : node.zone <= 0)
      if node.idle || node.cancelled || finished {
        restart(node, at: p)
      } else if node.paused {
        node.paused = false
        release(node, at: p)
      }
    case .finish:
      guard node.bounds.end != nil else { return }
      let forward = node.rate >= 0
      let edge = forward ? node.bounds.end! : node.bounds.start
      // Already finished at that edge: nothing moves and nothing fires (Web Animations'
      // finish() on a finished animation queues no second finish event).
      if node.parent == nil, node.hold == edge, node.forward == forward, node.zone == (forward ? node.maxZone : 0) {
        return
      }
      // Reversed before it started (in its delay), a top-level animation is back where it
      // began: at or behind its start, it has nothing to finish.
      if node.parent == nil, node.isEffect, !forward, node.zone == 0, !node.started {
        return
      }
      node.pausedOffset = nil
      let current = localTime(of: node)
      // An idle (never played) or cancelled timeline that is finished is finished, no longer
      // idle: Web Animations' finish() gives an idle animation a current time at its end.
      // (Its items then count as a playing one's do.)
      let wasIdle = node.idle || node.cancelled
      node.idle = false
      node.cancelled = false
      let wasPaused = node.paused && !wasIdle
      node.paused = true  // held where it is put, for the silent part
      travelSilently(node, from: current, to: edge - (forward ? 1 : -1), parentTime: p)
      node.hold = edge
      node.forward = forward
      var batch: [Crossing] = []
      drive(node, at: now, parentTime: p, parentForward: true, into: &batch, silently: false)
      // (The properties that left rest by an operation now keep their `start` queued behind
      // this instant's node events, those of animations due in the advance too; only one that
      // the finish brings back to rest fires it first.)
      deliver(batch, handingOutLeavingRest: false)
      node.paused = wasPaused
      if node.parent == nil || wasPaused { node.hold = edge } else { release(node, at: p) }
    case .cancel:
      // Each property keeps the value it has now (grammar.md § Control): its base value moves
      // by what the cancelled animations' terms leave, all of them at once (taken out one by
      // one, the rest would count again from a base that already holds them).
      let cancelled = Set(subtree(of: node).filter(\.isEffect).map(\.id))
      for prop in properties.indices where properties[prop].entries.contains(where: { cancelled.contains($0.node) }) {
        let before = value(of: prop)
        properties[prop].entries.removeAll { cancelled.contains($0.node) }
        properties[prop].base += before - value(of: prop)
      }
      if node.parent == nil && node.isEffect {
        node.alive = false
      } else {
        node.hold = localTime(of: node)
        node.paused = true
        node.cancelled = true
      }
    }
  }

  /// Plays a node from its start (its end when its rate is negative): nothing in it has been
  /// crossed; items that fill backwards show their `from` from now (rule 2).
  func restart(_ node: Node, at p: OracleTime) {
    let forward = node.rate >= 0
    node.idle = false
    node.cancelled = false
    node.started = false
    // Starting over is a jump back before its `set` items (rule 5: "sought before"): each
    // one applied puts back what it recorded, the latest first, and unmasks what it masked.
    for n in subtree(of: node).reversed() {
      guard case .set(let p, _) = n.kind, let recorded = n.recorded else { continue }
      properties[p].base = recorded
      properties[p].entries.removeAll { nodes[$0.node].parent == nil }
    }
    for n in subtree(of: node) {
      n.recorded = nil
      n.counting = false
      n.maskedBy = nil
      n.started = false
    }
    // Its items that were waiting with a backwards fill (a finished timeline is running
    // nothing else) wait no more: they show again only from where it starts over.
    let mine = Set(subtree(of: node).map(\.id))
    for p in properties.indices {
      properties[p].entries.removeAll { mine.contains($0.node) && $0.frozen == nil && !$0.dropped }
    }
    place(node, atEnd: !forward, travellingForward: forward)
    // Played from its end (a negative rate), the playhead is placed past its `set` items:
    // each is sought past (rule 5), in item order, as crossing it forwards would.
    for n in subtree(of: node) where n.id != node.id && n.zone == n.maxZone {
      guard case .set = n.kind else { continue }
      apply(Crossing(node: n.id, kind: .start, forward: true, sequence: 0))
    }
    node.pausedOffset = nil
    node.hold = forward ? 0 : (node.bounds.end ?? 0)
    node.paused = false
    release(node, at: p)
    // Its items before their starts that fill backwards show their first values (rule 2). (One
    // placed past its end, the timeline played from its end, is in its after phase: it has not
    // run, so it shows nothing, whether its fill is `both` or `forwards`.)
    for n in subtree(of: node) where n.isEffect && n.timing.fill.backwards && n.id != node.id && n.zone == 0 {
      join(n)
    }
    // Those placed past their ends settle their values all the same, from the moment it is
    // played (grammar.md § Timing: a backwards fill's values are settled when its timeline
    // is played), to be used when the playhead reaches them going back.
    for n in subtree(of: node) where n.isEffect && n.timing.fill.backwards && n.id != node.id && n.zone != 0 {
      guard let p = n.property, !n.resolved else { continue }
      let stackShows = properties[p].entries.contains { !$0.dropped }
      resolveValues(n, startingFrom: stackShows && !n.replaces ? heading(of: p) : value(of: p))
    }
  }

  /// Puts `node` at its start or its end, travelling as `travellingForward` says, and what is
  /// in it where that edge's pass has it, having crossed nothing: at the end of a forward
  /// pass its items are past their ends; at the end of a backwards pass (`autoreverse`), at
  /// the start of its time, before their starts; and so on down the tree.
  func place(_ node: Node, atEnd: Bool, travellingForward: Bool) {
    node.zone = atEnd ? node.maxZone : 0
    node.forward = travellingForward
    guard node.isTimeline else { return }
    let b = node.bounds
    var passForward = true
    if node.timing.duration > 0, b.count.map({ $0 >= 2 }) ?? false {
      passForward = b.isForwardPass(b.pass(ofZone: atEnd ? node.maxZone - 1 : 1))
    }
    // The children's time at that edge is the pass's end (its start when the pass runs
    // backwards), and it moves the way the pass runs.
    let iterationAtEnd = atEnd == passForward
    let iterationForward = travellingForward == passForward
    for id in node.children {
      let child = nodes[id]
      place(child, atEnd: iterationAtEnd == (child.rate >= 0), travellingForward: iterationForward == (child.rate >= 0))
    }
  }

  func setRate(_ node: Node, _ rate: Double, at p: OracleTime) {
    let wasHeld = node.hold != nil
    let current = localTime(of: node)
    node.hold = current
    if !wasHeld { holdOnReachedDescendants(node) }
    node.rate = rate
    node.pausedOffset = nil
    if rate != 0 { node.forward = rate > 0 }
    release(node, at: p)
  }

  /// Web Animations: start time = parent time − hold time / rate, unless paused or at rate 0.
  func release(_ node: Node, at p: OracleTime) {
    guard let hold = node.hold, !node.paused, node.rate != 0 else { return }
    if let offset = node.pausedOffset {
      node.startTime = p - offset
    } else {
      node.startTime = p - OracleArithmetic.roundQuotient(hold, node.rate)
    }
    node.pausedOffset = nil
    node.hold = nil
  }

  /// Rule 6 for what a timeline holds, at the instant it is held (paused, or its rate
  /// changed): a descendant's boundary that the engine's time has reached, mapped up level by
  /// level (`reach`), stays reached once the timeline stands, though the timeline's own
  /// rounded time there, now its hold time, may fall a few nanoseconds short of that
  /// boundary mapped into it; likewise one not yet reached stays ahead. The hold moves onto
  /// the boundary. (Paused at 274 ms exactly where its item starts, at speed 3 its time is
  /// 513 999 999 ns, the item's start 514 000 000: held short of it, the item went back
  /// before its start at once, and started again on resuming.)
  func holdOnReachedDescendants(_ node: Node) {
    guard var hold = node.hold else { return }
    let margin = Int64(min(abs(node.rate).rounded(.up), 1e12)) + 2
    func visit(_ n: Node) {
      for id in n.children {
        let d = nodes[id]
        guard d.alive, d.hold == nil else { continue }
        let b = d.bounds
        for z in [d.zone - 1, d.zone] where (z >= 0 || (b.isInfinite && d.started)) && (b.count.map { z < $0 } ?? true)
        {
          let passed = z < d.zone
          let (mapped, _, orientation) = reachHeld(d, b.boundary(z))
          let forward = node.forward == (orientation > 0)
          let x = (hold - mapped) * orientation
          guard abs(x) <= margin else { continue }
          let isPassed = forward ? x >= 0 : x > 0
          // (Reached exactly now, the boundary is where the timeline stands, whichever way it
          // goes: rule 6, its time at S + round(u / r) is u.)
          if passed && !isPassed {
            hold = forward || reach(d, b.boundary(z)) == now ? mapped : mapped + orientation
          }
          // (A boundary not yet crossed but reached exactly now, as when the timeline is
          // paused at the instant it was played, is where the timeline stands: rule 6, its
          // time at S + round(u / r) is u. It is crossed as the timeline moves on from there,
          // at the instant it resumes.)
          if !passed && isPassed {
            hold = reach(d, b.boundary(z)) == now ? mapped : forward ? mapped - orientation : mapped
          }
          node.hold = hold
        }
        visit(d)
      }
    }
    visit(node)
  }

  func subtree(of node: Node) -> [Node] {
    [node] + node.children.flatMap { subtree(of: nodes[$0]) }
  }

  // MARK: - Time down the tree

  /// The node's parent time now (the engine's time, or its timeline's iteration time).
  func parentTime(of node: Node) -> OracleTime {
    guard let parent = node.parent else { return now }
    return iterationTime(of: nodes[parent], local: localTime(of: nodes[parent]))
  }

  /// The local time now, kept inside the zone crossed to. At the engine time where one of
  /// its boundaries, or one of its descendants', is reached (`reach`: mapped up level by
  /// level, each rounding once), it is that boundary (mapped up to it), though the time its
  /// parent passes down, rounded once more at each level, falls a little short of it: rule 6
  /// at every level. (A group's pass boundary reached through a timeline at speed −7 read
  /// 1 ns into the pass before, so an item there showed its end rather than the next pass's
  /// start; a `set` reached so recorded its sibling's value a few ns off: seed 6064393.)
  func localTime(of node: Node) -> OracleTime {
    let time = localTime(of: node, parentTime: parentTime(of: node), zone: node.zone, forward: node.forward)
    guard node.hold == nil, !chainHeld(node), node.rate != 0 else { return time }
    let b = node.bounds
    if node.parent != nil {
      for z in [node.zone - 1, node.zone]
      where (z >= 0 || (b.isInfinite && node.started)) && (b.count.map { z < $0 } ?? true) {
        let u = b.boundary(z)
        if reach(node, u) == now { return u }
      }
    }
    // A descendant's boundary reached now, mapped up to this node's time near it.
    let margin = Int64(min(abs(node.rate).rounded(.up), 1e12)) + 2
    var result = time
    func visit(_ n: Node) {
      guard n.timing.duration > 0 else { return }
      for id in n.children {
        let d = nodes[id]
        guard d.alive, d.hold == nil, d.rate != 0 else { continue }
        let db = d.bounds
        for z in [d.zone - 1, d.zone]
        where (z >= 0 || (db.isInfinite && d.started)) && (db.count.map { z < $0 } ?? true) {
          let u = db.boundary(z)
          guard reach(d, u) == now else { continue }
          let x = mappedUp(d, u, to: node)
          if abs(x - time) <= margin { result = x }
        }
        visit(d)
      }
    }
    if case .timeline = node.kind { visit(node) }
    return result
  }

  /// `u`, a local time of `node`, mapped up to the local time of its ancestor `top` through
  /// the ancestors' current passes (rule 6 at each level: S + round(u / r)). Past its end a
  /// timeline's children stand at its last pass's end, so they map through that pass: mapped
  /// through the pass after it, which never runs, a boundary of theirs came out near a time
  /// the timeline reaches after its end and was taken as reached there (seed 15037736).
  func mappedUp(_ node: Node, _ u: OracleTime, to top: Node) -> OracleTime {
    var x = u
    var n = node
    while let id = n.parent {
      let p = nodes[id]
      let inParent = n.startTime + OracleArithmetic.roundQuotient(x, n.rate)
      let b = p.bounds
      let k = b.childPass(ofZone: p.zone)
      let d = b.timing.duration
      x = b.timing.delay + k * d + (b.isForwardPass(k) ? inParent : d - inParent)
      if p === top { return x }
      n = p
    }
    return x
  }

  func localTime(of node: Node, parentTime p: OracleTime, zone: Int64, forward: Bool) -> OracleTime {
    if let hold = node.hold { return hold }
    // Rule 6: boundary u falls at exactly S + round(u / r), so at that parent time the local
    // time is u, whichever way the parent moves (round((p − S)·r) may miss it by a little).
    let b = node.bounds
    for u in [
      zone > 0 || (b.isInfinite && node.started) ? b.boundary(zone - 1) : nil,
      b.count.map { zone < $0 } ?? true ? b.boundary(zone) : nil,
    ] {
      if let u, node.startTime + OracleArithmetic.roundQuotient(u, node.rate) == p { return u }
    }
    let raw = OracleArithmetic.roundProduct(p - node.startTime, node.rate)
    let (lo, hi) = b.interval(zone: zone, forward: forward, started: node.started)
    return min(max(raw, lo), hi)
  }

  /// The time a timeline gives its children at local time `local`: its iteration time in the
  /// current pass, mirrored in a backwards pass; at the edges, the edge's.
  func iterationTime(of node: Node, local: OracleTime) -> OracleTime {
    let b = node.bounds
    if node.zone <= 0 && !node.started {
      let k = b.timing.duration > 0 ? OracleBoundaries.floorDiv(b.start - b.timing.delay, b.timing.duration) : 0
      return b.isForwardPass(k) ? b.start - b.timing.delay - k * b.timing.duration : b.timing.duration
    }
    if b.isAfter(zone: node.zone) {
      let edge = b.endEdge()
      return edge.time
    }
    let k = b.pass(ofZone: node.zone)
    return b.directed(pass: k, local: local).1
  }

  /// Whether the children of a timeline in zone `z` run forwards in their parent time.
  func childrenForward(_ node: Node, zone z: Int64, forward: Bool) -> Bool {
    let k = node.bounds.pass(ofZone: z)
    return forward == node.bounds.isForwardPass(k)
  }

  /// The zone of `node` at parent time `p`, its parent time moving forwards or not.
  func zone(of node: Node, parentTime p: OracleTime, parentForward: Bool) -> Int64 {
    if node.hold != nil {
      // Held: where it is held, arriving as it travels.
      return node.bounds.zone(local: node.hold!, forward: node.forward, started: node.started)
    }
    let forward = parentForward == (node.rate > 0)
    let sign: Int64 = node.rate > 0 ? 1 : -1
    return node.bounds.zone(started: node.started) { u in
      let reached = node.startTime + OracleArithmetic.roundQuotient(u, node.rate)
      let x = (p - reached) * sign
      return forward ? x >= 0 : x > 0
    }
  }

  /// The engine time at which `node`'s local time reaches `u` in its ancestors' current
  /// passes: rule 6 at each level, S + round(u / r), mapped up through each timeline's pass
  /// (each level of nesting rounds once).
  func reach(_ node: Node, _ u: OracleTime) -> OracleTime {
    let x = node.startTime + OracleArithmetic.roundQuotient(u, node.rate)
    guard let parent = node.parent else { return x }
    let p = nodes[parent]
    let b = p.bounds
    let k = b.childPass(ofZone: p.zone)
    let d = b.timing.duration
    let local = b.timing.delay + k * d + (b.isForwardPass(k) ? x : d - x)
    return reach(p, local)
  }

  /// `u`, a local time of `node`, mapped up to the local time of its nearest held ancestor
  /// through its ancestors' current passes (rule 6 at each level: S + round(u / r)), with
  /// that ancestor's hold time, and +1 where the mapping keeps the direction of time, −1
  /// where it mirrors it (a negative rate, a backwards pass).
  func reachHeld(_ node: Node, _ u: OracleTime) -> (mapped: OracleTime, hold: OracleTime, orientation: Int64) {
    var x = u
    var n = node
    var orientation: Int64 = 1
    while let id = n.parent {
      let p = nodes[id]
      let inParent = n.startTime + OracleArithmetic.roundQuotient(x, n.rate)
      if n.rate < 0 { orientation = -orientation }
      let b = p.bounds
      let k = b.childPass(ofZone: p.zone)
      let d = b.timing.duration
      if !b.isForwardPass(k) { orientation = -orientation }
      x = b.timing.delay + k * d + (b.isForwardPass(k) ? inParent : d - inParent)
      if let hold = p.hold { return (x, hold, orientation) }
      n = p
    }
    return (x, x, orientation)  // (never: only asked below a held node)
  }

  /// Whether `node` or one of its ancestors stands still (paused, held at an edge, rate 0).
  func chainHeld(_ node: Node) -> Bool {
    var cursor: Node? = node
    while let n = cursor {
      if n.hold != nil { return true }
      cursor = n.parent.map { nodes[$0] }
    }
    return false
  }

  /// The zone of `node` at engine time `t`: by the boundaries' engine times while everything
  /// above it runs; by its parent time `p` when something above it is held.
  func zone(of node: Node, at t: OracleTime, parentTime p: OracleTime, parentForward: Bool) -> Int64 {
    if node.hold == nil && chainHeld(node) {
      // Held above (a paused or sought timeline): by the held one's time, against each
      // boundary mapped up to it, each level rounding once (rule 6), as `reach` maps it to
      // the engine's time. (Its parent's time, rounded at every level down, can fall short
      // of a boundary the held time has reached: a grandchild's start at rate 0.5 in a group
      // at rate 3, reached at 795 444 444 ns, where the group's rounded time is 703 333 332,
      // one short of the start at 703 333 333.)
      let forward = parentForward == (node.rate > 0)
      return node.bounds.zone(started: node.started) { u in
        let (mapped, hold, orientation) = self.reachHeld(node, u)
        let x = (hold - mapped) * orientation
        return forward ? x >= 0 : x > 0
      }
    }
    if node.hold != nil {
      return zone(of: node, parentTime: p, parentForward: parentForward)
    }
    let forward = parentForward == (node.rate > 0)
    return node.bounds.zone(started: node.started) { u in
      let r = self.reach(node, u)
      return forward ? t >= r : t < r
    }
  }

  // MARK: - Advancing

  struct Crossing {
    var node: Int
    var kind: OracleEvent.Kind
    var forward: Bool
    /// The order of crossing within the node (rule 4: its own start before its complete).
    var sequence: Int
    /// How many pass boundaries timelines had crossed before it was: a point crossed before
    /// a timeline's turn or wrap fires before one crossed after it (in the playhead's order).
    var step: Int = 0
    /// The timeline whose boundaries `step` counts (its parent; -1 at top level).
    var scope: Int = -1
    /// Each timeline above it, nearest first, with the pass boundaries it had crossed.
    var chain: [(Int, Int)] = []
  }

  /// Moves to `time`, recording every event on the way.
  package func advance(to time: OracleTime) {
    precondition(time >= now)
    while true {
      let next = nextInstant(upTo: time)
      // Properties that an operation took out of rest, with nothing else due now.
      if !leavingRest.isEmpty && next != now { deliver([]) }
      guard let next else { break }
      if let deadline, ContinuousClock.now > deadline {
        gaveUp = true
        break
      }
      now = next
      checkNow = false
      var batch: [Crossing] = []
      for node in nodes where node.parent == nil && node.alive && !node.idle && !node.cancelled && node.hold == nil {
        drive(node, at: now, parentTime: now, parentForward: true, into: &batch, silently: false)
        if node.playsBackToPlacement && now >= node.startTime {
          // Back where it was placed, before it started: done (grammar.md § Control).
          node.playsBackToPlacement = false
          node.hold = 0
          batch.append(
            Crossing(
              node: node.id, kind: .complete, forward: false, sequence: 0, step: passSteps[-1, default: 0], scope: -1))
        }
      }
      deliver(batch)
    }
    now = time
    checkNow = false
  }

  /// The first instant in [now, limit] (or (after, limit]) at which some node's zone moves.
  func nextInstant(upTo limit: OracleTime, after: OracleTime? = nil) -> OracleTime? {
    let lo = after.map { $0 + 1 } ?? (checkNow ? now : now + 1)
    guard lo <= limit else { return nil }
    var best: OracleTime?
    for node in nodes where node.parent == nil && node.alive && !node.idle && !node.cancelled && node.hold == nil {
      if let t = earliestChange(node, lo: lo, hi: limit, parentForward: true) {
        best = min(best ?? t, t)
      }
      if node.playsBackToPlacement {
        let t = max(node.startTime, lo)
        if t <= limit { best = min(best ?? t, t) }
      }
    }
    return best
  }

  /// The earliest engine time in [lo, hi] at which `node` or anything in it moves to another
  /// zone. Each zone function is monotone while the ancestors stay in their passes, so a
  /// bisection finds it; children are searched only before their parent changes pass.
  func earliestChange(_ node: Node, lo: OracleTime, hi: OracleTime, parentForward: Bool) -> OracleTime? {
    let current = node.zone
    let moved = { (t: OracleTime) -> Bool in
      self.zone(of: node, at: t, parentTime: 0, parentForward: parentForward) != current
    }
    var best: OracleTime?
    if moved(hi) {
      var a = lo
      var b = hi
      while a < b {
        let mid = a + (b - a) / 2
        if moved(mid) { b = mid } else { a = mid + 1 }
      }
      best = a
    }
    guard node.isTimeline, node.bounds.isActive(zone: current, started: node.started) else { return best }
    let childHi = (best ?? (hi + 1)) - 1
    guard childHi >= lo else { return best }
    let forward = parentForward == (node.rate > 0)
    let childForward = childrenForward(node, zone: current, forward: forward)
    for child in node.children {
      if let t = earliestChange(nodes[child], lo: lo, hi: childHi, parentForward: childForward) {
        best = min(best ?? t, t)
      }
    }
    return best
  }

  /// Moves `node` to where it is at parent time `p`, collecting what it crosses; a timeline
  /// moves its children pass by pass.
  /// Pass boundaries crossed by each timeline so far (orders script events at one instant).
  var passSteps: [Int: Int] = [:]

  func drive(
    _ node: Node, at t: OracleTime, parentTime p: OracleTime, parentForward: Bool, into batch: inout [Crossing],
    silently: Bool
  ) {
    let target = zone(of: node, at: t, parentTime: p, parentForward: parentForward)
    let travelling = node.hold == nil ? (parentForward == (node.rate > 0)) : node.forward
    var z = node.zone
    var sequence = 0
    while z != target {
      let up = target > z
      if node.isTimeline && node.bounds.isActive(zone: z, started: node.started) {
        // To the edge of this pass first.
        let edge = node.bounds.boundary(up ? z : z - 1)
        driveChildren(node, at: t, zone: z, forward: up, local: edge, into: &batch, silently: silently)
      }
      let index = up ? z : z - 1
      let kind = crossingKind(node, index: index, up: up)
      if up && index == 0 { node.started = node.started || node.bounds.isInfinite }
      // A callback or `set` item is one point: it fires once each way (a callback backwards
      // only when asked).
      var fires = true
      switch node.kind {
      case .callback(_, let backwards): fires = up ? index == 0 : (index == 1 && backwards)
      case .set: fires = up ? index == 0 : index == 1
      default: break
      }
      if fires {
        var crossing = Crossing(
          node: node.id, kind: kind, forward: up, sequence: sequence, step: passSteps[node.parent ?? -1, default: 0],
          scope: node.parent ?? -1)
        var ancestor = node.parent
        while let a = ancestor {
          crossing.chain.append((a, passSteps[a, default: 0]))
          ancestor = nodes[a].parent
        }
        batch.append(crossing)
      }
      sequence += 1
      let wasActive = node.bounds.isActive(zone: z, started: node.started)
      z += up ? 1 : -1
      node.zone = z
      if node.isTimeline { passSteps[node.id, default: 0] += 1 }
      if node.isTimeline && node.bounds.isActive(zone: z, started: node.started) {
        let continuous = wasActive && node.timing.autoreverse
        if !continuous { resetChildren(node, zone: z, forward: up) }
      }
    }
    node.zone = target
    node.forward = travelling
    if node.isTimeline && node.bounds.isActive(zone: target, started: node.started) {
      let local = localTime(of: node, parentTime: p, zone: target, forward: travelling)
      driveChildren(node, at: t, zone: target, forward: travelling, local: local, into: &batch, silently: silently)
    }
    if silently {
      for crossing in batch where crossing.node == node.id { applySilently(crossing) }
      batch.removeAll { $0.node == node.id }
    }
  }

  func driveChildren(
    _ node: Node, at t: OracleTime, zone z: Int64, forward: Bool, local: OracleTime, into batch: inout [Crossing],
    silently: Bool
  ) {
    let k = node.bounds.pass(ofZone: z)
    let tau = node.bounds.directed(pass: k, local: local).1
    let childForward = forward == node.bounds.isForwardPass(k)
    for child in node.children {
      var own: [Crossing] = []
      drive(nodes[child], at: t, parentTime: tau, parentForward: childForward, into: &own, silently: silently)
      batch += own
    }
  }

  /// Entering a pass from its edge: the children start over, nothing in them crossed.
  func resetChildren(_ node: Node, zone z: Int64, forward: Bool) {
    let childForward = forward == node.bounds.isForwardPass(node.bounds.pass(ofZone: z))
    for id in node.children {
      let child = nodes[id]
      let ahead = childForward == (child.rate > 0)
      child.zone = ahead ? 0 : child.maxZone
      child.forward = ahead
    }
  }

  /// Forwards: the start is `start`, the end `complete`, a pass boundary `repeat`; backwards
  /// the mirror. An infinite effect that has started loops both ways: only `repeat`.
  func crossingKind(_ node: Node, index: Int64, up: Bool) -> OracleEvent.Kind {
    if case .callback(let key, _) = node.kind { return .callback(key) }
    if node.bounds.isInfinite { return index == 0 && up && !node.started ? .start : .repeat }
    let last = node.maxZone - 1
    if up { return index == 0 ? .start : index == last ? .complete : .repeat }
    return index == last ? .start : index == 0 ? .complete : .repeat
  }

  // MARK: - Delivering

  /// Orders one instant's crossings (completes, repeats, starts, callbacks; item order, reversed
  /// going backwards; a node's own start before its own complete), applies what each means to
  /// the properties, and records the events with the properties' own.
  func deliver(_ crossings: [Crossing], handingOutLeavingRest: Bool = true) {
    let ordered = Self.ordered(crossings)
    var pendingStarts = leavingRest
    leavingRest = []
    // (Each with the direction of the crossing that took it out of rest's way: a property's
    // `complete` goes the way of the crossing that brought it to rest.)
    var handedOver: [Int: Bool] = [:]
    for (i, crossing) in ordered.enumerated() {
      let node = nodes[crossing.node]
      // (A top-level animation dropped earlier at this instant fires nothing more.)
      if node.parent == nil && node.isEffect && !node.alive { continue }
      let p = node.isEffect ? node.property : nil
      let before = p.map { isAnimating($0) } ?? false
      apply(crossing)
      if case .set = node.kind { continue }
      events.append(OracleEvent(time: now, kind: crossing.kind, subject: .node(node.id), reversed: !crossing.forward))
      guard let p else { continue }
      let after = isAnimating(p)
      if !before && after {
        if handedOver.removeValue(forKey: p) == nil {
          events.append(OracleEvent(time: now, kind: .start, subject: .property(p), reversed: !crossing.forward))
        }
        pendingStarts.removeAll { $0 == p }
      } else if before && !after {
        if let j = pendingStarts.firstIndex(of: p) {
          // It left rest at this very instant (a zero-length animation): its start first.
          pendingStarts.remove(at: j)
          events.append(OracleEvent(time: now, kind: .start, subject: .property(p), reversed: false))
          events.append(OracleEvent(time: now, kind: .complete, subject: .property(p), reversed: !crossing.forward))
        } else if ordered[(i + 1)...].contains(where: {
          $0.kind == .start && nodes[$0.node].isEffect && nodes[$0.node].property == p
        }) {
          handedOver[p] = crossing.forward  // a sequence handing over: no rest
        } else {
          events.append(OracleEvent(time: now, kind: .complete, subject: .property(p), reversed: !crossing.forward))
        }
      }
    }
    for (p, forward) in handedOver.sorted(by: { $0.key < $1.key }) where !isAnimating(p) {
      events.append(OracleEvent(time: now, kind: .complete, subject: .property(p), reversed: !forward))
    }
    if handingOutLeavingRest {
      for p in pendingStarts where isAnimating(p) {
        events.append(OracleEvent(time: now, kind: .start, subject: .property(p), reversed: false))
      }
    } else {
      leavingRest = pendingStarts + leavingRest
    }
    joinFillsOfNewPasses(ordered)
  }

  /// After an instant's crossings: in each timeline that began a new pass from its start,
  /// items that fill backwards show their first values again until they start (Web
  /// Animations: each pass of a group restarts its children's time, in their before phase).
  /// After everything at the instant, the end of the pass before included.
  func joinFillsOfNewPasses(_ crossings: [Crossing]) {
    for crossing in crossings where crossing.kind == .repeat && crossing.forward {
      let node = nodes[crossing.node]
      guard node.isTimeline, !node.timing.autoreverse else { continue }
      for id in node.children where nodes[id].zone == 0 && nodes[id].forward {
        for n in subtree(of: nodes[id]) where n.isEffect && n.timing.fill.backwards {
          guard let p = n.property else { continue }
          let had = properties[p].entries.contains { $0.node == n.id }
          join(n)
          if !had, let i = properties[p].entries.firstIndex(where: { $0.node == n.id }) {
            properties[p].entries[i].joinedByNewPass = true
          }
        }
      }
    }
  }

  /// One instant's crossings in the order they are delivered: completes, repeats, starts,
  /// callbacks; item order, reversed going backwards; a node's own start before its own
  /// complete.
  /// The pass boundaries the nearest timeline holding both had crossed when each was crossed.
  static func stepsInNearestCommonTimeline(_ a: Crossing, _ b: Crossing) -> (Int, Int)? {
    for (id, steps) in a.chain {
      if let other = b.chain.first(where: { $0.0 == id }) { return (steps, other.1) }
    }
    return nil
  }

  static func ordered(_ crossings: [Crossing]) -> [Crossing] {
    func rank(_ c: Crossing) -> Int {
      switch c.kind {
      case .complete:
        // Rule 4: a node that starts and completes here (crossed the same way) fires its own
        // start and then its own complete where its start goes, among the starts, in item
        // order. (Ambiguous in the rules; the engine's reading: what begins at this instant
        // goes with the starts, after what was running has completed.)
        crossings.contains {
          $0.node == c.node && $0.kind == .start && $0.forward == c.forward && $0.sequence < c.sequence
        } ? 2 : 0
      case .repeat: 1
      case .start: 2
      case .callback: 3
      }
    }
    return crossings.enumerated().sorted { a, b in
      let ra = rank(a.element)
      let rb = rank(b.element)
      if ra != rb { return ra < rb }
      // Script events in the order the playhead crossed them (grammar.md § Events: in the direction of
      // travel and in time order): one at the end of a pass before one at the next's start.
      if ra == 3 && a.element.scope == b.element.scope && a.element.step != b.element.step {
        return a.element.step < b.element.step
      }
      // So are node events of one kind crossed the same way: forwards, a start at the end of a
      // pass (an item of no length there) before one at the next pass's start; backwards, what
      // lies at a pass's start before what lies at the end of the pass before; at the turn of
      // an alternating pass, what is crossed forwards at the end of one pass before what is
      // crossed backwards at the start of the next (grammar.md § Events: in time order).
      if let (x, y) = stepsInNearestCommonTimeline(a.element, b.element), x != y {
        return x < y
      }
      let oa = a.element.forward ? a.element.node : -a.element.node
      let ob = b.element.forward ? b.element.node : -b.element.node
      if oa != ob { return oa < ob }
      return a.element.sequence < b.element.sequence
    }.map(\.element)
  }

  /// Whether a node keeps its property animating: a top-level animation from placement to its
  /// end; an item while active.
  func counts(_ node: Node) -> Bool {
    guard node.isEffect, node.alive else { return false }
    if node.parent == nil { return true }
    if node.maskedBy != nil { return false }
    var cursor: Node? = node
    while let n = cursor {
      if n.cancelled || n.idle { return false }
      cursor = n.parent.map { nodes[$0] }
    }
    return node.counting
  }

  func animatingCount(_ p: Int) -> Int {
    nodes.filter { $0.property == p && counts($0) }.count
  }

  func isAnimating(_ p: Int, excluding: Int? = nil) -> Bool {
    nodes.contains { $0.id != excluding && $0.property == p && counts($0) }
  }

  /// What crossing a boundary does to the properties.
  func apply(_ crossing: Crossing) {
    let node = nodes[crossing.node]
    switch node.kind {
    case .staggered:
      break  // (added as the animation it is)
    case .animation:
      if crossing.kind == .start {
        node.counting = true
        join(node)
      } else if crossing.kind == .complete {
        if node.parent == nil && crossing.forward != (node.rate >= 0) {
          // Done only when it completes the way it plays: sought back over its start while
          // it plays forwards (or past its end while it plays backwards), a standalone
          // animation waits there as before it started, in its place in the stack, its
          // property animating; its term is its before (after) phase's output until it
          // starts again there.
          break
        }
        node.counting = false
        leave(node, forward: crossing.forward)
        if node.parent == nil {
          node.alive = false
        }
      }
      if node.parent == nil && crossing.kind == .complete {
        // hold at the edge (finished)
        node.hold = crossing.forward ? node.bounds.end : node.bounds.start
      }
    case .timeline:
      if crossing.kind == .repeat && !crossing.forward && !node.timing.autoreverse {
        // Back over a pass boundary into the pass before, from its end: an item still in its
        // stack without having run in the pass left behind (waiting there with a backwards
        // fill, which joined it) is past its end in this pass, so its term is its end's with
        // a forwards fill and drops out without one (rule 1), as when it completed there
        // going forwards. (After this instant's completes, an item ending at its start here
        // among them, and before its starts, which join the stack as it is then.)
        // Its `set` items are behind the playhead again there: each that recorded a value in
        // that pass masks again what starts before it on its property (grammar.md: for as
        // long as the playhead is past it), as it did when that pass went forwards past it.
        for id in node.children {
          guard case .set(let p, _) = nodes[id].kind, nodes[id].zone == nodes[id].maxZone, nodes[id].recorded != nil
          else { continue }
          let setStart = absoluteStart(of: nodes[id])
          for other in subtree(of: node)
          where other.isEffect && other.property == p && other.maskedBy == nil && absoluteStart(of: other) < setStart {
            other.maskedBy = id
            properties[p].entries.removeAll { $0.node == other.id }
          }
        }
        // What joined the stack afresh by its backwards fill as the pass left behind began
        // goes as it came (its end in the pass before is in the base value already: the stack
        // had ended there), also an item at the end of the pass, already crossed back to its
        // start here: the property shows what that pass left at its end.
        let inside = Set(subtree(of: node).map(\.id))
        for p in properties.indices where properties[p].entries.contains(where: \.joinedByNewPass) {
          properties[p].entries.removeAll { $0.joinedByNewPass && inside.contains($0.node) }
        }
        for id in node.children {
          let child = nodes[id]
          guard child.isEffect, child.zone == child.maxZone, child.property != nil,
            properties[child.property!].entries.contains(where: { $0.node == id && $0.frozen == nil && !$0.dropped })
          else { continue }
          leave(child, forward: true)
        }
      }
      if crossing.kind == .repeat && crossing.forward && !node.timing.autoreverse {
        // A new pass from its start: a `set` now ahead of the playhead masks nothing
        // (grammar.md: only while the playhead is past it), so what it masked shows again
        // as the pass reaches it. (After this instant's completes, which it still masked.)
        for id in node.children {
          guard case .set = nodes[id].kind, nodes[id].zone == 0 else { continue }
          for other in nodes where other.maskedBy == id { other.maskedBy = nil }
        }
      }
      if node.parent == nil && crossing.kind == .complete {
        node.hold = crossing.forward ? node.bounds.end : node.bounds.start
      }
    case .set(let p, let value):
      let timeline = topTimeline(of: node)
      if crossing.forward {
        node.recorded = self.value(of: p)
        properties[p].base = value
        // Ends the property's animations outside its timeline, masks its own earlier items.
        for entry in properties[p].entries where topTimeline(of: nodes[entry.node]) !== timeline {
          if nodes[entry.node].parent == nil { nodes[entry.node].alive = false }
        }
        for other in nodes where other.isEffect && other.property == p && other.parent == nil && other.alive {
          other.alive = false
        }
        let setStart = absoluteStart(of: node)
        for other in subtree(of: timeline)
        where other.isEffect && other.property == p && absoluteStart(of: other) < setStart {
          other.maskedBy = other.maskedBy ?? node.id
        }
        properties[p].entries = []
      } else {
        count("timeline set crossed backwards")
        properties[p].entries.removeAll { nodes[$0.node].parent == nil }
        if let recorded = node.recorded {
          // The recorded value goes back as the base value, beneath what its own timeline's
          // items show: an item of it already playing here (not masked: it started again in
          // a pass the set has not masked) shows its own value, its stack running from its
          // `from` (the first entry is measured from the base, so it moves with it).
          if !properties[p].entries.isEmpty {
            properties[p].entries[0].reference += recorded - properties[p].base
          }
          properties[p].base = recorded
        }
        // Put back, it has nothing more to put back (starting over later does not again).
        node.recorded = nil
        for other in nodes where other.maskedBy == node.id {
          other.maskedBy = nil
          if other.bounds.isActive(zone: other.zone, started: other.started) { join(other) }
        }
      }
    case .callback:
      break
    }
  }

  /// A jump (seek, the silent part of finish): `node`, held, travels from local time `from`
  /// to `x` as playing there would, stopping at every instant where it or anything in it
  /// crosses a boundary, and applies what it crosses there (in delivery order) without
  /// events. So what it passes settles in time order, through every pass between.
  /// With `turning` (a seek), one arriving against the way it plays turns at `x`.
  func travelSilently(
    _ node: Node, from current: OracleTime, to x: OracleTime, parentTime p: OracleTime, turning: Bool = false
  ) {
    let up = x > current
    let lo = min(current, x)
    let hi = max(current, x)
    // (From where it stands, too: what lies at `current` on the way out is crossed on its
    // own, before what lies further on: a seek back from a timeline's end crosses its end,
    // and its items' edges there, before the pass boundaries behind them.)
    let stops = Set(positions(node, from: lo, to: hi)).filter { up ? $0 >= current && $0 < x : $0 <= current && $0 > x }
    // On the way, it travels the way the jump goes (a seek back through a timeline playing
    // forwards crosses its items backwards, each at its boundary); at `x` it arrives as it
    // plays on from there (a boundary at `x` belongs to the side it plays into).
    let playing = node.forward
    defer { node.forward = playing }
    // Arriving against the way it plays, it reaches `x` as the jump goes first (what lies
    // exactly there is crossed, a `set` there put back), then turns to play on: a point at
    // `x` belongs to the side it plays into, so it is crossed again, as reversing there does.
    let turns = turning && x != current && up != playing
    for (i, h) in (stops.sorted(by: up ? (<) : (>)) + (turns ? [x, x] : [x])).enumerated() {
      let last = i == stops.count + (turns ? 1 : 0)
      node.forward = last ? playing : up
      node.hold = h
      var batch: [Crossing] = []
      drive(node, at: now, parentTime: p, parentForward: true, into: &batch, silently: false)
      for crossing in Self.ordered(batch) { applySilently(crossing) }
      joinFillsOfNewPasses(batch)
    }
  }

  /// The local times of `node` in [lo, hi] at which it, or anything in it, may cross a
  /// boundary (a superset: a held child adds times at which nothing happens).
  func positions(_ node: Node, from lo: OracleTime, to hi: OracleTime) -> [OracleTime] {
    let b = node.bounds
    let d = node.timing.duration
    var result: [OracleTime] = []
    if let count = b.count {
      for i in 0..<count where b.boundary(i) >= lo && b.boundary(i) <= hi { result.append(b.boundary(i)) }
    } else if d > 0 {
      let first = max(OracleBoundaries.floorDiv(lo - node.timing.delay, d), node.started ? Int64.min : 0)
      let last = OracleBoundaries.floorDiv(hi - node.timing.delay, d) + 1
      // (Nothing when the span lies before its first pass: a repeat-forever animation sought
      // into its delay.)
      if first <= last && last - first < 20_000 {
        for i in first...last where b.boundary(i) >= lo && b.boundary(i) <= hi { result.append(b.boundary(i)) }
      }
    }
    guard node.isTimeline, d > 0 else { return result }
    let activeLo = max(lo, b.start)
    let activeHi = min(hi, b.end ?? .max)
    guard activeLo <= activeHi else { return result }
    let kFirst = OracleBoundaries.floorDiv(activeLo - node.timing.delay, d)
    let kLast = OracleBoundaries.floorDiv(activeHi - node.timing.delay, d)
    // (A jump over very many passes looks at the first and the last thousand.)
    let passes =
      kLast - kFirst < 2_000 ? Array(kFirst...kLast) : Array(kFirst..<(kFirst + 1_000)) + Array((kLast - 999)...kLast)
    var inPass: [OracleTime] = []
    for id in node.children {
      let c = nodes[id]
      let v1 = OracleArithmetic.roundProduct(-c.startTime, c.rate)
      let v2 = OracleArithmetic.roundProduct(d - c.startTime, c.rate)
      for v in positions(c, from: min(v1, v2) - 2, to: max(v1, v2) + 2) {
        let tau = c.startTime + OracleArithmetic.roundQuotient(v, c.rate)
        if tau >= 0 && tau <= d { inPass.append(tau) }
      }
    }
    for k in passes {
      let passStart = node.timing.delay + k * d
      for tau in inPass {
        let local = passStart + (b.isForwardPass(k) ? tau : d - tau)
        if local >= activeLo && local <= activeHi { result.append(local) }
      }
    }
    return result
  }

  /// A crossing made by a jump (seek, the silent part of finish): what it does to the
  /// properties, but a top-level node stays where the jump put it (it is not held at the
  /// edge it crossed, as finishing there would).
  func applySilently(_ crossing: Crossing) {
    let node = nodes[crossing.node]
    let hold = node.hold
    apply(crossing)
    if node.parent == nil { node.hold = hold }
  }

  func topTimeline(of node: Node) -> Node {
    var n = node
    while let p = n.parent { n = nodes[p] }
    return n
  }

  /// Where an item starts in its top-level timeline's time (first pass): at c in a group,
  /// it is the group's own time delay + c, which rule 6 reaches at the group's placement +
  /// round((delay + c) / rate), one rounding a level.
  func absoluteStart(of node: Node) -> OracleTime {
    var t = node.placedAt
    var n = node
    while let p = n.parent, nodes[p].parent != nil {
      let group = nodes[p]
      t = group.placedAt + OracleArithmetic.roundQuotient(group.timing.delay + t, abs(group.rate))
      n = group
    }
    return t
  }

  // MARK: - Values

  /// An animation joins its property's stack (rule 1): the first of a stack, or a replacing
  /// one (`merge replace`, a spring), from the current value; a timing curve on a busy
  /// property, additively toward its target from the newest target.
  func join(_ node: Node) {
    guard let p = node.property, node.maskedBy == nil else { return }
    if properties[p].entries.contains(where: { $0.node == node.id && !$0.dropped && $0.frozen == nil }) { return }
    if let i = properties[p].entries.firstIndex(where: { $0.node == node.id }) {
      properties[p].entries[i].frozen = nil
      properties[p].entries[i].dropped = false
      return
    }
    // A takeover placed after it took the property over where it was placed (its backwards
    // fill) and waits to start: it took it over from this one too, which is dropped as it
    // starts (grammar.md § Retargeting).
    if node.parent == nil,
      properties[p].entries.contains(where: {
        let other = nodes[$0.node]
        return other.parent == nil && other.id > node.id && other.replaces && !other.counting && $0.frozen == nil
          && !$0.dropped
      })
    {
      node.alive = false
      return
    }
    // A takeover drops only what was placed before it (grammar.md § Retargeting): one placed
    // after it (at the same instant), waiting with a backwards fill to add to what runs,
    // stays above it, its change measured anew from where the stack heads once it has taken
    // over (it shows nothing of its own while it waits).
    var spared: [Int] = []
    if node.replaces && node.parent == nil {
      spared = properties[p].entries.filter {
        let other = nodes[$0.node]
        return other.parent == nil && other.id > node.id && !other.counting && !other.replaces && $0.frozen == nil
          && !$0.dropped
      }.map(\.node)
      properties[p].entries.removeAll { spared.contains($0.node) }
    }
    defer { for id in spared { join(nodes[id]) } }
    if node.replaces && !properties[p].entries.isEmpty {
      properties[p].base = value(of: p)
      for entry in properties[p].entries where nodes[entry.node].parent == nil {
        nodes[entry.node].alive = false
      }
      properties[p].entries = []
    }
    // A stack whose every member has dropped out (fill none or backwards) is over: the
    // newcomer starts a new one from the value now, and so rests at its own target.
    if properties[p].entries.allSatisfy(\.dropped) { properties[p].entries = [] }
    let entries = properties[p].entries
    if entries.isEmpty {
      resolveValues(node, startingFrom: properties[p].base)
      properties[p].entries.append(Entry(node: node.id, reference: properties[p].base))
    } else {
      // The previous target is where the stack is heading: V₀ plus each member's change, whole
      // while it runs, at the final progress it kept once ended (none once dropped out).
      // Without ended members it is the newest target; with them, the property still comes
      // to rest at the newest target (grammar.md § Retargeting).
      let previous = heading(of: p)
      if !node.resolved {
        resolveValues(node, startingFrom: previous)
      } else {
        // Joining again (a timeline going back over it) onto a running stack: rule 1 makes its
        // term Δ·p with Δ = its target − where the stack is heading now, so it runs from there
        // (the values it settled before are for a stack of its own).
        if case .tween(nil, _, _) = node.shape! { node.from = previous }
        if case .keyframes(let frames) = node.shape!, frames.first.flatMap({ $0.percent == 0 ? $0.value : nil }) == nil
        {
          node.from = previous
        }
      }
      properties[p].entries.append(Entry(node: node.id, reference: previous))
      count("additive retarget")
      if let older = nodes[entries.last!.node].bounds.end, let mine = node.bounds.end,
        node.timing.duration < nodes[entries.last!.node].timing.duration || mine < older
      {
        count("newer shorter retarget")
      }
    }
  }

  /// Where property `p`'s stack is heading: V₀ plus each member's change, whole while it
  /// runs, at the final progress it kept once ended (none once dropped out).
  func heading(of p: Int) -> Double {
    properties[p].entries.reduce(properties[p].base) { heading, entry in
      entry.dropped ? heading : heading + (entry.frozen ?? target(of: nodes[entry.node])) - entry.reference
    }
  }

  /// Settles an animation's values, once (replays reuse them): `from`, unless given (a first
  /// keyframe at 0 is one), is `start`.
  func resolveValues(_ node: Node, startingFrom start: Double) {
    guard !node.resolved else { return }
    if case .tween(let from, let to, _) = node.shape! {
      node.from = from ?? start
      node.to = to
    } else if case .keyframes(let frames) = node.shape! {
      node.from = frames.first.flatMap { $0.percent == 0 ? $0.value : nil } ?? start
      node.to = frames.last?.value
    }
    node.resolved = true
  }

  func target(of node: Node) -> Double { node.to ?? node.shape?.target ?? 0 }

  /// An animation ends (either way): it keeps its final output with a fill in its direction of
  /// travel, else drops out; when none is left running, the value becomes the base value.
  func leave(_ node: Node, forward: Bool) {
    guard let p = node.property, node.maskedBy == nil,
      let i = properties[p].entries.firstIndex(where: { $0.node == node.id })
    else { return }
    if node.timing.fill.forwards {
      properties[p].entries[i].frozen = edgeOutput(node, forward: forward)
    } else {
      properties[p].entries[i].dropped = true
    }
    if properties[p].entries.allSatisfy({ $0.frozen != nil || $0.dropped }) {
      properties[p].base = value(of: p)
      properties[p].entries = []
    }
  }

  func edgeOutput(_ node: Node, forward: Bool) -> Double {
    let edge = forward ? node.bounds.endEdge() : node.bounds.startEdge()
    return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: forward != edge.forwardPass)
  }

  /// The value of property `p` now.
  package func value(of p: Int) -> Double {
    var value = properties[p].base
    for entry in properties[p].entries {
      if entry.dropped { continue }
      if let frozen = entry.frozen {
        value += frozen - entry.reference
      } else if let output = output(of: nodes[entry.node]) {
        value += output - entry.reference
      }
    }
    return value
  }

  /// An effect's output now: Web Animations' phases and fills, on the zone crossed to.
  func output(of node: Node) -> Double? {
    if let local = boundaryLocalTime(of: node) { return output(of: node, atLocalTime: local) }
    let b = node.bounds
    if b.isActive(zone: node.zone, started: node.started) {
      var local = localTime(of: node)
      // Rule 6: between boundaries the local time is kept inside the zone the parent time
      // puts it in: short of the next boundary it has not reached (rounded at each level of
      // nesting, it can land on it a nanosecond early: seed 5165948), past the one behind it.
      // Going backwards, the boundary above it (crossed back) is its local time only where
      // the parent time is the one that boundary is reached at; past that, rounding can still
      // land it there (at speed 0.5, round(1 999 999 999.5) is 2 s, a pass boundary already
      // crossed back, read as the next pass's start: seed 5010570), and it is kept short of it.
      // Held on the boundary ahead, it stands there: turned forwards while paused on a pass
      // boundary it had reached going backwards, it has not crossed it, and its value does
      // not move (grammar.md § Timing: a speed change while paused moves nothing; seed 25257746).
      if node.forward, b.count.map({ node.zone < $0 }) ?? true, local >= b.boundary(node.zone),
        node.hold != b.boundary(node.zone)
      {
        local = b.boundary(node.zone) - 1
      } else if !node.forward, node.zone > 0, local <= b.boundary(node.zone - 1),
        !standsOnBoundary(node, b.boundary(node.zone - 1))
      {
        local = b.boundary(node.zone - 1) + 1
      } else if !node.forward, b.count.map({ node.zone < $0 }) ?? true, local >= b.boundary(node.zone),
        !standsOnBoundary(node, b.boundary(node.zone))
      {
        local = b.boundary(node.zone) - 1
      }
      var k = b.pass(ofZone: node.zone)
      // Web Animations (grammar.md § Timing): an exact pass boundary belongs to the next pass, also when
      // it was reached going backwards (only the edges of the active interval depend on the
      // direction): a countdown that repeats reads 0 at the instant it reaches 0, then wraps
      // (grammar.md § Timing). Its `repeat` has fired; the value is the next pass's start.
      if node.timing.duration > 0, b.isActive(zone: node.zone + 1, started: node.started),
        local == b.boundary(node.zone)
      {
        k = b.pass(ofZone: node.zone + 1)
      }
      // The end of the active interval (reached backwards: still active) is progress 1 of
      // the last pass, at the fraction of a fractional count (grammar.md § Timing: the spec's edge rule).
      if let end = b.end, local == end {
        let edge = b.endEdge()
        return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: false)
      }
      let (progress, time) = b.directed(pass: k, local: local)
      return shapeValue(node, progress: progress, time: time, beforeFlag: false)
    }
    if node.zone <= 0 {
      return backwardsFill(of: node, local: localTime(of: node))
    }
    guard node.timing.fill.forwards else { return nil }
    let edge = b.endEdge()
    return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: !edge.forwardPass)
  }

  /// Whether `node`'s local time is its boundary `u` now by rule 6: held there, or its parent
  /// time is the one `u` is reached at, S + round(u / r) (each level above rounding once).
  func standsOnBoundary(_ node: Node, _ u: OracleTime) -> Bool {
    if let hold = node.hold { return hold == u }
    if node.parent != nil && !chainHeld(node) && reach(node, u) == now { return true }
    return parentTime(of: node) == node.startTime + OracleArithmetic.roundQuotient(u, node.rate)
  }

  /// What an effect shows in its before phase at local time `local` (nil without a
  /// backwards fill).
  func backwardsFill(of node: Node, local: OracleTime) -> Double? {
    let b = node.bounds
    do {
      guard node.timing.fill.backwards else { return nil }
      count("backwards fill shown")
      let edge = b.startEdge()
      // Web Animations: in the before phase a backwards fill's active time is
      // max(local time − delay, 0), which moves when the delay is negative (an item placed
      // part-way, waiting for the timeline to reach it).
      // (Past the end of its active interval, as a delay that skips it all can put it, it
      // shows its end.)
      let d = node.timing.duration
      if d > 0 {
        let active = max(min(local, b.start) - node.timing.delay, 0)
        if let total = node.timing.activeDuration, active >= total {
          let end = b.endEdge()
          return shapeValue(node, progress: end.progress, time: end.time, beforeFlag: end.forwardPass)
        }
        let k = OracleBoundaries.floorDiv(active, d)
        let (progress, time) = b.directed(pass: k, local: node.timing.delay + active)
        // (Web Animations' before flag: the before phase, in the direction of the pass that
        // active time falls in, not of the pass its start is in.)
        return shapeValue(node, progress: progress, time: time, beforeFlag: b.isForwardPass(k))
      }
      return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: edge.forwardPass)
    }
  }

  // MARK: - A pass boundary reached backwards

  /// Web Animations at an exact pass boundary of a timeline above `node` that it reached
  /// going backwards: the boundary belongs to the next pass (grammar.md § Timing; a timeline's children
  /// read their time in that pass, as the engine's do), so `node` reads its local time from
  /// there. Only its value: what has been crossed stays crossed. nil when no timeline above
  /// it stands so.
  func boundaryLocalTime(of node: Node) -> OracleTime? {
    guard let parentID = node.parent else { return nil }
    let parent = nodes[parentID]
    let time: OracleTime
    if let local = boundaryLocalTime(of: parent) {
      time = webAnimationsIterationTime(of: parent, local: local)
    } else {
      let b = parent.bounds
      guard parent.timing.duration > 0,
        b.isActive(zone: parent.zone, started: parent.started),
        b.isActive(zone: parent.zone + 1, started: parent.started)
      else { return nil }
      let local = localTime(of: parent)
      guard local == b.boundary(parent.zone) else { return nil }
      time = b.directed(pass: b.pass(ofZone: parent.zone + 1), local: local).1
    }
    return rawLocalTime(of: node, parentTime: time)
  }

  /// A node's local time at parent time `p` (rule 6: a boundary of its own is reached at
  /// exactly S + round(u / r)), not kept inside the zone it has crossed to.
  func rawLocalTime(of node: Node, parentTime p: OracleTime) -> OracleTime {
    if let hold = node.hold { return hold }
    let raw = OracleArithmetic.roundProduct(p - node.startTime, node.rate)
    let b = node.bounds
    let zone = b.zone(local: raw, forward: true, started: node.started)
    for z in [zone - 1, zone, zone + 1] where z >= 0 && (b.count.map { z < $0 } ?? true) {
      let u = b.boundary(z)
      if node.startTime + OracleArithmetic.roundQuotient(u, node.rate) == p { return u }
    }
    return raw
  }

  /// The time a timeline at local time `local` gives its children, by Web Animations alone
  /// (a boundary belongs to the next pass; before and after, the edges').
  func webAnimationsIterationTime(of node: Node, local: OracleTime) -> OracleTime {
    let b = node.bounds
    let d = node.timing.duration
    guard d > 0 else { return 0 }
    if local < b.start || (!node.forward && local == b.start) {
      let edge = b.startEdge()
      return edge.time
    }
    if let end = b.end, local >= end {
      return b.endEdge().time
    }
    return b.directed(pass: OracleBoundaries.floorDiv(local - node.timing.delay, d), local: local).1
  }

  /// An effect's value at local time `local` by Web Animations' phases (the direction it
  /// travels deciding only at the edges of its active interval).
  func output(of node: Node, atLocalTime local: OracleTime) -> Double? {
    let b = node.bounds
    if local < b.start || (!node.forward && local == b.start) {
      return backwardsFill(of: node, local: local)
    }
    if let end = b.end, local > end || (node.forward && local == end) {
      guard node.timing.fill.forwards else { return nil }
      let edge = b.endEdge()
      return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: !edge.forwardPass)
    }
    if let end = b.end, local == end {
      let edge = b.endEdge()
      return shapeValue(node, progress: edge.progress, time: edge.time, beforeFlag: false)
    }
    guard node.timing.duration > 0 else { return nil }
    let k = OracleBoundaries.floorDiv(local - node.timing.delay, node.timing.duration)
    let (progress, time) = b.directed(pass: k, local: local)
    return shapeValue(node, progress: progress, time: time, beforeFlag: false)
  }

  /// The animation's value at directed progress `progress` (`time` ns into the pass).
  func shapeValue(_ node: Node, progress: Double, time: OracleTime, beforeFlag: Bool) -> Double {
    let from = node.from ?? 0
    switch node.shape! {
    case .tween(_, let to, let curve):
      let eased = curve.progress(progress, beforeFlag: beforeFlag)
      return interpolate(from, node.to ?? to, eased)
    case .keyframes(let frames):
      // Rule 10: segments on integer positions; (t − a)/(b − a).
      // With no duration every position is 0: the segments are found on the percents.
      let d = node.timing.duration
      var previousPosition = 0.0
      var previousValue = from
      let at = d == 0 ? progress : Double(time)
      for frame in frames {
        let value = frame.value ?? from
        let position = d == 0 ? frame.percent / 100 : Double(frame.position)
        if at <= position {
          let span = position - previousPosition
          let local = span > 0 ? (at - previousPosition) / span : 1
          return interpolate(previousValue, value, frame.curve.progress(local, beforeFlag: beforeFlag))
        }
        previousPosition = position
        previousValue = value
      }
      return previousValue
    }
  }

  func interpolate(_ a: Double, _ b: Double, _ t: Double) -> Double {
    if t == 0 { return a }
    if t == 1 { return b }
    return a + (b - a) * t
  }
}
