// StageOverview: the whole script run once on a virtual clock, for the page's scrubber (its
// length) and timeline lanes (one per property: a bar from each `start` of the property to
// its `complete`, the values sampled within it to draw its curve, and the events as markers).

import AnimCore
import AnimLanguage
import AnimRuntime

package enum StageOverview {
  /// A script that never ends is shown this far past the moment it turned endless.
  package static let endlessMargin: Nanoseconds = 10_000_000_000
  /// The lanes hold at most this many sampled values in all (the frame rate drops to fit).
  package static let sampleBudget = 200_000
  /// At most this many lanes.
  package static let laneLimit = 200

  /// `{"duration":D,"endless":B,"fps":F,"lanes":[{"p":NAME,"kind":K,"values":[…],"bars":[[from,to],…]}],
  /// "events":[trace event lines…]}`, times in seconds; `null` for a script that does not start.
  package static func json(of text: SourceText) -> String {
    // The end first: a run that samples nothing and stops where the trace would.
    guard case .started(let probe, let first, _) = Runtime.start(text) else { return "null" }
    var end: Nanoseconds = 0
    var endless = false
    do throws(TraceError) {
      try probe.trace(
        startedWith: first, options: TraceOptions(fps: 10, watch: []), emit: { end = max(end, $0.time) },
        report: { _, _ in })
    } catch {
      endless = true
      switch error {
      case .neverEnds(let since): end = saturatingSum(since, endlessMargin)
      default: end = 60_000_000_000
      }
    }
    end = max(end, 1_000_000_000)

    guard case .started(let runtime, let start, _) = Runtime.start(text) else { return "null" }
    let names = Array(runtime.propertyNames.prefix(laneLimit))
    let length = Double(end) / 1e9
    let fps = max(1, min(60, Int64(Double(sampleBudget) / max(1, Double(names.count) * length))))
    var series: [[String]] = Array(repeating: [], count: names.count)
    var open: [String: Nanoseconds] = [:]
    var bars: [String: [(Nanoseconds, Nanoseconds)]] = [:]
    var events: [String] = []
    let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    func seconds(_ time: Nanoseconds) -> String { TraceNumber.json(Double(time) / 1e9) }
    try? runtime.trace(
      startedWith: start, options: TraceOptions(fps: fps, until: end, watch: names),
      emit: { record in
        switch record {
        case .sample(_, let values):
          for (position, named) in values.enumerated() where position < series.count {
            if case .number(let x) = named.value { series[position].append(TraceNumber.json(x)) }
          }
        case .event(let time, let name, let subject):
          if let subject, index[subject] != nil {
            if name == "start" { open[subject] = time }
            if name == "complete", let from = open.removeValue(forKey: subject) {
              bars[subject, default: []].append((from, time))
            }
          }
          if events.count < 5_000 { events.append(String(JSONLTraceWriter.line(record).dropLast())) }
        case .print:
          if events.count < 5_000 { events.append(String(JSONLTraceWriter.line(record).dropLast())) }
        case .control:
          break
        }
      },
      report: { _, _ in })
    for (subject, from) in open { bars[subject, default: []].append((from, end)) }

    var out = "{\"duration\":" + seconds(end) + ",\"endless\":\(endless),\"fps\":\(fps),\"lanes\":["
    for (position, name) in names.enumerated() {
      if position > 0 { out += "," }
      let values: String = series[position].joined(separator: ",")
      out += "{\"p\":" + TraceJSON.string(name)
      out += ",\"values\":[" + values + "]"
      let spans: [String] = (bars[name] ?? []).map { "[" + seconds($0.0) + "," + seconds($0.1) + "]" }
      out += ",\"bars\":[" + spans.joined(separator: ",")
      out += "]}"
    }
    return out + "],\"events\":[" + events.joined(separator: ",") + "]}"
  }
}
