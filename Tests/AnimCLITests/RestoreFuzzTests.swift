import Foundation
import Testing

/// The restore fuzzer's promises, on its seed corpus (saved sessions of every example), as a
/// regression guard inside `swift test`; the libFuzzer run itself is `fuzz/run-restore.sh`.
@Suite("Restoring outside data")
struct RestoreFuzzTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fuzz/restore-corpus")

  /// Every seed restores, runs, saves and restores again.
  @Test func everySeedRestoresRunsAndRoundTrips() throws {
    let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".json") }
    #expect(seeds.count >= 16 * 4)
    let run = try CLI.run(
      seeds.sorted().map { Self.corpus.appendingPathComponent($0).path }, timeout: 300,
      program: CLI.sibling("anim-fuzz-restore"))
    #expect(!run.crashed && run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.split(separator: "\n").filter { $0.hasSuffix(": ok") }.count == seeds.count)
  }

  /// Every systematic corruption of six seeds (one with a playhead tween under way; each
  /// field out of its domain, each list shortened, lengthened, emptied) is refused in one
  /// sentence or runs: none traps.
  @Test(arguments: [
    "spin-paused-at-1700ms.json", "retarget-box-at-300ms.json", "meter-at-1700ms.json", "loop-counter-at-1700ms.json",
    "scrub-at-300ms.json", "chapters-at-300ms.json",
  ])
  func everyCorruptionIsRefusedOrRuns(_ seed: String) throws {
    let run = try CLI.run(
      ["--mutate", Self.corpus.appendingPathComponent(seed).path], timeout: 300,
      program: CLI.sibling("anim-fuzz-restore"))
    #expect(!run.crashed && run.status == 0, "\(run.standardError.suffix(2000))")
    // "...: N variants, R refused, A accepted and ran", with both kinds present.
    let numbers = run.standardOutput.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.suffix(3)
    #expect(numbers.count == 3 && numbers.first! > 1000, "\(run.standardOutput)")
    if numbers.count == 3 {
      let counts = Array(numbers)
      #expect(counts[1] > 0 && counts[2] > 0 && counts[1] + counts[2] == counts[0])
    }
  }
}
