import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program and waits for it, with standard input, output and error connected to
/// files, a clean signal mask and default signal actions, and no other descriptor of the
/// test process.
///
/// Not Foundation's `Process`: its children inherit the test runner's blocked signals, and
/// it learns of an exit through a descriptor the child holds, which a daemon the child
/// starts (the tmux server) keeps open for ever.
func spawnAndWait(
  _ arguments: [String], environment: [String: String],
  standardInput: String = "/dev/null", standardOutput: String = "/dev/null",
  standardError: String = "/dev/null"
) throws -> Int32 {
  let pid = try spawn(
    arguments, environment: environment, standardInput: standardInput, standardOutput: standardOutput,
    standardError: standardError)
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 {
    guard errno == EINTR else { throw SpawnError(message: "waitpid failed") }
  }
  return exitStatus(status)
}

/// The shell's view of a wait status: the exit status, or 128 + the signal that ended it.
func exitStatus(_ status: Int32) -> Int32 {
  // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
  if status & 0x7f == 0 { return (status >> 8) & 0xff }
  return 128 + (status & 0x7f)
}

/// Waits up to `timeout` seconds for child `pid` to end; its status as the shell shows it,
/// or nil if it is still running then (it is left running: the caller ends it).
func waitForExit(of pid: pid_t, timeout: Double) -> Int32? {
  let deadline = Date().addingTimeInterval(timeout)
  var status: Int32 = 0
  repeat {
    let result = waitpid(pid, &status, WNOHANG)
    if result == pid { return exitStatus(status) }
    if result < 0 && errno != EINTR { return nil }
    Thread.sleep(forTimeInterval: 0.005)
  } while Date() < deadline
  return nil
}

/// Starts a program as `spawnAndWait` does, without waiting: its process id.
func spawn(
  _ arguments: [String], environment: [String: String],
  standardInput: String = "/dev/null", standardOutput: String = "/dev/null",
  standardError: String = "/dev/null"
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  // Every other descriptor open in the test process now (posix_spawn_file_actions_addclosefrom_np
  // is not visible to Swift).
  let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
    if fcntl(descriptor, F_GETFD) >= 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
  }

  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var noSignals = sigset_t()
  sigemptyset(&noSignals)
  var allSignals = sigset_t()
  sigfillset(&allSignals)
  posix_spawnattr_setsigmask(&attributes, &noSignals)
  posix_spawnattr_setsigdefault(&attributes, &allSignals)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv { free(pointer) }
    for pointer in envp { free(pointer) }
  }
  var pid = pid_t()
  let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
  guard spawned == 0 else {
    throw SpawnError(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
  }
  return pid
}

struct SpawnError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
