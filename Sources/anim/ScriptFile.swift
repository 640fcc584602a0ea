import AnimLanguage
import AnimRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing script files as bytes, with POSIX calls so that a failure says
/// which file and why (`cannot read 'x.anim': No such file or directory`), and a file
/// with invalid UTF-8 reaches the lexer, which reports it, instead of being replaced.
enum ScriptFile {
  /// Why a file could not be read or written, as a sentence naming it.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The whole file as a `SourceText` named by its path.
  static func read(_ path: String) throws(Failure) -> SourceText {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { throw failure("cannot read", path) }
    defer { close(descriptor) }
    let limit = SourceText.largestScript
    let tooLarge = Failure(
      description: "cannot read '\(path)': it is larger than \(limit >> 20) MiB, the largest script anim reads")
    var status = stat()
    let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    if isRegular, status.st_size > limit { throw tooLarge }
    var bytes: [UInt8] = []
    // A regular file's size is known: one allocation of it, where a growing array would
    // take up to twice the size (three times while it moves).
    if isRegular { bytes.reserveCapacity(Int(status.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read", path)
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
      // A stream that never ends (/dev/zero) stops here too.
      if bytes.count > limit { throw tooLarge }
    }
    return SourceText(name: path, bytes: bytes)
  }

  /// Replaces a file's contents atomically: the new text goes to a temporary file in the
  /// same directory, with the old file's permissions, which is then renamed over the
  /// old one. A reader never sees half a file, and a failure leaves the old one whole.
  ///
  /// A symbolic link is followed: the file it points to is replaced and the link stays.
  static func replace(_ givenPath: String, with text: String) throws(Failure) {
    var path = givenPath
    if let resolved = realpath(givenPath, nil) {
      path = String(cString: resolved)
      free(resolved)
    }
    var status = stat()
    let mode: mode_t = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
    let directory: String
    if let slash = path.lastIndex(of: "/") {
      directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      directory = "."
    }
    var template = Array("\(directory)/.anim-fmt-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if descriptor < 0 { throw failure("cannot write a temporary file next to", path) }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var succeeded = false
    defer {
      if !succeeded { unlink(temporary) }
    }
    var utf8 = Array(text.utf8)
    var offset = 0
    while offset < utf8.count {
      let written = utf8.withUnsafeMutableBytes { buffer in
        Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        let error = failure("cannot write", path)
        close(descriptor)
        throw error
      }
      offset += written
    }
    if fchmod(descriptor, mode) != 0 || fsync(descriptor) != 0 {
      let error = failure("cannot write", path)
      close(descriptor)
      throw error
    }
    if close(descriptor) != 0 { throw failure("cannot write", path) }
    if rename(temporary, path) != 0 { throw failure("cannot replace", path) }
    succeeded = true
  }

  private static func failure(_ what: String, _ path: String) -> Failure {
    Failure(description: "\(what) '\(path)': \(String(cString: strerror(errno)))")
  }

  /// Reads, checks and starts a script to run it (`anim run`, `anim trace`), printing its
  /// diagnostics as `anim check` does: the runtime with the script's top-level statements
  /// due at time 0 run, and what they produced (`Runtime.start(_:)`), else the exit status
  /// (66 unreadable, 65 errors).
  static func readAndStart(
    _ path: String, recordsControls: Bool = false, tracksGauges: Bool = false
  ) -> Result<(Runtime, [RuntimeOutput]), ExitStatus> {
    let source: SourceText
    do {
      source = try read(path)
    } catch {
      Output.standardError.write("anim: error: \(error)\n")
      return .failure(.unreadable)
    }
    switch Runtime.start(source, recordsControls: recordsControls, tracksGauges: tracksGauges) {
    case .started(let runtime, let output, let warnings):
      report(warnings, in: source)
      releaseFreedMemory()
      return .success((runtime, output))
    case .failed(let diagnostics):
      report(diagnostics, in: source)
      return .failure(.scriptErrors)
    }
  }
}

/// Gives the system back the memory freed so far that the allocator still holds: reading a
/// large script frees most of what checking it took (each statement's tree and facts, the
/// checker's tables), in pieces all over the heap, which glibc keeps in the process unless
/// asked. The run's own memory then comes partly from pages the process no longer holds.
private func releaseFreedMemory() {
  #if canImport(Glibc)
    // (`malloc_trim` is in <malloc.h>, which the Glibc module does not bring in.)
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
  #endif
}
