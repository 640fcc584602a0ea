// AnimationValue: one value of any animatable type, for the engine's API and snapshots.
//
// Inside the engine every type has its own contiguous storage (see ValueStore), so sampling
// never switches on a type. At the edges, where an embedder sets or reads a property of a
// type known only at run time, values travel as this enum.

/// The animatable types.
public enum ValueKind: String, Sendable, Hashable, Codable, CaseIterable {
  case number, vec2, vec3, vec4, color
}

/// A value of one of the animatable types.
public enum AnimationValue: Sendable, Hashable, Codable, CustomStringConvertible {
  case number(Double)
  case vec2(Vec2)
  case vec3(Vec3)
  case vec4(Vec4)
  case color(Color)

  /// The value's type.
  public var kind: ValueKind {
    switch self {
    case .number: .number
    case .vec2: .vec2
    case .vec3: .vec3
    case .vec4: .vec4
    case .color: .color
    }
  }

  /// The zero of `kind`: what velocities start from.
  public static func zero(_ kind: ValueKind) -> AnimationValue {
    switch kind {
    case .number: .number(0)
    case .vec2: .vec2(.zero)
    case .vec3: .vec3(.zero)
    case .vec4: .vec4(.zero)
    case .color: .color(.zero)
    }
  }

  public var description: String {
    switch self {
    case .number(let x): "\(x)"
    case .vec2(let v): v.description
    case .vec3(let v): v.description
    case .vec4(let v): v.description
    case .color(let c): c.description
    }
  }
}

/// A value type the engine stores: an `Animatable` with a slot in `AnimationValue` and its
/// own storage in the engine. The five animatable types conform; the protocol is how generic
/// engine code, specialised per type, reaches the right storage without a dynamic cast.
public protocol EngineValue: Animatable {
  /// This type's case of `ValueKind`.
  static var kind: ValueKind { get }
  /// Wraps a value.
  var animationValue: AnimationValue { get }
  /// Unwraps a value of this type, or nil for another type.
  init?(_ value: AnimationValue)
  /// The storage for values of this type in an engine.
  static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Self>> { get }
  /// The value a fraction `progress` of the way from `from` to `to`, in `space` where that
  /// means something (colors).
  static func interpolate(from: Self, to: Self, progress: Double, in space: ColorSpace) -> Self
}

extension EngineValue {
  @inlinable
  public static func interpolate(from: Self, to: Self, progress: Double, in space: ColorSpace) -> Self {
    from.interpolated(to: to, progress: progress)
  }
}

extension Double: EngineValue {
  public static var kind: ValueKind { .number }
  public var animationValue: AnimationValue { .number(self) }
  public init?(_ value: AnimationValue) {
    guard case .number(let x) = value else { return nil }
    self = x
  }
  public static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Double>> { \.numbers }
}

extension Vec2: EngineValue {
  public static var kind: ValueKind { .vec2 }
  public var animationValue: AnimationValue { .vec2(self) }
  public init?(_ value: AnimationValue) {
    guard case .vec2(let v) = value else { return nil }
    self = v
  }
  public static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Vec2>> { \.vec2s }
}

extension Vec3: EngineValue {
  public static var kind: ValueKind { .vec3 }
  public var animationValue: AnimationValue { .vec3(self) }
  public init?(_ value: AnimationValue) {
    guard case .vec3(let v) = value else { return nil }
    self = v
  }
  public static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Vec3>> { \.vec3s }
}

extension Vec4: EngineValue {
  public static var kind: ValueKind { .vec4 }
  public var animationValue: AnimationValue { .vec4(self) }
  public init?(_ value: AnimationValue) {
    guard case .vec4(let v) = value else { return nil }
    self = v
  }
  public static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Vec4>> { \.vec4s }
}

extension Color: EngineValue {
  public static var kind: ValueKind { .color }
  public var animationValue: AnimationValue { .color(self) }
  public init?(_ value: AnimationValue) {
    guard case .color(let c) = value else { return nil }
    self = c
  }
  public static var store: WritableKeyPath<AnimationEngine.Stores, ValueStore<Color>> { \.colors }
  // `interpolate(from:to:progress:in:)` is Color's own (Color.swift): sRGB or Oklab.
}
