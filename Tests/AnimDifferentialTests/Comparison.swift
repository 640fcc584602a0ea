// Comparing the engine with the oracle, and reducing a mismatch to its smallest case.

import AnimOracle

/// The first difference between two observations of one case.
struct Mismatch: CustomStringConvertible {
  enum Kind: String { case value, event }
  var kind: Kind
  var detail: String
  /// A short signature for grouping mismatches into classes.
  var signature: String

  var description: String { detail }
}

/// Values: |engine − oracle| ≤ 1e-9 · max(1, the largest |value| the property took); events:
/// kind, subject, exact nanosecond, direction and order.
func compare(_ c: DifferentialCase, engine: Observation, oracle: Observation) -> Mismatch? {
  let propertyCount = oracle.values.first?.count ?? 0
  var largest = [Double](repeating: 1, count: propertyCount)
  for row in oracle.values + engine.values {
    for (p, v) in row.enumerated() where p < propertyCount && v.isFinite { largest[p] = max(largest[p], abs(v)) }
  }
  // The first event difference, and the first value difference; report the earlier.
  var eventMismatch: (OracleTime, Mismatch)?
  let n = max(engine.events.count, oracle.events.count)
  for i in 0..<n {
    let e = i < engine.events.count ? engine.events[i] : nil
    let o = i < oracle.events.count ? oracle.events[i] : nil
    if e != o {
      let time = min(e?.time ?? .max, o?.time ?? .max)
      let context = oracle.events[max(0, i - 2)..<min(oracle.events.count, i + 3)].map(\.description)
      let engineContext = engine.events[max(0, i - 2)..<min(engine.events.count, i + 3)].map(\.description)
      var signature =
        "event: expected \(o.map { kindName($0) } ?? "nothing"), engine \(e.map { kindName($0) } ?? "nothing")"
      if let e, let o, e.kind == o.kind, e.subject == o.subject, e.reversed == o.reversed, abs(e.time - o.time) <= 8 {
        signature = "event time off by a few ns (\(kindName(o)))"
      }
      eventMismatch = (
        time,
        Mismatch(
          kind: .event,
          detail:
            "event #\(i): expected \(o?.description ?? "none"), engine \(e?.description ?? "none")\n    expected around: \(context)\n    engine around:   \(engineContext)",
          signature: signature)
      )
      break
    }
  }
  var valueMismatch: (OracleTime, Mismatch)?
  for (s, time) in c.samples.enumerated() where s < oracle.values.count && s < engine.values.count {
    for p in 0..<propertyCount {
      let e = engine.values[s][p]
      let o = oracle.values[s][p]
      if !(abs(e - o) <= 1e-9 * largest[p]) {
        valueMismatch = (
          time,
          Mismatch(
            kind: .value, detail: "value of p\(p) at \(time)ns: expected \(o), engine \(e)",
            signature: "value after \(lastOperation(in: c, atOrBefore: time))")
        )
        break
      }
    }
    if valueMismatch != nil { break }
  }
  switch (eventMismatch, valueMismatch) {
  case (nil, nil): return nil
  case (let e?, nil): return e.1
  case (nil, let v?): return v.1
  case (let e?, let v?): return e.0 <= v.0 ? e.1 : v.1
  }
}

func kindName(_ event: OracleEvent) -> String {
  let kind: String
  switch event.kind {
  case .start: kind = "start"
  case .repeat: kind = "repeat"
  case .complete: kind = "complete"
  case .callback: kind = "callback"
  }
  let subject: String
  if case .property = event.subject { subject = "property" } else { subject = "node" }
  return "\(subject) \(kind)\(event.reversed ? " reversed" : "")"
}

/// Runs a case both ways and compares.
func check(_ c: DifferentialCase) -> (Mismatch?, Observation, Observation) {
  let oracle = runOracle(c)
  if oracle.gaveUp { return (nil, Observation(), oracle) }
  let engine = runEngine(c)
  return (compare(c, engine: engine, oracle: oracle), engine, oracle)
}

/// What the last operation at or before `time` was (a value mismatch's class): a control's
/// name, `animate` (top level), `set`, or `play`; declarations in timelines do not count.
func lastOperation(in c: DifferentialCase, atOrBefore time: OracleTime) -> String {
  for step in c.steps.reversed() where step.time <= time {
    switch step.operation {
    case .add(_, .now): return "animate"
    case .add, .addProperty: continue
    case .set: return "set"
    case .control(let control, _):
      switch control {
      case .play: return "play"
      case .pause: return "pause"
      case .resume: return "resume"
      case .reverse: return "reverse"
      case .finish: return "finish"
      case .cancel: return "cancel"
      case .seek: return "seek"
      case .speed: return "speed"
      }
    }
  }
  return "nothing"
}

// MARK: - Reducing

/// Removes operations (and samples) one at a time while the case still mismatches in the same
/// way (same kind of difference).
func reduce(_ c: DifferentialCase, _ mismatch: Mismatch) -> DifferentialCase {
  var best = c
  // (At most 20 s per case: a case with a fast repeat for ever takes the oracle seconds to
  // run, and a long run should not spend itself reducing one.)
  let clock = ContinuousClock()
  let deadline = clock.now + .seconds(20)
  func stillFails(_ candidate: DifferentialCase) -> Bool {
    guard clock.now < deadline else { return false }
    guard let m = check(candidate).0 else { return false }
    return m.signature == mismatch.signature
  }
  // Samples after the first mismatch first: keep those up to it.
  var changed = true
  while changed {
    changed = false
    var i = best.steps.count - 1
    while i >= 0 {
      if let candidate = removing(step: i, from: best), stillFails(candidate) {
        best = candidate
        changed = true
      }
      i -= 1
    }
    var s = best.samples.count - 1
    while s >= 0 && best.samples.count > 1 {
      var candidate = best
      candidate.samples.remove(at: s)
      if stillFails(candidate) {
        best = candidate
        changed = true
      }
      s -= 1
    }
  }
  // Later instants after the last sample and step add nothing.
  return best
}

/// The case without step `i`: removing a node's `add` removes what is placed in it and what
/// controls it, removing a property what uses it; the rest is renumbered.
func removing(step i: Int, from c: DifferentialCase) -> DifferentialCase? {
  var nodeOf: [Int: Int] = [:]
  var propertyOf: [Int: Int] = [:]
  var nodes = 0
  var properties = 0
  for (j, step) in c.steps.enumerated() {
    switch step.operation {
    case .add:
      nodeOf[j] = nodes
      nodes += 1
    case .addProperty:
      propertyOf[j] = properties
      properties += 1
    default: break
    }
  }
  var removedNodes = Set<Int>()
  var removedProperties = Set<Int>()
  if let n = nodeOf[i] { removedNodes.insert(n) }
  if let p = propertyOf[i] { removedProperties.insert(p) }
  // Parents come before their items, so one pass in order closes the set.
  for (j, step) in c.steps.enumerated() {
    guard case .add(let kind, let placement) = step.operation, let id = nodeOf[j] else { continue }
    if case .inTimeline(let m, _) = placement, removedNodes.contains(m) { removedNodes.insert(id) }
    switch kind {
    case .animation(let p, _, _, _, _), .set(let p, _):
      if removedProperties.contains(p) { removedNodes.insert(id) }
    case .staggered(let member):
      if removedProperties.contains(member.property) { removedNodes.insert(id) }
    default: break
    }
  }
  var nodeMap: [Int: Int] = [:]
  for n in 0..<nodes where !removedNodes.contains(n) { nodeMap[n] = nodeMap.count }
  var propertyMap: [Int: Int] = [:]
  for p in 0..<properties where !removedProperties.contains(p) { propertyMap[p] = propertyMap.count }
  var steps: [OracleStep] = []
  for (j, step) in c.steps.enumerated() where j != i {
    if let n = nodeOf[j], removedNodes.contains(n) { continue }
    if let p = propertyOf[j], removedProperties.contains(p) { continue }
    let operation: OracleOperation
    switch step.operation {
    case .addProperty: operation = step.operation
    case .add(let kind, let placement):
      var newKind = kind
      switch kind {
      case .animation(let p, let shape, let timing, let rate, let replace):
        newKind = .animation(property: propertyMap[p]!, shape: shape, timing: timing, rate: rate, replace: replace)
      case .set(let p, let v): newKind = .set(property: propertyMap[p]!, value: v)
      case .staggered(var member):
        // (A member keeps its place among the group's: its offset stays as it was.)
        member.property = propertyMap[member.property]!
        newKind = .staggered(member)
      default: break
      }
      var newPlacement = placement
      if case .inTimeline(let m, let at) = placement { newPlacement = .inTimeline(node: nodeMap[m]!, at: at) }
      operation = .add(newKind, newPlacement)
    case .set(let p, let v):
      guard let q = propertyMap[p] else { continue }
      operation = .set(property: q, value: v)
    case .control(let control, .node(let m)):
      guard let n = nodeMap[m] else { continue }
      operation = .control(control, .node(n))
    case .control(let control, .property(let p)):
      guard let q = propertyMap[p] else { continue }
      operation = .control(control, .property(q))
    }
    steps.append(OracleStep(time: step.time, operation))
  }
  return DifferentialCase(steps: steps, samples: c.samples, seed: c.seed)
}
