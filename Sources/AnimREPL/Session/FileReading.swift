// FileReading: the bytes of a file, or why they could not be read, with the C library
// alone (the REPL needs no Foundation for this).

import AnimLanguage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be read: the system's words (`No such file or directory`).
struct FileReadError: Error, Sendable {
  var reason: String
}

/// Reads the whole file at `path` (a script is small; a huge or endless file is cut off at
/// `limit` bytes with an error rather than exhausting memory).
///
/// With `regularOnly`, anything but a regular file (a FIFO, a device, a socket) is refused
/// without waiting for it: it is opened without blocking and looked at first.
func readWholeFile(
  atPath path: String, limit: Int = SourceText.largestScript, regularOnly: Bool = false
) throws(FileReadError) -> [UInt8] {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
  guard descriptor >= 0 else { throw FileReadError(reason: systemErrorText(errno)) }
  defer { close(descriptor) }
  var status = stat()
  if fstat(descriptor, &status) == 0 {
    let type = status.st_mode & S_IFMT
    if type == S_IFDIR { throw FileReadError(reason: "it is a directory") }
    if regularOnly && type != S_IFREG {
      throw FileReadError(reason: "it is not a regular file (a device, a FIFO or a socket)")
    }
  }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count == 0 { break }
    if count < 0 {
      if errno == EINTR { continue }
      throw FileReadError(reason: systemErrorText(errno))
    }
    bytes.append(contentsOf: chunk[0..<count])
    if bytes.count > limit { throw FileReadError(reason: "it is larger than \(limit >> 20) MiB") }
  }
  return bytes
}

/// `strerror` as a Swift string.
func systemErrorText(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return String(cString: text)
}
