import Foundation
import Testing
@testable import AnimLanguage

/// Every script in examples/ is clean: no error from `diagnose` (the parser today, the
/// checker once it is merged), so the README's first command stays true.
@Suite struct ExampleTests {
  @Test(arguments: FormatterTests.exampleNames())
  func exampleHasNoErrors(_ name: String) throws {
    let text = try FormatterTests.example(name)
    let source = SourceText(name: name, contents: text)
    let errors = diagnose(source).filter(\.isError)
    #expect(errors.isEmpty, "\(describe(errors, in: source))")
  }
}
