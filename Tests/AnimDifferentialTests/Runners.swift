// One case, run on the engine and on the oracle the same way: at each instant in order,
// advance to it (collecting events), apply the operations there, advance to it again (what
// they made due now), then read every property.

import AnimCore
import AnimOracle

/// What a run observed.
struct Observation {
  /// values[sample][property]
  var values: [[Double]] = []
  var events: [OracleEvent] = []
  /// What the oracle did (empty for the engine).
  var tally: [String: Int] = [:]
  /// The oracle took longer than its deadline and gave up: nothing to compare.
  var gaveUp = false
}

/// The instants of a case: every step time and sample time, in order.
func instants(of c: DifferentialCase) -> [OracleTime] {
  Array(Set(c.steps.map(\.time) + c.samples)).sorted()
}

func runOracle(_ c: DifferentialCase) -> Observation {
  let world = OracleWorld()
  world.deadline = ContinuousClock.now + .seconds(20)
  var observation = Observation()
  var next = 0
  let samples = Set(c.samples)
  for t in instants(of: c) {
    world.advance(to: t)
    if world.gaveUp {
      observation.gaveUp = true
      return observation
    }
    while next < c.steps.count && c.steps[next].time == t {
      world.apply(c.steps[next].operation)
      next += 1
    }
    world.advance(to: t)
    if samples.contains(t) {
      observation.values.append((0..<world.propertyCount).map { world.value(of: $0) })
    }
  }
  observation.events = world.events
  observation.tally = world.tally
  return observation
}

// MARK: - The engine

func engineCurve(_ curve: OracleCurve) -> TimingCurve {
  switch curve {
  case .linear: return .linear
  case .cubic(let x1, let y1, let x2, let y2): return .cubicBezier(try! CubicBezier(x1, y1, x2, y2))
  case .steps(let n, let jump): return .steps(try! Steps(count: n, position: StepPosition(rawValue: jump.rawValue)!))
  case .spring(let s):
    return .spring(
      try! SpringCurve(
        spring: try! Spring(mass: s.mass, stiffness: s.stiffness, damping: s.damping), initialVelocity: s.velocity))
  }
}

/// The engine's stagger for the oracle's.
func engineStagger(_ s: OracleStagger) -> Stagger {
  let origin: Stagger.Origin
  switch s.origin {
  case .start: origin = .start
  case .end: origin = .end
  case .center: origin = .center
  case .edges: origin = .edges
  case .member(let n): origin = .member(n)
  case .random(let seed): origin = .random(seed: seed)
  }
  return Stagger(
    spacing: s.isTotal ? .total(s.amount) : .step(s.amount), origin: origin, grid: s.grid,
    curve: s.curve.map(engineCurve))
}

func engineTiming(_ t: OracleTiming) -> EffectTiming {
  EffectTiming(
    delay: t.delay, duration: t.duration, iterations: t.iterations, direction: t.autoreverse ? .alternate : .normal,
    fill: FillMode(rawValue: t.fill.rawValue)!)
}

func engineAnimation(_ shape: OracleShape, _ timing: OracleTiming, rate: Double, replace: Bool) -> Animation {
  var engineTiming = engineTiming(timing)
  let engineShape: AnimationShape
  switch shape {
  case .tween(let from, let to, let curve):
    engineShape = .tween(from: from.map(AnimationValue.number), to: .number(to), curve: engineCurve(curve))
    // A spring's length is the engine's own settling time (the oracle computes its own).
    if case .spring = curve, let own = engineCurve(curve).intrinsicDuration { engineTiming.duration = own }
  case .keyframes(let frames):
    engineShape = .keyframes(
      frames.map {
        Keyframe(offset: $0.percent / 100, value: $0.value.map(AnimationValue.number), curve: engineCurve($0.curve))
      })
  }
  return Animation(shape: engineShape, timing: engineTiming, rate: rate, composition: replace ? .replace : .automatic)
}

/// Runs a case on AnimCore. A timeline `set` item is the engine's own (`addSet`); its node's
/// start and complete are not events the oracle knows.
func runEngine(_ c: DifferentialCase) -> Observation {
  var engine = AnimationEngine()
  var properties: [PropertyID] = []
  var nodes: [NodeID] = []
  var index: [NodeID: Int] = [:]
  var setNodes = Set<NodeID>()
  var observation = Observation()
  let samples = Set(c.samples)
  var events: [OracleEvent] = []

  func record(_ engine: inout AnimationEngine, _ event: EngineEvent) {
    let kind: OracleEvent.Kind
    switch event.kind {
    case .start: kind = .start
    case .repeat: kind = .repeat
    case .complete: kind = .complete
    case .callback(let key):
      kind = .callback(key)
    case .needsValues, .clockGap: return
    }
    let subject: OracleSubject
    switch event.subject {
    case .node(let id):
      guard let i = index[id], !setNodes.contains(id) else { return }
      subject = .node(i)
    case .property(let p):
      subject = .property(properties.firstIndex(of: p) ?? -1)
    case .engine: return
    }
    events.append(OracleEvent(time: event.time, kind: kind, subject: subject, reversed: event.isReversed))
  }

  func apply(_ operation: OracleOperation) {
    switch operation {
    case .addProperty(let v):
      properties.append(engine.addProperty(.number(v)))
    case .add(let kind, let placement):
      let enginePlacement: AnimationEngine.Placement
      switch placement {
      case .now: enginePlacement = .engine(at: engine.now)
      case .idle: enginePlacement = .engineIdle
      case .inTimeline(let n, let at): enginePlacement = .timeline(nodes[n], at: at)
      }
      let id: NodeID
      // A staggered member, with the offset AnimCore's `Stagger` gives it (the runtime's).
      var kind = kind
      if case .staggered(let member) = kind {
        kind = member.animation(offset: engineStagger(member.stagger).delays(count: member.count)[member.member])
      }
      switch kind {
      case .animation(let p, let shape, let timing, let rate, let replace):
        id = try! engine.animate(
          properties[p], with: engineAnimation(shape, timing, rate: rate, replace: replace), placement: enginePlacement)
      case .timeline(let timing, let rate):
        id = try! engine.addTimeline(timing: engineTiming(timing), rate: rate, placement: enginePlacement)
      case .callback(let key, let backwards):
        guard case .timeline(let tl, let at) = enginePlacement else { fatalError("a callback outside a timeline") }
        id = try! engine.addCallback(key: key, to: tl, at: at, firesBackwards: backwards)
      case .set(let p, let value):
        guard case .timeline(let tl, let at) = enginePlacement else { fatalError("a set item outside a timeline") }
        id = try! engine.addSet(properties[p], to: .number(value), in: tl, at: at)
        setNodes.insert(id)
      case .staggered:
        fatalError("made a plain animation above")
      }
      index[id] = nodes.count
      nodes.append(id)
    case .set(let p, let value):
      try? engine.set(properties[p], to: .number(value))
    case .control(let control, let subject):
      let targets: [NodeID]
      switch subject {
      case .node(let n): targets = [nodes[n]]
      case .property(let p):
        let all = engine.animations(on: properties[p]).filter { engine.contains($0) }
        switch control {
        case .seek, .finish, .play: targets = all.last.map { [$0] } ?? []
        default: targets = all
        }
      }
      for id in targets where engine.contains(id) {
        switch control {
        case .play: try? engine.play(id)
        case .pause: try? engine.pause(id)
        case .resume: try? engine.resume(id)
        case .reverse: try? engine.reverse(id)
        case .seek(let t): try? engine.seek(id, to: t)
        case .speed(let r): try? engine.setRate(r, of: id)
        case .finish: try? engine.finish(id, record)
        case .cancel: try? engine.cancel(id)
        }
      }
    }
  }

  // Rule 12 bounds the repeats one advance hands out (1,000 per animation, then one for
  // the rest), which the oracle does not model: where a case repeats that often, the engine
  // is advanced in steps of the shortest pass (at most a few hundred passes a step at the
  // generator's rates), which must not change what it does.
  var shortest: OracleTime?
  for step in c.steps {
    guard case .add(let kind, _) = step.operation else { continue }
    switch kind.asAnimation {
    case .animation(_, _, let timing, _, _), .timeline(let timing, _):
      if timing.duration > 0 && (timing.iterations.isInfinite || timing.iterations >= 100) {
        shortest = min(shortest ?? timing.duration, timing.duration)
      }
    default: break
    }
  }
  var last: OracleTime = 0
  var next = 0
  for t in instants(of: c) {
    if let shortest {
      var u = last
      while t - u > shortest {
        u += shortest
        try? engine.advance(to: u, record)
      }
    }
    last = t
    try? engine.advance(to: t, record)
    while next < c.steps.count && c.steps[next].time == t {
      apply(c.steps[next].operation)
      next += 1
    }
    try? engine.advance(to: t, record)
    if samples.contains(t) {
      observation.values.append(
        properties.map { id in
          if case .number(let x) = engine.value(of: id) { return x }
          return .nan
        })
    }
  }
  observation.events = events
  return observation
}
