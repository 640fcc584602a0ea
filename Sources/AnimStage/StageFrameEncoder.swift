// StageFrameEncoder: the frames a page is sent after the first, each only what changed since
// the one before: with a thousand moving targets, the whole state is half a megabyte of JSON
// sixty times a second, which the page cannot parse and apply within a frame; what changed
// (a transform each) is a tenth of it.

import AnimCore
import AnimRuntime

/// Remembers what the pages were last sent, and writes the next frame as a difference.
package struct StageFrameEncoder {
  private var header = ""
  private var targets: [String: DrawnTarget] = [:]
  private var values: [String: String] = [:]
  private var ranges: [String: String] = [:]
  /// The runtime's layout, kept while its declarations do not change.
  private var layout: StageLayout?
  private var layoutOwner: ObjectIdentifier?

  package init() {}

  /// `{"type":"frame","delta":true,HEADER,"targets":[…],"removed":[…],"values":{…},"ranges":{…},
  /// "log":[…]}`: the targets whose drawing changed, each with only its changed attributes
  /// (and its element, text and gauges when they changed or it is new); the targets gone;
  /// the property values (as the trace writes them) and gauges that changed. Nil when
  /// nothing changed and `log` is empty.
  ///
  /// `header` is the rest of the state (time, transport, timelines, diagnostics) as JSON
  /// members, sent whole whenever anything changed. Without `details`, the values and gauges
  /// are left for a later frame: while things move the page's inspector needs them a few
  /// times a second, not sixty (the last frame of a motion must have them).
  package mutating func frame(
    _ runtime: Runtime, size: StageSize, time: Nanoseconds, header: String, log: [String], details: Bool = true
  ) -> String? {
    if layoutOwner != ObjectIdentifier(runtime) || layout?.key != runtime.stageLayoutKey {
      layout = runtime.stageLayout
      layoutOwner = ObjectIdentifier(runtime)
    }
    let scene = StageScene(runtime, size: size, layout: layout)
    var changedTargets: [String] = []
    var seen = Set<String>()
    for target in scene.targets {
      seen.insert(target.name)
      let old = targets[target.name]
      if old == target { continue }
      targets[target.name] = target
      var out = "{\"n\":" + TraceJSON.string(target.name)
      if old?.element != target.element || old == nil {
        out += ",\"e\":" + (target.element.map { "\"\($0)\"" } ?? "null")
      }
      out += ",\"g\":" + Self.changes(from: old?.group ?? [], to: target.group)
      out += ",\"s\":" + Self.changes(from: old?.shape ?? [], to: target.shape)
      if let text = target.text, text != old?.text { out += ",\"x\":" + TraceJSON.string(text) }
      if old?.gauges != target.gauges {
        out += ",\"u\":[" + target.gauges.map(TraceJSON.string).joined(separator: ",") + "]"
      }
      changedTargets.append(out + "}")
    }
    let removed = targets.keys.filter { !seen.contains($0) }.sorted()
    for name in removed { targets[name] = nil }

    var changedValues: [String] = []
    for named in details ? runtime.sample() : [] {
      let text = TraceJSON.value(named.value)
      if values[named.name] != text {
        values[named.name] = text
        changedValues.append(TraceJSON.string(named.name) + ":" + text)
      }
    }
    var changedRanges: [String] = []
    for name in details ? runtime.propertyNames : [] {
      guard let gauge = runtime.gauge(of: name) else { continue }
      let marks = runtime.playbackMarks(of: name)
      let text =
        "[" + TraceNumber.json(gauge.low) + "," + TraceNumber.json(gauge.high) + ",\(marks.paused),\(marks.reversed)]"
      if ranges[name] != text {
        ranges[name] = text
        changedRanges.append(TraceJSON.string(name) + ":" + text)
      }
    }
    let nothing = changedTargets.isEmpty && removed.isEmpty && changedValues.isEmpty && changedRanges.isEmpty
    if nothing && log.isEmpty && header == self.header { return nil }
    self.header = header
    var out = "{\"type\":\"frame\",\"delta\":true," + header
    out += ",\"targets\":[" + changedTargets.joined(separator: ",") + "]"
    out += ",\"removed\":[" + removed.map(TraceJSON.string).joined(separator: ",") + "]"
    out += ",\"values\":{" + changedValues.joined(separator: ",") + "}"
    out += ",\"ranges\":{" + changedRanges.joined(separator: ",") + "}"
    return out + ",\"log\":[" + log.joined(separator: ",") + "]}"
  }

  /// The attributes of `new` whose value differs from `old`'s, as a JSON object.
  private static func changes(from old: [StageAttribute], to new: [StageAttribute]) -> String {
    let changed: [StageAttribute]
    if old.count == new.count, zip(old, new).allSatisfy({ $0.name == $1.name }) {
      // The same attributes in the same order, as nearly always: compared in place.
      changed = zip(old, new).filter { $0.value != $1.value }.map(\.1)
    } else {
      var before: [String: String] = [:]
      for attribute in old { before[attribute.name] = attribute.value }
      changed = new.filter { before[$0.name] != $0.value }
    }
    return "{" + changed.map { TraceJSON.string($0.name) + ":" + TraceJSON.string($0.value) }.joined(separator: ",")
      + "}"
  }
}
