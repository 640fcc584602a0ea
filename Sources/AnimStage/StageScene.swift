// StageScene: every target of a runtime drawn at its current values, written as SVG (the
// page served at an instant) or as JSON (each frame the page receives).

import AnimCore
import AnimRuntime

/// The drawn targets of one instant.
package struct StageScene: Sendable, Hashable {
  package var targets: [DrawnTarget]
  package var size: StageSize

  /// The targets of `runtime` at its current values, in declaration order (laid out as
  /// `layout` says, when it is the runtime's current one).
  package init(_ runtime: Runtime, size: StageSize, layout: StageLayout? = nil) {
    self.size = size
    var slot = 0
    let targets = layout.map { runtime.stageTargets(in: $0) } ?? runtime.stageTargets
    self.targets = targets.map { target in
      let kind = StageDrawing.kind(of: target.name, in: runtime)
      let needsSlot = StageDrawing.needsSlot(kind, target.properties)
      defer { if needsSlot { slot += 1 } }
      return StageDrawing.draw(target.name, kind: kind, properties: target.properties, slot: slot, size: size)
    }
  }

  /// The targets as the children of the stage's `<svg>`: one `<g data-target=…>` each.
  package var svgBody: String {
    var out = ""
    for target in targets where target.element != nil {
      out += "<g data-target=\"\(StageEscaping.attribute(target.name))\""
      for attribute in target.group { out += " \(attribute.name)=\"\(StageEscaping.attribute(attribute.value))\"" }
      out += "><\(target.element!)"
      for attribute in target.shape { out += " \(attribute.name)=\"\(StageEscaping.attribute(attribute.value))\"" }
      if let text = target.text {
        out += ">\(StageEscaping.text(text))</\(target.element!)></g>\n"
      } else {
        out += "/></g>\n"
      }
    }
    return out
  }

  /// The whole `<svg>` element.
  package var svg: String {
    "<svg id=\"stage\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(size.viewBox)\">\n\(svgBody)</svg>"
  }

  /// The targets as a JSON array: `{"n":NAME,"e":ELEMENT,"g":{…},"s":{…},"x":TEXT,"u":[gauges]}`,
  /// `e` null for a target not drawn.
  package var json: String {
    var out = "["
    for (index, target) in targets.enumerated() {
      if index > 0 { out += "," }
      out += "{\"n\":" + TraceJSON.string(target.name)
      out += ",\"e\":" + (target.element.map { "\"\($0)\"" } ?? "null")
      out += ",\"g\":" + Self.object(target.group) + ",\"s\":" + Self.object(target.shape)
      if let text = target.text { out += ",\"x\":" + TraceJSON.string(text) }
      out += ",\"u\":[" + target.gauges.map(TraceJSON.string).joined(separator: ",") + "]}"
    }
    return out + "]"
  }

  private static func object(_ attributes: [StageAttribute]) -> String {
    "{" + attributes.map { TraceJSON.string($0.name) + ":" + TraceJSON.string($0.value) }.joined(separator: ",") + "}"
  }
}

/// Escaping for what the stage writes into HTML and SVG: target names may hold brackets,
/// quotes or anything a string may (`dots[3]`, a text's content).
package enum StageEscaping {
  /// Text for a double-quoted attribute value.
  package static func attribute(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }

  /// Text for an element's content.
  package static func text(_ text: String) -> String { attribute(text) }
}
