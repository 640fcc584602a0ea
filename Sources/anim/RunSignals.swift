// RunSignals: the signals `anim run` acts on. The handlers only store into atomics; the
// run's loop reads them at its next pass (at once: a signal cuts its sleep short).

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

private let interruptRequested = Atomic<Bool>(false)
private let suspendRequested = Atomic<Bool>(false)
private let continuedAfterStop = Atomic<Bool>(false)
private let terminatingSignal = Atomic<Int32>(0)

/// SIGINT (Ctrl-C), SIGTSTP (Ctrl-Z), SIGCONT (`fg`, or any continue after a stop), and
/// SIGTERM/SIGHUP, caught for the length of a run and given back afterwards.
struct RunSignals {
  private var savedActions: [Int32: sigaction] = [:]
  private var savedMask = sigset_t()
  private static let handled = [SIGINT, SIGTSTP, SIGCONT, SIGTERM, SIGHUP]

  /// Installs the handlers (no SA_RESTART, so a signal ends a sleep at once), and unblocks
  /// the signals: a parent may have started us with them blocked.
  mutating func install() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in RunSignals.handled { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, &savedMask)
    install({ _ in interruptRequested.store(true, ordering: .relaxed) }, for: SIGINT)
    install({ _ in suspendRequested.store(true, ordering: .relaxed) }, for: SIGTSTP)
    install({ _ in continuedAfterStop.store(true, ordering: .relaxed) }, for: SIGCONT)
    install({ signal in terminatingSignal.store(signal, ordering: .relaxed) }, for: SIGTERM)
    install({ signal in terminatingSignal.store(signal, ordering: .relaxed) }, for: SIGHUP)
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
  mutating func restore() {
    for (signal, var action) in savedActions { sigaction(signal, &action, nil) }
    savedActions.removeAll()
    pthread_sigmask(SIG_SETMASK, &savedMask, nil)
  }

  /// Ctrl-C was pressed (once read, forgotten).
  func takeInterrupt() -> Bool { interruptRequested.exchange(false, ordering: .relaxed) }

  /// Ctrl-Z was pressed.
  func takeSuspend() -> Bool { suspendRequested.exchange(false, ordering: .relaxed) }

  /// The process was stopped (by anything) and has been continued.
  func takeContinued() -> Bool { continuedAfterStop.exchange(false, ordering: .relaxed) }

  /// SIGTERM or SIGHUP, if one came.
  var terminating: Int32? {
    let signal = terminatingSignal.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// Stops the process as Ctrl-Z would have without us (SIGTSTP with its default action),
  /// and returns once it is continued.
  func stopUntilContinued() {
    var defaultAction = sigaction()
    defaultAction.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&defaultAction.sa_mask)
    var ours = sigaction()
    sigaction(SIGTSTP, &defaultAction, &ours)
    raise(SIGTSTP)  // stops here until SIGCONT
    sigaction(SIGTSTP, &ours, nil)
    // The continue that ended this stop is accounted for by the caller.
    _ = takeContinued()
  }

  /// Ends the process by `signal` with its default action, as if never caught, after the
  /// terminal has been restored: the parent sees how it ended.
  static func die(of signal: Int32) -> Never {
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
