// Builtins: the one table of the language's predeclared names (grammar.md § Functions
// and curve table): the value functions and what they compute, the curve constructors, the
// curve presets, the spring forms and the step positions.
//
// Everything that knows these names reads them here: the checker (types, arity, ranges),
// the constant evaluator and the runtime (both compute a function through `apply`, so what
// `check` folds and what `run` computes cannot differ), the REPL's completion, and, through
// agreement tests, the fuzz dictionary (fuzz/anim.dict) and grammar.md's tables.

import AnimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value function (grammar.md § Functions: `min`, `max`, `clamp(x, lo, hi)`, `abs`, `sqrt`, `sin`,
/// `cos` (radians), `lerp(a, b, t)`, `rgb`, `rgba`).
package enum BuiltinFunction: String, CaseIterable, Sendable {
  case min, max, clamp, abs, sqrt, sin, cos, lerp, rgb, rgba

  /// What a function accepts, which the checker enforces.
  package enum Signature: Sendable {
    /// All arguments numbers, or all durations; the result is of their type.
    case numbersOrDurations
    /// One number; a number.
    case number
    /// `lerp(a, b, t)`: a and b of one type (number, vector, color or duration), t a number.
    case interpolation
    /// Color channels: numbers, red, green and blue in 0...255, alpha in 0...1.
    case channels
  }

  /// The parameters' names, as grammar.md's table writes them.
  package var parameters: [String] {
    switch self {
    case .min, .max: return ["a", "b"]
    case .clamp: return ["x", "lo", "hi"]
    case .abs, .sqrt, .sin, .cos: return ["x"]
    case .lerp: return ["a", "b", "t"]
    case .rgb: return ["r", "g", "b"]
    case .rgba: return ["r", "g", "b", "a"]
    }
  }

  package var arity: Int { parameters.count }

  package var signature: Signature {
    switch self {
    case .min, .max, .clamp, .abs: return .numbersOrDurations
    case .sqrt, .sin, .cos: return .number
    case .lerp: return .interpolation
    case .rgb, .rgba: return .channels
    }
  }

  /// The call as grammar.md's table writes it: `clamp(x, lo, hi)`.
  package var form: String { "\(rawValue)(\(parameters.joined(separator: ", ")))" }

  /// The allowed range of argument `index` of a color function.
  package func channelRange(_ index: Int) -> ClosedRange<Double> {
    index == 3 ? 0...1 : 0...255
  }

  /// The channel names of `rgb` and `rgba`, for messages.
  static let channelNames = ["red", "green", "blue", "alpha"]

  /// The function applied to values of the types its signature accepts: the one definition
  /// the checker folds constants with and the runtime computes with.
  package func apply(_ arguments: [ConstantValue]) -> Result<ConstantValue, ArithmeticError> {
    guard arguments.count == arity else { return .failure(.notApplicable) }
    var numbers: [Double] = []
    var durations: [Int64] = []
    for argument in arguments {
      switch argument {
      case .number(let x): numbers.append(x)
      case .duration(let nanoseconds): durations.append(nanoseconds)
      default: break
      }
    }
    let allNumbers = numbers.count == arity
    let allDurations = durations.count == arity
    switch self {
    case .min where allNumbers: return .success(.number(Swift.min(numbers[0], numbers[1])))
    case .min where allDurations: return .success(.duration(nanoseconds: Swift.min(durations[0], durations[1])))
    case .max where allNumbers: return .success(.number(Swift.max(numbers[0], numbers[1])))
    case .max where allDurations: return .success(.duration(nanoseconds: Swift.max(durations[0], durations[1])))
    case .clamp where allNumbers:
      return .success(.number(Swift.min(Swift.max(numbers[0], numbers[1]), numbers[2])))
    case .clamp where allDurations:
      return .success(.duration(nanoseconds: Swift.min(Swift.max(durations[0], durations[1]), durations[2])))
    case .abs where allNumbers: return .success(.number(Swift.abs(numbers[0])))
    case .abs where allDurations:
      return durations[0] == .min
        ? .failure(.durationOverflow) : .success(.duration(nanoseconds: Swift.abs(durations[0])))
    case .sqrt where allNumbers:
      return numbers[0] < 0 ? .failure(.squareRootOfNegative(numbers[0])) : .success(.number(numbers[0].squareRoot()))
    case .sin where allNumbers: return .success(.number(Self.sine(numbers[0])))
    case .cos where allNumbers: return .success(.number(Self.cosine(numbers[0])))
    case .lerp:
      return Self.lerp(arguments[0], arguments[1], arguments[2])
    case .rgb where allNumbers, .rgba where allNumbers:
      for (index, value) in numbers.enumerated() where !channelRange(index).contains(value) {
        return .failure(.channelOutOfRange(function: rawValue, channel: index, value: value))
      }
      return .success(.color(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: arity == 4 ? numbers[3] : 1))
    default:
      return .failure(.notApplicable)
    }
  }

  // (At file scope `sin` is libm's; inside this type it is the case.)
  private static func sine(_ x: Double) -> Double { libmSine(x) }
  private static func cosine(_ x: Double) -> Double { libmCosine(x) }

  /// `lerp(a, b, t)` = a + (b − a)·t, component-wise; for durations a + round((b − a)·t)
  /// nanoseconds, halves away from zero, computed exactly.
  static func lerp(_ a: ConstantValue, _ b: ConstantValue, _ t: ConstantValue) -> Result<ConstantValue, ArithmeticError>
  {
    guard case .number(let t) = t else { return .failure(.notApplicable) }
    // (When y − x alone overflows, x·(1 − t) + y·t: the same value, by another road.)
    func mix(_ x: Double, _ y: Double) -> Double {
      let difference = y - x
      return difference.isFinite ? x + difference * t : x * (1 - t) + y * t
    }
    switch (a, b) {
    case (.number(let x), .number(let y)):
      return ConstantEvaluator.finite(.number(mix(x, y)))
    case (.vector(let u), .vector(let v)) where u.count == v.count:
      return ConstantEvaluator.finite(.vector(zip(u, v).map(mix)))
    case (.color(let r1, let g1, let b1, let a1), .color(let r2, let g2, let b2, let a2)):
      return ConstantEvaluator.finite(
        .color(red: mix(r1, r2), green: mix(g1, g2), blue: mix(b1, b2), alpha: mix(a1, a2)))
    case (.duration(let x), .duration(let y)):
      guard let step = ConstantEvaluator.scaledExactly(Int128(y) - Int128(x), by: t),
        let sum = Int64(exactly: Int128(x) + step)
      else { return .failure(.durationOverflow) }
      return .success(.duration(nanoseconds: sum))
    default:
      return .failure(.notApplicable)
    }
  }
}

private func libmSine(_ x: Double) -> Double { sin(x) }
private func libmCosine(_ x: Double) -> Double { cos(x) }

/// Why an operation on values has no value. The runtime reports each at its expression;
/// the checker reports those that `isCheckError` when the operands are constant, and leaves
/// the others (a division by zero) to run time.
package enum ArithmeticError: Error, Hashable, Sendable {
  case divisionByZero
  /// A number beyond Double's range (a result that would be infinite).
  case numberOverflow
  /// A duration beyond ±9223372036.854775807s (64-bit nanoseconds).
  case durationOverflow
  case squareRootOfNegative(Double)
  /// A color channel out of its range: argument `channel` of `function`.
  case channelOutOfRange(function: String, channel: Int, value: Double)
  /// Operands the operation does not take (the checker never lets these through).
  case notApplicable

  package var message: String {
    switch self {
    case .divisionByZero: return "division by zero"
    case .numberOverflow: return "overflow: the result is beyond the largest number (about 1.8e308)"
    case .durationOverflow: return "overflow: the result is beyond the longest duration (9223372036.854775807s)"
    case .squareRootOfNegative(let x): return "square root of a negative number (\(formatNumber(x)))"
    case .channelOutOfRange(let function, let channel, let value):
      let range = channel == 3 ? "0...1" : "0...255"
      return
        "expected the \(BuiltinFunction.channelNames[channel]) channel of '\(function)' in \(range), found \(formatNumber(value))"
    case .notApplicable: return "the operation does not take these values"
    }
  }

  /// Whether `anim check` reports it when its operands are constant: overflow and ranges
  /// are; a division by zero and a square root of a negative number are only ever runtime
  /// errors (grammar.md § Runtime errors).
  package var isCheckError: Bool {
    switch self {
    case .numberOverflow, .durationOverflow, .channelOutOfRange: return true
    case .divisionByZero, .squareRootOfNegative, .notApplicable: return false
    }
  }
}

/// The curve constructors.
package enum CurveConstructor: String, CaseIterable, Sendable {
  case cubic, steps, spring

  /// Whether it makes a timing curve or a spring.
  package var kind: CurveKind { self == .spring ? .spring : .timing }
}

/// The curve presets (grammar.md § Curves): CSS's cubic Béziers and SwiftUI's springs.
package enum CurvePreset: String, CaseIterable, Sendable {
  case linear, ease, easeIn, easeOut, easeInOut, smooth, snappy, bouncy

  /// The preset's curve as the language writes it: `cubic(0.25, 0.1, 0.25, 1)`.
  package var written: String {
    switch value {
    case .linear: return "linear"
    case .cubic(let x1, let y1, let x2, let y2):
      return "cubic(\([x1, y1, x2, y2].map(formatNumber).joined(separator: ", ")))"
    case .spring(.duration(let duration, let bounce), _):
      return "spring(duration: \(formatNumber(duration))s, bounce: \(formatNumber(bounce)))"
    case .spring, .steps:
      return rawValue  // (no preset is written so)
    }
  }

  package var value: CurveValue {
    switch self {
    case .linear: return .linear
    case .ease: return .cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    case .easeIn: return .cubic(x1: 0.42, y1: 0, x2: 1, y2: 1)
    case .easeOut: return .cubic(x1: 0, y1: 0, x2: 0.58, y2: 1)
    case .easeInOut: return .cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    case .smooth: return .spring(.duration(duration: 0.5, bounce: 0), velocity: 0)
    case .snappy: return .spring(.duration(duration: 0.5, bounce: 0.15), velocity: 0)
    case .bouncy: return .spring(.duration(duration: 0.5, bounce: 0.3), velocity: 0)
    }
  }
}

/// The three spring forms and their parameter labels; `velocity:` goes with any of them.
package enum SpringForm: CaseIterable, Sendable {
  case response, duration, physical

  package var labels: [String] {
    switch self {
    case .response: return ["response", "dampingFraction"]
    case .duration: return ["duration", "bounce"]
    case .physical: return ["mass", "stiffness", "damping"]
    }
  }

  /// The parameters that may be left out, with their values (as AnimCore's `Spring`
  /// initialisers and SwiftUI default them): bounce 0, mass 1.
  package var defaults: [String: Double] {
    switch self {
    case .response: return [:]
    case .duration: return ["bounce": 0]
    case .physical: return ["mass": 1]
    }
  }

  /// The label every form takes.
  package static let velocityLabel = "velocity"

  package static let allLabels = allCases.flatMap(\.labels) + [velocityLabel]

  /// The form as grammar.md and `:help curves` write it: `spring(response: R, dampingFraction: F)`.
  package var written: String {
    let placeholders = [
      "response": "R", "dampingFraction": "F", "duration": "D", "bounce": "B", "mass": "M", "stiffness": "K",
      "damping": "C",
    ]
    return "spring(" + labels.map { "\($0): \(placeholders[$0] ?? "X")" }.joined(separator: ", ") + ")"
  }

  static var usage: String {
    "write " + allCases.dropLast().map(\.written).joined(separator: ", ") + " or " + allCases.last!.written
  }

  package static func form(of label: String) -> SpringForm? {
    allCases.first { $0.labels.contains(label) }
  }

  /// The spring's parameters from the labelled values, or nil when one is missing (fill in
  /// `defaults` for the labels not written first).
  package func parameters(_ values: [String: Double]) -> SpringParameters? {
    guard labels.allSatisfy({ values[$0] != nil }) else { return nil }
    switch self {
    case .response: return .response(response: values["response"]!, dampingFraction: values["dampingFraction"]!)
    case .duration: return .duration(duration: values["duration"]!, bounce: values["bounce"]!)
    case .physical:
      return .physical(mass: values["mass"]!, stiffness: values["stiffness"]!, damping: values["damping"]!)
    }
  }
}

/// Every predeclared name and word of the tables above, for completion and the fuzz
/// dictionary.
package enum Builtins {
  /// Presets, constructors, functions, then step positions and spring labels.
  package static let names: [String] =
    CurvePreset.allCases.map(\.rawValue) + CurveConstructor.allCases.map(\.rawValue)
    + BuiltinFunction.allCases.map(\.rawValue) + StepPosition.allCases.map(\.rawValue) + SpringForm.allLabels
}
