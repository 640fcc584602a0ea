#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `anim fmt x.anim | head -1` must not die of SIGPIPE: a write to a closed pipe then
/// fails with EPIPE, which the output ignores.
func ignoreBrokenPipes() {
  signal(SIGPIPE, SIG_IGN)
}
