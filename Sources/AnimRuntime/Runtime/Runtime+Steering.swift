// Runtime+Steering: what a person at `anim run`'s terminal does to everything at once
// (`r`, and ← →), as the bare control statements do to every top-level animation and
// timeline.

import AnimCore
import AnimLanguage

extension Runtime {
  /// A change to every top-level animation and timeline that is playing, paused or finished
  /// (a timeline declared and never played is left alone).
  package enum Steering: Sendable, Hashable {
    /// Each turns around, as the bare statement `reverse` does.
    case reverse
    /// Each jumps by this much of its own time (negative: back), silently as `seek` does,
    /// kept within 0 and its end.
    case seek(by: Nanoseconds)
  }

  /// Applies `steering` now. The events it causes come with the next advance.
  package func steer(_ steering: Steering) {
    for node in engine.topLevelNodes {
      guard let status = try? engine.status(of: node), status.state != .idle else { continue }
      switch steering {
      case .reverse:
        try? engine.reverse(node)
      case .seek(let delta):
        var target = max(saturatingSum(status.localTime, delta), 0)
        if let end = status.duration { target = min(target, end) }
        guard target != status.localTime else { continue }
        try? engine.seek(node, to: target)
      }
    }
  }
}

extension Runtime {
  /// Reports a control statement that ran, with the properties whose animations it acts on
  /// (for the chart, which marks it on their lanes).
  func recordControl(_ statement: Statement, _ context: ProgramContext) {
    guard case .control(let control) = statement.kind else { return }
    var nodes: [NodeID] = []
    switch control.subject {
    case nil: nodes = engine.topLevelNodes
    case .name(let identifier)?:
      if let name = try? resolved(identifier, context) { nodes = timelines[name]?.node.map { [$0] } ?? [] }
    case .property(let reference)?:
      if let property = try? propertyID(reference, context) { nodes = engine.animations(on: property) }
    }
    var names: [String] = []
    for node in nodes {
      for property in (try? engine.properties(under: node)) ?? [] {
        if let name = propertyName(of: property), !names.contains(name) { names.append(name) }
      }
    }
    if case .property(let reference)? = control.subject, names.isEmpty, let property = try? resolved(reference, context)
    {
      names = [property.name]
    }
    // The statement as written, from its verb (after any placement), its spacing made plain.
    let start = statement.placement.map { $0.span.end } ?? statement.span.start
    let text = String(decoding: context.source.bytes[start..<statement.span.end], as: UTF8.self)
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
    record(.control(time: engine.now, statement: words.joined(separator: " "), properties: names))
  }
}
