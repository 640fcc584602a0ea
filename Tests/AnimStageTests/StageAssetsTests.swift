import Foundation
import Testing

@testable import AnimStage

/// The page is compiled in from Sources/AnimStage/Resources/ by
/// scripts/generate-stage-assets.sh: this fails while the generated file is out of date.
@Suite struct StageAssetsTests {
  static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/AnimStage/Resources")

  @Test func theGeneratedAssetsAreTheResources() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.resources.path).sorted()
    #expect(names == StageAssets.files.keys.sorted(), "run scripts/generate-stage-assets.sh")
    for name in names {
      let text = try String(contentsOf: Self.resources.appendingPathComponent(name), encoding: .utf8)
      #expect(StageAssets.files[name].map { $0 + "\n" } == text, "\(name): run scripts/generate-stage-assets.sh")
    }
  }

  @Test func thePageNeedsNothingFromTheNetwork() {
    for (name, text) in StageAssets.files {
      // (The SVG namespace, http://www.w3.org/2000/svg, is a name, never fetched.)
      for fetched in ["src=\"http", "href=\"http", "src=\"//", "href=\"//", "url(http", "https://", "import "] {
        #expect(!text.contains(fetched), "\(name) holds \(fetched)")
      }
    }
  }
}
