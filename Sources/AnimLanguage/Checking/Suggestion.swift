// Suggestion: "did you mean ...?" for near-miss names. The parser uses it for keywords; the
// checker for curves, targets, properties and labels.

/// The edit distance between two strings (insertions, deletions, substitutions and swaps
/// of two neighbours, each one edit: `aniamte` is one edit from `animate`), counted in
/// Unicode scalars; nil once it exceeds `limit`, so a long unrelated word costs little.
func editDistance(_ first: String, _ second: String, limit: Int = .max) -> Int? {
  let a = Array(first.unicodeScalars)
  let b = Array(second.unicodeScalars)
  if abs(a.count - b.count) > limit { return nil }
  if a.isEmpty || b.isEmpty {
    let distance = max(a.count, b.count)
    return distance <= limit ? distance : nil
  }
  var beforePrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    var rowMinimum = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], beforePrevious[j - 2] + 1)
      }
      rowMinimum = min(rowMinimum, current[j])
    }
    if rowMinimum > limit { return nil }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count] <= limit ? previous[b.count] : nil
}

/// The candidate nearest to `word`, when it is near enough to be a likely typo: at most
/// one edit for short words, two for words of six letters or more. Ties go to the first
/// candidate in order. Returns nil for an exact match (nothing to suggest).
package func nearestName(to word: String, among candidates: some Sequence<String>) -> String? {
  let allowed = word.count >= 6 ? 2 : (word.count >= 3 ? 1 : 0)
  guard allowed > 0 else { return nil }
  var best: (name: String, distance: Int)?
  for candidate in candidates where candidate != word {
    guard let distance = editDistance(word, candidate, limit: allowed) else { continue }
    if best == nil || distance < best!.distance { best = (candidate, distance) }
  }
  return best?.name
}

/// `"; did you mean 'x'?"` when a near candidate exists, else the empty string: appended to
/// a message.
package func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
  guard let name = nearestName(to: word, among: candidates) else { return "" }
  return "; did you mean '\(name)'?"
}
