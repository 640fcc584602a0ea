// RuntimeValue: a value of the language while a script runs, and how values become the
// engine's animatable values. (A curve is the engine's already: the checker made it.)

import AnimCore
import AnimLanguage

/// A value of one of the language's types.
enum RuntimeValue: Hashable {
  case number(Double)
  case duration(Nanoseconds)
  case percent(Double)
  case vector([Double])
  /// Straight sRGB channels in 0...1.
  case color(red: Double, green: Double, blue: Double, alpha: Double)
  case string(String)
  /// Boxed: a curve is several times the size of every other case, and a session keeps a
  /// value for each of its `let`s (a file of a million of them, a table of a million values).
  indirect case curve(TimingCurve)
  case boolean(Bool)

  init(_ constant: ConstantValue) {
    switch constant {
    case .number(let x): self = .number(x)
    case .duration(let ns): self = .duration(ns)
    case .percent(let p): self = .percent(p)
    case .vector(let v): self = .vector(v)
    case .color(let r, let g, let b, let a): self = .color(red: r / 255, green: g / 255, blue: b / 255, alpha: a)
    case .string(let s): self = .string(s)
    case .curve(let c): self = .curve(c)
    case .boolean(let b): self = .boolean(b)
    }
  }

  init(_ value: AnimationValue) {
    switch value {
    case .number(let x): self = .number(x)
    case .vec2(let v): self = .vector([v.x, v.y])
    case .vec3(let v): self = .vector([v.x, v.y, v.z])
    case .vec4(let v): self = .vector([v.x, v.y, v.z, v.w])
    case .color(let c):
      let s = c.straight
      self = .color(red: s.r, green: s.g, blue: s.b, alpha: s.a)
    }
  }

  /// The engine's value, for the animatable types.
  var animationValue: AnimationValue? {
    switch self {
    case .number(let x): return .number(x)
    case .vector(let v) where v.count == 2: return .vec2(Vec2(v[0], v[1]))
    case .vector(let v) where v.count == 3: return .vec3(Vec3(v[0], v[1], v[2]))
    case .vector(let v) where v.count == 4: return .vec4(Vec4(v[0], v[1], v[2], v[3]))
    case .color(let r, let g, let b, let a): return .color(Color(red: r, green: g, blue: b, alpha: a))
    default: return nil
    }
  }

  /// How `print` and `{...}` interpolation show the value.
  var text: String { text(style: .exact) }

  /// The value as a session shows it, numbers in `style`.
  func text(style: TraceNumber.Style) -> String {
    func f(_ x: Double) -> String { TraceNumber.format(x, style: style) }
    switch self {
    case .number(let x): return f(x)
    case .duration(let ns): return TraceNumber.seconds(ns, style: style) + "s"
    case .percent(let p): return f(p) + "%"
    case .vector(let v): return "(" + v.map(f).joined(separator: ", ") + ")"
    case .color:
      guard case .color(let c)? = animationValue else { return "" }
      return c.hexString()
    case .string(let s): return s
    case .curve(let c): return c.written
    case .boolean(let b): return b ? "true" : "false"
    }
  }
}
