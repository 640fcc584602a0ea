// Types: the static types of the `.anim` language and the constant values the checker
// can compute ahead of time. The runtime reads both from a `CheckedProgram`. Where the
// engine has the word, they use AnimCore's: a step position is AnimCore's `StepPosition`,
// and a curve is AnimCore's `TimingCurve`, made (and so validated) by the engine's own
// initialisers when the checker folds it; a spring is kept at its own length, and each
// animation stretches it by its `over`. They are Codable so that a saved REPL session
// (`:save`) can write them.

import AnimCore

/// The type of an expression, fixed by the checker.
package enum ValueType: Hashable, Sendable, Codable, CustomStringConvertible {
  case number
  case duration
  /// `40%`: only a keyframe position.
  case percent
  case vec2, vec3, vec4
  case color
  case string
  /// A timing curve or a spring (see `CurveKind` for which).
  case curve
  /// `true` or `false`: comparisons and `and`, `or`, `not`, for `if` and `var`.
  case boolean
  /// The type of an expression that already has an error reported: it matches every
  /// expectation, so one mistake is reported once and not again by each use.
  case error

  /// The vector type with `arity` components (2, 3 or 4).
  package static func vector(arity: Int) -> ValueType? {
    switch arity {
    case 2: return .vec2
    case 3: return .vec3
    case 4: return .vec4
    default: return nil
    }
  }

  /// The number of components of a vector type, or nil.
  package var vectorArity: Int? {
    switch self {
    case .vec2: return 2
    case .vec3: return 3
    case .vec4: return 4
    default: return nil
    }
  }

  /// Whether a property of this type can be animated (interpolated): number, vectors, color.
  package var isAnimatable: Bool {
    switch self {
    case .number, .vec2, .vec3, .vec4, .color, .error: return true
    default: return false
    }
  }

  /// The name as the language writes it.
  package var name: String {
    switch self {
    case .number: return "number"
    case .duration: return "duration"
    case .percent: return "percent"
    case .vec2: return "vec2"
    case .vec3: return "vec3"
    case .vec4: return "vec4"
    case .color: return "color"
    case .string: return "string"
    case .curve: return "curve"
    case .boolean: return "boolean"
    case .error: return "error"
    }
  }

  /// The name with its article, as messages use it: "a number", "a vec2".
  package var description: String { "a \(name)" }
}

/// Whether a curve is a fixed-length timing curve or a spring (physics, which needs no
/// `over` and keeps velocity when retargeted).
package enum CurveKind: String, Hashable, Sendable, Codable {
  case timing, spring
}

extension TimingCurve {
  /// Whether the curve is a timing curve or a spring, as the checker types it.
  package var kind: CurveKind { isSpring ? .spring : .timing }
}

/// A value computed by the checker from literals, constant `let`s and arithmetic.
///
/// A color and a curve are each held in a box of their own (`indirect`), so that the value
/// is a few words: the environment keeps one in every `let`'s symbol for the whole
/// check, and a script may declare a million of them.
package enum ConstantValue: Hashable, Sendable, Codable {
  case number(Double)
  case duration(nanoseconds: Int64)
  /// A keyframe percent: 40 for `40%`.
  case percent(Double)
  /// The components of a vec2, vec3 or vec4.
  case vector([Double])
  /// Straight (not premultiplied) sRGB channels: red, green, blue in 0...255, alpha in 0...1,
  /// as `rgba(r, g, b, a)` writes them.
  indirect case color(red: Double, green: Double, blue: Double, alpha: Double)
  case string(String)
  /// The engine's curve, validated; a spring at its own length (not yet stretched by an
  /// `over`).
  indirect case curve(TimingCurve)
  case boolean(Bool)

  /// The static type of this value.
  package var type: ValueType {
    switch self {
    case .number: return .number
    case .duration: return .duration
    case .percent: return .percent
    case .vector(let components): return ValueType.vector(arity: components.count) ?? .error
    case .color: return .color
    case .string: return .string
    case .curve: return .curve
    case .boolean: return .boolean
    }
  }
}
