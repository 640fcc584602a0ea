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

  /// A spring preset's duration (seconds) and bounce, as SwiftUI and grammar.md write it.
  private var springForm: (duration: Double, bounce: Double)? {
    switch self {
    case .smooth: return (0.5, 0)
    case .snappy: return (0.5, 0.15)
    case .bouncy: return (0.5, 0.3)
    default: return nil
    }
  }

  /// The preset's curve as the language writes it: `cubic(0.25, 0.1, 0.25, 1)`.
  package var written: String {
    guard let (duration, bounce) = springForm else { return curve.written }
    return "spring(duration: \(formatNumber(duration))s, bounce: \(formatNumber(bounce)))"
  }

  /// The engine's curve, made once per preset.
  package var curve: TimingCurve { Self.curves[ordinal] }

  /// The curve as a constant (`ConstantValue.curve`, a box), the same box for every use of
  /// the name: a script's facts hold one for each `with easeIn` they keep, a hundred thousand
  /// in a large script.
  package var constant: ConstantValue { Self.constants[ordinal] }

  /// The preset's place in `allCases`, where the lists below hold its curve. (A dictionary
  /// by preset hashed it at each use: 360 instructions an `animate … with easeInOut` run.)
  private var ordinal: Int {
    switch self {
    case .linear: 0
    case .ease: 1
    case .easeIn: 2
    case .easeOut: 3
    case .easeInOut: 4
    case .smooth: 5
    case .snappy: 6
    case .bouncy: 7
    }
  }

  private static let curves = allCases.map(\.made)
  private static let constants = curves.map { ConstantValue.curve($0) }

  private var made: TimingCurve {
    switch self {
    case .linear: return .linear
    case .ease: return .ease
    case .easeIn: return .easeIn
    case .easeOut: return .easeOut
    case .easeInOut: return .easeInOut
    case .smooth, .snappy, .bouncy:
      let (duration, bounce) = springForm!
      // (Constants in range: it cannot fail.)
      return try! SpringForm.curve(["duration": duration, "bounce": bounce])!
    }
  }
}

extension TimingCurve {
  /// The curve as the language would write it (how a session shows a curve value):
  /// `cubic(0.42, 0, 1, 1)`, `steps(3, jumpNone)`, a spring by its physical form.
  package var written: String {
    func numbers(_ values: [Double]) -> String { values.map(formatNumber).joined(separator: ", ") }
    switch self {
    case .linear:
      return "linear"
    case .cubicBezier(let c):
      return "cubic(\(numbers([c.x1, c.y1, c.x2, c.y2])))"
    case .steps(let steps):
      return "steps(\(steps.count), \(steps.position.rawValue))"
    case .spring(let curve):
      let spring = curve.spring
      let velocity = curve.initialVelocity == 0 ? "" : ", velocity: \(formatNumber(curve.initialVelocity))"
      let physics = "mass: \(formatNumber(spring.mass)), stiffness: \(formatNumber(spring.stiffness))"
      return "spring(\(physics), damping: \(formatNumber(spring.damping))\(velocity))"
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

  /// The spring curve of labelled values (a duration in seconds), made by AnimCore's
  /// initialiser for the labels' form, with the form's defaults for the labels left out and
  /// velocity 0 unless given; nil when the labels name no form or miss one of its
  /// parameters. The checker folds a constant `spring(...)` with it and the runtime makes a
  /// live one with it, so the two make the same curve and the engine validates it once.
  /// - Throws: `CurveParameterError` when AnimCore refuses the parameters.
  package static func curve(_ values: [String: Double]) throws(CurveParameterError) -> TimingCurve? {
    guard let form = values.keys.lazy.compactMap(form(of:)).first else { return nil }
    var values = values
    for (label, value) in form.defaults where values[label] == nil { values[label] = value }
    guard form.labels.allSatisfy({ values[$0] != nil }) else { return nil }
    let spring: Spring
    switch form {
    case .response: spring = try Spring(response: values["response"]!, dampingFraction: values["dampingFraction"]!)
    case .duration: spring = try Spring(duration: values["duration"]!, bounce: values["bounce"]!)
    case .physical:
      spring = try Spring(mass: values["mass"]!, stiffness: values["stiffness"]!, damping: values["damping"]!)
    }
    return .spring(try SpringCurve(spring: spring, initialVelocity: values[velocityLabel] ?? 0))
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
