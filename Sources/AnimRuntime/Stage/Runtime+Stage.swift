// Runtime+Stage: what `anim preview`'s stage reads of a runtime, through a few accessors, so
// that AnimStage never reaches into the runtime's tables.

import AnimCore

/// The targets of a runtime and their properties, in order, with the ids to read their values
/// by: worked out once per change of the runtime's declarations, not once per frame (a
/// thousand targets' names split sixty times a second cost more than drawing them).
package struct StageLayout: Sendable {
  package struct Target: Sendable {
    package var name: String
    package var properties: [(name: String, id: PropertyID)]
  }
  package var targets: [Target]
  /// What the layout was made from: a runtime whose `stageLayoutKey` still equals it has the
  /// same targets and properties.
  package var key: [Int]
}

extension Runtime {
  /// Changes whenever a property is added or given a new id, or a target's list of
  /// properties changes (a redeclaration in the REPL).
  package var stageLayoutKey: [Int] {
    [propertyGeneration, properties.count, targets.count, targets.values.reduce(0) { $0 + $1.count }]
  }

  /// The targets, in the order of their first property's declaration, each with its
  /// properties in declaration order. (A target of no properties has nothing to draw and is
  /// left out.)
  package var stageLayout: StageLayout {
    var order: [String] = []
    var byTarget: [String: [(name: String, id: PropertyID)]] = [:]
    for (name, id) in properties {
      guard let dot = name.lastIndex(of: ".") else { continue }
      let target = String(name[..<dot])
      let property = String(name[name.index(after: dot)...])
      // A name the target no longer declares (a redeclaration in the REPL) is not drawn.
      guard targets[target]?.contains(property) ?? false else { continue }
      if byTarget[target] == nil {
        order.append(target)
        byTarget[target] = []
      }
      byTarget[target]!.append((property, id))
    }
    return StageLayout(
      targets: order.map { StageLayout.Target(name: $0, properties: byTarget[$0]!) }, key: stageLayoutKey)
  }

  /// The targets with their properties' current values (`stageLayout`, read now).
  package var stageTargets: [(name: String, properties: [(name: String, value: AnimationValue)])] {
    stageTargets(in: stageLayout)
  }

  /// The targets of `layout` with their properties' current values.
  package func stageTargets(in layout: StageLayout) -> [(
    name: String, properties: [(name: String, value: AnimationValue)]
  )] {
    let engine = self.engine
    return layout.targets.map { target in
      (target.name, target.properties.map { ($0.name, engine.currentValue(of: $0.id)) })
    }
  }

  /// The declared timelines' names, sorted.
  package var timelineNamesForStage: [String] { timelines.keys.sorted() }
}

/// How a stage draws a target, as its declaration says (grammar.md § Groups and stagger: a
/// target's kind), with a text's interpolations read now.
package enum StageTargetKind: Sendable, Hashable {
  case rect, circle, none
  case text(String)
}

extension Runtime {
  /// The kind of target `name` (a group's member `G[k]` takes its group's, its text read with
  /// the member's `index` and `count`); a rect when none was written. A text that cannot be
  /// read now (a division by zero in it) shows empty.
  package func stageKind(of name: String) -> StageTargetKind {
    var declared = name
    var member: (index: Int, count: Int)?
    if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
      let group = String(name[..<open])
      if let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]), let count = groups[group] {
        declared = group
        member = (index, count)
      }
    }
    guard let (declaration, program) = targetKinds[declared], let kind = declaration.kind else { return .rect }
    switch kind {
    case .rect: return .rect
    case .circle: return .circle
    case .none: return .none
    case .text(let literal, _):
      return .text((try? interpolate(literal, memberContext(program, member))) ?? "")
    }
  }
}
