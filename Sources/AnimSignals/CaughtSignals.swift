// CaughtSignals: the signals an interactive loop acts on, for `anim repl`'s line editor and
// `anim run`'s clock loop alike. The handlers only store into atomics; the loop reads them at
// its next pass, and at once: installed without SA_RESTART, a signal cuts a poll() or a
// sleep short.

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Set by the handlers; read and cleared by the loop.
private let interruptRequested = Atomic<Bool>(false)
private let suspendRequested = Atomic<Bool>(false)
private let continuedAfterStop = Atomic<Bool>(false)
private let terminalResized = Atomic<Bool>(false)
private let terminatingSignal = Atomic<Int32>(0)

/// Posted by the handlers of the signals that end the process (sem_post may be called in a
/// signal handler); the watchdog waits on it.
nonisolated(unsafe) private let watchdogWake: UnsafeMutablePointer<sem_t> = {
  let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  sem_init(semaphore, 0, 0)
  return semaphore
}()
private let watchdogStarted = Atomic<Bool>(false)

/// How long the loop has, once a signal that ends the process came, to restore the terminal,
/// save the history and end by it; then the watchdog ends the process by that signal itself
/// (work that cannot stop part-way, such as checking a huge file, must not keep it alive).
let terminationGrace: useconds_t = 750_000

/// Stores a signal that ends the process and wakes the watchdog.
private func noteTermination(_ signal: Int32) {
  terminatingSignal.store(signal, ordering: .relaxed)
  sem_post(watchdogWake)
}

/// SIGINT (Ctrl-C), SIGTSTP (Ctrl-Z), SIGCONT (`fg`, or any continue after a stop),
/// SIGTERM and SIGHUP, and SIGWINCH when asked: caught while installed, and their previous
/// actions given back by `restore`.
package struct CaughtSignals {
  private var savedActions: [Int32: sigaction] = [:]
  private var savedMask = sigset_t()

  package init() {}

  /// Installs the handlers (no SA_RESTART) with every flag cleared, and unblocks the
  /// signals: a parent (a test runner, a daemon) may have started us with them blocked,
  /// and the keys must work anyway.
  /// - Parameters:
  ///   - resize: whether to catch SIGWINCH too (a line editor redraws on it).
  ///   - endingOnly: catch only SIGINT, SIGTERM and SIGHUP, the signals that end a process
  ///     reading piped input (which leaves Ctrl-Z and Ctrl-\ their default actions), so that
  ///     it stops long work and ends by that signal within moments, even if the parent had
  ///     them blocked or SIGINT ignored.
  package mutating func install(resize: Bool = false, endingOnly: Bool = false) {
    interruptRequested.store(false, ordering: .relaxed)
    suspendRequested.store(false, ordering: .relaxed)
    continuedAfterStop.store(false, ordering: .relaxed)
    terminalResized.store(false, ordering: .relaxed)
    terminatingSignal.store(0, ordering: .relaxed)
    let signals =
      endingOnly
      ? [SIGINT, SIGTERM, SIGHUP] : [SIGINT, SIGTSTP, SIGCONT, SIGTERM, SIGHUP, SIGQUIT] + (resize ? [SIGWINCH] : [])
    Self.startWatchdog()
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, &savedMask)
    if endingOnly {
      // (Here Ctrl-C ends the process too.)
      install({ signal in noteTermination(signal) }, for: SIGINT)
      install({ signal in noteTermination(signal) }, for: SIGTERM)
      install({ signal in noteTermination(signal) }, for: SIGHUP)
      return
    }
    install({ _ in interruptRequested.store(true, ordering: .relaxed) }, for: SIGINT)
    install({ _ in suspendRequested.store(true, ordering: .relaxed) }, for: SIGTSTP)
    install({ _ in continuedAfterStop.store(true, ordering: .relaxed) }, for: SIGCONT)
    install({ signal in noteTermination(signal) }, for: SIGTERM)
    install({ signal in noteTermination(signal) }, for: SIGHUP)
    // Ctrl-\ ends the session as SIGTERM does (terminal restored, history saved) and then by
    // SIGQUIT, status 131, instead of Swift's backtracer reporting a crash.
    install({ signal in noteTermination(signal) }, for: SIGQUIT)
    if resize { install({ _ in terminalResized.store(true, ordering: .relaxed) }, for: SIGWINCH) }
  }

  private mutating func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    var previous = sigaction()
    sigaction(signal, &action, &previous)
    savedActions[signal] = previous
  }

  /// Gives every signal its previous action and the signal mask its previous value.
  package mutating func restore() {
    for (signal, var action) in savedActions { sigaction(signal, &action, nil) }
    savedActions.removeAll()
    pthread_sigmask(SIG_SETMASK, &savedMask, nil)
  }

  /// Ctrl-C was pressed (once read, forgotten).
  package func takeInterrupt() -> Bool { interruptRequested.exchange(false, ordering: .relaxed) }

  /// Whether Ctrl-C was pressed and not yet taken (it stays).
  package var interruptIsPending: Bool { interruptRequested.load(ordering: .relaxed) }

  /// Ctrl-Z was pressed.
  package func takeSuspend() -> Bool { suspendRequested.exchange(false, ordering: .relaxed) }

  /// The process was stopped (by anything) and has been continued.
  package func takeContinued() -> Bool { continuedAfterStop.exchange(false, ordering: .relaxed) }

  /// The terminal changed size (only when installed with `resize`).
  package func takeResize() -> Bool { terminalResized.exchange(false, ordering: .relaxed) }

  /// SIGTERM or SIGHUP, if one came.
  package var terminating: Int32? {
    let signal = terminatingSignal.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// Starts, once per process, a thread that sleeps until a signal that ends the process
  /// comes, gives the loop `terminationGrace` to end it cleanly, and then ends it by that
  /// signal itself.
  private static func startWatchdog() {
    guard !watchdogStarted.exchange(true, ordering: .relaxed) else { return }
    _ = watchdogWake  // (made before any handler can touch it)
    // (The thread takes none of the signals, from its first moment: the loop's thread gets
    // them. It starts with the mask of the thread that makes it.)
    var all = sigset_t()
    sigfillset(&all)
    var mask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &all, &mask)
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { _ in
        while sem_wait(watchdogWake) != 0 {}
        usleep(terminationGrace)
        CaughtSignals.die(of: terminatingSignal.load(ordering: .relaxed))
      }, nil)
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    if started == 0 { pthread_detach(thread) }
  }

  /// Stops the process as Ctrl-Z would have without us (SIGTSTP with its default action),
  /// and returns once it is continued; that continue is not reported by `takeContinued`.
  package func stopUntilContinued() {
    var defaultAction = sigaction()
    defaultAction.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&defaultAction.sa_mask)
    var ours = sigaction()
    sigaction(SIGTSTP, &defaultAction, &ours)
    raise(SIGTSTP)  // stops here until SIGCONT
    sigaction(SIGTSTP, &ours, nil)
    _ = takeContinued()
  }

  /// Ends the process by `signal` with its default action, as if never caught (call it after
  /// the terminal is restored): the parent sees how it ended.
  package static func die(of signal: Int32) -> Never {
    // (SIGQUIT's default action would also dump core: its status, without the core.)
    if signal == SIGQUIT { exit(128 + SIGQUIT) }
    var defaultAction = sigaction()
    defaultAction.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&defaultAction.sa_mask)
    sigaction(signal, &defaultAction, nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
    exit(128 + signal)
  }
}
