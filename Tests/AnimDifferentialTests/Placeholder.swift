import AnimOracle
import Testing

@Test func oracleRuleOneExample() {
  // Rule 1: target box { x: 0 }, animate box.x to 200 over 4s, at 1s animate box.x to 100 over 1s.
  let s: Int64 = 1_000_000_000
  let steps = [
    OracleStep(time: 0, .addProperty(0)),
    OracleStep(time: 0, .add(.animation(property: 0, shape: .tween(from: nil, to: 200, curve: .linear), timing: OracleTiming(duration: 4 * s), rate: 1, replace: false), .now)),
    OracleStep(time: s, .add(.animation(property: 0, shape: .tween(from: nil, to: 100, curve: .linear), timing: OracleTiming(duration: s), rate: 1, replace: false), .now)),
  ]
  for (t, v) in [(s, 50.0), (3 * s / 2, 25), (2 * s, 0), (3 * s, 50), (4 * s, 100), (5 * s, 100)] {
    #expect(abs(OracleWorld.run(steps, until: t).value(of: 0) - v) < 1e-9, "at \(t)")
  }
  print(OracleWorld.run(steps, until: 5 * s).events)
}
