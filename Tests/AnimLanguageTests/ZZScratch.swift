import Foundation
import Testing
@testable import AnimLanguage
@Test func zzRender() throws {
  let path = ProcessInfo.processInfo.environment["SCRATCH"] ?? ""
  guard !path.isEmpty else { return }
  let text = try String(contentsOfFile: path, encoding: .utf8)
  let source = SourceText(name: "scratch.anim", contents: text)
  print(DiagnosticRenderer(source: source).render(diagnose(source)))
}
