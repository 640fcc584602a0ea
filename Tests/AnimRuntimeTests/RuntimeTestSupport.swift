import AnimCore
import AnimLanguage
import Testing

@testable import AnimRuntime

let ms: Nanoseconds = 1_000_000
let s: Nanoseconds = 1_000_000_000

/// A script traced: its records and runtime errors.
struct Traced {
  var records: [TraceRecord] = []
  var errors: [RuntimeError] = []

  /// The value of `name` in the sample at `time`.
  func value(_ name: String, at time: Nanoseconds) -> AnimationValue? {
    for case .sample(let t, let values) in records where t == time {
      return values.first { $0.name == name }?.value
    }
    return nil
  }

  func number(_ name: String, at time: Nanoseconds) -> Double? {
    guard case .number(let x)? = value(name, at: time) else { return nil }
    return x
  }

  /// The times of event `name` of `subject`.
  func times(_ name: String, _ subject: String?) -> [Nanoseconds] {
    records.compactMap {
      if case .event(let t, name, subject) = $0 { return t }
      return nil
    }
  }

  var prints: [(Nanoseconds, String)] {
    records.compactMap {
      if case .print(let t, let text) = $0 { return (t, text) }
      return nil
    }
  }

  var sampleTimes: [Nanoseconds] {
    records.compactMap {
      if case .sample(let t, _) = $0 { return t }
      return nil
    }
  }
}

/// A script traced as `anim trace` traces it: read, checked and started one top-level
/// statement at a time when it can be (`Runtime.start`), then traced.
func trace(_ script: String, _ options: TraceOptions = TraceOptions()) throws -> Traced {
  let source = SourceText(name: "test.anim", contents: script)
  switch Runtime.start(source, recordsControls: options.marksControls) {
  case .failed(let diagnostics):
    Issue.record("script does not check: \(diagnostics.map(\.message))")
    return Traced()
  case .started(let runtime, let first, _):
    var traced = Traced()
    try runtime.trace(
      startedWith: first, options: options, emit: { traced.records.append($0) },
      report: { error, _ in traced.errors.append(error) })
    return traced
  }
}

/// A script checked whole (`parseAndCheck`) and traced with `Runtime.trace(_:of:options:...)`,
/// the path that holds the whole tree: what `trace` must equal.
func traceWhole(_ script: String, _ options: TraceOptions = TraceOptions()) throws -> Traced {
  let source = SourceText(name: "test.anim", contents: script)
  var environment = Environment()
  let result = parseAndCheck(source, in: &environment, mode: .script)
  guard result.isRunnable, let program = result.program else {
    Issue.record("script does not check: \(result.diagnostics.map(\.message))")
    return Traced()
  }
  var traced = Traced()
  try Runtime().trace(
    program, of: source, options: options, emit: { traced.records.append($0) },
    report: { error, _ in traced.errors.append(error) })
  return traced
}

func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}
