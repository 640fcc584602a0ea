// Animatable values: the arithmetic every animated property needs.

/// A value an animation can move: it has a zero, adds and subtracts, scales by a number and
/// has a size (SwiftUI's `VectorArithmetic`).
///
/// These few operations are all the engine needs for every kind of animation: a timing curve
/// interpolates `from + (to − from)·p`, additive retargeting sums remaining changes, and a
/// spring superposes a displacement and a velocity. Conformers must be plain values so that
/// a whole engine state can be copied across threads and written out (`Codable`).
public protocol Animatable: Sendable, Equatable, Codable {
  /// The additive identity: `x + .zero == x`.
  static var zero: Self { get }
  /// Component-wise sum.
  static func + (lhs: Self, rhs: Self) -> Self
  /// Component-wise difference.
  static func - (lhs: Self, rhs: Self) -> Self
  /// Every component multiplied by `factor`.
  func scaled(by factor: Double) -> Self
  /// The squared Euclidean length of the components, for "how far" questions (settling,
  /// tolerances) without a square root.
  var magnitudeSquared: Double { get }
  /// The value a fraction `progress` of the way from `self` to `other`: 0 gives `self`;
  /// values outside 0...1 extrapolate (overshooting curves and springs need that).
  func interpolated(to other: Self, progress: Double) -> Self
}

extension Animatable {
  /// `self + (other − self)·progress`: the one formula every conformer shares unless it has
  /// a reason to differ.
  @inlinable
  public func interpolated(to other: Self, progress: Double) -> Self {
    self + (other - self).scaled(by: progress)
  }
}

/// Numbers animate as themselves.
extension Double: Animatable {
  @inlinable
  public func scaled(by factor: Double) -> Double { self * factor }

  @inlinable
  public var magnitudeSquared: Double { self * self }
}
