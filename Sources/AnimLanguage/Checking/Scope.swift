// Scope: what names mean. The user's declarations (lets, curves, targets, timelines) share
// one namespace, kept in an `Environment` that a script builds from empty and a REPL
// session carries from one input to the next. The predeclared names (curve presets,
// functions) sit below it: a declaration may shadow them, with a warning.

import AnimCore

/// How a declaration of a name that already exists is treated.
public enum CheckMode: Sendable, Hashable {
  /// A whole script: a second declaration of a name is an error.
  case script
  /// One REPL input against a session: a later `let`, `curve`, `target` or `timeline` of the
  /// same name replaces the earlier one.
  case session
}

/// A `let`: the type of its value, and the value itself when it is constant.
///
/// (Its one-byte members follow the constant, in its padding, and the span comes last: in
/// the order written before, a `let` took 53 bytes, and so did every `Symbol`, the
/// environment's one a name, where 44 leave 48 (`SymbolLayoutTests`): 1.8 MB of a script of
/// 225,000 targets.)
package struct ValueSymbol: Hashable, Sendable {
  package var name: String
  package var constant: ConstantValue?
  package var type: ValueType
  /// For a `let` holding a curve: whether it is a timing curve or a spring.
  package var curveKind: CurveKind?
  /// Whether it is a `var` (assignable; never constant) rather than a `let`.
  package var isVariable: Bool
  /// Where it was declared (in the input that declared it).
  package var span: SourceSpan

  package init(
    name: String, type: ValueType, constant: ConstantValue?, curveKind: CurveKind?, span: SourceSpan,
    isVariable: Bool = false
  ) {
    self.name = name
    self.type = type
    self.constant = constant
    self.curveKind = curveKind
    self.span = span
    self.isVariable = isVariable
  }
}

/// A `curve NAME = ...`: its kind and, when its parameters are constant, its value.
/// (The kind follows the value, in its padding: see `ValueSymbol`.)
package struct CurveSymbol: Hashable, Sendable {
  package var name: String
  /// The value in a box of its own (a constant's `.curve`): the environment keeps every
  /// curve's symbol for the whole check, and an engine curve is a hundred bytes or more.
  private var boxed: ConstantValue?
  package var kind: CurveKind
  package var span: SourceSpan

  package init(name: String, kind: CurveKind, value: TimingCurve?, span: SourceSpan) {
    self.name = name
    self.kind = kind
    self.boxed = value.map { .curve($0) }
    self.span = span
  }

  /// The curve, validated, when its parameters are constant.
  package var value: TimingCurve? {
    if case .curve(let curve)? = boxed { return curve }
    return nil
  }
}

/// One property of a target: its type, fixed by the initial value. (The value itself is
/// the initializer expression's, among the checker's facts; where it was written is not
/// kept: a script of many targets holds every target's symbol for the whole check, and
/// targets with the same properties share one list of them.)
package struct PropertySymbol: Hashable, Sendable {
  package var name: String
  package var type: ValueType

  package init(name: String, type: ValueType) {
    self.name = name
    self.type = type
  }
}

/// A `target NAME { ... }` and its properties in declaration order.
package struct TargetSymbol: Hashable, Sendable {
  package var name: String
  package var properties: [PropertySymbol]
  package var span: SourceSpan
  /// A group's number of members (`target dots[12]`); nil for a single target.
  package var memberCount: Int?

  package init(name: String, properties: [PropertySymbol], span: SourceSpan, memberCount: Int? = nil) {
    self.name = name
    self.properties = properties
    self.span = span
    self.memberCount = memberCount
  }

  /// The property called `name`, if the target has one.
  package func property(named name: String) -> PropertySymbol? {
    properties.first { $0.name == name }
  }
}

/// A `timeline NAME ... { ... }`: its labels and whether it runs forever.
/// (`repeatsForever` follows the pass count, in its padding: see `ValueSymbol`.)
package struct TimelineSymbol: Hashable, Sendable {
  package var name: String
  /// Every label of the timeline, nested groups included, in source order.
  package var labels: [String]
  /// The number of passes when `repeat N` is constant (1 without `repeat`); nil when not
  /// known or forever.
  package var passCount: Double?
  /// The timeline has `repeat forever`, or holds an item that repeats forever: it never
  /// completes, and `finish` on it is an error.
  package var repeatsForever: Bool
  package var span: SourceSpan

  package init(name: String, labels: [String], repeatsForever: Bool, passCount: Double?, span: SourceSpan) {
    self.name = name
    self.labels = labels
    self.repeatsForever = repeatsForever
    self.passCount = passCount
    self.span = span
  }
}

/// What a declared name is.
package enum Symbol: Hashable, Sendable {
  case value(ValueSymbol)
  case curve(CurveSymbol)
  case target(TargetSymbol)
  case timeline(TimelineSymbol)

  package var name: String {
    switch self {
    case .value(let symbol): return symbol.name
    case .curve(let symbol): return symbol.name
    case .target(let symbol): return symbol.name
    case .timeline(let symbol): return symbol.name
    }
  }

  package var span: SourceSpan {
    switch self {
    case .value(let symbol): return symbol.span
    case .curve(let symbol): return symbol.span
    case .target(let symbol): return symbol.span
    case .timeline(let symbol): return symbol.span
    }
  }

  /// Whether it is a `let` or a `var`.
  package var isValue: Bool {
    if case .value = self { return true }
    return false
  }

  /// How messages name the kind: "a value", "a curve", "a target", "a timeline".
  package var kindDescription: String {
    switch self {
    case .value(let value): return value.isVariable ? "a variable (a 'var')" : "a value (a 'let')"
    case .curve: return "a curve"
    case .target: return "a target"
    case .timeline: return "a timeline"
    }
  }
}

/// The declarations visible to the next input: empty for a script, accumulated over a REPL
/// session. The runtime reads targets' property types and constant initial values here.
public struct Environment: Hashable, Sendable {
  /// Every declared name's symbol, by its name, in a table of its own: the checker looks
  /// names up constantly.
  private var table = EntryTable<Symbol>()
  /// Names in the order they were (last) declared, for listings and completion: the
  /// table's own order, until a session declares a name again and it moves to the end
  /// (a script's names are not kept twice).
  package var order: [String] { redeclared?.order ?? table.entries.map(\.name) }
  private var redeclared: Redeclarations?

  /// An environment with nothing declared (the predeclared curves are always visible).
  public init() {}

  package subscript(name: String) -> Symbol? { table[name] }

  public static func == (left: Environment, right: Environment) -> Bool {
    left.order == right.order && left.order.allSatisfy { left.table[$0] == right.table[$0] }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(order)
    for name in order { hasher.combine(table[name]) }
  }

  /// Declares `symbol`, replacing any earlier symbol of the same name.
  package mutating func declare(_ symbol: Symbol) {
    let name = symbol.name
    if table.update(symbol) != nil {
      // Declared again: it moves to the end (already there when it was the last declared,
      // as a timeline is when the checker updates it after its body).
      if (redeclared?.last ?? table.entries.last?.name) == name { return }
      if redeclared == nil { redeclared = Redeclarations(table.entries.map(\.name)) }
      redeclared!.append(name, namesDeclared: table.count)
      return
    }
    redeclared?.append(name, namesDeclared: table.count)
  }

  /// The order of a session's names once one is declared again. Moving the name out of a
  /// list of every name, at each declaration, made loading a file of twenty-five thousand
  /// `let`s into a session that had them take nine seconds: here each declaration goes on
  /// the end of a log, with where each name was declared last, and a name's earlier
  /// entries are skipped (and dropped when they are as many as the names).
  private struct Redeclarations: Sendable {
    private var log: [String]
    /// Each name's last entry in `log`.
    private var latest: [String: Int] = [:]

    init(_ names: [String]) {
      log = names
      latest.reserveCapacity(names.count)
      for (index, name) in names.enumerated() { latest[name] = index }
    }

    var last: String? { log.last }

    var order: [String] { log.indices.compactMap { latest[log[$0]] == $0 ? log[$0] : nil } }

    mutating func append(_ name: String, namesDeclared: Int) {
      latest[name] = log.count
      log.append(name)
      if log.count > 2 * namesDeclared + 16 { self = Redeclarations(order) }
    }
  }

  package func target(named name: String) -> TargetSymbol? {
    if case .target(let symbol)? = table[name] { return symbol }
    return nil
  }

  package func timeline(named name: String) -> TimelineSymbol? {
    if case .timeline(let symbol)? = table[name] { return symbol }
    return nil
  }

  package func curve(named name: String) -> CurveSymbol? {
    if case .curve(let symbol)? = table[name] { return symbol }
    return nil
  }

  package func value(named name: String) -> ValueSymbol? {
    if case .value(let symbol)? = table[name] { return symbol }
    return nil
  }

  /// Names of one kind, in declaration order (candidates for "did you mean").
  func names(where isWanted: (Symbol) -> Bool) -> [String] {
    order.filter { table[$0].map(isWanted) ?? false }
  }
}

/// The names every script starts with, from the tables in Builtins.swift.
enum Predeclared {
  /// The curve preset named `name` (grammar.md § Curves).
  static func curve(named name: String) -> CurvePreset? {
    // (Compared name by name with `==`, which takes a short name's bits at once: the
    // enum's `init(rawValue:)` is a string switch, about 440 instructions a use, twice for
    // each `animate … with easeInOut` checked.)
    for (preset, presetName) in namedCurves where presetName == name { return preset }
    return nil
  }

  /// Each curve preset with its name.
  private static let namedCurves = CurvePreset.allCases.map { ($0, $0.rawValue) }

  /// The presets' names, in order, for messages.
  static let curveNames = CurvePreset.allCases.map(\.rawValue)

  /// Value functions and curve constructors.
  static let functions = BuiltinFunction.allCases.map(\.rawValue) + CurveConstructor.allCases.map(\.rawValue)

  /// Every predeclared name.
  private static let names = Set(curveNames + functions)

  /// Whether `name` is a function's name.
  static func isFunction(_ name: String) -> Bool {
    names.contains(name) && functions.contains(name)
  }

  /// How a shadowing warning names a predeclared name, or nil when `name` is not one.
  static func describe(_ name: String) -> String? {
    guard names.contains(name) else { return nil }
    if let preset = curve(named: name) {
      return preset.curve.kind == .spring ? "the predeclared spring '\(name)'" : "the predeclared curve '\(name)'"
    }
    if functions.contains(name) { return "the predeclared function '\(name)'" }
    return nil
  }
}

/// A symbol is kept in the environment's table by its name.
extension Symbol: KeyedEntry {
  var key: String { name }
}
