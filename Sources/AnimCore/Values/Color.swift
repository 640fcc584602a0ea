// Colors: premultiplied sRGB, so that animating one blends the way browsers blend.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The space a color animation interpolates in.
///
/// `sRGB` (premultiplied, component-wise) is what browsers do for colors written as `#rrggbb`
/// or `rgb()`; `oklab` is perceptually even, so a fade between two hues does not dip into grey.
public enum ColorSpace: String, Sendable, Hashable, Codable, CaseIterable {
  case sRGB
  case oklab
}

/// An sRGB color with alpha, stored premultiplied.
///
/// A fully transparent color (alpha exactly 0), whose premultiplied channels would all be 0,
/// keeps its straight channels in their place instead, so `#0088ff00` stays `#0088ff00` and
/// a fade between two transparent colors changes hue. Interpolation reads such a color's
/// premultiplied channels as 0 (`premultipliedChannels`).
///
/// Storing `(r·a, g·a, b·a, a)` makes the plain component-wise `Animatable` arithmetic equal
/// to browsers' premultiplied interpolation: a fade from opaque red to transparent blue does
/// not pass through a dark, half-transparent purple. Channels are in 0...1 for colors in
/// gamut; animations that overshoot may leave that range, and `hexString()` clamps.
public struct Color: Animatable, Hashable, CustomStringConvertible {
  /// Red times alpha.
  public var premultipliedRed: Double
  /// Green times alpha.
  public var premultipliedGreen: Double
  /// Blue times alpha.
  public var premultipliedBlue: Double
  /// Opacity, 0 (transparent) to 1 (opaque).
  public var alpha: Double

  /// A color from channels already multiplied by alpha.
  @inlinable
  public init(premultipliedRed: Double, premultipliedGreen: Double, premultipliedBlue: Double, alpha: Double) {
    self.premultipliedRed = premultipliedRed
    self.premultipliedGreen = premultipliedGreen
    self.premultipliedBlue = premultipliedBlue
    self.alpha = alpha
  }

  /// A color from straight (not premultiplied) sRGB channels in 0...1, as written in
  /// `rgba()` after dividing r, g, b by 255.
  @inlinable
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    if alpha == 0 {
      self.init(premultipliedRed: red, premultipliedGreen: green, premultipliedBlue: blue, alpha: 0)
      return
    }
    self.init(
      premultipliedRed: red * alpha, premultipliedGreen: green * alpha,
      premultipliedBlue: blue * alpha, alpha: alpha)
  }

  /// A color from 8-bit straight channels, as in `#rrggbbaa`.
  @inlinable
  public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
    self.init(
      red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255,
      alpha: Double(alpha8) / 255)
  }

  /// A color from a packed `0xRRGGBBAA` value: the digits of `#rrggbbaa` as one number.
  @inlinable
  public init(rgba8 packed: UInt32) {
    self.init(
      red8: UInt8(truncatingIfNeeded: packed >> 24), green8: UInt8(truncatingIfNeeded: packed >> 16),
      blue8: UInt8(truncatingIfNeeded: packed >> 8), alpha8: UInt8(truncatingIfNeeded: packed))
  }

  /// A color from `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` optional), or `nil` if the text is
  /// not one of those. For embedders; the language's lexer has its own rules and messages.
  public init?(hex text: String) {
    var digits: [UInt32] = []
    for (index, scalar) in text.unicodeScalars.enumerated() {
      if index == 0 && scalar == "#" { continue }
      guard let digit = Color.hexDigitValue(scalar) else { return nil }
      digits.append(digit)
    }
    var packed: UInt32 = 0
    switch digits.count {
    case 3:
      for digit in digits { packed = packed << 8 | digit << 4 | digit }
      packed = packed << 8 | 0xFF
    case 6:
      for digit in digits { packed = packed << 4 | digit }
      packed = packed << 8 | 0xFF
    case 8:
      for digit in digits { packed = packed << 4 | digit }
    default:
      return nil
    }
    self.init(rgba8: packed)
  }

  private static func hexDigitValue(_ scalar: Unicode.Scalar) -> UInt32? {
    switch scalar.value {
    case 0x30...0x39: scalar.value - 0x30
    case 0x41...0x46: scalar.value - 0x41 + 10
    case 0x61...0x66: scalar.value - 0x61 + 10
    default: nil
    }
  }

  /// Transparent black: the additive identity.
  public static let zero = Color(premultipliedRed: 0, premultipliedGreen: 0, premultipliedBlue: 0, alpha: 0)

  /// The channels times alpha: all 0 for a fully transparent color (whose fields keep its
  /// straight channels, when it was made from them).
  @inlinable
  public var premultipliedChannels: (r: Double, g: Double, b: Double) {
    alpha == 0 ? (0, 0, 0) : (premultipliedRed, premultipliedGreen, premultipliedBlue)
  }

  // The arithmetic is plain, component-wise on the fields: differences and sums of colors
  // (additive animations, velocities) are premultiplied quantities, whatever their alpha.

  @inlinable
  public static func + (lhs: Color, rhs: Color) -> Color {
    Color(
      premultipliedRed: lhs.premultipliedRed + rhs.premultipliedRed,
      premultipliedGreen: lhs.premultipliedGreen + rhs.premultipliedGreen,
      premultipliedBlue: lhs.premultipliedBlue + rhs.premultipliedBlue,
      alpha: lhs.alpha + rhs.alpha)
  }

  @inlinable
  public static func - (lhs: Color, rhs: Color) -> Color {
    Color(
      premultipliedRed: lhs.premultipliedRed - rhs.premultipliedRed,
      premultipliedGreen: lhs.premultipliedGreen - rhs.premultipliedGreen,
      premultipliedBlue: lhs.premultipliedBlue - rhs.premultipliedBlue,
      alpha: lhs.alpha - rhs.alpha)
  }

  @inlinable
  public func scaled(by factor: Double) -> Color {
    Color(
      premultipliedRed: premultipliedRed * factor, premultipliedGreen: premultipliedGreen * factor,
      premultipliedBlue: premultipliedBlue * factor, alpha: alpha * factor)
  }

  @inlinable
  public var magnitudeSquared: Double {
    premultipliedRed * premultipliedRed + premultipliedGreen * premultipliedGreen
      + premultipliedBlue * premultipliedBlue + alpha * alpha
  }

  /// The straight (un-premultiplied) channels: what `T.p.r` reads and what is printed. A
  /// fully transparent color reads as the channels it was given.
  @inlinable
  public var straight: (r: Double, g: Double, b: Double, a: Double) {
    if alpha == 0 { return (premultipliedRed, premultipliedGreen, premultipliedBlue, 0) }
    guard alpha > 0 else { return (0, 0, 0, 0) }
    return (premultipliedRed / alpha, premultipliedGreen / alpha, premultipliedBlue / alpha, alpha)
  }

  /// The premultiplied blend a fraction `progress` of the way to `other` (browsers' sRGB
  /// interpolation), keeping the channels people wrote: at progress exactly 0 or 1 it is the
  /// written color; between two fully transparent colors the straight channels blend; where
  /// the blend is otherwise fully transparent, the channels are those of `other`, the end
  /// being approached.
  @inlinable
  public func interpolated(to other: Color, progress: Double) -> Color {
    if progress == 0 { return self }
    if progress == 1 { return other }
    if alpha == 0 && other.alpha == 0 {
      return Color(
        premultipliedRed: premultipliedRed + (other.premultipliedRed - premultipliedRed) * progress,
        premultipliedGreen: premultipliedGreen + (other.premultipliedGreen - premultipliedGreen) * progress,
        premultipliedBlue: premultipliedBlue + (other.premultipliedBlue - premultipliedBlue) * progress, alpha: 0)
    }
    // The blend of the premultiplied ends (a transparent end's channels count as 0).
    let a = premultipliedChannels
    let b = other.premultipliedChannels
    let blend = Color(
      premultipliedRed: a.r + (b.r - a.r) * progress, premultipliedGreen: a.g + (b.g - a.g) * progress,
      premultipliedBlue: a.b + (b.b - a.b) * progress, alpha: alpha + (other.alpha - alpha) * progress)
    if blend.alpha == 0 {
      let s = other.straight
      return Color(premultipliedRed: s.r, premultipliedGreen: s.g, premultipliedBlue: s.b, alpha: 0)
    }
    return blend
  }

  /// `#rrggbbaa` with lowercase digits: each straight channel, clamped to 0...1, times 255
  /// and rounded half up. Alpha below 0 gives `#00000000`.
  ///
  /// The rounding adds a tolerance of 1e-9 (in units of 1/255) so that a channel meant to be
  /// exactly half-way, which un-premultiplying may have moved by an ulp, still rounds up.
  public func hexString() -> String {
    let channels = straight
    guard channels.a >= 0 else { return "#00000000" }
    let bytes = [channels.r, channels.g, channels.b, channels.a].map(Color.byte(of:))
    let digits: [Character] = Array("0123456789abcdef")
    var text = "#"
    for byte in bytes {
      text.append(digits[byte >> 4])
      text.append(digits[byte & 0xF])
    }
    return text
  }

  /// A channel in 0...1 as a byte 0...255, half up; NaN reads as 0.
  @usableFromInline
  static func byte(of channel: Double) -> Int {
    guard channel > 0 else { return 0 }
    guard channel < 1 else { return 255 }
    return min(255, Int((channel * 255 + 0.5 + 1e-9).rounded(.down)))
  }

  public var description: String { hexString() }

  /// The color a fraction `progress` of the way from `from` to `to`, in `space`.
  ///
  /// In `.sRGB` it is the component-wise premultiplied blend (the same as `interpolated`). In
  /// `.oklab` both ends go straight sRGB → linear → Oklab, L, a and b are premultiplied by
  /// alpha and blended with alpha, then divided by the blended alpha and converted back.
  public static func interpolate(from: Color, to: Color, progress: Double, in space: ColorSpace) -> Color {
    if progress == 0 { return from }
    if progress == 1 { return to }
    switch space {
    case .sRGB:
      return from.interpolated(to: to, progress: progress)
    case .oklab:
      let start = from.oklab
      let end = to.oklab
      func premultiplied(_ c: Oklab) -> (Double, Double, Double, Double) {
        (c.lightness * c.alpha, c.a * c.alpha, c.b * c.alpha, c.alpha)
      }
      let p0 = premultiplied(start)
      let p1 = premultiplied(end)
      let alpha = p0.3 + (p1.3 - p0.3) * progress
      guard alpha > 0 else { return .zero }
      let lightness = (p0.0 + (p1.0 - p0.0) * progress) / alpha
      let a = (p0.1 + (p1.1 - p0.1) * progress) / alpha
      let b = (p0.2 + (p1.2 - p0.2) * progress) / alpha
      return Color(oklab: Oklab(lightness: lightness, a: a, b: b, alpha: alpha))
    }
  }

  /// This color in Oklab, with straight alpha. Transparent black converts to black.
  public var oklab: Oklab {
    let c = straight
    let lms = Oklab.linearToLMS.apply(
      (Color.linearFromSRGB(c.r), Color.linearFromSRGB(c.g), Color.linearFromSRGB(c.b)))
    let lab = Oklab.lmsRootToLab.apply((cbrt(lms.0), cbrt(lms.1), cbrt(lms.2)))
    return Oklab(lightness: lab.0, a: lab.1, b: lab.2, alpha: c.a)
  }

  /// The sRGB color of an Oklab color (channels may leave 0...1 for colors out of gamut).
  public init(oklab color: Oklab) {
    let root = Oklab.labToLMSRoot.apply((color.lightness, color.a, color.b))
    let linear = Oklab.lmsToLinear.apply((root.0 * root.0 * root.0, root.1 * root.1 * root.1, root.2 * root.2 * root.2))
    self.init(
      red: Color.sRGBFromLinear(linear.0), green: Color.sRGBFromLinear(linear.1),
      blue: Color.sRGBFromLinear(linear.2), alpha: color.alpha)
  }

  /// The sRGB transfer function, inverted; odd-symmetric so that colors out of gamut survive.
  static func linearFromSRGB(_ c: Double) -> Double {
    let magnitude = abs(c)
    let linear = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
    return c < 0 ? -linear : linear
  }

  /// The sRGB transfer function; odd-symmetric.
  static func sRGBFromLinear(_ c: Double) -> Double {
    let magnitude = abs(c)
    let encoded = magnitude <= 0.0031308 ? magnitude * 12.92 : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
    return c < 0 ? -encoded : encoded
  }
}

/// A color in Björn Ottosson's Oklab space, with straight alpha.
public struct Oklab: Sendable, Hashable, Codable {
  /// Perceived lightness, 0 (black) to 1 (white).
  public var lightness: Double
  /// Green (negative) to red (positive).
  public var a: Double
  /// Blue (negative) to yellow (positive).
  public var b: Double
  /// Opacity, 0...1.
  public var alpha: Double

  public init(lightness: Double, a: Double, b: Double, alpha: Double = 1) {
    self.lightness = lightness
    self.a = a
    self.b = b
    self.alpha = alpha
  }

  /// Linear sRGB → LMS (Ottosson, "A perceptual color space for image processing", 2020).
  static let linearToLMS = Matrix3(
    0.4122214708, 0.5363325363, 0.0514459929,
    0.2119034982, 0.6806995451, 0.1073969566,
    0.0883024619, 0.2817188376, 0.6299787005)

  /// Cube-rooted LMS → Lab (Ottosson).
  static let lmsRootToLab = Matrix3(
    0.2104542553, 0.7936177850, -0.0040720468,
    1.9779984951, -2.4285922050, 0.4505937099,
    0.0259040371, 0.7827717662, -0.8086757660)

  /// The inverses are computed from the forward matrices rather than taken from the
  /// published 10-digit ones, so that a round trip returns the color to 1e-15, not 1e-9.
  static let lmsToLinear = linearToLMS.inverse
  static let labToLMSRoot = lmsRootToLab.inverse
}

/// A 3×3 matrix, row-major, just enough for color conversions.
struct Matrix3: Sendable {
  var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  init(
    _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double,
    _ h: Double, _ i: Double
  ) {
    m = (a, b, c, d, e, f, g, h, i)
  }

  func apply(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
    (
      m.0 * v.0 + m.1 * v.1 + m.2 * v.2,
      m.3 * v.0 + m.4 * v.1 + m.5 * v.2,
      m.6 * v.0 + m.7 * v.1 + m.8 * v.2
    )
  }

  /// The inverse by cofactors (the matrices here are well conditioned).
  var inverse: Matrix3 {
    let (a, b, c, d, e, f, g, h, i) = m
    let cofactorA = e * i - f * h
    let cofactorB = -(d * i - f * g)
    let cofactorC = d * h - e * g
    let determinant = a * cofactorA + b * cofactorB + c * cofactorC
    return Matrix3(
      cofactorA / determinant, -(b * i - c * h) / determinant, (b * f - c * e) / determinant,
      cofactorB / determinant, (a * i - c * g) / determinant, -(a * f - c * d) / determinant,
      cofactorC / determinant, -(a * h - b * g) / determinant, (a * e - b * d) / determinant)
  }
}
