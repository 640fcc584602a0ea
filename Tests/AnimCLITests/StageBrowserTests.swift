import AnimTestSupport
import Foundation
import Testing

/// The stage in headless Chromium (Tests/Browser/stage_browser_tests.py, through Debian's
/// chromium and chromium-driver and Selenium): frozen pages against `anim trace --at`, the
/// transport, the scrubber and keys, lane controls, the token, hot reload, and
/// scripts/stage-screenshot.sh. Skipped when no browser is installed, unless
/// ANIM_REQUIRE_BROWSER=1 (as `.ci/run` sets), which makes a missing browser a failure.
@Suite struct StageBrowserTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let requiresBrowser = ProcessInfo.processInfo.environment["ANIM_REQUIRE_BROWSER"] == "1"
  static let hasBrowser =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")

  @Test(.enabled(if: hasBrowser || requiresBrowser, "no chromium and chromium-driver (ANIM_REQUIRE_BROWSER=1 to fail)"))
  func theStageInABrowser() throws {
    let scratch = try ScratchDirectory(prefix: "anim-cli")
    defer { scratch.remove() }
    let output = scratch.directory.appendingPathComponent("browser.out").path
    let errors = scratch.directory.appendingPathComponent("browser.err").path
    var environment = ProcessInfo.processInfo.environment
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment["HOME"] = scratch.directory.path
    let status = try spawnAndWait(
      [
        "/usr/bin/env", "python3", Self.repository.appendingPathComponent("Tests/Browser/stage_browser_tests.py").path,
        try animExecutable(), examplesDirectory.path, scratch.directory.path, Self.repository.path,
      ], environment: environment, standardOutput: output, standardError: errors)
    let text =
      ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
      + ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    if status == 77 {
      // What is missing (the script says): a failure only where a browser is required.
      #expect(!Self.requiresBrowser, "\(text)")
      return
    }
    #expect(status == 0, "\(text)")
    #expect(text.contains("checked; 0 problems"), "\(text)")
  }
}
