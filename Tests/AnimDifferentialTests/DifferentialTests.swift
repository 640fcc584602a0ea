// The engine against the oracle.
//
// `sample`: a seed-fixed sample of cases, in every `swift test`. It fails on any mismatch,
// printing each distinct one reduced, as an `.anim` script and as Swift; set
// ANIM_DIFFERENTIAL_REPORT_ONLY=1 to print them without failing (while the engine is being
// fixed). It also asserts that the sample exercised each feature the issue lists.
//
// `longRun`: does nothing unless ANIM_DIFFERENTIAL_SECONDS is set; then runs random seeds for
// that long and prints one summary line and each distinct mismatch reduced:
//   ANIM_DIFFERENTIAL_SECONDS=600 swift test -c release --filter AnimDifferentialTests.longRun
// (ANIM_DIFFERENTIAL_SEED=N starts from seed N; the default is the clock.)
//
// `replay`: does nothing unless ANIM_DIFFERENTIAL_REPLAY is set to seeds, comma-separated;
// then runs those and prints each mismatch reduced (to look at one seed of a long run):
//   ANIM_DIFFERENTIAL_REPLAY=6010899,3079174 swift test --filter AnimDifferentialTests.replay

import AnimOracle
import Foundation
import Testing

struct Summary {
  var seeds = 0
  var sequences = 0
  var samples = 0
  var events = 0
  var mismatches = 0
  /// Seeds the oracle gave up on (too slow to replay within its deadline): not compared.
  var tooSlow = 0
  var classes: [String: (DifferentialCase, Mismatch)] = [:]
  /// How many seeds mismatched in each class.
  var classCounts: [String: Int] = [:]
  var features: Features = []
  var tally: [String: Int] = [:]

  var line: String {
    "differential: seeds \(seeds), sequences \(sequences), samples \(samples), events \(events), mismatches \(mismatches) (\(classes.count) distinct)"
      + (tooSlow > 0 ? ", \(tooSlow) not compared (the oracle too slow)" : "")
  }

  /// Runs one seed; a mismatch of a new class is reduced and kept.
  mutating func run(seed: UInt64, reduceNew: Bool = true) {
    var generator = CaseGenerator(seed: seed)
    var c = generator.generate()
    c.seed = seed
    seeds += 1
    sequences += 1
    features.formUnion(generator.features)
    let (mismatch, engine, oracle) = check(c)
    if oracle.gaveUp {
      tooSlow += 1
      return
    }
    samples += c.samples.count
    events += max(engine.events.count, oracle.events.count)
    for (key, n) in oracle.tally { tally[key, default: 0] += n }
    guard let mismatch else { return }
    mismatches += 1
    classCounts[mismatch.signature, default: 0] += 1
    guard classes[mismatch.signature] == nil else { return }
    let reduced = reduceNew ? reduce(c, mismatch) : c
    let again = check(reduced).0 ?? mismatch
    classes[mismatch.signature] = (reduced, again)
  }

  func report() -> String {
    var text = line + "\n"
    for (signature, (c, mismatch)) in classes.sorted(by: { $0.key < $1.key }) {
      text +=
        "\n=== \(signature) (seed \(c.seed); \(classCounts[signature] ?? 0) seeds)\n\(mismatch.detail)\n--- .anim\n\(animScript(c))\n--- samples (ns): \(c.samples)\n--- Swift\n\(swiftSource(c))\n"
    }
    return text
  }
}

@Suite struct AnimDifferentialTests {
  @Test func sample() {
    var summary = Summary()
    for seed in UInt64(1)...UInt64(150) { summary.run(seed: seed) }
    print(summary.report())
    print("features: \(summary.tally.sorted { $0.key < $1.key })")
    let f = summary.features
    let t = summary.tally
    #expect(f.contains(.shorterRetarget) && (t["newer shorter retarget"] ?? 0) > 0, "a newer shorter retarget")
    #expect((t["negative delay"] ?? 0) > 0, "a negative delay")
    #expect((t["zero duration"] ?? 0) > 0, "a zero duration")
    #expect((t["backwards fill shown"] ?? 0) > 0, "a backwards fill")
    #expect((t["timeline set crossed backwards"] ?? 0) > 0, "a timeline set crossed backwards")
    #expect((t["rate other than ±1"] ?? 0) > 0, "rates other than ±1")
    #expect(f.contains(.pauseSpeedResume) && (t["speed while paused"] ?? 0) > 0, "a pause/speed/resume sequence")
    #expect(f.contains(.stagger), "a staggered statement on a group")
    if ProcessInfo.processInfo.environment["ANIM_DIFFERENTIAL_REPORT_ONLY"] == nil {
      #expect(summary.mismatches == 0, "\(summary.line)")
    }
  }

  @Test func replay() {
    guard let text = ProcessInfo.processInfo.environment["ANIM_DIFFERENTIAL_REPLAY"] else { return }
    var summary = Summary()
    for seed in text.split(separator: ",").compactMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) }) {
      summary.run(seed: seed)
    }
    print(summary.report())
    // ANIM_DIFFERENTIAL_PROBE=t1,t2,... (ns): each reduced case again with those samples too,
    // both sides' values and events printed (to see where they part).
    guard let probe = ProcessInfo.processInfo.environment["ANIM_DIFFERENTIAL_PROBE"] else { return }
    let times = probe.split(separator: ",").compactMap { OracleTime($0.trimmingCharacters(in: .whitespaces)) }
    for (signature, (reduced, _)) in summary.classes.sorted(by: { $0.key < $1.key }) {
      var c = reduced
      c.samples = Array(Set(c.samples + times)).sorted()
      let (_, engine, oracle) = check(c)
      print("=== probe \(signature) (seed \(c.seed))")
      for (i, t) in c.samples.enumerated() where i < engine.values.count && i < oracle.values.count {
        print("  \(t): engine \(engine.values[i]), oracle \(oracle.values[i])")
      }
      print("  engine events: \(engine.events.map(\.description))")
      print("  oracle events: \(oracle.events.map(\.description))")
    }
  }

  @Test func longRun() {
    guard let text = ProcessInfo.processInfo.environment["ANIM_DIFFERENTIAL_SECONDS"], let seconds = Double(text) else {
      return
    }
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    var seed =
      ProcessInfo.processInfo.environment["ANIM_DIFFERENTIAL_SEED"].flatMap(UInt64.init)
      ?? UInt64(Date().timeIntervalSince1970 * 1000)
    var summary = Summary()
    var lastLine = clock.now
    while clock.now < deadline {
      summary.run(seed: seed)
      seed &+= 1
      // (Every five minutes, the summary so far: a run stopped early still says something.)
      if clock.now - lastLine > .seconds(300) {
        lastLine = clock.now
        print("so far, " + summary.line)
      }
    }
    print(summary.report())
  }
}
