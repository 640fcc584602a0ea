import Foundation
import Testing

@testable import AnimCore

@Suite("Animatable values")
struct ValueTests {
  @Test func doubleArithmeticAndInterpolation() {
    #expect(Double.zero == 0)
    #expect(3.0.scaled(by: 2) == 6)
    #expect((-3.0).magnitudeSquared == 9)
    #expect(10.0.interpolated(to: 20, progress: 0.4) == 14)
    #expect(10.0.interpolated(to: 20, progress: 0) == 10)
    #expect(10.0.interpolated(to: 20, progress: 1.5) == 25)
    #expect(10.0.interpolated(to: 20, progress: -0.5) == 5)
  }

  @Test func vectorArithmetic() {
    let a = Vec2(1, 2)
    let b = Vec2(x: 4, y: -6)
    #expect(a + b == Vec2(5, -4))
    #expect(a - b == Vec2(-3, 8))
    #expect(b.scaled(by: 0.5) == Vec2(2, -3))
    #expect(b.magnitudeSquared == 52)
    #expect(a.interpolated(to: b, progress: 0.5) == Vec2(2.5, -2))
    #expect(Vec2.zero + a == a)

    let c = Vec3(1, 2, 3)
    #expect(c + Vec3(1, 1, 1) == Vec3(2, 3, 4))
    #expect(c - c == .zero)
    #expect(c.scaled(by: -1) == Vec3(-1, -2, -3))
    #expect(c.magnitudeSquared == 14)
    #expect(c.interpolated(to: Vec3(3, 2, 1), progress: 0.25) == Vec3(1.5, 2, 2.5))

    let d = Vec4(1, 2, 3, 4)
    #expect(d + d == d.scaled(by: 2))
    #expect(d - Vec4(1, 1, 1, 1) == Vec4(0, 1, 2, 3))
    #expect(d.magnitudeSquared == 30)
    #expect(Vec4.zero.interpolated(to: d, progress: 0.5) == Vec4(0.5, 1, 1.5, 2))
  }

  @Test func componentsByIndex() {
    var v = Vec4(1, 2, 3, 4)
    for index in 0..<Vec4.componentCount {
      #expect(v[index] == Double(index + 1))
      #expect(v.component(at: index) == Double(index + 1))
      v[index] = -v[index]
    }
    #expect(v == Vec4(-1, -2, -3, -4))
    #expect(v.component(at: 4) == nil)
    #expect(v.component(at: -1) == nil)
    var u = Vec3(0, 0, 0)
    u[2] = 7
    #expect(u.z == 7 && u.component(at: 3) == nil)
    var w = Vec2(0, 0)
    w[1] = 5
    #expect(w == Vec2(0, 5) && w.component(at: 2) == nil)
  }

  @Test func colorStoresPremultipliedChannels() {
    let c = Color(red: 0.8, green: 0.4, blue: 0.2, alpha: 0.5)
    #expect(c.premultipliedRed == 0.8 * 0.5)
    #expect(c.premultipliedGreen == 0.4 * 0.5)
    #expect(c.premultipliedBlue == 0.2 * 0.5)
    #expect(c.alpha == 0.5)
    // Round trip through premultiplication over a grid of straight colors.
    for r in stride(from: 0.0, through: 1.0, by: 0.1) {
      for a in stride(from: 0.05, through: 1.0, by: 0.05) {
        let s = Color(red: r, green: 1 - r, blue: r / 2, alpha: a).straight
        #expect(abs(s.r - r) <= 1e-15 && abs(s.g - (1 - r)) <= 1e-15 && abs(s.b - r / 2) <= 1e-15)
        #expect(s.a == a)
      }
    }
    #expect(Color.zero.straight == (0, 0, 0, 0))
  }

  @Test func colorInterpolationIsPremultiplied() {
    let red = Color(red: 1, green: 0, blue: 0, alpha: 1)
    let clearBlue = Color(red: 0, green: 0, blue: 1, alpha: 0)
    // Browsers: half-way from opaque red to transparent anything is red at half opacity.
    let middle = red.interpolated(to: clearBlue, progress: 0.5).straight
    #expect(middle == (1, 0, 0, 0.5))
    #expect(
      Color.interpolate(from: red, to: clearBlue, progress: 0.5, in: .sRGB)
        == red.interpolated(to: clearBlue, progress: 0.5))
    // Straight interpolation would give (0.5, 0, 0.5); premultiplied gives this between two
    // half-transparent colors of different alpha:
    let a = Color(red: 1, green: 0, blue: 0, alpha: 0.8)
    let b = Color(red: 0, green: 0, blue: 1, alpha: 0.2)
    let m = a.interpolated(to: b, progress: 0.5).straight
    #expect(abs(m.r - 0.8) < 1e-15 && abs(m.b - 0.2) < 1e-15 && abs(m.a - 0.5) < 1e-15)
  }

  @Test func hexStringRoundTripsEveryByte() {
    for alpha in 1...255 {
      for red in 0...255 {
        let c = Color(red8: UInt8(red), green8: UInt8(255 - red), blue8: UInt8(red / 3), alpha8: UInt8(alpha))
        let expected = "#" + [red, 255 - red, red / 3, alpha].map { String(format: "%02x", $0) }.joined()
        if c.hexString() != expected {
          Issue.record("\(red), \(alpha): \(c.hexString()) != \(expected)")
          return
        }
      }
    }
    #expect(Color(hex: "#12abEF80")?.hexString() == "#12abef80")
    #expect(Color(hex: "#fff")?.hexString() == "#ffffffff")
    #expect(Color(hex: "0a0b0c")?.hexString() == "#0a0b0cff")
    #expect(Color(hex: "#12345") == nil)
    #expect(Color(hex: "#ggg") == nil)
    #expect(Color(rgba8: 0x1020_3040) == Color(red8: 0x10, green8: 0x20, blue8: 0x30, alpha8: 0x40))
  }

  @Test func hexRoundsHalvesUp() {
    // 127.5 → 128 (0x80), 1.5 → 2, 254.5 → 255, 127.49 → 127, at many alphas.
    for k in 1...100 {
      let alpha = Double(k) / 100
      let c = Color(red: 0.5, green: 1.5 / 255, blue: 254.5 / 255, alpha: alpha)
      let hex = c.hexString()
      #expect(hex.hasPrefix("#8002ff"), "alpha \(alpha): \(hex)")
      let d = Color(red: 127.49 / 255, green: 0.49 / 255, blue: 0.51 / 255, alpha: alpha)
      #expect(d.hexString().hasPrefix("#7f0001"), "alpha \(alpha): \(d.hexString())")
    }
    // Alpha 0.5 is 127.5 → 0x80.
    #expect(Color(red: 1, green: 1, blue: 1, alpha: 0.5).hexString() == "#ffffff80")
    // Clamping out-of-gamut channels, and transparent colors.
    #expect(Color(red: 1.2, green: -0.3, blue: 0.5, alpha: 1.4).hexString() == "#ff0080ff")
    // A fully transparent color keeps the channels it was written with (issue 12, rule 9).
    #expect(Color(red: 1, green: 1, blue: 1, alpha: 0).hexString() == "#ffffff00")
    #expect(Color(red: 1, green: 1, blue: 1, alpha: -0.2).hexString() == "#00000000")
    #expect(Color(red: .nan, green: 1, blue: 1, alpha: 1).hexString() == "#00ffffff")
  }

  @Test func oklabKnownValues() {
    let white = Color(red: 1, green: 1, blue: 1).oklab
    #expect(abs(white.lightness - 1) < 1e-6 && abs(white.a) < 1e-6 && abs(white.b) < 1e-6)
    let black = Color(red: 0, green: 0, blue: 0).oklab
    #expect(black.lightness == 0 && black.a == 0 && black.b == 0)
    // sRGB red, as given by Ottosson's reference code (and CSS Color 4: oklab(62.8% 0.225 0.126)).
    let red = Color(red: 1, green: 0, blue: 0).oklab
    #expect(abs(red.lightness - 0.627955) < 2e-6)
    #expect(abs(red.a - 0.224863) < 2e-6)
    #expect(abs(red.b - 0.125846) < 2e-6)
  }

  @Test func oklabRoundTrip() {
    var worst = 0.0
    for r in stride(from: 0.0, through: 1.0, by: 0.125) {
      for g in stride(from: 0.0, through: 1.0, by: 0.125) {
        for b in stride(from: 0.0, through: 1.0, by: 0.125) {
          let c = Color(red: r, green: g, blue: b, alpha: 0.75)
          let back = Color(oklab: c.oklab).straight
          worst = max(worst, abs(back.r - r), abs(back.g - g), abs(back.b - b), abs(back.a - 0.75))
        }
      }
    }
    #expect(worst <= 1e-9, "worst round-trip error \(worst)")
  }

  @Test func oklabInterpolation() {
    let white = Color(red: 1, green: 1, blue: 1)
    let black = Color(red: 0, green: 0, blue: 0)
    let mid = Color.interpolate(from: black, to: white, progress: 0.5, in: .oklab).oklab
    #expect(abs(mid.lightness - 0.5 * white.oklab.lightness) < 1e-12)
    // Premultiplied: fading red to transparent keeps red's Lab and halves alpha.
    let red = Color(red: 1, green: 0, blue: 0)
    let clear = Color(red: 0, green: 0, blue: 1, alpha: 0)
    let fade = Color.interpolate(from: red, to: clear, progress: 0.5, in: .oklab).straight
    #expect(abs(fade.r - 1) < 1e-9 && abs(fade.g) < 1e-9 && abs(fade.b) < 1e-9 && fade.a == 0.5)
    #expect(Color.interpolate(from: clear, to: clear, progress: 0.5, in: .oklab) == .zero)
    // Ends are the ends.
    let blue = Color(red: 0, green: 0, blue: 1)
    let end = Color.interpolate(from: red, to: blue, progress: 1, in: .oklab).straight
    #expect(abs(end.r) < 1e-9 && abs(end.g) < 1e-9 && abs(end.b - 1) < 1e-9)
  }

  @Test func valuesAreCodable() throws {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    let color = Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5)
    #expect(try decoder.decode(Color.self, from: encoder.encode(color)) == color)
    let v = Vec3(1, -2, 3.5)
    #expect(try decoder.decode(Vec3.self, from: encoder.encode(v)) == v)
  }
}
