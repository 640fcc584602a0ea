import AnimCore
import Testing

/// The embedding example in README.md, kept compiling and true.
@Suite("README: embedding the engine")
struct ReadmeExampleTests {
  @Test func theEmbeddingExampleRunsAsTheReadmeSays() throws {
    // --- README example begins ---
    var engine = AnimationEngine()
    let x = engine.addProperty(.number(0))
    let slide = try engine.animate(
      x, with: .tween(to: .number(100), duration: 2_000_000_000, curve: .easeInOut),
      placement: .engine(at: 0))

    var clock = ManualClock()  // or MonotonicClock() for real time
    clock.advance(by: 500_000_000)
    try engine.tick(&clock)
    try engine.pause(slide)  // pause, resume, reverse, seek, setRate, finish, cancel

    try engine.advance(to: 3_000_000_000) { engine, event in
      if event.kind == .complete { print("done at \(event.time) ns") }
    }
    let value = engine.value(of: x)  // .number(...), the same after any pause
    // --- README example ends ---
    #expect(value == .number(100 * CubicBezier.easeInOut.progress(at: 0.25)))
  }
}
