// ScriptGenerator: deterministic, seeded, valid `.anim` scripts that use every form of
// grammar.md. A tool for tests (the formatter's round trip runs on hundreds of them),
// fuzz seeds (a corpus of well-formed inputs the fuzzer then mutates) and benchmarks
// (scripts of any size that parse and check clean).
//
// Valid means: the parser reports nothing, and the names are used as declared, with the
// types they were declared with, so the checker has nothing to report either. To stay
// valid it keeps a model of what has been declared (lets and their types, targets and
// their properties, curves, timelines, labels, event names) and uses only that; it avoids
// what grammar.md makes an error (an item appended after `repeat forever`, `finish` on
// something that repeats forever, mixed or unsorted keyframes, `with` on a first keyframe
// at 0%, a timing curve without `over`, a negative `over`, a duplicated option).
//
// The same seed always gives the same script, on every machine: the random numbers come
// from SeededRandom (AnimCore's SplitMix64), not from the system.

import AnimLanguage

/// Makes random valid scripts, the same ones for the same seed.
///
/// ```swift
/// var generator = ScriptGenerator(seed: 42)
/// let text = generator.script(statements: 40)   // parses and checks clean
/// ```
public struct ScriptGenerator: Sendable {
  var random: SeededRandom
  /// Adds layout noise (odd spacing, `;`, blank lines, continuation lines, comments in
  /// odd places) so that the formatter has work to do; the meaning does not depend on it.
  package var messyLayout: Bool

  var model = GeneratorModel()

  /// - Parameters:
  ///   - seed: any number; equal seeds give equal scripts.
  ///   - messyLayout: whether to vary the layout (true by default).
  public init(seed: UInt64, messyLayout: Bool = true) {
    self.random = SeededRandom(seed: seed)
    self.messyLayout = messyLayout
  }

  /// A script of `statements` random top-level statements (declarations, timelines,
  /// animations, handlers, control statements...), after a preamble that declares a let
  /// of each type, a curve of each kind and two targets, and before an epilogue that
  /// handles every event name and plays every timeline not yet played.
  public mutating func script(statements count: Int) -> String {
    model = GeneratorModel()
    var lines: [String] = []
    if chance(0.2) { lines.append("#!/usr/bin/env anim run") }
    lines.append("// generated script: \(words(3...8))")
    lines += preamble()
    for _ in 0..<max(0, count) {
      lines += topLevelStatement()
    }
    lines += epilogue()
    return join(lines)
  }

  /// A script of at least `bytes` bytes (for benchmarks that want an input size).
  public mutating func script(bytes: Int) -> String {
    model = GeneratorModel()
    var lines: [String] = ["// generated script of at least \(bytes) bytes"]
    lines += preamble()
    var size = lines.reduce(0) { $0 + $1.utf8.count + 1 }
    while size < bytes {
      let more = topLevelStatement()
      size += more.reduce(0) { $0 + $1.utf8.count + 1 }
      lines += more
    }
    lines += epilogue()
    return join(lines)
  }

  // MARK: - Random choices

  mutating func chance(_ probability: Double) -> Bool { random.chance(probability) }

  mutating func integer(_ range: ClosedRange<Int>) -> Int { random.int(range) }

  mutating func pick<T>(_ choices: [T]) -> T { random.pick(choices) }

  /// A few words for comments and strings.
  mutating func words(_ count: ClosedRange<Int>) -> String {
    let vocabulary = [
      "card", "flip", "slide", "fade", "the", "badge", "bounces", "then", "rests", "quickly", "slowly",
      "overshoot", "ease", "color", "warm", "cool", "left", "right", "up", "down", "once", "again",
    ]
    return (0..<integer(count)).map { _ in pick(vocabulary) }.joined(separator: " ")
  }
}
