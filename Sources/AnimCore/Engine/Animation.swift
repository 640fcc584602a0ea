// Animation: the description of one property animation, before the engine schedules it.

/// One keyframe of a keyframe track.
public struct Keyframe: Sendable, Hashable, Codable {
  /// Where the keyframe falls, as a fraction of the track's length (0...1).
  public var offset: Double
  /// The value at the keyframe; nil for "the property's value when the track starts" (a
  /// first keyframe that the script left out), or for a value the embedder supplies when the
  /// animation starts (`Animation.resolvesEndpointsAtStart`).
  public var value: AnimationValue?
  /// The curve of the segment that ends at this keyframe.
  public var curve: TimingCurve

  public init(offset: Double, value: AnimationValue?, curve: TimingCurve = .linear) {
    self.offset = offset
    self.value = value
    self.curve = curve
  }
}

/// How a new animation combines with the animations already running on its property.
public enum Composition: String, Sendable, Hashable, Codable {
  /// Timing curves add (the old animations run on, the new one animates the difference to
  /// its target: SwiftUI's behaviour); springs take over keeping the property's velocity.
  case automatic
  /// The old animations are dropped and the new one starts from the current value.
  case replace
}

/// What an animation does to its property: a tween between two values, or a keyframe track.
public enum AnimationShape: Sendable, Hashable, Codable {
  /// From `from` (nil: the property's value when it starts) to `to` along `curve`. A spring
  /// curve moves by spring physics, so that retargeting can keep velocity.
  case tween(from: AnimationValue?, to: AnimationValue, curve: TimingCurve)
  /// Through keyframes sorted by offset; the last one is the target.
  case keyframes([Keyframe])
}

/// A property animation: what it does and when.
public struct Animation: Sendable, Hashable, Codable {
  /// The values it moves through.
  public var shape: AnimationShape
  /// Delay, duration of a pass, passes, direction, fill.
  public var timing: EffectTiming
  /// The playback rate (`speed`).
  public var rate: Double
  /// How it combines with animations already on the property.
  public var composition: Composition
  /// Where colors interpolate.
  public var colorSpace: ColorSpace
  /// Whether the engine asks the embedder for the values when the animation first starts
  /// (an `EngineEvent.Kind.needsValues` event, answered by `AnimationEngine.setValues`):
  /// for values computed from live state at that moment.
  public var resolvesValuesAtStart: Bool

  public init(
    shape: AnimationShape, timing: EffectTiming, rate: Double = 1, composition: Composition = .automatic,
    colorSpace: ColorSpace = .sRGB, resolvesValuesAtStart: Bool = false
  ) {
    self.shape = shape
    self.timing = timing
    self.rate = rate
    self.composition = composition
    self.colorSpace = colorSpace
    self.resolvesValuesAtStart = resolvesValuesAtStart
  }

  /// A tween from `from` (nil: the current value) to `to` over `duration` (nil: the curve's
  /// own length, which a spring has), filling forwards as the language does by default.
  public static func tween(
    from: AnimationValue? = nil, to: AnimationValue, duration: Nanoseconds? = nil, curve: TimingCurve = .linear,
    delay: Nanoseconds = 0, iterations: Double = 1, direction: PlaybackDirection = .normal,
    fill: FillMode = .forwards, rate: Double = 1, composition: Composition = .automatic
  ) -> Animation {
    let length = duration ?? curve.intrinsicDuration ?? 0
    return Animation(
      shape: .tween(from: from, to: to, curve: curve),
      timing: EffectTiming(delay: delay, duration: length, iterations: iterations, direction: direction, fill: fill),
      rate: rate, composition: composition)
  }

  /// The kind of value the animation moves, if its values say (nil when every value is left
  /// to be resolved).
  public var valueKind: ValueKind? {
    switch shape {
    case .tween(let from, let to, _): return from?.kind ?? to.kind
    case .keyframes(let frames): return frames.lazy.compactMap { $0.value?.kind }.first
    }
  }
}
