import AnimTestSupport
import Foundation
import Testing

/// Hostile input through the CLI: each run ends quickly with a clear error (65) or
/// success (0), never with a crash (a signal) or a hang (the runner's timeout).
@Suite struct RobustnessTests {
  /// The longest a run may take here; a debug build on a shared machine is slow, a hang
  /// is forever.
  static let limit = 30.0

  static func expectHandled(
    _ bytes: [UInt8], name: String, status expected: Set<Int32>, message: String? = nil
  ) throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let path = try scratch.file(name, bytes: bytes)
    for command in ["check", "fmt"] {
      let result = try CLI.run([command, path], timeout: limit)
      #expect(!result.crashed, "anim \(command) \(name) crashed: \(result.standardError.prefix(500))")
      #expect(expected.contains(result.status), "anim \(command) \(name) exited \(result.status)")
      #expect(result.seconds < limit)
      if let message {
        #expect(result.standardError.contains(message), "anim \(command) \(name): \(result.standardError.prefix(500))")
      }
      if result.status == 65 {
        #expect(result.standardError.contains("\(path):"), "an error names the file")
      }
    }
  }

  @Test func twoHundredThousandNestedParentheses() throws {
    let text = "let x = " + String(repeating: "(", count: 200_000) + "1" + String(repeating: ")", count: 200_000) + "\n"
    try Self.expectHandled(Array(text.utf8), name: "parens.anim", status: [65], message: "too deeply nested")
  }

  @Test func twoHundredThousandNestedBlocks() throws {
    let text = String(repeating: "sequence {\n", count: 200_000) + String(repeating: "}\n", count: 200_000)
    try Self.expectHandled(Array(text.utf8), name: "blocks.anim", status: [65], message: "too deeply nested")
  }

  @Test func aOneMegabyteLine() throws {
    let text = "print \"" + String(repeating: "abcdefgh", count: 131_072) + "\"\n"
    try Self.expectHandled(Array(text.utf8), name: "long-string.anim", status: [0])
  }

  @Test func aOneMegabyteChainOfOperators() throws {
    let text = "let x = 1" + String(repeating: " + 1", count: 262_144) + "\n"
    try Self.expectHandled(Array(text.utf8), name: "long-chain.anim", status: [65], message: "too deeply nested")
  }

  @Test func aOneMegabyteLineOfGarbage() throws {
    let text = String(repeating: "@ ", count: 524_288) + "\n"
    try Self.expectHandled(Array(text.utf8), name: "garbage.anim", status: [65], message: "unexpected character")
  }

  @Test func aNumberBeyondDouble() throws {
    try Self.expectHandled(
      Array("let x = 1e400\n".utf8), name: "huge.anim", status: [65],
      message: "number '1e400' is beyond the range of a Double")
  }

  @Test func invalidUTF8() throws {
    let bytes: [UInt8] =
      Array("let x = 1\n".utf8) + [0xC3, 0x28, 0xFF, 0xFE, 0x0A] + Array("print \"\u{00E9}\"\n".utf8)
    try Self.expectHandled(bytes, name: "bad-utf8.anim", status: [65], message: "invalid UTF-8")
  }

  @Test func anEmptyFile() throws {
    try Self.expectHandled([], name: "empty.anim", status: [0])
  }

  @Test(arguments: 0..<8)
  func randomBytes(_ seed: Int) throws {
    var state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15
    var bytes: [UInt8] = []
    for _ in 0..<65_536 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes.append(UInt8(truncatingIfNeeded: state >> 56))
    }
    try Self.expectHandled(bytes, name: "random-\(seed).anim", status: [0, 65])
  }
}
