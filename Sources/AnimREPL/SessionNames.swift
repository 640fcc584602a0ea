// SessionNames: the names a session has declared so far, for Tab completion and `:watch`.
//
// In the REPL a later `let`, `curve`, `target` or `timeline` replaces an earlier one of the
// same name, so one table maps each name to what it currently is. Only declarations that
// parsed and checked are recorded. (When the checker's session environment lands, it
// becomes the source of these names.)

import AnimLanguage

/// What a declared name is.
public enum DeclaredKind: Hashable, Sendable {
  /// A target and its property names, in the order written.
  case target(properties: [String])
  case timeline
  case curve
  case value
}

/// The names declared in a session.
public struct SessionNames: Sendable {
  /// Every declared name and what it is now.
  public private(set) var declarations: [String: DeclaredKind] = [:]

  public init() {}

  /// Records the top-level declarations of a checked file, later ones replacing earlier.
  public mutating func record(_ file: SourceFile) {
    for statement in file.statements {
      switch statement.kind {
      case .target(let target):
        declarations[target.name.text] = .target(properties: target.properties.map(\.name.text))
      case .timeline(let timeline):
        declarations[timeline.name.text] = .timeline
      case .curve(let curve):
        declarations[curve.name.text] = .curve
      case .letBinding(let binding):
        declarations[binding.name.text] = .value
      default:
        break
      }
    }
  }

  /// The property names of target `name`, or nil when `name` is not a target.
  public func properties(ofTarget name: String) -> [String]? {
    if case .target(let properties) = declarations[name] { return properties }
    return nil
  }

  /// Every target name, sorted.
  public var targets: [String] {
    declarations.compactMap { name, kind in
      if case .target = kind { return name }
      return nil
    }.sorted()
  }

  /// Every declared name, sorted.
  public var all: [String] { declarations.keys.sorted() }
}
