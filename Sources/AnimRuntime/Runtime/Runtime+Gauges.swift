// Runtime+Gauges: the range a view draws a number property's value in. A bar between the
// smallest and largest value shown so far would jump as the value moves; the gauge spans
// where the property is going: its base value and every `from`, `to` and keyframe value of
// the animations started on it so far, so a spring's overshoot shows as going past the end.

import AnimCore

/// The smallest and largest value a gauge spans.
package struct Gauge: Sendable, Hashable {
  package var low: Double
  package var high: Double

  package init(low: Double, high: Double) {
    self.low = low
    self.high = high
  }

  /// The gauge widened to hold `value` (a value that is not finite is left out).
  func including(_ value: Double) -> Gauge {
    guard value.isFinite else { return self }
    return Gauge(low: min(low, value), high: max(high, value))
  }
}

extension Runtime {
  /// The gauge of the number property `name`: its base value, and the endpoints of the
  /// animations started on it so far (while `tracksGauges`; else its base value alone). Nil
  /// for a property that is not a number's.
  package func gauge(of name: String) -> Gauge? {
    guard let id = properties[name], id.kind == .number else { return nil }
    return gauge(of: id)
  }

  /// An animation starts, or its values are resolved: its property's gauge takes them in,
  /// with the property's base value.
  func widenGauge(for node: NodeID) {
    guard tracksGauges, let property = engine.property(of: node), property.kind == .number,
      let endpoints = try? engine.endpoints(of: node)
    else { return }
    var gauge = gauge(of: property)
    for case .number(let value) in endpoints + [engine.baseValue(of: property)] {
      gauge = gauge.map { $0.including(value) } ?? (value.isFinite ? Gauge(low: value, high: value) : nil)
    }
    numberGauges[property] = gauge
  }

  private func gauge(of property: PropertyID) -> Gauge? {
    if let gauge = numberGauges[property] { return gauge }
    guard case .number(let base) = engine.baseValue(of: property), base.isFinite else { return nil }
    return Gauge(low: base, high: base)
  }

  /// Whether any animation on the property `name` is held (it or a timeline around it is
  /// paused), and whether the newest runs backwards.
  package func playbackMarks(of name: String) -> (paused: Bool, reversed: Bool) {
    guard let id = properties[name] else { return (false, false) }
    let animations = engine.animations(on: id)
    let playbacks = animations.compactMap { try? engine.effectivePlayback(of: $0) }
    return (playbacks.contains { $0.isPaused }, playbacks.last?.isReversed ?? false)
  }
}
