// Types: the static types of the `.anim` language and the constant values the checker
// can compute ahead of time. The runtime reads both from a `CheckedProgram`. Where the
// engine has the word, they use AnimCore's (a step position is AnimCore's `StepPosition`);
// a curve stays in the form it was written (`CurveValue`: a spring is stretched by each
// animation's `over`), which the runtime turns into AnimCore's `TimingCurve`. They are
// Codable so that a saved REPL session (`:save`) can write them.

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

/// The parameters of a spring, in the form they were written.
package enum SpringParameters: Hashable, Sendable, Codable {
  /// `spring(response: R, dampingFraction: F)`; the response in seconds.
  case response(response: Double, dampingFraction: Double)
  /// `spring(duration: D, bounce: B)`; the duration in seconds.
  case duration(duration: Double, bounce: Double)
  /// `spring(mass: M, stiffness: K, damping: C)`.
  case physical(mass: Double, stiffness: Double, damping: Double)
}

/// A curve whose parameters are all known before the script runs. In a box of its own
/// (`indirect`): the environment keeps one in every curve's symbol, for the whole check.
package indirect enum CurveValue: Hashable, Sendable, Codable {
  case linear
  /// CSS `cubic-bezier(x1, y1, x2, y2)`; the presets `ease`, `easeIn`... are cubics too.
  case cubic(x1: Double, y1: Double, x2: Double, y2: Double)
  case steps(count: Int, position: StepPosition)
  /// A spring and its initial velocity (distances per second; 0 when not written).
  case spring(SpringParameters, velocity: Double)

  package var kind: CurveKind {
    if case .spring = self { return .spring }
    return .timing
  }
}

/// A value computed by the checker from literals, constant `let`s and arithmetic.
///
/// A color is held in a box of its own (`indirect`), as a curve is (`CurveValue`), so that the
/// value is a few words: the environment keeps one in every `let`'s symbol for the whole
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
  /// (A `CurveValue` is a box already.)
  case curve(CurveValue)
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
