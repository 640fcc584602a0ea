import AnimTestSupport
import Foundation
import Testing

/// `anim check FILE...` end to end: exit codes, the diagnostic format, colour.
@Suite struct CheckCommandTests {
  /// Two errors, on lines 2 and 3; their columns counted by hand.
  static let twoErrors = "let a = 1\nanimate card.x to 1 over 1 s\nlet b = )\n"

  @Test func cleanExampleExitsZeroAndPrintsNothing() throws {
    let result = try CLI.run(["check", examplesDirectory.appendingPathComponent("card-flip.anim").path])
    #expect(result.status == 0)
    #expect(!result.crashed)
    #expect(result.standardError == "")
    #expect(result.standardOutput == "")
  }

  @Test func everyExampleIsClean() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)
      .filter { $0.hasSuffix(".anim") }.sorted()
    #expect(names.count >= 10)
    let result = try CLI.run(["check"] + names.map { examplesDirectory.appendingPathComponent($0).path })
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func errorsExit65WithEveryErrorInCompilerFormat() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("two.anim", Self.twoErrors)
    let result = try CLI.run(["check", path])
    #expect(result.status == 65)
    #expect(result.standardOutput == "")
    let expected =
      "\(path):2:28: error: unexpected 's' after a number: write a duration without a space, as '1s'\n"
      + "animate card.x to 1 over 1 s\n"
      + String(repeating: " ", count: 27) + "^\n"
      + "\(path):3:9: error: expected an expression after 'let b =', found ')'\n"
      + "let b = )\n"
      + String(repeating: " ", count: 8) + "^\n"
    #expect(result.standardError == expected)
  }

  @Test func aCaretUnderlinesTheWholeToken() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("big.anim", "let x = 1e400\n")
    let result = try CLI.run(["check", path])
    #expect(result.status == 65)
    #expect(
      result.standardError
        == "\(path):1:9: error: number '1e400' is beyond the range of a Double\nlet x = 1e400\n        ^~~~~\n")
  }

  @Test func warningsAlonePrintButExitZero() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("shadow.anim", "let min = 1\n")
    let result = try CLI.run(["check", path])
    #expect(result.status == 0)
    #expect(
      result.standardError
        == "\(path):1:5: warning: 'min' shadows the predeclared function 'min'\nlet min = 1\n    ^~~\n")
    // With a checker error too, the status is 65 and both are printed, in source order.
    let both = try scratch.file("both.anim", "let min = 1\nplay nowhere\n")
    let mixed = try CLI.run(["check", both])
    #expect(mixed.status == 65)
    let warning = mixed.standardError.range(of: "\(both):1:5: warning: 'min' shadows")
    let error = mixed.standardError.range(of: "\(both):2:6: error: unknown timeline 'nowhere'")
    #expect(warning != nil && error != nil && warning!.lowerBound < error!.lowerBound, "\(mixed.standardError)")
  }

  @Test func aMissingFileExits66AndSaysWhichAndWhy() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let missing = scratch.directory.appendingPathComponent("nowhere.anim").path
    let result = try CLI.run(["check", missing])
    #expect(result.status == 66)
    #expect(result.standardError.contains("'\(missing)'"))
    #expect(result.standardError.contains("No such file or directory"))
  }

  @Test func aDirectoryExits66() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let result = try CLI.run(["check", scratch.directory.path])
    #expect(result.status == 66)
    #expect(result.standardError.contains("Is a directory"))
  }

  @Test func everyFileIsCheckedAndTheGravestStatusWins() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let good = try scratch.file("good.anim", "let a = 1\n")
    let bad = try scratch.file("bad.anim", Self.twoErrors)
    let missing = scratch.directory.appendingPathComponent("missing.anim").path
    let errors = try CLI.run(["check", bad, good])
    #expect(errors.status == 65)
    #expect(errors.standardError.components(separatedBy: ": error: ").count - 1 == 2)
    let unreadable = try CLI.run(["check", bad, missing, good])
    #expect(unreadable.status == 66)
    #expect(unreadable.standardError.contains("\(bad):3:9: error:"))
  }

  @Test func usageErrorsExit64() throws {
    #expect(try CLI.run(["check"]).status == 64)
    #expect(try CLI.run(["check", "--no-such-option", "x.anim"]).status == 64)
    #expect(try CLI.run(["no-such-command"]).status == 64)
  }

  @Test func noColourWhenStandardErrorIsNotATerminal() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("two.anim", Self.twoErrors)
    let result = try CLI.run(["check", path])
    #expect(result.status == 65)
    #expect(!result.standardError.contains("\u{1B}["))
  }

  @Test func colourOnATerminalUnlessNoColorIsSet() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file("two.anim", Self.twoErrors)
    let coloured = try CLI.run(["check", path], errorToTerminal: true)
    #expect(coloured.status == 65)
    #expect(coloured.standardError.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    let plain = try CLI.run(["check", path], environment: ["NO_COLOR": "1"], errorToTerminal: true)
    #expect(plain.status == 65)
    #expect(plain.standardError.contains("error: unexpected 's' after a number"))
    #expect(!plain.standardError.contains("\u{1B}["))
  }
}
