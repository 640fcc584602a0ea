import Foundation
import Testing

@testable import AnimCore

@Suite("steps() curves")
struct StepsTests {
  struct Case: CustomStringConvertible, Sendable {
    let count: Int
    let position: StepPosition
    let x: Double
    let before: Bool
    let expected: Double
    var description: String { "steps(\(count), \(position)) at \(x)\(before ? " before" : "") = \(expected)" }
  }

  // Worked by hand from CSS Easing Functions Level 1, §3.4 (step easing functions): the
  // staircases in its figures, and its note on steps(1, jump-start) in the before phase.
  static let cases: [Case] = [
    // steps(4) = steps(4, jump-end): 0, 1/4, 2/4, 3/4, then 1 at the end.
    Case(count: 4, position: .jumpEnd, x: 0, before: false, expected: 0),
    Case(count: 4, position: .jumpEnd, x: 0.24, before: false, expected: 0),
    Case(count: 4, position: .jumpEnd, x: 0.25, before: false, expected: 0.25),
    Case(count: 4, position: .jumpEnd, x: 0.25, before: true, expected: 0),
    Case(count: 4, position: .jumpEnd, x: 0.5, before: false, expected: 0.5),
    Case(count: 4, position: .jumpEnd, x: 0.99, before: false, expected: 0.75),
    Case(count: 4, position: .jumpEnd, x: 1, before: false, expected: 1),
    Case(count: 4, position: .jumpEnd, x: 1, before: true, expected: 0.75),
    Case(count: 4, position: .jumpEnd, x: 0, before: true, expected: 0),
    Case(count: 4, position: .jumpEnd, x: -0.5, before: false, expected: -0.5),
    Case(count: 4, position: .jumpEnd, x: -0.1, before: false, expected: -0.25),
    Case(count: 4, position: .jumpEnd, x: 1.5, before: false, expected: 1.5),
    // steps(1, jump-start): 1 from the start, but 0 at x = 0 in the before phase.
    Case(count: 1, position: .jumpStart, x: 0, before: false, expected: 1),
    Case(count: 1, position: .jumpStart, x: 0, before: true, expected: 0),
    Case(count: 1, position: .jumpStart, x: 0.5, before: false, expected: 1),
    Case(count: 1, position: .jumpStart, x: 1, before: false, expected: 1),
    // steps(4, jump-start): 1/4, 2/4, 3/4, 1.
    Case(count: 4, position: .jumpStart, x: 0, before: false, expected: 0.25),
    Case(count: 4, position: .jumpStart, x: 0.1, before: false, expected: 0.25),
    Case(count: 4, position: .jumpStart, x: 0.5, before: false, expected: 0.75),
    Case(count: 4, position: .jumpStart, x: 0.5, before: true, expected: 0.5),
    Case(count: 4, position: .jumpStart, x: 0.75, before: false, expected: 1),
    Case(count: 4, position: .jumpStart, x: 1, before: false, expected: 1),
    Case(count: 4, position: .jumpStart, x: -0.1, before: false, expected: 0),
    Case(count: 4, position: .jumpStart, x: -0.3, before: false, expected: -0.25),
    Case(count: 4, position: .jumpStart, x: 1.25, before: false, expected: 1.5),
    // steps(5, jump-none): 0, 1/4, 2/4, 3/4, 1, each for a fifth.
    Case(count: 5, position: .jumpNone, x: 0, before: false, expected: 0),
    Case(count: 5, position: .jumpNone, x: 0, before: true, expected: 0),
    Case(count: 5, position: .jumpNone, x: 0.2, before: false, expected: 0.25),
    Case(count: 5, position: .jumpNone, x: 0.5, before: false, expected: 0.5),
    Case(count: 5, position: .jumpNone, x: 0.8, before: false, expected: 1),
    Case(count: 5, position: .jumpNone, x: 0.99, before: false, expected: 1),
    Case(count: 5, position: .jumpNone, x: 1, before: false, expected: 1),
    Case(count: 5, position: .jumpNone, x: -0.2, before: false, expected: -0.25),
    Case(count: 5, position: .jumpNone, x: 1.2, before: false, expected: 1.5),
    Case(count: 2, position: .jumpNone, x: 0.5, before: false, expected: 1),
    Case(count: 2, position: .jumpNone, x: 0.49, before: false, expected: 0),
    // steps(3, jump-both): 1/4, 2/4, 3/4, then 1 at the end.
    Case(count: 3, position: .jumpBoth, x: 0, before: false, expected: 0.25),
    Case(count: 3, position: .jumpBoth, x: 0, before: true, expected: 0),
    Case(count: 3, position: .jumpBoth, x: 0.5, before: false, expected: 0.5),
    Case(count: 3, position: .jumpBoth, x: 0.99, before: false, expected: 0.75),
    Case(count: 3, position: .jumpBoth, x: 1, before: false, expected: 1),
    Case(count: 3, position: .jumpBoth, x: 1, before: true, expected: 0.75),
    Case(count: 3, position: .jumpBoth, x: -0.2, before: false, expected: 0),
    Case(count: 3, position: .jumpBoth, x: -0.5, before: false, expected: -0.25),
    Case(count: 3, position: .jumpBoth, x: 2, before: false, expected: 1.75),
  ]

  @Test(arguments: cases)
  func stepsFollowTheCSSAlgorithm(_ c: Case) throws {
    let steps = try Steps(count: c.count, position: c.position)
    #expect(steps.progress(at: c.x, beforeFlag: c.before) == c.expected)
  }

  @Test func defaultPositionIsJumpEnd() throws {
    #expect(try Steps(count: 3).position == .jumpEnd)
  }

  @Test func validatesCount() {
    #expect(throws: CurveParameterError.self) { try Steps(count: 0) }
    #expect(throws: CurveParameterError.self) { try Steps(count: -3, position: .jumpStart) }
    #expect(throws: CurveParameterError.self) { try Steps(count: 1, position: .jumpNone) }
    #expect((try? Steps(count: 2, position: .jumpNone)) != nil)
    #expect((try? Steps(count: 1, position: .jumpBoth)) != nil)
    do {
      _ = try Steps(count: 1, position: .jumpNone)
    } catch {
      #expect(error.description == "'count' must be at least 2 for jumpNone, not 1")
    }
  }

  @Test func hugeCountsDoNotTrap() throws {
    let steps = try Steps(count: .max, position: .jumpBoth)
    let value = steps.progress(at: 0.5, beforeFlag: false)
    #expect(abs(value - 0.5) < 1e-12)
  }

  @Test func codable() throws {
    let steps = try Steps(count: 3, position: .jumpBoth)
    let back = try JSONDecoder().decode(Steps.self, from: JSONEncoder().encode(steps))
    #expect(back == steps)
    let bad = Data(#"{"count": 1, "position": "jumpNone"}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Steps.self, from: bad) }
  }
}
