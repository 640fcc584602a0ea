import AnimCore
import AnimLanguage
import AnimRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `anim run` shows a run: a time-stamped log (not a terminal), or the live view
/// with the log scrolling above it (LiveView.swift).
protocol RunDisplay: AnyObject {
  /// The run begins: take the terminal, if there is one.
  func begin()
  /// Records and runtime errors, in the order they happened.
  func log(_ outputs: [RuntimeOutput])
  /// The properties' values at engine time `time`, once per tick.
  func frame(at time: Nanoseconds, values: [NamedValue])
  /// Ctrl-Z: give the terminal back before the process stops.
  func suspend()
  /// The process was continued after a stop: take the terminal again and redraw.
  func resume()
  /// The run ended, however it ended: restore the terminal, leaving the last frame shown.
  func finish()
  /// The keys typed since the last call (none where the display reads no keys).
  func takeKeys() -> [RunKey]
  /// How the keys have left the run (paused, its speed), shown with the next frame.
  func show(paused: Bool, speed: Double)
  /// Where the view asks, for a property's name, what to show beside its value.
  func inspect(with inspector: @escaping (String) -> PropertyInspection)
}

extension RunDisplay {
  func takeKeys() -> [RunKey] { [] }
  func show(paused: Bool, speed: Double) {}
  func inspect(with inspector: @escaping (String) -> PropertyInspection) {}
}

/// What the live view shows of a property beside its value: the gauge its bar spans, and
/// whether its animations are paused or running backwards.
struct PropertyInspection {
  var gauge: Gauge?
  var paused: Bool
  var reversed: Bool
}

/// How a record reads in the log: `[1.3s] complete intro`, `[0.3s] intro-done`,
/// `[2s] landed at 2s, angle 180`. Times are exact engine times, as the trace writes them.
enum RunLog {
  static func line(_ record: TraceRecord) -> String? {
    switch record {
    case .event(let time, let name, let subject):
      return stamp(time) + " " + name + (subject.map { " " + $0 } ?? "")
    case .print(let time, let text):
      return stamp(time) + " " + text
    case .sample, .control:
      return nil
    }
  }

  static func stamp(_ time: Nanoseconds) -> String {
    "[" + TraceNumber.seconds(time) + "s]"
  }

  /// The log's text for some outputs, split by stream in order: standard output's lines,
  /// and runtime errors rendered for standard error as `anim check` renders diagnostics.
  static func pieces(of outputs: [RuntimeOutput]) -> [(Output, String)] {
    var pieces: [(Output, String)] = []
    func append(_ output: Output, _ text: String) {
      if let last = pieces.last, last.0.descriptor == output.descriptor {
        pieces[pieces.count - 1].1 += text
      } else {
        pieces.append((output, text))
      }
    }
    for output in outputs {
      switch output {
      case .record(let record):
        if let line = line(record) { append(.standardOutput, line + "\n") }
      case .error(let error, let source):
        let renderer = DiagnosticRenderer(source: source, usesColor: Output.standardErrorUsesColor)
        append(.standardError, renderer.render(error.diagnostic))
      case .value, .note:
        break
      }
    }
    return pieces
  }
}

/// Not on a terminal: one line per event and print, nothing else.
final class LogDisplay: RunDisplay {
  func begin() {}

  func log(_ outputs: [RuntimeOutput]) {
    for (output, text) in RunLog.pieces(of: outputs) {
      if !output.write(text), output.descriptor == STDOUT_FILENO, output.isClosed { Output.endForClosedOutput() }
    }
  }

  /// Each tick: a closed standard output ends the run at once, even when nothing is written.
  func frame(at time: Nanoseconds, values: [NamedValue]) {
    if Output.standardOutput.isClosed { Output.endForClosedOutput() }
  }
  func suspend() {}
  func resume() {}
  func finish() {}
}
