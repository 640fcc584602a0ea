// NewTargets: the targets a script declared new, in order, waiting for the runtime's
// `targets` to take them at its next use (a trace never uses it). A list of each target's
// name and properties held 24 bytes a target, 5.4 MB for a script of 225,000 targets, and
// said again what the property table already says: a new target whose every property was
// added has its names `T.p` there, one after another. So a run of such targets with one list
// of properties is kept as where its names start in the table and how many targets it
// holds, and each target's name is read back from its first property's name.

struct NewTargets {
  private enum Entry {
    /// `count` targets with the properties `properties` (at least one), whose names are in
    /// the table from `firstPosition` on, each target's after the one before.
    case run(firstPosition: Int, count: Int, properties: [String])
    /// A target whose names are not all in the table (a value is added later, or it has no
    /// property).
    case target(name: String, properties: [String])
  }

  private var entries: [Entry] = []

  init() {}

  var isEmpty: Bool { entries.isEmpty }

  /// Adds `target`, with the properties `properties`; `position` is where the table holds
  /// its names `target.p`, every one in the order of `properties`, or nil when it does not.
  mutating func append(_ target: String, properties: [String], namesAt position: Int?) {
    guard let position, !properties.isEmpty else {
      entries.append(.target(name: target, properties: properties))
      return
    }
    // (Arrays compare by identity first: targets declared one after another share a list.)
    if case .run(let first, let count, let listed)? = entries.last, listed == properties,
      first + count * properties.count == position
    {
      entries[entries.count - 1] = .run(firstPosition: first, count: count + 1, properties: listed)
    } else {
      entries.append(.run(firstPosition: position, count: 1, properties: properties))
    }
  }

  /// Calls `body` with each target's name and properties, in order, reading names from
  /// `table`, which must hold them where they were when added (the runtime takes its new
  /// targets before anything moves or removes a name).
  func forEach(in table: PropertyTable, _ body: (_ name: String, _ properties: [String]) -> Void) {
    for entry in entries {
      switch entry {
      case .target(let name, let properties):
        body(name, properties)
      case .run(let first, let count, let properties):
        // A name `T.p`, less `.p`, of the target's first property.
        let suffix = properties[0].utf8.count + 1
        for index in 0..<count {
          let name = table.name(at: first + index * properties.count)
          body(String(Substring(name.utf8.dropLast(suffix))), properties)
        }
      }
    }
  }
}
