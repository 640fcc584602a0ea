// Runtime+Stage: what `anim preview`'s stage reads of a runtime, through a few accessors, so
// that AnimStage never reaches into the runtime's tables.

import AnimCore

extension Runtime {
  /// The targets, in the order of their first property's declaration, each with its
  /// properties' short names and current values in declaration order. (A target of no
  /// properties has nothing to draw and is left out.)
  package var stageTargets: [(name: String, properties: [(name: String, value: AnimationValue)])] {
    var order: [String] = []
    var byTarget: [String: [(name: String, value: AnimationValue)]] = [:]
    let engine = self.engine
    for name in propertyNames {
      guard let id = properties[name], let dot = name.lastIndex(of: ".") else { continue }
      let target = String(name[..<dot])
      let property = String(name[name.index(after: dot)...])
      // A name the target no longer declares (a redeclaration in the REPL) is not drawn.
      guard targets[target]?.contains(property) ?? false else { continue }
      if byTarget[target] == nil {
        order.append(target)
        byTarget[target] = []
      }
      byTarget[target]!.append((property, engine.currentValue(of: id)))
    }
    return order.map { ($0, byTarget[$0]!) }
  }

  /// Whether a timeline of this name is declared (the stage's lane controls name timelines).
  package func hasTimeline(named name: String) -> Bool { timelines[name] != nil }

  /// The declared timelines' names, sorted.
  package var timelineNamesForStage: [String] { timelines.keys.sorted() }
}
