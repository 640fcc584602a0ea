import AnimTestSupport
import Foundation
import Testing

@testable import AnimCore

/// The textbook solution of m·x'' + c·x' + k·x = 0 from the characteristic roots, written
/// independently of SpringMotion's superposition form: x(t) − to for a start d0, v0.
func referenceSpring(_ spring: Spring, d0: Double, v0: Double, at t: Double) -> (x: Double, v: Double) {
  let (m, c, k) = (spring.mass, spring.damping, spring.stiffness)
  let discriminant = c * c - 4 * m * k
  if discriminant < 0 {
    let beta = c / (2 * m)
    let omega = (-discriminant).squareRoot() / (2 * m)
    let c1 = d0
    let c2 = (v0 + beta * d0) / omega
    let e = exp(-beta * t)
    let x = e * (c1 * cos(omega * t) + c2 * sin(omega * t))
    let v = -beta * x + e * (-c1 * omega * sin(omega * t) + c2 * omega * cos(omega * t))
    return (x, v)
  } else if discriminant == 0 {
    let r = -c / (2 * m)
    let c1 = d0
    let c2 = v0 - r * d0
    let e = exp(r * t)
    return ((c1 + c2 * t) * e, (c2 + r * (c1 + c2 * t)) * e)
  } else {
    let r1 = (-c + discriminant.squareRoot()) / (2 * m)
    let r2 = (-c - discriminant.squareRoot()) / (2 * m)
    let c1 = (v0 - r2 * d0) / (r1 - r2)
    let c2 = d0 - c1
    return (c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t))
  }
}

/// Classic fourth-order Runge–Kutta on (x, v), step h, sampled every `every` steps.
func integrateSpring(_ spring: Spring, d0: Double, v0: Double, step h: Double, steps: Int, every: Int) -> [(
  t: Double, x: Double, v: Double
)] {
  let (m, c, k) = (spring.mass, spring.damping, spring.stiffness)
  func acceleration(_ x: Double, _ v: Double) -> Double { -(c * v + k * x) / m }
  var x = d0
  var v = v0
  var samples: [(Double, Double, Double)] = [(0, x, v)]
  for i in 1...steps {
    let k1x = v
    let k1v = acceleration(x, v)
    let k2x = v + 0.5 * h * k1v
    let k2v = acceleration(x + 0.5 * h * k1x, v + 0.5 * h * k1v)
    let k3x = v + 0.5 * h * k2v
    let k3v = acceleration(x + 0.5 * h * k2x, v + 0.5 * h * k2v)
    let k4x = v + h * k3v
    let k4v = acceleration(x + h * k3x, v + h * k3v)
    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    if i % every == 0 { samples.append((Double(i) * h, x, v)) }
  }
  return samples
}

struct SpringCase: CustomStringConvertible, Sendable {
  let name: String
  let spring: Spring
  let d0: Double
  let v0: Double
  var description: String { name }
}

@Suite("Springs")
struct SpringTests {
  static let cases: [SpringCase] = [
    SpringCase(name: "under-damped ζ 0.2", spring: try! Spring(mass: 1, stiffness: 100, damping: 4), d0: -1, v0: 3),
    SpringCase(name: "under-damped heavy", spring: try! Spring(mass: 2.5, stiffness: 40, damping: 3), d0: 2.5, v0: -7),
    SpringCase(name: "critically damped", spring: try! Spring(mass: 2, stiffness: 50, damping: 20), d0: -1, v0: -4),
    SpringCase(name: "over-damped ζ 2.37", spring: try! Spring(mass: 1, stiffness: 10, damping: 15), d0: -1, v0: 5),
    SpringCase(name: "over-damped overshoot", spring: try! Spring(mass: 1, stiffness: 10, damping: 7), d0: -1, v0: 30),
    SpringCase(
      name: "barely over-damped", spring: try! Spring(mass: 1, stiffness: 100, damping: 20 * (1 + 1e-7)), d0: -1, v0: 2),
    SpringCase(
      name: "barely under-damped", spring: try! Spring(mass: 1, stiffness: 100, damping: 20 * (1 - 1e-7)), d0: 3, v0: 2),
    SpringCase(name: "bouncy", spring: .bouncy, d0: -1, v0: 1.5),
    SpringCase(name: "smooth", spring: .smooth, d0: -1, v0: 0.5),
  ]

  @Test(arguments: cases)
  func superpositionMatchesTheTextbookClosedForm(_ c: SpringCase) {
    let motion = c.spring.motion
    var worst = 0.0
    for i in 0...400 {
      let t = Double(i) * 0.005
      let r = motion.responses(at: t)
      let expected = referenceSpring(c.spring, d0: c.d0, v0: c.v0, at: t)
      let x = c.d0 * r.displacement + c.v0 * r.velocity
      let v = c.d0 * r.displacementDerivative + c.v0 * r.velocityDerivative
      worst = max(worst, abs(x - expected.x), abs(v - expected.v) / max(1, c.spring.naturalFrequency))
      #expect(motion.displacementResponse(at: t) == r.displacement)
      #expect(motion.velocityResponse(at: t) == r.velocity)
      #expect(motion.displacementResponseDerivative(at: t) == r.displacementDerivative)
      #expect(motion.velocityResponseDerivative(at: t) == r.velocityDerivative)
    }
    print("spring \(c.name): max difference from textbook closed form \(worst)")
    // Near critical damping the textbook form itself loses digits (it divides by r1 − r2).
    #expect(worst <= (c.name.hasPrefix("barely") ? 1e-6 : 1e-12))
  }

  @Test(arguments: cases)
  func matchesRungeKuttaIntegration(_ c: SpringCase) {
    let motion = c.spring.motion
    let samples = integrateSpring(c.spring, d0: c.d0, v0: c.v0, step: 1e-4, steps: 20_000, every: 100)
    var worst = 0.0
    for (t, x, v) in samples {
      let r = motion.responses(at: t)
      worst = max(worst, abs(c.d0 * r.displacement + c.v0 * r.velocity - x))
      worst = max(
        worst,
        abs(c.d0 * r.displacementDerivative + c.v0 * r.velocityDerivative - v) / max(1, c.spring.naturalFrequency))
    }
    print("spring \(c.name): max difference from RK4 \(worst)")
    #expect(worst <= 1e-6)
  }

  @Test func stateOfAnyAnimatableValueIsComponentWise() {
    // A 2-vector spring is two independent scalar springs.
    let motion = Spring.bouncy.motion
    let target = Vec2(10, -4)
    let d0 = Vec2(-10, 6)
    let v0 = Vec2(3, -50)
    for t in [0.0, 0.05, 0.2, 0.7] {
      let (value, velocity) = motion.state(target: target, displacement: d0, velocity: v0, at: t)
      let x = referenceSpring(.bouncy, d0: d0.x, v0: v0.x, at: t)
      let y = referenceSpring(.bouncy, d0: d0.y, v0: v0.y, at: t)
      #expect(abs(value.x - (target.x + x.x)) < 1e-12 && abs(value.y - (target.y + y.x)) < 1e-12)
      #expect(abs(velocity.x - x.v) < 1e-10 && abs(velocity.y - y.v) < 1e-10)
    }
    let start = motion.state(target: target, displacement: d0, velocity: v0, at: 0)
    #expect(start.value == target + d0 && start.velocity == v0)
  }

  @Test func unitResponsesStartRight() {
    for c in Self.cases {
      let r = c.spring.motion.responses(at: 0)
      #expect(r.displacement == 1 && r.velocity == 0 && r.displacementDerivative == 0 && r.velocityDerivative == 1)
    }
  }

  @Test func regimes() throws {
    #expect(Spring.smooth.motion.regime == .criticallyDamped)
    #expect(Spring.bouncy.motion.regime == .underDamped)
    #expect(try Spring(duration: 1, bounce: -0.5).motion.regime == .overDamped)
    #expect(try Spring(mass: 2, stiffness: 50, damping: 20).motion.regime == .criticallyDamped)
  }

  // MARK: Settling time

  static let velocities: [Double] = [0, 1.5, -3, 12]

  @Test(arguments: cases)
  func settlingTimeIsTheFirstNanosecondTheCriterionHolds(_ c: SpringCase) {
    let s = c.spring
    let zeta = s.damping / (2 * (s.mass * s.stiffness).squareRoot())
    let omega0 = (s.stiffness / s.mass).squareRoot()
    for v in Self.velocities {
      let n = s.settlingTime(initialVelocity: v)
      #expect(n > 0 && n < 100_000_000_000)
      let at = Double(n) / 1e9
      let before = Double(n - 1) / 1e9
      if s.motion.regime == .underDamped {
        // The envelope A·e^(−ζω₀t) reaches 0.001·|d₀| (d₀ = −1) at n ns and not before.
        let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
        let amplitude = (1 + pow((v - zeta * omega0) / omegaD, 2)).squareRoot()
        #expect(amplitude * exp(-zeta * omega0 * at) <= 0.001, "\(c.name) V=\(v)")
        #expect(amplitude * exp(-zeta * omega0 * before) > 0.001, "\(c.name) V=\(v)")
      } else {
        #expect(abs(referenceSpring(s, d0: -1, v0: v, at: at).x) <= 0.001, "\(c.name) V=\(v)")
        #expect(abs(referenceSpring(s, d0: -1, v0: v, at: before).x) > 0.001, "\(c.name) V=\(v)")
        // And it stays there: dense samples over ten times as long.
        var worst = 0.0
        for i in 0...20_000 {
          worst = max(worst, abs(referenceSpring(s, d0: -1, v0: v, at: at * (1 + Double(i) / 2_000)).x))
        }
        #expect(worst <= 0.001, "\(c.name) V=\(v)")
      }
    }
  }

  @Test func settlingTimeOverAGridOfSpringsAndVelocities() throws {
    // Every regime, slow and fast, gentle and violent starts: the returned nanosecond is the
    // first at which the criterion holds (evaluated with the textbook solution).
    var checked = 0
    for response in [0.05, 0.5, 3.0] {
      for zeta in [0.05, 0.5, 0.99, 1, 1.01, 2, 10, 100] {
        let spring = try Spring(response: response, dampingFraction: zeta)
        let regime = spring.motion.regime
        for v in [-50.0, -1, 0, 0.5, 1, 3, 50] {
          let n = spring.settlingTime(initialVelocity: v)
          #expect(n > 0 && n < Int64.max)
          let at = Double(n) / 1e9
          let before = Double(n - 1) / 1e9
          if regime == .underDamped {
            let beta = spring.damping / (2 * spring.mass)
            let omegaD = (spring.naturalFrequency * spring.naturalFrequency - beta * beta).squareRoot()
            let amplitude = (1 + pow((v - beta) / omegaD, 2)).squareRoot()
            #expect(amplitude * exp(-beta * at) <= 0.001)
            #expect(amplitude * exp(-beta * before) > 0.001)
          } else {
            // Critical springs (ζ = 1 after rounding) are checked with the motion itself,
            // since the textbook form divides by r1 − r2 ≈ 0 there.
            func residual(_ t: Double) -> Double {
              if regime == .criticallyDamped {
                let r = spring.motion.responses(at: t)
                return abs(-r.displacement + v * r.velocity)
              }
              return abs(referenceSpring(spring, d0: -1, v0: v, at: t).x)
            }
            // For slow springs one nanosecond moves the residual by ~1e-14 of itself, as
            // little as two ways of evaluating it differ: allow 1e-11 relative at the edge,
            // and check strictly a microsecond before.
            #expect(residual(at) <= 0.001 * (1 + 1e-11), "ζ \(zeta) response \(response) V \(v)")
            #expect(residual(before) > 0.001 * (1 - 1e-11), "ζ \(zeta) response \(response) V \(v)")
            #expect(residual(before - 1e-6) > 0.001, "ζ \(zeta) response \(response) V \(v)")
            for i in 1...400 { #expect(residual(at * (1 + Double(i) / 40)) <= 0.001) }
          }
          checked += 1
        }
      }
    }
    #expect(checked == 3 * 8 * 7)
  }

  @Test func criticallyDampedSettlingSolvesTheKnownEquation() {
    // Smooth: β = 4π; (1 + βt)·e^(−βt) = 0.001 with V = 0. Solve by bisection here.
    let beta = 4 * Double.pi
    var low = 0.1 / beta
    var high = 100 / beta
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if (1 + beta * mid) * exp(-beta * mid) > 0.001 { low = mid } else { high = mid }
    }
    let n = Spring.smooth.settlingTime(initialVelocity: 0)
    #expect(abs(Double(n) / 1e9 - high) <= 2e-9)
  }

  @Test func overDampedOvershootSettlesAfterItsPeak() throws {
    // Fast start overshoots the target, comes back: the last crossing is after the peak.
    let s = try Spring(mass: 1, stiffness: 10, damping: 7)
    let n = s.settlingTime(initialVelocity: 30)
    let t = Double(n) / 1e9
    var peak = 0.0
    var peakTime = 0.0
    for i in 0...10_000 {
      let time = Double(i) * 1e-3
      let x = referenceSpring(s, d0: -1, v0: 30, at: time).x
      if x > peak { (peak, peakTime) = (x, time) }
    }
    #expect(peak > 0.001 && t > peakTime)
  }

  @Test func settlingTimeEdgeCases() throws {
    let motion = Spring.bouncy.motion
    #expect(motion.settlingTime(displacement: 0, velocity: 0) == 0)
    #expect(motion.settlingTime(displacement: 0, velocity: 1) == .max)
    #expect(motion.settlingTime(displacement: .nan, velocity: 1) == .max)
    // Relative to the distance: scaling d0 and v0 together does not change it.
    #expect(motion.settlingTime(displacement: -250, velocity: 375) == motion.settlingTime(initialVelocity: 1.5))
    // A spring too slow for Int64 nanoseconds saturates.
    let glacial = try Spring(mass: 1e12, stiffness: 1, damping: 1e-6)
    #expect(glacial.settlingTime() == .max)
  }

  // MARK: Parameters

  @Test func swiftUIConversions() throws {
    let s = try Spring(response: 0.5, dampingFraction: 0.7)
    #expect(s.mass == 1)
    #expect(s.stiffness == pow(2 * Double.pi / 0.5, 2))
    #expect(s.damping == 4 * Double.pi * 0.7 / 0.5)
    #expect(abs(s.dampingRatio - 0.7) < 1e-14)
    #expect(abs(s.naturalFrequency - 4 * Double.pi) < 1e-13)
    #expect(abs(s.response - 0.5) < 1e-14)
    #expect(try Spring(duration: 0.4, bounce: 0.3) == Spring(response: 0.4, dampingFraction: 0.7))
    #expect(try Spring(duration: 0.4, bounce: -0.5) == Spring(response: 0.4, dampingFraction: 2))
    #expect(abs(try Spring(duration: 0.4, bounce: -0.5).bounce - -0.5) < 1e-14)
    #expect(abs(try Spring(duration: 0.4, bounce: 0.3).bounce - 0.3) < 1e-14)
    #expect(Spring.dampingFraction(bounce: 0.25) == 0.75)
    #expect(Spring.dampingFraction(bounce: -0.75) == 4)
  }

  @Test func presets() throws {
    #expect(Spring.smooth == (try Spring(duration: 0.5, bounce: 0)))
    #expect(Spring.snappy == (try Spring(duration: 0.5, bounce: 0.15)))
    #expect(Spring.bouncy == (try Spring(duration: 0.5, bounce: 0.3)))
    #expect(Spring.smooth == (try Spring(response: 0.5, dampingFraction: 1)))
    #expect(Spring.snappy == (try Spring(response: 0.5, dampingFraction: 0.85)))
    #expect(Spring.bouncy == (try Spring(response: 0.5, dampingFraction: 0.7)))
    #expect(abs(Spring.smooth.dampingRatio - 1) < 1e-14)
  }

  @Test func rejectsBadParameters() {
    #expect(throws: CurveParameterError.self) { try Spring(mass: 0, stiffness: 1, damping: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(mass: 1, stiffness: -1, damping: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(mass: 1, stiffness: 1, damping: 0) }
    #expect(throws: CurveParameterError.self) { try Spring(mass: .nan, stiffness: 1, damping: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(mass: 1, stiffness: .infinity, damping: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(mass: 1e-300, stiffness: 1e300, damping: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(response: 0, dampingFraction: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(response: 1e-200, dampingFraction: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(response: 1, dampingFraction: 0) }
    #expect(throws: CurveParameterError.self) { try Spring(duration: 1, bounce: 1) }
    #expect(throws: CurveParameterError.self) { try Spring(duration: 1, bounce: -1) }
    #expect(throws: CurveParameterError.self) { try Spring(duration: -1, bounce: 0) }
    do {
      _ = try Spring(duration: 0.5, bounce: 1.2)
    } catch {
      #expect(error.description == "'bounce' must be greater than -1 and less than 1, not 1.2")
    }
    do {
      _ = try Spring(mass: 1, stiffness: 1, damping: .infinity)
    } catch {
      #expect(error.description == "'damping' must be a finite number, not inf")
    }
  }

  @Test func codable() throws {
    let back = try JSONDecoder().decode(Spring.self, from: JSONEncoder().encode(Spring.bouncy))
    #expect(back == .bouncy)
    let bad = Data(#"{"mass": 1, "stiffness": 1, "damping": -2}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Spring.self, from: bad) }
  }

  // MARK: As a curve

  @Test(arguments: cases)
  func springCurveEndsExactlyAtOne(_ c: SpringCase) throws {
    for v in Self.velocities {
      let curve = try SpringCurve(spring: c.spring, initialVelocity: v)
      #expect(curve.duration == curve.settlingTime)
      #expect(curve.settlingTime == c.spring.settlingTime(initialVelocity: v))
      #expect(curve.progress(at: 0) == 0)
      #expect(curve.progress(at: 1) == 1)
      #expect(curve.progress(at: 1.5) == 1)
      #expect(curve.progress(at: -0.5) == 0)
      // Just before the end it is within the settling tolerance of 1 (d₀ = −1 → 0.001).
      #expect(abs(curve.progress(at: 1 - 1e-12) - 1) <= 0.001 + 1e-9)
      // Normalised progress is 1 − P + V·Q, i.e. 1 + (x − to) of the textbook motion.
      let t = 0.3 * Double(curve.settlingTime) / 1e9
      let expected = 1 + referenceSpring(c.spring, d0: -1, v0: v, at: t).x
      #expect(abs(curve.progress(at: 0.3) - expected) <= 1e-9)
    }
  }

  @Test func stretchingChangesSpeedNotShape() throws {
    let own = try SpringCurve(spring: .bouncy, initialVelocity: 2)
    let stretched = try SpringCurve(spring: .bouncy, initialVelocity: 2, stretchedDuration: 2_000_000_000)
    #expect(stretched.duration == 2_000_000_000)
    #expect(stretched.settlingTime == own.settlingTime)
    for x in stride(from: 0.0, through: 1.0, by: 0.05) {
      #expect(stretched.progress(at: x) == own.progress(at: x))
    }
    // Velocity: distances per second of the curve's own duration.
    #expect(abs(own.velocity(at: 0) - 2) < 1e-12)
    let scale = Double(own.settlingTime) / 2e9
    #expect(abs(stretched.velocity(at: 0) - 2 * scale) < 1e-12)
    // It is the derivative of progress with respect to time.
    let x = 0.37
    let h = 1e-6
    let seconds = Double(own.duration) / 1e9
    let numeric = (own.progress(at: x + h) - own.progress(at: x - h)) / (2 * h * seconds)
    #expect(abs(own.velocity(at: x) - numeric) < 1e-6)
    #expect(own.velocity(at: 1) == 0)
    #expect(throws: CurveParameterError.self) { try SpringCurve(spring: .smooth, stretchedDuration: -1) }
    #expect(throws: CurveParameterError.self) { try SpringCurve(spring: .smooth, initialVelocity: .infinity) }
  }

  // MARK: The sample's fast path

  @Test(arguments: cases)
  func valueResponsesAgreeWithResponsesAndState(_ c: SpringCase) {
    let motion = c.spring.motion
    for i in 0...300 {
      let t = Double(i) * 0.01
      let (p, q) = motion.valueResponses(at: t)
      let r = motion.responses(at: t)
      #expect(p == r.displacement && q == r.velocity)
      // The engine's use: value = target + d₀·p + v₀·q, as `state` gives it.
      let target = 40.0
      let state = motion.state(target: target, displacement: c.d0, velocity: c.v0, at: t)
      #expect(abs(target + c.d0 * p + c.v0 * q - state.value) <= 1e-12)
      // And the textbook closed form.
      let reference = referenceSpring(c.spring, d0: c.d0, v0: c.v0, at: t)
      let tolerance = c.name.hasPrefix("barely") ? 1e-6 : 1e-12
      #expect(abs(c.d0 * p + c.v0 * q - reference.x) <= tolerance, "\(c.name) at \(t)")
    }
  }

  @Test func sineAndCosineMatchTheCLibrary() {
    var random = SeededRandom(seed: 43)
    var inputs: [Double] = [0, -0.0, 1e-300, 1e-8, 0.5, 1, 2, 3, 100, 823_549, -823_549, 1e6, -3e7, 1e300]
    // Around multiples of π/4 (quadrant changes, the ends of the reduced range).
    for k in -40...40 {
      let x = Double(k) * Double.pi / 4
      inputs += [x, x.nextUp, x.nextDown, x + 1e-9, x - 1e-9]
    }
    inputs += (0..<20_000).map { _ in Double.random(in: -20...20, using: &random) }
    inputs += (0..<5_000).map { _ in Double.random(in: -2_000...2_000, using: &random) }
    inputs += (0..<1_000).map { _ in Double.random(in: -800_000...800_000, using: &random) }
    var worst = 0.0
    for x in inputs {
      let (s, c) = sineAndCosine(x)
      let error = max(abs(s - sin(x)), abs(c - cos(x)))
      worst = max(worst, error)
      #expect(error <= 4e-16, "x = \(x): (\(s), \(c)) against (\(sin(x)), \(cos(x)))")
    }
    print("sineAndCosine: max difference from the C library \(worst)")
    for x in [Double.nan, .infinity, -.infinity] {
      let (s, c) = sineAndCosine(x)
      #expect(s.isNaN && c.isNaN)
    }
    #expect(sineAndCosine(0) == (0, 1))
  }
}
