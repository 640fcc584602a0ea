// BatchScheduling: the threads that read a large script for running it (parsing, checking,
// and the runner's while it reads) scheduled as batch work, so that waking one another does
// not take the core from the thread that woke.
//
// `anim trace` and `anim run` read a large script on three threads that hand statements on
// through short queues (CheckedStatementReader.swift). On a machine of two cores, one of
// the three always waits for a core. Linux's scheduler let a thread woken by a queue's
// signal take the core of the thread that signalled at once: a profile of the switches
// showed a quarter of them were the checking thread losing its core the moment it handed a
// batch on or took one, while the thread it woke emptied the queue and waited again. The
// two cores were busy 75% of the time. A thread of the batch policy (`SCHED_BATCH`) is
// never given a core by waking: it waits for a core to come free or for its turn, so each
// thread runs on through its batches. The threads' involuntary switches fell from about 2,000
// to 20, and a trace of 270,000 targets took 8% less time (issue 14's front.run). The
// policy asks for nothing a user may not ask for; where it is refused, or not on Linux,
// nothing changes.

#if canImport(Glibc)
  import Glibc
#endif

/// The calling thread's scheduling while it takes part in a reading, and what it was before.
struct BatchScheduling {
  #if canImport(Glibc)
    private var policy: Int32
    private var parameters: sched_param
  #endif

  /// Puts the calling thread under the batch policy; nil when it already was, or when it
  /// could not be (the thread then runs as it did).
  static func enter() -> BatchScheduling? {
    #if canImport(Glibc)
      var policy: Int32 = 0
      var parameters = sched_param()
      guard pthread_getschedparam(pthread_self(), &policy, &parameters) == 0, policy == Self.other else { return nil }
      var batch = sched_param()
      batch.sched_priority = 0
      guard pthread_setschedparam(pthread_self(), Self.batch, &batch) == 0 else { return nil }
      return BatchScheduling(policy: policy, parameters: parameters)
    #else
      return nil
    #endif
  }

  /// Gives the calling thread (the one that entered) its scheduling back.
  func leave() {
    #if canImport(Glibc)
      var parameters = self.parameters
      _ = pthread_setschedparam(pthread_self(), policy, &parameters)
    #endif
  }

  #if canImport(Glibc)
    /// Linux's `SCHED_OTHER` and `SCHED_BATCH` (sched.h), which Glibc's module does not
    /// export to Swift.
    static let other: Int32 = 0
    static let batch: Int32 = 3
  #endif
}
