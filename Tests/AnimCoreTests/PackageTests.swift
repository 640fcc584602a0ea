import Testing

@testable import AnimCore
