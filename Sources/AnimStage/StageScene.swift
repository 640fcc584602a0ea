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

  /// The targets as a JSON array of records (`record`), in order.
  package var json: String {
    "[" + targets.map { Self.record($0) }.joined(separator: ",") + "]"
  }

  /// A target as the page takes it: `{"i":INDEX,"n":NAME,"e":ELEMENT,"g":[ATTRIBUTE…],
  /// "s":[ATTRIBUTE…],"x":TEXT,"u":[gauges]}`, `i` only when given, `e` null for a target not
  /// drawn, `x` only for a text; an ATTRIBUTE is `[NAME,TEXT]`, or `[NAME,[PIECE…],[NUMBER…]]`
  /// when it has numbers (its text is the pieces with the numbers between them).
  package static func record(_ target: DrawnTarget, index: Int? = nil) -> String {
    var out = "{"
    if let index { out += "\"i\":\(index)," }
    out += "\"n\":" + TraceJSON.string(target.name)
    out += ",\"e\":" + (target.element.map { "\"\($0)\"" } ?? "null")
    out += ",\"g\":" + attributes(target.group) + ",\"s\":" + attributes(target.shape)
    if let text = target.text { out += ",\"x\":" + TraceJSON.string(text) }
    return out + ",\"u\":[" + target.gauges.map(TraceJSON.string).joined(separator: ",") + "]}"
  }

  private static func attributes(_ attributes: [StageAttribute]) -> String {
    "["
      + attributes.map { attribute in
        let name = TraceJSON.string(attribute.name)
        if attribute.numbers.isEmpty { return "[" + name + "," + TraceJSON.string(attribute.pieces[0]) + "]" }
        return "[" + name + ",[" + attribute.pieces.map(TraceJSON.string).joined(separator: ",") + "],["
          + attribute.numbers.map(TraceNumber.json).joined(separator: ",") + "]]"
      }.joined(separator: ",") + "]"
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
