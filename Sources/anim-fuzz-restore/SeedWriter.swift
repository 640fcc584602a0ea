// The restore fuzzer's seed corpus: real saved sessions of every example, at instants where
// different things are in flight (just started, mid-way, after most events, long after).

import AnimCore
import AnimLanguage
import AnimRuntime
import Foundation

enum SeedWriter {
  /// The instants each example is saved at.
  static let instants: [Nanoseconds] = [0, 300_000_000, 1_700_000_000, 4_100_000_000]

  /// Writes `NAME-at-MS.json` for every `.anim` in `examples` into `directory`; 0 on success.
  static func write(examples: String, to directory: String) -> Int32 {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: examples) else {
      printError("anim-fuzz-restore: cannot read '\(examples)'\n")
      return 66
    }
    for name in names.sorted() where name.hasSuffix(".anim") {
      guard let text = try? String(contentsOfFile: "\(examples)/\(name)", encoding: .utf8) else { continue }
      for instant in instants {
        // As the REPL loads a file: checked in session mode, run at 0, then advanced.
        var environment = Environment()
        let source = SourceText(name: name, contents: text)
        let result = parseAndCheck(source, in: &environment, mode: .session)
        guard result.isRunnable, let program = result.program else {
          printError("anim-fuzz-restore: '\(name)' does not check\n")
          return 65
        }
        let runtime = Runtime()
        _ = runtime.run(program, of: source, at: 0)
        _ = runtime.advance(to: instant)
        let path = "\(directory)/\(name.dropLast(5))-at-\(instant / 1_000_000)ms.json"
        guard let data = try? runtime.sessionData(), FileManager.default.createFile(atPath: path, contents: data)
        else {
          printError("anim-fuzz-restore: cannot write '\(path)'\n")
          return 73
        }
      }
    }
    return 0
  }
}
