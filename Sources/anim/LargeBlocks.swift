#if canImport(Glibc)
  import Glibc
#endif

/// Has glibc's malloc give every block of 128 KiB or more a mapping of its own for the whole
/// run, as it does until the first such block is freed. Left to itself, it then raises that
/// threshold to the size of each mapped block freed (up to 32 MiB): the arrays a script's run
/// grows by doubling (the engine's, one element a property) then move within the heap, and
/// leave holes of megabytes there that the process keeps. Fixed, a large block freed goes
/// back to the system at once. `anim trace` of front.run's targets form (677,085 properties)
/// peaked 1.8 MB lower, its animates form 1 MB; the others the same.
func returnLargeBlocksWhenFreed() {
  #if canImport(Glibc)
    // (`mallopt` is in malloc.h, which the Glibc module leaves out: it is looked up by name
    // among the process's symbols, RTLD_DEFAULT being the null handle; M_MMAP_THRESHOLD is -3.)
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let mallopt = dlsym(nil, "mallopt") else { return }
    _ = unsafeBitCast(mallopt, to: Mallopt.self)(-3, 128 * 1024)
  #endif
}
