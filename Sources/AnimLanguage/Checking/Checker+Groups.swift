// Checker+Groups: groups of targets (`target dots[12] { ... }`), their members' properties
// (`dots[i].y`), statements on every member (`animate dots.y ...`, with `index` and `count`)
// and the stagger clause (grammar.md § Groups and stagger).

import AnimCore

extension Checker {
  /// The most members one group may have.
  static let groupMemberLimit = 100_000
  /// The most members all the groups of a script may have together.
  static let scriptMemberLimit = 1_000_000

  /// A group's member count: a positive integer constant within the limits; nil after an
  /// error (reported).
  mutating func checkGroupCount(_ count: Expression, of name: Identifier) -> Int? {
    let typed = expect(count, .number, "as the member count of '\(name.text)'")
    guard typed.type != .error else { return nil }
    guard case .number(let value)? = typed.constant else {
      error("expected a constant member count for the group '\(name.text)' (a positive integer)", at: count.span)
      return nil
    }
    guard ConstantEvaluator.isWhole(value), value >= 1 else {
      error(
        "expected a positive integer as the member count of '\(name.text)', found \(formatNumber(value))",
        at: count.span)
      return nil
    }
    guard value <= Double(Checker.groupMemberLimit) else {
      error(
        "a group has at most \(Checker.groupMemberLimit) members; '\(name.text)' asks for \(formatNumber(value))",
        at: count.span)
      return nil
    }
    let members = Int(value)
    if groupMembers + members > Checker.scriptMemberLimit {
      error(
        "a script's groups have at most \(Checker.scriptMemberLimit) members in all; '\(name.text)' "
          + "brings them to \(groupMembers + members)", at: count.span)
      return nil
    }
    groupMembers += members
    return members
  }

  /// Runs `body` with `index` and `count` bound as numbers (a group's braces, a statement on
  /// every member); each hides an outer name of its spelling, with a warning at `span`.
  mutating func withMemberNames<Result>(at span: SourceSpan, _ body: (inout Checker) -> Result) -> Result {
    var scope: [String: LocalSymbol] = [:]
    for word in [ContextualKeyword.index, .count] {
      let name = word.rawValue
      if local(named: name) != nil || self.symbol(named: name) != nil {
        warning(
          "'\(name)' here is the member's \(word == .index ? "index" : "group's size"), hiding the outer '\(name)'",
          at: span)
      }
      scope[name] = LocalSymbol(name: name, type: .number, kind: .loopVariable, span: span)
    }
    localScopes.append(scope)
    defer { localScopes.removeLast() }
    return body(&self)
  }

  /// The member index of `dots[i].p` or `dots[i]`: a number; when constant, an integer in
  /// the group's range. Returns whether it is constant (or already wrong, and reported).
  @discardableResult
  mutating func checkMemberIndex(_ index: Expression, of target: TargetSymbol) -> Bool {
    let typed = expect(index, .number, "as the index of a member of '\(target.name)'")
    guard let count = target.memberCount else { return true }
    guard case .number(let value)? = typed.constant else { return typed.type == .error }
    guard ConstantEvaluator.isWhole(value) else {
      error(
        "expected an integer as the index of a member of '\(target.name)', found \(formatNumber(value))", at: index.span
      )
      return true
    }
    if value < 0 || value >= Double(count) {
      error(
        "index \(formatNumber(value)) is out of range: '\(target.name)' has members 0 to \(count - 1)", at: index.span)
    }
    return true
  }

  /// Whether a statement on `reference` acts on every member of a group (`dots.y`).
  func isWholeGroup(_ reference: PropertyReference) -> Bool {
    guard reference.index == nil, let target = environment.target(named: reference.target.text) else { return false }
    return target.memberCount != nil
  }

  // stagger -> "stagger" [ expression ] [ "from" origin ] [ "total" expression ]
  //            [ "with" expression ] [ "grid" parenthesized ]
  mutating func checkStagger(_ stagger: StaggerClause, on reference: PropertyReference) {
    let group = environment.target(named: reference.target.text)
    let count = group?.memberCount
    if reference.index != nil || (group != nil && count == nil) {
      error(
        "'stagger' spreads a statement over a group's members: '\(PropertyName(reference))' is one property",
        at: stagger.span)
    }
    if stagger.step != nil && stagger.total != nil {
      error("give a stagger its step or its total, not both: 'total' sets the step", at: stagger.span)
    }
    for duration in [stagger.step, stagger.total].compactMap({ $0 }) {
      let typed = expect(duration, .duration, "in the stagger clause")
      if case .duration(let nanoseconds)? = typed.constant, nanoseconds < 0 {
        error("expected a duration ≥ 0 in the stagger clause, found \(formatDuration(nanoseconds))", at: duration.span)
      }
    }
    switch stagger.origin {
    case .member(let member):
      let typed = expect(member, .number, "as the stagger's origin member")
      if case .number(let value)? = typed.constant {
        if !ConstantEvaluator.isWhole(value) || value < 0 || count.map({ value >= Double($0) }) == true {
          error(
            "expected a member's index as the stagger's origin (0 to \((count ?? 1) - 1)), found \(formatNumber(value))",
            at: member.span)
        }
      } else if typed.type != .error {
        error("expected a constant member index as the stagger's origin", at: member.span)
      }
    case .random(let seed, _):
      let typed = expect(seed, .number, "as the seed of 'random'")
      if case .number(let value)? = typed.constant, !ConstantEvaluator.isWhole(value) || value < 0 {
        error("expected a whole number ≥ 0 as the seed of 'random', found \(formatNumber(value))", at: seed.span)
      }
    case .edges(let span) where stagger.grid != nil:
      error("'from edges' has no meaning on a grid: use start, end, center or a member", at: span)
    default:
      break
    }
    if let curve = stagger.curve {
      let typed = checkCurve(curve, context: "after 'with' in the stagger clause")
      if typed.curveKind == .spring {
        error("a stagger's curve is a timing curve, not a spring", at: curve.span)
      }
    }
    if let grid = stagger.grid {
      let typed = expect(grid, .vec2, "after 'grid' (columns, rows)")
      if case .vector(let sizes)? = typed.constant, sizes.count == 2 {
        let whole = sizes.allSatisfy { ConstantEvaluator.isWhole($0) && $0 >= 1 }
        if !whole {
          error("expected whole numbers ≥ 1 of columns and rows after 'grid'", at: grid.span)
        } else if let count, sizes[0] * sizes[1] != Double(count) {
          error(
            "a grid of \(formatNumber(sizes[0])) × \(formatNumber(sizes[1])) holds \(formatNumber(sizes[0] * sizes[1])) "
              + "members; '\(reference.target.text)' has \(count)", at: grid.span)
        }
      } else if typed.type != .error {
        error("expected constant columns and rows after 'grid'", at: grid.span)
      }
    }
  }
}
