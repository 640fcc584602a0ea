// Fixed-size vectors of Doubles: positions, sizes, anything with 2, 3 or 4 components.

/// A two-component vector (`(x, y)` in the language).
///
/// Component-wise arithmetic makes it `Animatable`, so an animation moves both components
/// along the same curve.
public struct Vec2: Animatable, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  /// The number of components, for code that walks them by index.
  public static let componentCount = 2

  @inlinable
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  @inlinable
  public init(x: Double, y: Double) { self.init(x, y) }

  public static let zero = Vec2(0, 0)

  @inlinable
  public static func + (lhs: Vec2, rhs: Vec2) -> Vec2 { Vec2(lhs.x + rhs.x, lhs.y + rhs.y) }

  @inlinable
  public static func - (lhs: Vec2, rhs: Vec2) -> Vec2 { Vec2(lhs.x - rhs.x, lhs.y - rhs.y) }

  @inlinable
  public func scaled(by factor: Double) -> Vec2 { Vec2(x * factor, y * factor) }

  @inlinable
  public var magnitudeSquared: Double { x * x + y * y }

  /// The component at `index` (0 is `x`), or `nil` outside `0..<componentCount`: safe for
  /// indices that come from a script.
  @inlinable
  public func component(at index: Int) -> Double? {
    switch index {
    case 0: x
    case 1: y
    default: nil
    }
  }

  /// The component at `index` (0 is `x`). The index must be in `0..<componentCount`; use
  /// `component(at:)` when it comes from outside.
  @inlinable
  public subscript(index: Int) -> Double {
    get {
      precondition(index >= 0 && index < 2, "Vec2 index out of range")
      return index == 0 ? x : y
    }
    set {
      precondition(index >= 0 && index < 2, "Vec2 index out of range")
      if index == 0 { x = newValue } else { y = newValue }
    }
  }

  public var description: String { "(\(x), \(y))" }
}

/// A three-component vector (`(x, y, z)` in the language).
public struct Vec3: Animatable, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var z: Double

  /// The number of components, for code that walks them by index.
  public static let componentCount = 3

  @inlinable
  public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  @inlinable
  public init(x: Double, y: Double, z: Double) { self.init(x, y, z) }

  public static let zero = Vec3(0, 0, 0)

  @inlinable
  public static func + (lhs: Vec3, rhs: Vec3) -> Vec3 {
    Vec3(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z)
  }

  @inlinable
  public static func - (lhs: Vec3, rhs: Vec3) -> Vec3 {
    Vec3(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)
  }

  @inlinable
  public func scaled(by factor: Double) -> Vec3 { Vec3(x * factor, y * factor, z * factor) }

  @inlinable
  public var magnitudeSquared: Double { x * x + y * y + z * z }

  /// The component at `index` (0 is `x`), or `nil` outside `0..<componentCount`.
  @inlinable
  public func component(at index: Int) -> Double? {
    switch index {
    case 0: x
    case 1: y
    case 2: z
    default: nil
    }
  }

  /// The component at `index` (0 is `x`). The index must be in `0..<componentCount`.
  @inlinable
  public subscript(index: Int) -> Double {
    get {
      switch index {
      case 0: return x
      case 1: return y
      case 2: return z
      default: preconditionFailure("Vec3 index out of range")
      }
    }
    set {
      switch index {
      case 0: x = newValue
      case 1: y = newValue
      case 2: z = newValue
      default: preconditionFailure("Vec3 index out of range")
      }
    }
  }

  public var description: String { "(\(x), \(y), \(z))" }
}

/// A four-component vector (`(x, y, z, w)` in the language).
public struct Vec4: Animatable, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var z: Double
  public var w: Double

  /// The number of components, for code that walks them by index.
  public static let componentCount = 4

  @inlinable
  public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  @inlinable
  public init(x: Double, y: Double, z: Double, w: Double) { self.init(x, y, z, w) }

  public static let zero = Vec4(0, 0, 0, 0)

  @inlinable
  public static func + (lhs: Vec4, rhs: Vec4) -> Vec4 {
    Vec4(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z, lhs.w + rhs.w)
  }

  @inlinable
  public static func - (lhs: Vec4, rhs: Vec4) -> Vec4 {
    Vec4(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z, lhs.w - rhs.w)
  }

  @inlinable
  public func scaled(by factor: Double) -> Vec4 {
    Vec4(x * factor, y * factor, z * factor, w * factor)
  }

  @inlinable
  public var magnitudeSquared: Double { x * x + y * y + z * z + w * w }

  /// The component at `index` (0 is `x`), or `nil` outside `0..<componentCount`.
  @inlinable
  public func component(at index: Int) -> Double? {
    switch index {
    case 0: x
    case 1: y
    case 2: z
    case 3: w
    default: nil
    }
  }

  /// The component at `index` (0 is `x`). The index must be in `0..<componentCount`.
  @inlinable
  public subscript(index: Int) -> Double {
    get {
      switch index {
      case 0: return x
      case 1: return y
      case 2: return z
      case 3: return w
      default: preconditionFailure("Vec4 index out of range")
      }
    }
    set {
      switch index {
      case 0: x = newValue
      case 1: y = newValue
      case 2: z = newValue
      case 3: w = newValue
      default: preconditionFailure("Vec4 index out of range")
      }
    }
  }

  public var description: String { "(\(x), \(y), \(z), \(w))" }
}
