// Scope: what names mean. The user's declarations (lets, curves, targets, timelines) share
// one namespace, kept in an `Environment` that a script builds from empty and a REPL
// session carries from one input to the next. The predeclared names (curve presets,
// functions) sit below it: a declaration may shadow them, with a warning.

/// How a declaration of a name that already exists is treated.
public enum CheckMode: Sendable, Hashable {
  /// A whole script: a second declaration of a name is an error.
  case script
  /// One REPL input against a session: a later `let`, `curve`, `target` or `timeline` of the
  /// same name replaces the earlier one.
  case session
}

/// A `let`: the type of its value, and the value itself when it is constant.
public struct ValueSymbol: Hashable, Sendable {
  public var name: String
  public var type: ValueType
  public var constant: ConstantValue?
  /// For a `let` holding a curve: whether it is a timing curve or a spring.
  public var curveKind: CurveKind?
  /// Where it was declared (in the input that declared it).
  public var span: SourceSpan

  public init(name: String, type: ValueType, constant: ConstantValue?, curveKind: CurveKind?, span: SourceSpan) {
    self.name = name
    self.type = type
    self.constant = constant
    self.curveKind = curveKind
    self.span = span
  }
}

/// A `curve NAME = ...`: its kind and, when its parameters are constant, its value.
public struct CurveSymbol: Hashable, Sendable {
  public var name: String
  public var kind: CurveKind
  public var value: CurveValue?
  public var span: SourceSpan

  public init(name: String, kind: CurveKind, value: CurveValue?, span: SourceSpan) {
    self.name = name
    self.kind = kind
    self.value = value
    self.span = span
  }
}

/// One property of a target: its type (fixed by the initial value) and that value when it
/// is constant.
public struct PropertySymbol: Hashable, Sendable {
  public var name: String
  public var type: ValueType
  public var initialValue: ConstantValue?
  public var span: SourceSpan

  public init(name: String, type: ValueType, initialValue: ConstantValue?, span: SourceSpan) {
    self.name = name
    self.type = type
    self.initialValue = initialValue
    self.span = span
  }
}

/// A `target NAME { ... }` and its properties in declaration order.
public struct TargetSymbol: Hashable, Sendable {
  public var name: String
  public var properties: [PropertySymbol]
  public var span: SourceSpan

  public init(name: String, properties: [PropertySymbol], span: SourceSpan) {
    self.name = name
    self.properties = properties
    self.span = span
  }

  /// The property called `name`, if the target has one.
  public func property(named name: String) -> PropertySymbol? {
    properties.first { $0.name == name }
  }
}

/// A `timeline NAME ... { ... }`: its labels and whether it runs forever.
public struct TimelineSymbol: Hashable, Sendable {
  public var name: String
  /// Every label of the timeline, nested groups included, in source order.
  public var labels: [String]
  /// The timeline has `repeat forever`, or holds an item that repeats forever: it never
  /// completes, and `finish` on it is an error.
  public var repeatsForever: Bool
  /// The number of passes when `repeat N` is constant (1 without `repeat`); nil when not
  /// known or forever.
  public var passCount: Double?
  public var span: SourceSpan

  public init(name: String, labels: [String], repeatsForever: Bool, passCount: Double?, span: SourceSpan) {
    self.name = name
    self.labels = labels
    self.repeatsForever = repeatsForever
    self.passCount = passCount
    self.span = span
  }
}

/// What a declared name is.
public enum Symbol: Hashable, Sendable {
  case value(ValueSymbol)
  case curve(CurveSymbol)
  case target(TargetSymbol)
  case timeline(TimelineSymbol)

  public var name: String {
    switch self {
    case .value(let symbol): return symbol.name
    case .curve(let symbol): return symbol.name
    case .target(let symbol): return symbol.name
    case .timeline(let symbol): return symbol.name
    }
  }

  public var span: SourceSpan {
    switch self {
    case .value(let symbol): return symbol.span
    case .curve(let symbol): return symbol.span
    case .target(let symbol): return symbol.span
    case .timeline(let symbol): return symbol.span
    }
  }

  /// How messages name the kind: "a value", "a curve", "a target", "a timeline".
  public var kindDescription: String {
    switch self {
    case .value: return "a value (a 'let')"
    case .curve: return "a curve"
    case .target: return "a target"
    case .timeline: return "a timeline"
    }
  }
}

/// The declarations visible to the next input: empty for a script, accumulated over a REPL
/// session. The runtime reads targets' property types and constant initial values here.
public struct Environment: Hashable, Sendable {
  /// Every declared name.
  public private(set) var symbols: [String: Symbol] = [:]
  /// Names in the order they were (last) declared, for listings and completion.
  public private(set) var order: [String] = []

  public init() {}

  public subscript(name: String) -> Symbol? { symbols[name] }

  /// Declares `symbol`, replacing any earlier symbol of the same name.
  public mutating func declare(_ symbol: Symbol) {
    let name = symbol.name
    if symbols.updateValue(symbol, forKey: name) != nil {
      // Declared again: it moves to the end (already there when it was the last declared,
      // as a timeline is when the checker updates it after its body).
      if order.last == name { return }
      order.removeAll { $0 == name }
    }
    order.append(name)
  }

  public func target(named name: String) -> TargetSymbol? {
    if case .target(let symbol)? = symbols[name] { return symbol }
    return nil
  }

  public func timeline(named name: String) -> TimelineSymbol? {
    if case .timeline(let symbol)? = symbols[name] { return symbol }
    return nil
  }

  public func curve(named name: String) -> CurveSymbol? {
    if case .curve(let symbol)? = symbols[name] { return symbol }
    return nil
  }

  public func value(named name: String) -> ValueSymbol? {
    if case .value(let symbol)? = symbols[name] { return symbol }
    return nil
  }

  /// Names of one kind, in declaration order (candidates for "did you mean").
  func names(where isWanted: (Symbol) -> Bool) -> [String] {
    order.filter { symbols[$0].map(isWanted) ?? false }
  }
}

/// The names every script starts with.
enum Predeclared {
  /// The curve presets and their values (language.md's curve table).
  static let curves: [(name: String, value: CurveValue)] = [
    ("linear", .linear),
    ("ease", .cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)),
    ("easeIn", .cubic(x1: 0.42, y1: 0, x2: 1, y2: 1)),
    ("easeOut", .cubic(x1: 0, y1: 0, x2: 0.58, y2: 1)),
    ("easeInOut", .cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1)),
    ("smooth", .spring(.duration(duration: 0.5, bounce: 0), velocity: 0)),
    ("snappy", .spring(.duration(duration: 0.5, bounce: 0.15), velocity: 0)),
    ("bouncy", .spring(.duration(duration: 0.5, bounce: 0.3), velocity: 0)),
  ]

  /// The presets by name, for lookups (the list above keeps their order for messages).
  private static let curvesByName = Dictionary(uniqueKeysWithValues: curves.map { ($0.name, $0.value) })

  static func curve(named name: String) -> CurveValue? {
    curvesByName[name]
  }

  static let curveNames = curves.map(\.name)

  /// Value functions and curve constructors.
  static let functions = [
    "min", "max", "clamp", "abs", "sqrt", "sin", "cos", "lerp", "rgb", "rgba", "cubic", "steps", "spring",
  ]

  /// Every predeclared name.
  private static let names = Set(curveNames + functions)

  /// Whether `name` is a function's name.
  static func isFunction(_ name: String) -> Bool {
    names.contains(name) && functions.contains(name)
  }

  /// How a shadowing warning names a predeclared name, or nil when `name` is not one.
  static func describe(_ name: String) -> String? {
    guard names.contains(name) else { return nil }
    if let value = curve(named: name) {
      return value.kind == .spring ? "the predeclared spring '\(name)'" : "the predeclared curve '\(name)'"
    }
    if functions.contains(name) { return "the predeclared function '\(name)'" }
    return nil
  }
}
