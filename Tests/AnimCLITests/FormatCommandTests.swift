import AnimTestSupport
import Foundation
import Testing

/// `anim fmt FILE... [--write | --check]` end to end.
@Suite struct FormatCommandTests {
  static let messy = "let a=1;let b   = a*2\ntarget card {\n x: 0,   y: 0 }\non \"go\" { play t }   // go\n"
  /// The canonical layout of `messy`, written by hand from README's `anim fmt` rules.
  static let canonical = "let a = 1\nlet b = a * 2\ntarget card { x: 0, y: 0 }\non \"go\" {\n  play t\n} // go\n"

  @Test func printsTheCanonicalLayout() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("messy.anim", Self.messy)
    let result = try CLI.run(["fmt", path])
    #expect(result.status == 0)
    #expect(result.standardOutput == Self.canonical)
    #expect(try scratch.contents(path) == Self.messy, "fmt without --write changes no file")
  }

  @Test func checkExits1AndNamesOnlyTheFilesNotInCanonicalLayout() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let messy = try scratch.file("messy.anim", Self.messy)
    let tidy = try scratch.file("tidy.anim", Self.canonical)
    let result = try CLI.run(["fmt", "--check", tidy, messy])
    #expect(result.status == 1)
    #expect(result.standardOutput == "\(messy)\n")
    #expect(try scratch.contents(messy) == Self.messy)
    let clean = try CLI.run(["fmt", "--check", tidy])
    #expect(clean.status == 0)
    #expect(clean.standardOutput == "")
  }

  @Test func writeRewritesChangedFilesOnlyAndKeepsPermissions() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let messy = try scratch.file("messy.anim", Self.messy)
    let tidy = try scratch.file("tidy.anim", Self.canonical)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: messy)
    let tidyInode = try FileManager.default.attributesOfItem(atPath: tidy)[.systemFileNumber] as? Int
    let result = try CLI.run(["fmt", "--write", messy, tidy])
    #expect(result.status == 0)
    #expect(result.standardOutput == "")
    #expect(try scratch.contents(messy) == Self.canonical)
    #expect(try scratch.contents(tidy) == Self.canonical)
    let permissions = try FileManager.default.attributesOfItem(atPath: messy)[.posixPermissions] as? Int
    #expect(permissions == 0o640)
    // An unchanged file is not rewritten: it is still the same file.
    let tidyInodeAfter = try FileManager.default.attributesOfItem(atPath: tidy)[.systemFileNumber] as? Int
    #expect(tidyInode == tidyInodeAfter)
    // No temporary file is left behind.
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).sorted()
    #expect(left == ["messy.anim", "tidy.anim"])
    // And the result is a fixed point.
    #expect(try CLI.run(["fmt", "--check", messy]).status == 0)
  }

  @Test func writeThroughASymbolicLinkKeepsTheLink() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let target = try scratch.file("real.anim", Self.messy)
    let link = scratch.directory.appendingPathComponent("link.anim").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = try CLI.run(["fmt", "--write", link])
    #expect(result.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try scratch.contents(target) == Self.canonical)
  }

  @Test func aFileWithSyntaxErrorsIsNotFormatted() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let broken = "let a=1\nlet b = )\n"
    let path = try scratch.file("broken.anim", broken)
    let printed = try CLI.run(["fmt", path])
    #expect(printed.status == 65)
    #expect(printed.standardOutput == "")
    #expect(printed.standardError.hasPrefix("\(path):2:9: error: expected an expression after 'let b =', found ')'\n"))
    let written = try CLI.run(["fmt", "--write", path])
    #expect(written.status == 65)
    #expect(try scratch.contents(path) == broken)
  }

  @Test func unreadableFilesExit66() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let missing = scratch.directory.appendingPathComponent("missing.anim").path
    for options in [[], ["--check"], ["--write"]] {
      let result = try CLI.run(["fmt"] + options + [missing])
      #expect(result.status == 66)
      #expect(result.standardError.contains("'\(missing)': No such file or directory"))
    }
  }

  @Test func usageErrorsExit64() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("a.anim", "let a = 1\n")
    #expect(try CLI.run(["fmt"]).status == 64)
    #expect(try CLI.run(["fmt", "--write", "--check", path]).status == 64)
  }

  @Test func everyExampleFormatsToAFixedPoint() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let names = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)
      .filter { $0.hasSuffix(".anim") }.sorted()
    var copies: [String] = []
    for name in names {
      let text = try String(contentsOf: examplesDirectory.appendingPathComponent(name), encoding: .utf8)
      copies.append(try scratch.file(name, text))
    }
    #expect(try CLI.run(["fmt", "--write"] + copies).status == 0)
    let again = try CLI.run(["fmt", "--check"] + copies)
    #expect(again.status == 0, "\(again.standardOutput)")
    #expect(try CLI.run(["check"] + copies).status == 0)
  }

  /// The examples are in canonical layout (CI: `anim fmt --check examples/*.anim`).
  @Test func theExamplesAreInCanonicalLayout() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".anim") }
    #expect(files.count >= 10)
    let result = try CLI.run(["fmt", "--check"] + files.sorted().map { folder.appendingPathComponent($0).path })
    #expect(result.status == 0, "not in canonical layout:\n\(result.standardOutput)")
  }
}
