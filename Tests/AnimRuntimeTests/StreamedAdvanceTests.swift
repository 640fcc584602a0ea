import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

/// Issue 13, item 3: an advance that hands its output over in pieces as it goes, and can stop
/// between two instants, is the same advance: the same outputs in the same order, and a
/// stopped runtime stands exactly where an advance to that instant leaves one.
@Suite("Runtime: streamed and stopped advances")
struct StreamedAdvanceTests {
  /// A busy session: a timeline that replays itself every millisecond with a print in its
  /// handler, an animation and a timeline that repeat every millisecond for ever (past the
  /// engine's repeat budget of an advance), a tween and an emit later on.
  static let busy = """
    target a { x: 0, y: 0, z: 0, w: 0 }
    timeline r repeat forever { animate a.w to 1 over 1ms }
    play r
    timeline t { animate a.x to 1 over 1ms }
    on complete t {
      play t
      print "again at {now}"
    }
    on "late" { print "late at {now}" }
    animate a.y to 1 over 1ms repeat forever
    animate a.z to 300 over 3s
    play t
    at 1400ms emit "late"
    """

  static func runtime(_ script: String = busy) throws -> Runtime {
    let runtime = Runtime()
    var environment = Environment()
    let source = SourceText(name: "busy", contents: script)
    let result = parseAndCheck(source, in: &environment, mode: .session)
    let program = try #require(result.isRunnable ? result.program : nil, "\(result.parse.diagnostics)")
    _ = runtime.run(program, of: source, at: 0)
    return runtime
  }

  /// Outputs as text, to compare (errors included).
  static func text(_ outputs: [RuntimeOutput]) -> [String] { outputs.map { "\($0)" } }

  /// The time of an output that is a record.
  static func time(_ output: RuntimeOutput) -> Nanoseconds? {
    if case .record(let record) = output { return record.time }
    return nil
  }

  @Test func aStreamedAdvanceDeliversExactlyWhatOneAdvanceReturns() throws {
    let end: Nanoseconds = 1500 * ms
    let whole = try Self.runtime().advance(to: end)
    // (Enough output for many pieces: two events and a print every millisecond.)
    #expect(whole.count > 10 * Runtime.outputPiece)

    let streamed = try Self.runtime()
    var pieces: [[RuntimeOutput]] = []
    let reached = streamed.advance(to: end, delivering: { pieces.append($0) })
    #expect(reached)
    #expect(Self.text(pieces.flatMap { $0 }) == Self.text(whole))
    #expect(streamed.engine.now == end)
    // Pieces are bounded: handed over as soon as an instant ends past the piece size (one
    // instant here has at most a handful of outputs).
    #expect(pieces.count >= whole.count / (Runtime.outputPiece + 8))
    #expect(pieces.allSatisfy { $0.count <= Runtime.outputPiece + 8 })
    #expect(streamed.sample() == (try Self.runtime().advancedSample(to: end)))
  }

  /// Stopped part-way, the runtime stands at the last instant it finished: what it said up to
  /// then is what a whole advance says up to that instant, and its values are those of a
  /// runtime advanced to exactly that instant.
  @Test func aStoppedAdvanceStandsAtTheInstantItReached() throws {
    let end: Nanoseconds = 1500 * ms
    let whole = try Self.runtime().advance(to: end)

    let stopped = try Self.runtime()
    var said: [RuntimeOutput] = []
    var asked = 0
    // Stop at the 1,200th instant: past the animation's repeat budget of 1,000 passes.
    let reached = stopped.advance(
      to: end, delivering: { said += $0 },
      stoppingWhen: {
        asked += 1
        return asked > 1_200
      })
    #expect(!reached)
    let instant = stopped.engine.now
    #expect(instant > 1_000 * ms && instant < end)
    #expect(Self.text(said) == Self.text(whole.filter { (Self.time($0) ?? 0) <= instant }))
    let direct = try Self.runtime()
    _ = direct.advance(to: instant)
    #expect(stopped.sample() == direct.sample())
    // Linear a.z: 300 · t / 3 s.
    #expect(stopped.value(of: "a.z") == .number(300 * Double(instant) / Double(3 * s)))

    // It goes on from there as the runtime advanced to that instant does: nothing back in
    // time, the same events from then on, the same values at the end.
    let rest = stopped.advance(to: end)
    let directRest = direct.advance(to: end)
    #expect(rest.allSatisfy { (Self.time($0) ?? instant) > instant })
    #expect(Self.text(rest) == Self.text(directRest))
    #expect(stopped.sample() == direct.sample())
    let times = rest.compactMap(Self.time)
    #expect(times == times.sorted())
  }

  /// Asked to stop before anything is due, it does not move at all.
  @Test func aStopAskedAtOnceMovesNothing() throws {
    let runtime = try Self.runtime()
    let before = runtime.sample()
    var said: [RuntimeOutput] = []
    #expect(!runtime.advance(to: 2 * s, delivering: { said += $0 }, stoppingWhen: { true }))
    #expect(runtime.engine.now == 0)
    #expect(said.isEmpty)
    #expect(runtime.sample() == before)
  }
}

extension Runtime {
  /// The sample after an advance to `time`.
  fileprivate func advancedSample(to time: Nanoseconds) -> [NamedValue] {
    _ = advance(to: time)
    return sample()
  }
}
