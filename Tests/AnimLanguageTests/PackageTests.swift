import Testing
@testable import AnimLanguage
