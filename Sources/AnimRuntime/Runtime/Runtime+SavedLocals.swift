// Runtime+SavedLocals: the part of a saved session that loops, conditions and local
// variables add: the frames of locals that scheduled statements hold (saved once each, so
// that statements sharing a frame share it again after `:restore`), and the walks through
// blocks that wait at a loop or an `if` due later.

import AnimCore
import AnimLanguage

extension Runtime {
  /// A frame of locals: its parent (an earlier frame of the list) and its values.
  struct SavedFrame: Codable {
    var parent: Int?
    var values: [String: SavedValue]
  }

  /// One level of a waiting walk: a block (by its statements' span, the first statement to
  /// go on with and the frame its statements see) or a loop's passes.
  struct SavedWalkLevel: Codable {
    enum Kind: String, Codable { case block, loop }
    var kind: Kind
    /// The block (its braces; a program's top level: the whole entry), or the loop statement.
    var at: SavedSpan
    var index: Int?
    var next: Int64?
    var end: Int64?
    var frame: Int?
  }

  /// A walk through a block that waits at a loop or an `if`.
  struct SavedWalk: Codable {
    var levels: [SavedWalkLevel]
    var start: Nanoseconds
    var cursor: Nanoseconds
    var invocation: Int?
  }

  /// Numbers the frames of locals while a session is saved, parents first.
  struct FrameNumbering {
    private(set) var frames: [SavedFrame] = []
    private var numbers: [ObjectIdentifier: Int] = [:]

    /// The number of `frame` (nil for none), saving it and its parents on first sight.
    mutating func number(of frame: LocalFrame?) -> Int? {
      guard let frame else { return nil }
      if let known = numbers[ObjectIdentifier(frame)] { return known }
      let parent = number(of: frame.parent)
      frames.append(SavedFrame(parent: parent, values: frame.values.mapValues { SavedValue(constant: $0.constant) }))
      numbers[ObjectIdentifier(frame)] = frames.count - 1
      return frames.count - 1
    }
  }

  /// A walk as saved: each level's span, position and frame.
  func savedWalk(_ walk: BlockWalk, numbering: inout FrameNumbering) -> SavedWalk {
    let levels = walk.frames.map { level -> SavedWalkLevel in
      switch level {
      case .block(let statements, let index, let context):
        let span = Self.blockSpan(of: statements, in: context)
        return SavedWalkLevel(
          kind: .block, at: SavedSpan(entry: context.entry, start: span.start, end: span.end), index: index,
          frame: numbering.number(of: context.locals))
      case .loop(let loop, let next, let end, let context):
        let span = loop.variable.span
        return SavedWalkLevel(
          kind: .loop, at: SavedSpan(entry: context.entry, start: span.start, end: span.end), next: next, end: end,
          frame: numbering.number(of: context.locals))
      }
    }
    return SavedWalk(levels: levels, start: walk.start, cursor: walk.cursor, invocation: walk.invocation)
  }

  /// The span a walk's block is saved under: its braces, or the whole entry for a program's
  /// top level (whose statements are the entry's).
  static func blockSpan(of statements: [Statement], in context: ProgramContext) -> SourceSpan {
    guard let first = statements.first, let last = statements.last else { return SourceSpan(at: 0) }
    return SourceSpan(start: first.span.start, end: last.span.end)
  }

  /// The frames of a saved session rebuilt; nil when one is out of domain (a parent that is
  /// not an earlier frame, a value the language could not make).
  static func restoredFrames(_ saved: [SavedFrame]) -> [LocalFrame]? {
    var frames: [LocalFrame] = []
    for (index, frame) in saved.enumerated() {
      if let parent = frame.parent, parent < 0 || parent >= index { return nil }
      let values = frame.values.mapValues { RuntimeValue($0.constant) }
      guard values.values.allSatisfy(\.isInDomain) else { return nil }
      frames.append(LocalFrame(parent: frame.parent.map { frames[$0] }, values: values))
    }
    return frames
  }
}

extension Runtime.SavedSpan {
  /// Whether `statements` (a block's, without braces) are exactly the ones this span covers.
  func covers(_ statements: [Statement]) -> Bool {
    guard let first = statements.first, let last = statements.last else { return false }
    return first.span.start == start && last.span.end == end
  }
}
