// StageDrawing: how a target is drawn on the stage, as pure functions from its properties to
// the attributes of one SVG element (issue 16, "What a target looks like"). The page only
// copies these attributes into its DOM, so the drawing rules live here once, in Swift, where
// unit tests pin them, and every later export can call the same functions.

import AnimCore
import AnimRuntime

/// What a target is drawn as. Today every target is a `rect`: the language form that chooses
/// a kind (`target card: circle { … }`) comes with its own change, which sets it in
/// `StageDrawing.kind(of:in:)`, the one place a kind is chosen.
package enum StageKind: Sendable, Hashable {
  case rect
  case circle
  /// A text, already interpolated.
  case text(String)
  /// A holder of values, not drawn: every property is a gauge.
  case none
}

/// One attribute of an SVG element, in the order it is written: a text with numbers in it,
/// kept apart (`pieces` around `numbers`) so that a frame can carry only the numbers that
/// changed, as numbers, and the page can write them into the text without parsing anything.
package struct StageAttribute: Sendable, Hashable {
  package var name: String
  /// The text around the numbers: one more piece than numbers (one piece: a plain text).
  package var pieces: [String]
  /// The numbers, finite (a non-finite one is drawn as 0).
  package var numbers: [Double]

  /// A plain text value.
  package init(_ name: String, _ value: String) {
    self.name = name
    self.pieces = [value]
    self.numbers = []
  }

  /// A value of numbers and the text around them (`pieces.count == numbers.count + 1`).
  package init(_ name: String, pieces: [String], numbers: [Double]) {
    precondition(pieces.count == numbers.count + 1, "one more piece than numbers")
    self.name = name
    self.pieces = pieces
    self.numbers = numbers.map { $0.isFinite ? $0 : 0 }
  }

  /// One number alone.
  package init(_ name: String, number: Double) {
    self.init(name, pieces: StageAttribute.alone, numbers: [number])
  }

  private static let alone = ["", ""]

  /// The attribute's text: the numbers written as `StageDrawing.number` writes them.
  package var value: String {
    var out = pieces[0]
    for (index, number) in numbers.enumerated() {
      out += StageDrawing.number(number)
      out += pieces[index + 1]
    }
    return out
  }

  /// Whether `other` differs from this attribute in its numbers only.
  package func sameTextAround(_ other: StageAttribute) -> Bool {
    name == other.name && pieces == other.pieces
  }
}

/// A target as the stage draws it: `<g data-target="NAME" transform="…" opacity="…">`
/// holding one shape element, and the properties that only the inspector shows.
package struct DrawnTarget: Sendable, Hashable {
  /// The target's name (a group member's is `dots[3]`).
  package var name: String
  /// The shape's element name (`rect`, `circle`, `text`), or nil for a target not drawn.
  package var element: String?
  /// The `<g>`'s attributes after `data-target`: `transform`, `opacity`.
  package var group: [StageAttribute]
  /// The shape's attributes.
  package var shape: [StageAttribute]
  /// A text's content.
  package var text: String?
  /// The properties (`T.p`) no role took: gauges in the inspector.
  package var gauges: [String]
}

/// The stage's coordinate system: `viewBox="-W/2 -H/2 W H"`, origin at the centre, y down.
package struct StageSize: Sendable, Hashable {
  package var width: Double
  package var height: Double

  package init(width: Double = 800, height: Double = 600) {
    self.width = width
    self.height = height
  }

  /// `W×H` (or `WxH`) with positive whole or decimal numbers; nil otherwise.
  package init?(parsing text: String) {
    let parts = text.split(whereSeparator: { $0 == "×" || $0 == "x" || $0 == "X" }).map(String.init)
    guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
      width.isFinite, height.isFinite, width > 0, height > 0
    else { return nil }
    self.init(width: width, height: height)
  }

  /// The `viewBox` attribute's value.
  package var viewBox: String {
    [-width / 2, -height / 2, width, height].map(StageDrawing.number).joined(separator: " ")
  }
}

/// The drawing rules.
package enum StageDrawing {
  /// A shape without a size is 100 × 60; a circle without one is 60 across.
  package static let defaultSize = Vec2(x: 100, y: 60)
  package static let defaultDiameter = 60.0
  /// Targets without a vertical position are stacked this far apart from the top.
  package static let slotHeight = 80.0
  /// The fill of a shape without one.
  package static let defaultFill = Color(red8: 0x5b, green8: 0x8d, blue8: 0xef)
  /// A text without a `fontSize`.
  package static let defaultFontSize = 16.0

  /// The names that give each role, first first: when several are present, the first of the
  /// right type wins and the others are gauges.
  package static let positionNames = ["position", "pos"]
  package static let angleNames = ["angle", "rotation"]
  package static let fillNames = ["fill", "tint", "color", "background"]

  /// The kind a target is drawn as, from its declaration (`target card: circle { ... }`):
  /// the one place it is chosen (see `StageKind`).
  package static func kind(of target: String, in runtime: Runtime) -> StageKind {
    switch runtime.stageKind(of: target) {
    case .rect: return .rect
    case .circle: return .circle
    case .none: return .none
    case .text(let text): return .text(text)
    }
  }

  /// Draws the target `name` of properties `properties` (short names and values, in
  /// declaration order). `slot` is its index among the targets without a vertical position
  /// (`needsSlot`), which sit at x = 0, y = top + 80·(slot + ½).
  package static func draw(
    _ name: String, kind: StageKind, properties: [(name: String, value: AnimationValue)], slot: Int,
    size: StageSize = StageSize()
  ) -> DrawnTarget {
    var roles = Roles(properties)
    var drawn = DrawnTarget(name: name, element: nil, group: [], shape: [], text: nil, gauges: [])
    if case .none = kind {
      drawn.gauges = properties.map { "\(name).\($0.name)" }
      return drawn
    }
    // Position: a vec2 `position` or `pos`, else the numbers `x` and `y`.
    var center = Vec2(x: 0, y: -size.height / 2 + slotHeight * (Double(slot) + 0.5))
    if let position = roles.vec2(positionNames) {
      center = position  // `x` and `y` stay gauges
    } else {
      if let x = roles.number("x") { center.x = x }
      if let y = roles.number("y") { center.y = y }
    }
    let angle = roles.number(angleNames) ?? 0
    var scale = Vec2(x: 1, y: 1)
    if let number = roles.number("scale") {
      scale = Vec2(x: number, y: number)
    } else if let vector = roles.vec2(["scale"]) {
      scale = vector
    }
    let opacity = roles.number("opacity") ?? 1
    let fill = roles.color(fillNames) ?? defaultFill
    let stroke = roles.color(["stroke"])
    let strokeWidth = roles.number("strokeWidth")

    drawn.group = [
      StageAttribute(
        "transform", pieces: transformPieces, numbers: [center.x, center.y, angle, scale.x, scale.y]),
      StageAttribute("opacity", number: opacity),
    ]
    var paint = [StageAttribute("fill", rgb(fill)), StageAttribute("fill-opacity", number: alpha(fill))]
    if let stroke {
      paint += [StageAttribute("stroke", rgb(stroke)), StageAttribute("stroke-opacity", number: alpha(stroke))]
      paint.append(StageAttribute("stroke-width", number: strokeWidth ?? 1))
    } else {
      paint.append(StageAttribute("stroke", "none"))
    }

    switch kind {
    case .rect:
      let box = roles.size() ?? defaultSize
      let corner = roles.number("radius") ?? 0
      drawn.element = "rect"
      drawn.shape = [
        StageAttribute("x", number: -box.x / 2), StageAttribute("y", number: -box.y / 2),
        StageAttribute("width", number: box.x), StageAttribute("height", number: box.y),
        StageAttribute("rx", number: corner),
      ]
    case .circle:
      let diameter: Double
      if let box = roles.size(allowingWidthAndHeight: false) {
        diameter = box.x
      } else if let radius = roles.number("radius") {
        diameter = 2 * radius
      } else {
        diameter = defaultDiameter
      }
      drawn.element = "circle"
      drawn.shape = [StageAttribute("cx", "0"), StageAttribute("cy", "0"), StageAttribute("r", number: diameter / 2)]
    case .text(let content):
      drawn.element = "text"
      drawn.text = content
      drawn.shape = [
        StageAttribute("x", "0"), StageAttribute("y", "0"), StageAttribute("text-anchor", "middle"),
        StageAttribute("dominant-baseline", "central"),
        StageAttribute("font-size", number: roles.number("fontSize") ?? defaultFontSize),
      ]
    case .none:
      break
    }
    drawn.shape += paint
    drawn.gauges = roles.untaken.map { "\(name).\($0)" }
    return drawn
  }

  /// `transform`'s text around its five numbers: `translate(X Y) rotate(A) scale(SX SY)`.
  private static let transformPieces = ["translate(", " ", ") rotate(", ") scale(", " ", ")"]

  /// Whether a target of these properties has no vertical position of its own, and so takes
  /// a slot (the next stacked place from the top).
  package static func needsSlot(_ kind: StageKind, _ properties: [(name: String, value: AnimationValue)]) -> Bool {
    if case .none = kind { return false }
    for (name, value) in properties {
      if positionNames.contains(name), value.kind == .vec2 { return false }
      if name == "y", value.kind == .number { return false }
    }
    return true
  }

  /// A number as the stage writes it: the shortest text that reads back to the same Double,
  /// whole numbers without a fraction (`TraceNumber`'s, as the trace writes them).
  package static func number(_ value: Double) -> String {
    value.isFinite ? TraceNumber.format(value) : "0"
  }

  /// `#rrggbb`, the straight channels (clamped, rounded as the trace's `#rrggbbaa`).
  package static func rgb(_ color: Color) -> String { String(color.hexString().prefix(7)) }

  /// The alpha, within 0...1.
  package static func alpha(_ color: Color) -> Double { min(max(color.alpha, 0), 1) }

  /// The properties of a target, and which a role has taken (by index: a target has a few
  /// properties, and a thousand targets are drawn sixty times a second, so no hashing).
  private struct Roles {
    var properties: [(name: String, value: AnimationValue)]
    var taken: [Bool]

    init(_ properties: [(name: String, value: AnimationValue)]) {
      self.properties = properties
      taken = Array(repeating: false, count: properties.count)
    }

    func index(_ name: String) -> Int? { properties.firstIndex { $0.name == name } }

    /// The first of `names` present with a value of `kind`: taken, with every other of
    /// `names` (they give the same role: gauges, whatever their type).
    mutating func first(_ names: [String], _ kind: ValueKind) -> AnimationValue? {
      for name in names {
        if let index = index(name), properties[index].value.kind == kind, !taken[index] {
          taken[index] = true
          return properties[index].value
        }
      }
      return nil
    }

    mutating func number(_ name: String) -> Double? { number([name]) }

    mutating func number(_ names: [String]) -> Double? {
      if case .number(let x)? = first(names, .number) { return x }
      return nil
    }

    mutating func vec2(_ names: [String]) -> Vec2? {
      if case .vec2(let v)? = first(names, .vec2) { return v }
      return nil
    }

    mutating func color(_ names: [String]) -> Color? {
      if case .color(let c)? = first(names, .color) { return c }
      return nil
    }

    /// `size` (a vec2, or a number for a square), else `width` and `height` (each defaulting
    /// to the default size's).
    mutating func size(allowingWidthAndHeight: Bool = true) -> Vec2? {
      if let box = vec2(["size"]) { return box }
      if let side = number("size") { return Vec2(x: side, y: side) }
      guard allowingWidthAndHeight else { return nil }
      let width = number("width")
      let height = number("height")
      if width == nil && height == nil { return nil }
      return Vec2(x: width ?? StageDrawing.defaultSize.x, y: height ?? StageDrawing.defaultSize.y)
    }

    /// The names no role took, in declaration order.
    var untaken: [String] { properties.indices.filter { !taken[$0] }.map { properties[$0].name } }
  }
}
