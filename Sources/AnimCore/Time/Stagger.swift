// Stagger: the extra delay of each member of a group that one statement animates, as GSAP's
// and anime.js's `stagger` give it (grammar.md § Groups and stagger). Member k's extra delay
// is round((d_k − d_min) × step) nanoseconds, halves up, where d_k is its distance from the
// origin; `total` sets the step so that the spread is exactly the total; a curve reshapes
// the spread. Distances along a line are whole or half numbers, so those delays are exact
// integer arithmetic; a grid's are Euclidean, computed in Double and rounded once.

/// How the members of a group are delayed one after another.
package struct Stagger: Sendable, Hashable {
  /// Where distances are measured from.
  package enum Origin: Sendable, Hashable {
    /// Member 0 (a grid's cell (0, 0)).
    case start
    /// The last member (a grid's last cell).
    case end
    /// The middle: (count − 1) / 2 (a grid's centre cell, which may fall between cells).
    case center
    /// The nearer end of the line (not on a grid).
    case edges
    /// One member, by index.
    case member(Int)
    /// A seeded shuffle: each member's distance is its rank in a Fisher–Yates shuffle of
    /// 0 … count − 1 driven by SplitMix64(seed).
    case random(seed: UInt64)
  }

  /// How long the spread is: a delay per unit of distance, or the whole spread.
  package enum Spacing: Sendable, Hashable {
    case step(Int64)
    case total(Int64)
  }

  package var spacing: Spacing
  package var origin: Origin
  /// Members in a grid of `columns` × `rows` cells, row by row (member k at column k mod
  /// columns, row ⌊k / columns⌋).
  package var grid: (columns: Int, rows: Int)?
  /// The distribution: member k's share of the spread is curve((d_k − d_min) / (d_max − d_min)).
  package var curve: TimingCurve?

  package init(
    spacing: Spacing, origin: Origin = .start, grid: (columns: Int, rows: Int)? = nil, curve: TimingCurve? = nil
  ) {
    self.spacing = spacing
    self.origin = origin
    self.grid = grid
    self.curve = curve
  }

  package static func == (left: Stagger, right: Stagger) -> Bool {
    left.spacing == right.spacing && left.origin == right.origin && left.grid?.columns == right.grid?.columns
      && left.grid?.rows == right.grid?.rows && left.curve == right.curve
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(spacing)
    hasher.combine(origin)
    hasher.combine(grid?.columns)
    hasher.combine(grid?.rows)
    hasher.combine(curve)
  }

  /// The extra delay of each of `count` members, in nanoseconds (the smallest 0, all ≥ 0
  /// unless a curve dips below 0: those members start part-way in, as with a negative delay).
  package func delays(count: Int) -> [Int64] {
    guard count > 1 else { return Array(repeating: 0, count: max(count, 0)) }
    if let grid { return gridDelays(count: count, columns: grid.columns, rows: grid.rows) }
    // Twice each distance: a whole number even from the centre of an even count.
    let doubled = doubledLineDistances(count: count)
    let lowest = doubled.min() ?? 0
    let spread = (doubled.max() ?? 0) - lowest
    return doubled.map { exactDelay(twice: $0 - lowest, spreadTwice: spread) }
  }

  /// 2·d_k along the line.
  private func doubledLineDistances(count: Int) -> [Int64] {
    let last = Int64(count - 1)
    switch origin {
    case .start: return (0..<Int64(count)).map { 2 * $0 }
    case .end: return (0..<Int64(count)).map { 2 * (last - $0) }
    case .center: return (0..<Int64(count)).map { Swift.abs(2 * $0 - last) }
    case .edges: return (0..<Int64(count)).map { 2 * Swift.min($0, last - $0) }
    case .member(let n): return (0..<Int64(count)).map { 2 * Swift.abs($0 - Int64(n)) }
    case .random(let seed): return Stagger.shuffledRanks(count: count, seed: seed).map { 2 * Int64($0) }
    }
  }

  /// The delay for a doubled distance above the smallest, exactly: round(d × step) or
  /// round(d × total / spread), halves up, in 128-bit integers; with a curve, its share of the
  /// spread, rounded once.
  private func exactDelay(twice distance: Int64, spreadTwice spread: Int64) -> Int64 {
    if spread == 0 { return 0 }
    if let curve {
      let share = curve.progress(at: Double(distance) / Double(spread))
      return Stagger.roundedHalfUp(share * Double(wholeSpread(spreadTwice: spread)))
    }
    switch spacing {
    case .step(let step):
      return Stagger.roundedQuotient(Int128(distance) * Int128(step), 2)
    case .total(let total):
      return Stagger.roundedQuotient(Int128(distance) * Int128(total), Int128(spread))
    }
  }

  /// The whole spread in nanoseconds: (d_max − d_min) × step, or the total.
  private func wholeSpread(spreadTwice spread: Int64) -> Int64 {
    switch spacing {
    case .step(let step): return Stagger.roundedQuotient(Int128(spread) * Int128(step), 2)
    case .total(let total): return total
    }
  }

  /// On a grid: Euclidean distances in cells from the origin cell.
  private func gridDelays(count: Int, columns: Int, rows: Int) -> [Int64] {
    let origin: (x: Double, y: Double)
    switch self.origin {
    case .start, .edges: origin = (0, 0)
    case .end: origin = (Double(columns - 1), Double(rows - 1))
    case .center: origin = (Double(columns - 1) / 2, Double(rows - 1) / 2)
    case .member(let n): origin = (Double(n % columns), Double(n / columns))
    case .random(let seed):
      // A rank has no place on the grid: the shuffle is along the members.
      let ranks = Stagger.shuffledRanks(count: count, seed: seed).map { 2 * Int64($0) }
      let spread = (ranks.max() ?? 0) - (ranks.min() ?? 0)
      return ranks.map { exactDelay(twice: $0 - (ranks.min() ?? 0), spreadTwice: spread) }
    }
    let distances = (0..<count).map { k -> Double in
      let dx = Double(k % columns) - origin.x
      let dy = Double(k / columns) - origin.y
      return (dx * dx + dy * dy).squareRoot()
    }
    let lowest = distances.min() ?? 0
    let spread = (distances.max() ?? 0) - lowest
    guard spread > 0 else { return Array(repeating: 0, count: count) }
    return distances.map { distance in
      let above = distance - lowest
      if let curve {
        let whole: Double
        switch spacing {
        case .step(let step): whole = spread * Double(step)
        case .total(let total): whole = Double(total)
        }
        return Stagger.roundedHalfUp(curve.progress(at: above / spread) * whole)
      }
      switch spacing {
      case .step(let step): return Stagger.roundedHalfUp(above * Double(step))
      case .total(let total): return Stagger.roundedHalfUp(above / spread * Double(total))
      }
    }
  }

  /// Each member's rank: the value at position k after shuffling [0, …, count − 1] with
  /// SplitMix64(seed), for i from count − 1 down to 1 swapping positions i and next() mod (i + 1).
  package static func shuffledRanks(count: Int, seed: UInt64) -> [Int] {
    var ranks = Array(0..<count)
    var random = SplitMix64(seed: seed)
    var i = count - 1
    while i >= 1 {
      let j = Int(random.next() % UInt64(i + 1))
      ranks.swapAt(i, j)
      i -= 1
    }
    return ranks
  }

  /// round(a / b) for b > 0, halves up.
  static func roundedQuotient(_ a: Int128, _ b: Int128) -> Int64 {
    let doubled = 2 * a + b
    let quotient = doubled >= 0 ? doubled / (2 * b) : -((-doubled + 2 * b - 1) / (2 * b))
    return Int64(clamping: quotient)
  }

  /// A number of nanoseconds rounded to the nearest whole one, halves up (by conversion, not
  /// `rounded()`, which needs libm at link time). Negative only where a curve dips below 0.
  static func roundedHalfUp(_ x: Double) -> Int64 {
    guard x.isFinite else { return 0 }
    guard x < 9.2e18 else { return Int64.max }
    guard x > -9.2e18 else { return Int64.min }
    var floor = Int64(x)  // (toward zero)
    if Double(floor) > x { floor -= 1 }
    return x - Double(floor) >= 0.5 ? floor + 1 : floor
  }
}
