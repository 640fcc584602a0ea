// WorkerThread: a thread of its own for one long piece of work on a large script (parsing
// it, or checking it) beside the thread that uses what it sends.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A started thread running one piece of work, to be joined.
final class WorkerThread: @unchecked Sendable {
  private let work: @Sendable () -> Void
  #if canImport(Glibc)
    private var thread = pthread_t()
  #endif

  private init(work: @escaping @Sendable () -> Void) {
    self.work = work
  }

  /// Starts `work` on a new thread; nil when no thread could be started (the caller then
  /// does the work on its own).
  static func start(_ work: @escaping @Sendable () -> Void) -> WorkerThread? {
    #if canImport(Glibc)
      let worker = WorkerThread(work: work)
      let context = Unmanaged.passRetained(worker).toOpaque()
      // The stack the main thread usually has: the parser and the checker recurse (to the
      // nesting limit).
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setstacksize(&attributes, 8 << 20)
      let status = pthread_create(
        &worker.thread, &attributes,
        { context in
          let worker = Unmanaged<WorkerThread>.fromOpaque(context!).takeRetainedValue()
          worker.work()
          return nil
        }, context)
      if status != 0 {
        Unmanaged<WorkerThread>.fromOpaque(context).release()
        return nil
      }
      return worker
    #else
      return nil
    #endif
  }

  /// Waits for the work to end.
  func join() {
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #endif
  }
}
