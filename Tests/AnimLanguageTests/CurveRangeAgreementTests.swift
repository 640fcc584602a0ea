import AnimCore
import Testing

@testable import AnimLanguage

/// The checker states the curve parameter ranges once (grammar.md § Curves); AnimCore
/// validates the same ranges when the runtime builds a curve. For a grid of values, the
/// checker reports a range error exactly when AnimCore's initialiser refuses the value.
@Suite struct CurveRangeAgreementTests {
  static let samples: [Double] = [-100, -1, -0.5, 0, 1e-9, 0.25, 0.5, 0.999, 1, 1.5, 2, 100]

  /// Whether the checker accepts a one-declaration script.
  func checkerAccepts(_ declaration: String) -> Bool {
    let source = SourceText(name: "test.anim", contents: declaration)
    let parsed = parse(source)
    #expect(parsed.diagnostics.isEmpty)
    return !check(parsed.file).hasErrors
  }

  @Test(arguments: samples)
  func cubic(_ x: Double) {
    let first = checkerAccepts("curve c = cubic(\(x), 0, 0.5, 1)")
    let second = checkerAccepts("curve c = cubic(0.5, -3, \(x), 7)")
    #expect(first == ((try? CubicBezier(x, 0, 0.5, 1)) != nil), "x1 = \(x)")
    #expect(second == ((try? CubicBezier(0.5, -3, x, 7)) != nil), "x2 = \(x)")
  }

  /// cubic's y1 and y2: within ±10⁶ in both (issue 12, rule 8).
  @Test(arguments: [-1e300, -1_000_001, -1_000_000, -3, 0, 7, 1_000_000, 1_000_000.5, 1e300])
  func cubicY(_ y: Double) {
    #expect(
      checkerAccepts("curve c = cubic(0.5, \(y), 0.5, 1)") == ((try? CubicBezier(0.5, y, 0.5, 1)) != nil), "y1 = \(y)")
    #expect(
      checkerAccepts("curve c = cubic(0.5, 0, 0.5, \(y))") == ((try? CubicBezier(0.5, 0, 0.5, y)) != nil), "y2 = \(y)")
  }

  @Test(arguments: samples)
  func springs(_ value: Double) {
    #expect(
      checkerAccepts("curve c = spring(duration: 0.5, bounce: \(value))")
        == ((try? Spring(duration: 0.5, bounce: value)) != nil), "bounce = \(value)")
    #expect(
      checkerAccepts("curve c = spring(duration: \(value), bounce: 0)")
        == ((try? Spring(duration: value, bounce: 0)) != nil), "duration = \(value)")
    #expect(
      checkerAccepts("curve c = spring(response: \(value), dampingFraction: 0.5)")
        == ((try? Spring(response: value, dampingFraction: 0.5)) != nil), "response = \(value)")
    #expect(
      checkerAccepts("curve c = spring(response: 0.5, dampingFraction: \(value))")
        == ((try? Spring(response: 0.5, dampingFraction: value)) != nil), "dampingFraction = \(value)")
    #expect(
      checkerAccepts("curve c = spring(mass: \(value), stiffness: 100, damping: 10)")
        == ((try? Spring(mass: value, stiffness: 100, damping: 10)) != nil), "mass = \(value)")
    #expect(
      checkerAccepts("curve c = spring(mass: 1, stiffness: \(value), damping: 10)")
        == ((try? Spring(mass: 1, stiffness: value, damping: 10)) != nil), "stiffness = \(value)")
    #expect(
      checkerAccepts("curve c = spring(mass: 1, stiffness: 100, damping: \(value))")
        == ((try? Spring(mass: 1, stiffness: 100, damping: value)) != nil), "damping = \(value)")
  }

  @Test(arguments: [0, 1, 2, 3, 10])
  func steps(_ count: Int) {
    let positions: [(String, AnimCore.StepPosition)] = [
      ("jumpStart", .jumpStart), ("jumpEnd", .jumpEnd), ("jumpNone", .jumpNone), ("jumpBoth", .jumpBoth),
    ]
    for (word, position) in positions {
      #expect(
        checkerAccepts("curve c = steps(\(count), \(word))")
          == ((try? Steps(count: count, position: position)) != nil), "steps(\(count), \(word))")
    }
    #expect(checkerAccepts("curve c = steps(\(count))") == ((try? Steps(count: count)) != nil))
  }
}
