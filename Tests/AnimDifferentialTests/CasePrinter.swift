// A case as an `.anim` script (grammar.md's forms) and as Swift against AnimCore's API.

import AnimOracle

/// `ns` as an exact duration literal: `1.5s`, `250ms`, `0.000000001s`.
func durationLiteral(_ ns: OracleTime) -> String {
  if ns < 0 { return "-" + durationLiteral(-ns) }
  if ns % 1_000_000 == 0 && ns < 1_000_000_000 && ns != 0 { return "\(ns / 1_000_000)ms" }
  let whole = ns / 1_000_000_000
  var fraction = String(ns % 1_000_000_000)
  if fraction == "0" { return "\(whole)s" }
  fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
  while fraction.hasSuffix("0") { fraction.removeLast() }
  return "\(whole).\(fraction)s"
}

func number(_ x: Double) -> String {
  x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
}

func curveSource(_ curve: OracleCurve) -> String? {
  switch curve {
  case .linear: return nil
  case .cubic(let a, let b, let c, let d):
    if curve == .ease { return "ease" }
    if curve == .easeIn { return "easeIn" }
    if curve == .easeOut { return "easeOut" }
    if curve == .easeInOut { return "easeInOut" }
    return "cubic(\(number(a)), \(number(b)), \(number(c)), \(number(d)))"
  case .steps(let n, let jump): return jump == .jumpEnd ? "steps(\(n))" : "steps(\(n), \(jump.rawValue))"
  case .spring(let s):
    return "spring(mass: \(number(s.mass)), stiffness: \(s.stiffness), damping: \(s.damping))"
  }
}

func optionsSource(_ timing: OracleTiming, rate: Double, replace: Bool = false) -> String {
  var options: [String] = []
  if timing.delay != 0 { options.append("delay \(durationLiteral(timing.delay))") }
  if timing.iterations.isInfinite {
    options.append("repeat forever")
  } else if timing.iterations != 1 {
    options.append("repeat \(number(timing.iterations))")
  }
  if timing.autoreverse { options.append("autoreverse") }
  if timing.fill != .forwards { options.append("fill \(timing.fill.rawValue)") }
  if rate != 1 { options.append("speed \(number(rate))") }
  if replace { options.append("merge replace") }
  return options.map { " " + $0 }.joined()
}

/// The case as a script: one target `o` with the properties p0, p1, …; timeline and group
/// nodes named by their number.
func animScript(_ c: DifferentialCase) -> String {
  var properties: [Double] = []
  var kinds: [Int: (OracleNodeKind, OraclePlacement)] = [:]
  var count = 0
  for step in c.steps {
    if case .addProperty(let v) = step.operation { properties.append(v) }
    if case .add(let kind, let placement) = step.operation {
      kinds[count] = (kind.asAnimation, placement)
      count += 1
    }
  }
  var lines = [
    "target o { " + properties.enumerated().map { "p\($0.offset): \(number($0.element))" }.joined(separator: ", ")
      + " }"
  ]

  func animationSource(_ p: Int, _ shape: OracleShape, _ timing: OracleTiming, _ rate: Double, _ replace: Bool)
    -> [String]
  {
    let options = optionsSource(timing, rate: rate, replace: replace)
    switch shape {
    case .tween(let from, let to, let curve):
      var text = "animate o.p\(p)"
      if let from { text += " from \(number(from))" }
      text += " to \(number(to))"
      if case .spring = curve {} else { text += " over \(durationLiteral(timing.duration))" }
      if let source = curveSource(curve) { text += " with \(source)" }
      return [text + options]
    case .keyframes(let frames):
      var result = ["keyframes o.p\(p) over \(durationLiteral(timing.duration))\(options) {"]
      for frame in frames {
        let curve = frame.percent == 0 ? nil : curveSource(frame.curve)
        result.append("  \(number(frame.percent))%: \(number(frame.value ?? 0))" + (curve.map { " with \($0)" } ?? ""))
      }
      result.append("}")
      return result
    }
  }

  func items(of parent: Int, indent: String) -> [String] {
    var result: [String] = []
    for n in 0..<count {
      guard let (kind, placement) = kinds[n], case .inTimeline(let m, let at) = placement, m == parent else { continue }
      let prefix = indent + "at \(durationLiteral(at)) "
      switch kind {
      case .animation(let p, let shape, let timing, let rate, let replace):
        let source = animationSource(p, shape, timing, rate, replace)
        result.append(prefix + source[0])
        result += source.dropFirst().map { indent + $0 }
      case .timeline(let timing, let rate):
        var groupTiming = timing
        groupTiming.fill = .forwards
        result.append(prefix + "parallel\(optionsSource(groupTiming, rate: rate)) {  // group n\(n)")
        result.append(indent + "  wait \(durationLiteral(timing.duration))  // its length")
        result += items(of: n, indent: indent + "  ")
        result.append(indent + "}")
      case .callback(let key, _):
        result.append(prefix + "emit \"k\(key)\"  // n\(n)")
      case .set(let p, let value):
        result.append(prefix + "set o.p\(p) to \(number(value))")
      case .staggered:
        break  // (made plain animations above)
      }
    }
    return result
  }

  for n in 0..<count {
    guard let (kind, placement) = kinds[n], case .timeline(let timing, let rate) = kind, placement == .idle else {
      continue
    }
    lines.append("timeline n\(n)\(optionsSource(timing, rate: rate)) {")
    lines.append("  wait \(durationLiteral(timing.duration))  // its length")
    lines += items(of: n, indent: "  ")
    lines.append("}")
  }
  var node = 0
  for step in c.steps {
    let at = "at \(durationLiteral(step.time)) "
    switch step.operation {
    case .addProperty: break
    case .add(let kind, let placement):
      // (A staggered member at top level prints as the plain animation it places.)
      if case .animation(let p, let shape, let timing, let rate, let replace) = kind.asAnimation, placement == .now {
        let source = animationSource(p, shape, timing, rate, replace)
        lines.append(at + source[0] + "  // n\(node)")
        lines += source.dropFirst()
      }
      node += 1
    case .set(let p, let v):
      lines.append(at + "set o.p\(p) to \(number(v))")
    case .control(let control, let subject):
      let name: String
      switch subject {
      case .node(let n): name = "n\(n)"
      case .property(let p): name = "o.p\(p)"
      }
      switch control {
      case .play: lines.append(at + "play \(name)")
      case .pause: lines.append(at + "pause \(name)")
      case .resume: lines.append(at + "resume \(name)")
      case .reverse: lines.append(at + "reverse \(name)")
      case .finish: lines.append(at + "finish \(name)")
      case .cancel: lines.append(at + "cancel \(name)")
      case .seek(let t): lines.append(at + "seek \(name) to \(durationLiteral(t))")
      case .speed(let r): lines.append(at + "speed \(name) \(number(r))")
      }
    }
  }
  return lines.joined(separator: "\n")
}

/// The case as Swift against AnimCore (events and values are read as the test reads them).
func swiftSource(_ c: DifferentialCase) -> String {
  func timingSource(_ t: OracleTiming) -> String {
    var parts = ["delay: \(t.delay)", "duration: \(t.duration)"]
    if t.iterations != 1 { parts.append("iterations: \(t.iterations.isInfinite ? ".infinity" : "\(t.iterations)")") }
    if t.autoreverse { parts.append("direction: .alternate") }
    parts.append("fill: .\(t.fill.rawValue)")
    return "EffectTiming(\(parts.joined(separator: ", ")))"
  }
  func curveSwift(_ curve: OracleCurve) -> String {
    switch curve {
    case .linear: return ".linear"
    case .cubic(let a, let b, let c, let d): return ".cubicBezier(try CubicBezier(\(a), \(b), \(c), \(d)))"
    case .steps(let n, let j): return ".steps(try Steps(count: \(n), position: .\(j.rawValue)))"
    case .spring(let s):
      return
        ".spring(try SpringCurve(spring: try Spring(mass: \(s.mass), stiffness: \(s.stiffness), damping: \(s.damping))))"
    }
  }
  var lines = [
    "var engine = AnimationEngine()",
    "var events: [EngineEvent] = []",
    "let record: (inout AnimationEngine, EngineEvent) -> Void = { _, event in events.append(event) }",
  ]
  var properties = 0
  var nodes = 0
  var last: OracleTime = -1
  for step in c.steps {
    if step.time != last {
      lines.append("try engine.advance(to: \(step.time), record)")
      last = step.time
    }
    switch step.operation {
    case .addProperty(let v):
      lines.append("let p\(properties) = engine.addProperty(.number(\(v)))")
      properties += 1
    case .add(let kind, let placement):
      let place: String
      switch placement {
      case .now: place = ".engine(at: \(step.time))"
      case .idle: place = ".engineIdle"
      case .inTimeline(let m, let at): place = ".timeline(n\(m), at: \(at))"
      }
      switch kind.asAnimation {
      case .animation(let p, let shape, let timing, let rate, let replace):
        let shapeSwift: String
        switch shape {
        case .tween(let from, let to, let curve):
          shapeSwift =
            ".tween(from: \(from.map { ".number(\($0))" } ?? "nil"), to: .number(\(to)), curve: \(curveSwift(curve)))"
        case .keyframes(let frames):
          shapeSwift =
            ".keyframes(["
            + frames.map {
              "Keyframe(offset: \($0.percent / 100), value: .number(\($0.value ?? 0)), curve: \(curveSwift($0.curve)))"
            }.joined(separator: ", ") + "])"
        }
        lines.append(
          "let n\(nodes) = try engine.animate(p\(p), with: Animation(shape: \(shapeSwift), timing: \(timingSource(timing)), rate: \(rate)\(replace ? ", composition: .replace" : "")), placement: \(place))"
        )
      case .timeline(let timing, let rate):
        lines.append(
          "let n\(nodes) = try engine.addTimeline(timing: \(timingSource(timing)), rate: \(rate), placement: \(place))")
      case .callback(let key, let backwards):
        if case .inTimeline(let m, let at) = placement {
          lines.append(
            "let n\(nodes) = try engine.addCallback(key: \(key), to: n\(m), at: \(at), firesBackwards: \(backwards))")
        }
      case .set(let p, let v):
        if case .inTimeline(let m, let at) = placement {
          lines.append("let n\(nodes) = try engine.addSet(p\(p), to: .number(\(v)), in: n\(m), at: \(at))")
        }
      case .staggered:
        break  // (made a plain animation above)
      }
      nodes += 1
    case .set(let p, let v):
      lines.append("try engine.set(p\(p), to: .number(\(v)))")
    case .control(let control, let subject):
      let target: String
      switch subject {
      case .node(let n): target = "n\(n)"
      case .property(let p):
        target = "engine.animations(on: p\(p))\(control == .finish || control == .play ? ".suffix(1)" : "")"
      }
      func call(_ x: String) -> String {
        switch control {
        case .play: "play(\(x))"
        case .pause: "pause(\(x))"
        case .resume: "resume(\(x))"
        case .reverse: "reverse(\(x))"
        case .finish: "finish(\(x), record)"
        case .cancel: "cancel(\(x))"
        case .seek(let t): "seek(\(x), to: \(t))"
        case .speed(let r): "setRate(\(r), of: \(x))"
        }
      }
      if case .node = subject {
        lines.append("try engine.\(call(target))")
      } else {
        lines.append("for id in \(target) { try engine.\(call("id")) }")
      }
    }
  }
  for t in c.samples {
    lines.append(
      "try engine.advance(to: \(t), record); print(\(t), \((0..<properties).map { "engine.value(of: p\($0))" }.joined(separator: ", ")))"
    )
  }
  return lines.joined(separator: "\n")
}

extension OracleNodeKind {
  /// A staggered member as the plain animation it is, its offset the oracle's (the printed
  /// case then shows the delays the oracle gave each member).
  var asAnimation: OracleNodeKind {
    guard case .staggered(let member) = self else { return self }
    return member.animation(offset: member.stagger.offsets(count: member.count)[member.member])
  }
}
