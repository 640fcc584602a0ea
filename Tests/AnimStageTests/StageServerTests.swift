import AnimCore
import AnimLanguage
import AnimRuntime
import AnimStage
import AnimStageServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The server's side without sockets: the tick loop's pace (`StageHost`: at most 60 frames a
/// second, on the real clock no faster than the fastest page writes its stage), and the
/// interactive session's relay (`StageRelay`: frames only to pages that have the state, the
/// whole state only for a page that waits for it).
@Suite struct StageServerTests {
  static let frame = StageSession.frameLength

  func host(clock: StageClock, script: String = "target card { x: 0 }\nanimate card.x to 100 over 60s\n")
    throws -> StageHost
  {
    let source = SourceText(name: "card.anim", contents: script)
    let now = MonotonicClock.systemMonotonicTime()
    switch StageSession.load(path: "card.anim", text: source, size: StageSize(), clock: clock, realNow: now) {
    case .success(let session): return StageHost(session: session)
    case .failure(let failure):
      Issue.record("did not load: \(failure.diagnostics)")
      throw failure
    }
  }

  @Test func theTickIsAFrameTimesTheSmallestStrideOnTheRealClock() {
    // The rule, case by case: moving on the real clock, the smallest stride's frames.
    #expect(StageHost.tickLength(moving: true, clock: .real, strides: []) == Self.frame)
    #expect(StageHost.tickLength(moving: true, clock: .real, strides: [3]) == 3 * Self.frame)
    #expect(StageHost.tickLength(moving: true, clock: .real, strides: [4, 2, 3]) == 2 * Self.frame)
    #expect(StageHost.tickLength(moving: true, clock: .real, strides: [4, 1]) == Self.frame)
    // The virtual clock's tick is a frame of its time: no stride.
    #expect(StageHost.tickLength(moving: true, clock: .virtual, strides: [4]) == Self.frame)
    // At rest: the 50 ms between looks at the file, whatever the pages say.
    #expect(StageHost.tickLength(moving: false, clock: .real, strides: [2]) == 50_000_000)
    #expect(StageHost.tickLength(moving: false, clock: .virtual, strides: []) == 50_000_000)
  }

  @Test func thePagesStridesSetTheHostsTick() async throws {
    let host = try host(clock: .real)
    #expect(await host.tickLength == Self.frame)
    let (slow, _) = await host.connect()
    await host.handle("stride 3", from: slow)
    #expect(await host.tickLength == 3 * Self.frame)
    // A page that has not said writes every frame: the host ticks for it.
    let (fast, _) = await host.connect()
    #expect(await host.tickLength == Self.frame)
    await host.handle("stride 2", from: fast)
    #expect(await host.tickLength == 2 * Self.frame)
    // The fast page gone, the slow one's stride; a stride is kept within 1…4.
    await host.disconnect(fast)
    #expect(await host.tickLength == 3 * Self.frame)
    await host.handle("stride 9", from: slow)
    #expect(await host.tickLength == 4 * Self.frame)
    await host.handle("stride 0", from: slow)
    #expect(await host.tickLength == Self.frame)
    await host.handle("stride x", from: slow)
    #expect(await host.tickLength == Self.frame)
    await host.handle("stride 4", from: slow)
    await host.disconnect(slow)
    #expect(await host.tickLength == Self.frame)
    // Paused, the host ticks at rest's pace.
    let (page, _) = await host.connect()
    await host.handle("stride 4", from: page)
    await host.handle("pause", from: page)
    #expect(await host.tickLength == 50_000_000)
  }

  @Test func theVirtualClockNeverStrides() async throws {
    let host = try host(clock: .virtual)
    let (page, _) = await host.connect()
    await host.handle("stride 4", from: page)
    #expect(await host.tickLength == Self.frame)
  }

  /// The loop itself: a page writing every 4th frame gets no more than a frame per 4/60 s
  /// (a loop that ignored the stride sends about 60 a second; a slow machine sends fewer,
  /// never more).
  @Test func theLoopSendsNoMoreFramesThanTheStrideAllows() async throws {
    let host = try host(clock: .real)
    let (page, messages) = await host.connect()
    await host.handle("stride 4", from: page)
    let counting = Task {
      var frames = 0
      for await message in messages {
        if case .binary = message { frames += 1 }
      }
      return frames
    }
    let start = MonotonicClock.systemMonotonicTime()
    let loop = Task { await host.tickLoop() }
    try await Task.sleep(nanoseconds: 1_000_000_000)
    loop.cancel()
    await loop.value
    let elapsed = MonotonicClock.systemMonotonicTime() - start
    await host.disconnect(page)
    let frames = await counting.value
    // One frame per tick, a tick per 4 frames' time, plus the first tick at once.
    let allowed = Int(elapsed / (4 * Self.frame)) + 1
    #expect(frames >= 1)
    #expect(frames <= allowed, "\(frames) frames in \(elapsed) ns at stride 4")
  }

  // MARK: - The relay (`anim repl --preview`)

  func text(_ message: StageMessage?) -> String? {
    if case .text(let text) = message { return text }
    return nil
  }

  @Test func aPageWaitsForTheWholeStateAndFramesGoOnlyToPagesThatHaveIt() async throws {
    let relay = StageRelay(title: "repl")
    #expect(relay.demand == StageRelay.Demand(frames: false, welcome: false, svg: false))
    let (first, firstMessages) = await relay.connect()
    var firstIterator = firstMessages.makeAsyncIterator()
    #expect(text(await firstIterator.next()) == "{\"type\":\"overview\",\"overview\":null}")
    // No state yet: the page waits for the session's pass to build one.
    #expect(relay.demand == StageRelay.Demand(frames: false, welcome: true, svg: false))
    // A frame before the state goes to no one (the waiting page could not apply it).
    relay.publish(frame: [1, 2, 3], state: nil)
    relay.publish(frame: nil, state: "{\"t\":1}")
    #expect(text(await firstIterator.next()) == "{\"type\":\"frame\",\"t\":1,\"log\":[]}")
    #expect(relay.demand == StageRelay.Demand(frames: true, welcome: false, svg: false))
    // A page that comes while that state is still current gets it at once.
    let (_, secondMessages) = await relay.connect()
    var secondIterator = secondMessages.makeAsyncIterator()
    _ = await secondIterator.next()
    #expect(text(await secondIterator.next()) == "{\"type\":\"frame\",\"t\":1,\"log\":[]}")
    #expect(relay.demand == StageRelay.Demand(frames: true, welcome: false, svg: false))
    // After a frame, the kept state is old: the next page waits for a new one.
    relay.publish(frame: [7], state: nil)
    #expect(await firstIterator.next() == .binary([7]))
    #expect(await secondIterator.next() == .binary([7]))
    let (_, thirdMessages) = await relay.connect()
    var thirdIterator = thirdMessages.makeAsyncIterator()
    _ = await thirdIterator.next()
    #expect(relay.demand == StageRelay.Demand(frames: true, welcome: true, svg: false))
    // The pass's frame goes to the pages that have the state, then the waiting page gets the
    // whole state of the same instant, and frames after.
    relay.publish(frame: [8], state: "{\"t\":2}")
    #expect(await firstIterator.next() == .binary([8]))
    #expect(text(await thirdIterator.next()) == "{\"type\":\"frame\",\"t\":2,\"log\":[]}")
    relay.publish(frame: [9], state: nil)
    #expect(await thirdIterator.next() == .binary([9]))
    await relay.disconnect(first)
    #expect(relay.demand == StageRelay.Demand(frames: true, welcome: false, svg: false))
  }

  /// The REPL's pass makes no more frames than the pages write: the smallest stride of the
  /// pages that have the state, kept within 1…4, as `StageHost` takes it.
  @Test func theRelaysStrideIsTheSmallestOfThePagesThatHaveTheState() async throws {
    let relay = StageRelay(title: "repl")
    #expect(relay.demand.stride == 1)
    let (slow, _) = await relay.connect()
    relay.publish(frame: nil, state: "{\"t\":0}")
    await relay.handle("stride 3", from: slow)
    #expect(relay.demand.stride == 3)
    // A page that has the state counts (this one at once: the kept state is still current),
    // writing every frame until it says.
    let (fast, _) = await relay.connect()
    #expect(relay.demand.stride == 1)
    await relay.handle("stride 2", from: fast)
    #expect(relay.demand.stride == 2)
    await relay.disconnect(fast)
    #expect(relay.demand.stride == 3)
    // A page waiting for its state does not count until it has it.
    relay.publish(frame: [1], state: nil)
    let (late, _) = await relay.connect()
    #expect(relay.demand.stride == 3)
    relay.publish(frame: nil, state: "{\"t\":1}")
    #expect(relay.demand.stride == 1)
    await relay.disconnect(late)
    await relay.handle("stride 9", from: slow)
    #expect(relay.demand.stride == 4)
    await relay.handle("stride 0", from: slow)
    #expect(relay.demand.stride == 1)
    // (Not a command for the session.)
    #expect(relay.takeCommands().isEmpty)
  }

  /// A REPL that passes only between lines waits on the relay's descriptor too: it is readable
  /// when a page wants a pass (it connected and waits for the state, asked for the page, sent
  /// a command or chose a target), not for a stride, and empty again once drained.
  @Test func theWakeDescriptorIsReadableWhenAPageWantsAPass() async throws {
    let relay = StageRelay(title: "repl")
    func readable(_ descriptor: Int32) -> Bool {
      var entry = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
      return poll(&entry, 1, 0) > 0
    }
    // A page that came before anyone waited still wants its pass.
    let (early, _) = await relay.connect()
    let wake = try #require(relay.wakeDescriptor)
    #expect(relay.wakeDescriptor == wake)
    #expect(readable(wake))
    relay.drainWake()
    #expect(!readable(wake))
    relay.publish(frame: nil, state: "{\"t\":0}")
    // A page that comes while the kept state is current has it: no pass needed.
    let (current, _) = await relay.connect()
    #expect(!readable(wake))
    await relay.handle("stride 2", from: current)
    #expect(!readable(wake))
    await relay.handle("toggle", from: current)
    #expect(readable(wake))
    relay.drainWake()
    await relay.handle("select box", from: early)
    #expect(readable(wake))
    relay.drainWake()
    // After a frame, a new page waits for the pass.
    relay.publish(frame: [1], state: nil)
    _ = await relay.connect()
    #expect(readable(wake))
    relay.drainWake()
    #expect(!readable(wake))
    // Many wakes with no pass between fill nothing up: one drain empties them.
    for _ in 0..<1000 { await relay.handle("toggle", from: current) }
    relay.drainWake()
    #expect(!readable(wake))
    #expect(relay.takeCommands().filter { $0 == "toggle" }.count == 1001)
  }

  @Test func aRequestForThePageWaitsForTheScene() async throws {
    let relay = StageRelay(title: "repl")
    let page = Task { await relay.page(token: "T", at: nil) }
    // The request is seen by the session's next pass, which draws the scene.
    var waited = 0
    while !relay.demand.svg && waited < 1000 {
      try await Task.sleep(nanoseconds: 1_000_000)
      waited += 1
    }
    #expect(relay.demand.svg)
    relay.publish(svg: "<svg id=\"stage\"><g data-target=\"box\"></g></svg>")
    #expect(await page.value.contains("<g data-target=\"box\"></g>"))
    #expect(!relay.demand.svg)
    // No pass: after `svgWait`, the scene as last drawn.
    let start = MonotonicClock.systemMonotonicTime()
    let late = await relay.page(token: "T", at: nil)
    #expect(late.contains("<g data-target=\"box\"></g>"))
    #expect(MonotonicClock.systemMonotonicTime() - start >= 250_000_000)
  }
}
