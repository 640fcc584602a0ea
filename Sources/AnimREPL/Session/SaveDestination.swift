// SaveDestination: where `:save FILE` writes, decided before anything is written.
//
// A session file is written atomically: a temporary file in the destination's directory,
// then a rename over it. Renaming over a symbolic link would replace the link, and over a
// device (`/dev/null`, as root) would replace the device with a file, so the destination is
// the path with its links followed, and only a regular file (or nothing yet) is written.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a save writes, and what it keeps of an existing one.
struct SaveDestination {
  /// The path written: FILE, or the file its symbolic links lead to.
  var path: String
  /// An existing file's permission bits and owner, which the new file keeps.
  var mode: mode_t?
  var owner: (uid_t, gid_t)?

  /// Follows FILE's symbolic links (at most 40, as the kernel does) to a regular file or to
  /// a name not taken yet; anything else is refused with one sentence.
  static func resolve(_ file: String) throws(SessionFileError) -> SaveDestination {
    var path = file
    for _ in 0..<40 {
      var info = stat()
      guard lstat(path, &info) == 0 else {
        if errno == ENOENT { return SaveDestination(path: path, mode: nil, owner: nil) }
        throw SessionFileError("cannot save to '\(file)': \(String(cString: strerror(errno)))")
      }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        return SaveDestination(path: path, mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid))
      case S_IFLNK:
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else {
          throw SessionFileError("cannot save to '\(file)': \(String(cString: strerror(errno)))")
        }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") {
          path = target
        } else {
          let slash = path.lastIndex(of: "/")
          path = slash.map { String(path[...$0]) + target } ?? target
        }
      case S_IFDIR:
        throw SessionFileError("cannot save to '\(file)': it is a directory; give a file name")
      case S_IFCHR, S_IFBLK:
        throw SessionFileError("cannot save to '\(file)': it is a device, not a file")
      case S_IFIFO:
        throw SessionFileError("cannot save to '\(file)': it is a FIFO, not a file")
      case S_IFSOCK:
        throw SessionFileError("cannot save to '\(file)': it is a socket, not a file")
      default:
        throw SessionFileError("cannot save to '\(file)': it is not a regular file")
      }
    }
    throw SessionFileError("cannot save to '\(file)': its symbolic links loop")
  }
}
