import AnimTestSupport
import Foundation
import Testing

/// The tests' scratch directories leave nothing behind in the temporary directory.
@Suite("Scratch directories")
struct ScratchDirectoryTests {
  @Test func aDirectoryAndItsFilesGoWhenTheTestLetsGoOfIt() throws {
    var path = ""
    var file = ""
    do {
      let scratch = try ScratchDirectory(prefix: "anim-scratch-test")
      path = scratch.path
      file = try scratch.file("a.anim", "target a { x: 0 }\n")
      #expect(try scratch.contents(file) == "target a { x: 0 }\n")
      #expect(file.hasPrefix(path + "/"))
      #expect(FileManager.default.fileExists(atPath: file))
    }
    #expect(!path.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: file))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func twoDirectoriesNeverShareAPathAndRemovingTwiceIsHarmless() throws {
    let first = try ScratchDirectory()
    let second = try ScratchDirectory()
    #expect(first.path != second.path)
    let made = try first.newFile("1")
    #expect(try first.newFile("2") != made)
    first.remove()
    first.remove()
    #expect(!FileManager.default.fileExists(atPath: first.path))
    #expect(FileManager.default.fileExists(atPath: second.path))
  }
}
