// The oracle's stagger (grammar.md § Stagger), written from the rule, sharing nothing with
// AnimCore: member k's extra delay is round((d_k − d_min) · STEP) ns, halves up, where d_k is
// its distance from the origin; `total D` makes STEP = D / (d_max − d_min); a curve makes it
// round(CURVE((d_k − d_min) / (d_max − d_min)) · spread), spread = (d_max − d_min) · STEP or
// D, rounded once. Distances along a line are exact rationals (halves); on a grid they are
// Euclidean, in floating point.

/// How the members of a group are spread in time.
package struct OracleStagger: Sendable, Hashable {
  package enum Origin: Sendable, Hashable {
    case start, end, center, edges
    case member(Int)
    case random(seed: UInt64)
  }

  /// STEP in nanoseconds, or (when `total`) the whole spread D.
  package var amount: OracleTime
  package var isTotal: Bool
  package var origin: Origin
  package var grid: (columns: Int, rows: Int)?
  package var curve: OracleCurve?

  package init(
    amount: OracleTime, isTotal: Bool = false, origin: Origin = .start, grid: (columns: Int, rows: Int)? = nil,
    curve: OracleCurve? = nil
  ) {
    self.amount = amount
    self.isTotal = isTotal
    self.origin = origin
    self.grid = grid
    self.curve = curve
  }

  package static func == (a: OracleStagger, b: OracleStagger) -> Bool {
    a.amount == b.amount && a.isTotal == b.isTotal && a.origin == b.origin && a.grid?.columns == b.grid?.columns
      && a.grid?.rows == b.grid?.rows && a.curve == b.curve
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(amount)
    hasher.combine(origin)
    hasher.combine(grid?.columns)
  }

  var isRandom: Bool {
    if case .random = origin { return true }
    return false
  }

  /// Each of `count` members' extra delay.
  package func offsets(count: Int) -> [OracleTime] {
    guard count > 1 else { return Array(repeating: 0, count: max(count, 0)) }
    // (A shuffled rank has no cell: `from random` is along the members, grid or not.)
    if let grid, !isRandom { return gridOffsets(count: count, columns: grid.columns, rows: grid.rows) }
    // Distances times two, so that the centre of an even count is whole.
    let twice: [Int128] = (0..<count).map { k in
      let k = Int128(k)
      let last = Int128(count - 1)
      switch origin {
      case .start: return 2 * k
      case .end: return 2 * (last - k)
      case .center: return abs(2 * k - last)
      case .edges: return 2 * min(k, last - k)
      case .member(let n): return 2 * abs(k - Int128(n))
      case .random(let seed): return 2 * Int128(Self.ranks(count: count, seed: seed)[Int(k)])
      }
    }
    let low = twice.min()!
    let spread = twice.max()! - low
    return twice.map { d in
      let above = d - low
      if spread == 0 { return 0 }
      if let curve {
        // round(CURVE(above / spread) · spreadNanoseconds), the spread exact: (spread/2)·STEP
        // or D, as a Double from its exact integer numerator over 2.
        let share = curve.progress(Double(above) / Double(spread))
        let whole = isTotal ? Double(amount) : Double(spread * Int128(amount)) / 2
        return OracleArithmetic.roundHalfUp(share * whole)
      }
      // round(above/2 · STEP) or round(above/spread · D), halves up, exactly.
      let (numerator, denominator) = isTotal ? (above * Int128(amount), spread) : (above * Int128(amount), Int128(2))
      return Self.halfUp(numerator, denominator)
    }
  }

  /// Euclidean distances in cells from the origin's cell.
  private func gridOffsets(count: Int, columns: Int, rows: Int) -> [OracleTime] {
    let cell = { (k: Int) in (x: Double(k % columns), y: Double(k / columns)) }
    let from: (x: Double, y: Double)
    switch origin {
    case .start, .edges, .random: from = (0, 0)
    case .end: from = (Double(columns - 1), Double(rows - 1))
    case .center: from = (Double(columns - 1) / 2, Double(rows - 1) / 2)
    case .member(let n): from = cell(n)
    }
    let distances = (0..<count).map { k -> Double in
      let c = cell(k)
      return ((c.x - from.x) * (c.x - from.x) + (c.y - from.y) * (c.y - from.y)).squareRoot()
    }
    let low = distances.min()!
    let spread = distances.max()! - low
    return distances.map { d in
      guard spread > 0 else { return 0 }
      let above = d - low
      if let curve {
        let whole = isTotal ? Double(amount) : spread * Double(amount)
        return OracleArithmetic.roundHalfUp(curve.progress(above / spread) * whole)
      }
      return OracleArithmetic.roundHalfUp(isTotal ? above / spread * Double(amount) : above * Double(amount))
    }
  }

  /// n / d rounded halves up (d > 0).
  static func halfUp(_ n: Int128, _ d: Int128) -> OracleTime {
    let doubled = 2 * n + d
    let q = doubled / (2 * d)
    let r = doubled % (2 * d)
    return OracleArithmetic.clamp(r < 0 ? q - 1 : q)
  }

  /// `from random(SEED)`: start from [0, …, count − 1]; for i from count − 1 down to 1, j =
  /// next() mod (i + 1) from SplitMix64(SEED), swap positions i and j; member k's rank is the
  /// value at position k. SplitMix64 as Steele, Lea and Flood give it.
  static func ranks(count: Int, seed: UInt64) -> [Int] {
    var state = seed
    func next() -> UInt64 {
      state = state &+ 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var values = Array(0..<count)
    var i = count - 1
    while i >= 1 {
      let j = Int(next() % UInt64(i + 1))
      values.swapAt(i, j)
      i -= 1
    }
    return values
  }
}
