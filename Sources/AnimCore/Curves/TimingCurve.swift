// Every curve an animation can use, behind one cheap switch.

/// The curve of an animation: maps input progress (0...1, the fraction of the duration that
/// has passed) to eased progress.
///
/// An enum rather than a protocol so that sampling is a switch on a tag, inlined, with no
/// existential or class dispatch, and so that curves are plain values stored inline in the
/// engine's contiguous arrays and written out with a snapshot.
public enum TimingCurve: Sendable, Hashable, Codable {
  /// The identity: eased progress is input progress.
  case linear
  /// A CSS `cubic-bezier()`.
  case cubicBezier(CubicBezier)
  /// A CSS `steps()`.
  case steps(Steps)
  /// A spring, from 0 to 1, over its settling time or stretched.
  case spring(SpringCurve)

  /// CSS `ease`.
  public static let ease = TimingCurve.cubicBezier(.ease)
  /// CSS `ease-in`.
  public static let easeIn = TimingCurve.cubicBezier(.easeIn)
  /// CSS `ease-out`.
  public static let easeOut = TimingCurve.cubicBezier(.easeOut)
  /// CSS `ease-in-out`.
  public static let easeInOut = TimingCurve.cubicBezier(.easeInOut)

  /// The eased progress at input progress `x`.
  ///
  /// `beforeFlag` matters only to `steps()` (Web Animations' before flag). For a spring, x is
  /// the fraction of its length, and x ≥ 1 gives exactly 1.
  @inlinable
  public func progress(at x: Double, beforeFlag: Bool = false) -> Double {
    switch self {
    case .linear: x
    case .cubicBezier(let curve): curve.progress(at: x)
    case .steps(let steps): steps.progress(at: x, beforeFlag: beforeFlag)
    case .spring(let spring): spring.progress(at: x)
    }
  }

  /// The length a curve brings with it, in nanoseconds: a spring's (so `animate ... with
  /// spring(...)` needs no `over`); `nil` for curves that take the animation's duration.
  @inlinable
  public var intrinsicDuration: Int64? {
    if case .spring(let spring) = self { return spring.duration }
    return nil
  }

  /// Whether this is a spring, which retargets by keeping velocity rather than by adding.
  @inlinable
  public var isSpring: Bool {
    if case .spring = self { return true }
    return false
  }
}

extension TimingCurve {
  /// The hash dictionaries use. A cubic-bezier curve's is its four numbers' bits, each mixed
  /// in with SplitMix64's finalizer, in place of SipHash: the engine keeps one entry per
  /// distinct curve (`curveIndex`), and a script of a hundred thousand random `cubic(...)`
  /// curves hashed each at its `animate` and again at every growth of the table (about 3 %
  /// of runtime.sample.mixed's time in a profile). Equal curves hash equally: 0 and -0 are
  /// equal numbers and hash as 0. The other curves hash as Hasher does, seeded with `seed`.
  public func _rawHashValue(seed: Int) -> Int {
    guard case .cubicBezier(let curve) = self else {
      var hasher = Hasher()
      hasher.combine(seed)
      hash(into: &hasher)
      return hasher.finalize()
    }
    func mixed(_ hash: UInt64, _ number: Double) -> UInt64 {
      var x = hash ^ (number == 0 ? 0 : number.bitPattern)
      x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
      x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
      return x ^ (x >> 31)
    }
    let hash = mixed(mixed(mixed(mixed(UInt64(UInt(bitPattern: seed)), curve.x1), curve.y1), curve.x2), curve.y2)
    return Int(bitPattern: UInt(hash))
  }
}
