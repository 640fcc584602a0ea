// The engine's curves, by kind, for sampling.
//
// The engine keeps each distinct curve once (`curves`, which a snapshot writes out). Reading
// one for a sample by `curves[i]` copies the whole enum (over a hundred bytes for a cubic
// Bézier) before switching on it, which cost more than sampling a linear tween. So each
// curve also has a small entry saying its kind and where its parameters are in a table of
// that kind, and sampling reads only those parameters, in place.

/// A curve's kind and its place in the table of that kind.
struct CurveEntry: Sendable, Hashable {
  enum Kind: UInt8, Sendable {
    case linear, cubicBezier, spring, other
  }

  var kind: Kind
  /// Index in `beziers` or `springs`; 0 for the others.
  var index: Int32
}

extension AnimationEngine {
  /// Adds the table entry of `curve`, the newest in `curves`.
  mutating func addCurveEntry(for curve: TimingCurve) {
    switch curve {
    case .linear:
      curveEntries.append(CurveEntry(kind: .linear, index: 0))
    case .cubicBezier(let bezier):
      curveEntries.append(CurveEntry(kind: .cubicBezier, index: Int32(beziers.count)))
      beziers.append(bezier)
    case .spring(let spring):
      curveEntries.append(CurveEntry(kind: .spring, index: Int32(springs.count)))
      springs.append(spring)
    case .steps:
      curveEntries.append(CurveEntry(kind: .other, index: 0))
    }
  }

  /// Rebuilds the tables from `curves` (after decoding).
  mutating func rebuildCurveTables() {
    curveEntries = []
    beziers = []
    springs = []
    for curve in curves { addCurveEntry(for: curve) }
  }
}
