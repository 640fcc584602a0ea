// StageFrameEncoder: the frames a page is sent after the first, each only what changed since
// the one before, in a form the page applies without parsing much. With a thousand moving
// targets nearly everything that changes from frame to frame is a number inside an attribute
// (a transform's translation and angle): those numbers go as raw little-endian doubles, each
// target's changed ones flagged in a bit mask, and the page writes them into the attribute's
// text (`StageAttribute.pieces`). Everything else (a target's element, its attributes' text,
// its gauges, the order of the targets, the time and transport, the inspector's values, the
// log) goes as a small JSON part of the same binary message.
//
// A frame is one binary WebSocket message:
//   u32 (little-endian) the JSON part's length in bytes, the JSON part (UTF-8), then for each
//   target whose numbers only changed: u32 its index (in `order`), u32 the mask of its changed
//   numbers (bit k: its k-th number, counting the `<g>`'s attributes' numbers first, then the
//   shape's), and one f64 (little-endian) per bit set, in order.
// The JSON part: `{"type":"frame","delta":true,HEADER,"order":[…]?,"targets":[RECORD…],
// "values":{…},"ranges":{…},"log":[…]}`, `order` only when the list of targets changed (then
// every target has a RECORD), RECORD as `StageScene.record` writes it with `"i"` its index.

import AnimCore
import AnimRuntime

/// Remembers what the pages were last sent, and writes the next frame as a difference.
package struct StageFrameEncoder {
  private var header = ""
  /// The targets as last sent, in order, and their names.
  private var targets: [DrawnTarget] = []
  private var names: [String] = []
  /// The inspector's values as last sent, by target (only the inspected targets').
  private var values: [String: [String: AnimationValue]] = [:]
  /// The gauges' ranges and marks as last sent, by property.
  private var ranges: [String: StageRange] = [:]
  /// The targets whose values the pages' inspectors show.
  private var inspected: Set<String> = []
  /// The runtime's layout, kept while its declarations do not change.
  private var layout: StageLayout?
  private var layoutOwner: ObjectIdentifier?

  package init() {}

  /// The most numbers a target may have for its numbers to go in the binary part (a mask of
  /// 32 bits); a target with more goes as a JSON record whenever it changes.
  static let maxNumbers = 32

  /// Which targets' values the inspectors show from now on: those newly inspected have all
  /// their values in the next frame.
  package mutating func inspect(_ targets: Set<String>) {
    inspected = targets
    values = values.filter { targets.contains($0.key) }
  }

  /// The next frame, or nil when nothing changed and `log` is empty.
  ///
  /// `header` is the rest of the state (time, transport, timelines, diagnostics) as JSON
  /// members, sent whole whenever anything changed. The inspected targets' values and gauges'
  /// ranges go with every frame; without `details`, the other gauges' ranges (which only the
  /// lanes' labels read) are left for a later frame: a thousand targets' ranges looked up
  /// sixty times a second cost more than drawing them (the last frame of a motion, and one
  /// with events, must have them).
  package mutating func frame(
    _ runtime: Runtime, size: StageSize, time: Nanoseconds, header: String, log: [String], details: Bool = true
  ) -> [UInt8]? {
    if layoutOwner != ObjectIdentifier(runtime) || layout?.key != runtime.stageLayoutKey {
      layout = runtime.stageLayout
      layoutOwner = ObjectIdentifier(runtime)
    }
    let scene = StageScene(runtime, size: size, layout: layout)
    var records: [String] = []
    var numbers: [UInt8] = []
    var order: String?
    if scene.targets.count != names.count || !zip(scene.targets, names).allSatisfy({ $0.name == $1 }) {
      names = scene.targets.map(\.name)
      order = "[" + names.map(TraceJSON.string).joined(separator: ",") + "]"
      for (index, target) in scene.targets.enumerated() { records.append(StageScene.record(target, index: index)) }
      targets = scene.targets
    } else {
      for index in scene.targets.indices {
        let new = scene.targets[index]
        let old = targets[index]
        if old == new { continue }
        targets[index] = new
        if let mask = Self.numbersOnlyChange(from: old, to: new) {
          Self.append(UInt32(index), to: &numbers)
          Self.append(mask, to: &numbers)
          var slot = 0
          for attributes in [new.group, new.shape] {
            for attribute in attributes {
              for number in attribute.numbers {
                if mask & (1 << slot) != 0 { Self.append(number.bitPattern, to: &numbers) }
                slot += 1
              }
            }
          }
        } else {
          records.append(StageScene.record(new, index: index))
        }
      }
    }

    var changedValues: [String] = []
    if !inspected.isEmpty, let layout {
      for target in layout.targets where inspected.contains(target.name) {
        var known = values[target.name] ?? [:]
        for property in target.properties {
          let name = target.name + "." + property.name
          guard let value = runtime.value(of: name), known[property.name] != value else { continue }
          known[property.name] = value
          changedValues.append(TraceJSON.string(name) + ":" + TraceJSON.value(value))
        }
        values[target.name] = known
      }
    }
    var changedRanges: [String] = []
    var rangeNames: [String] = []
    if details {
      rangeNames = runtime.propertyNames
    } else if !inspected.isEmpty, let layout {
      for target in layout.targets where inspected.contains(target.name) {
        rangeNames += target.properties.map { target.name + "." + $0.name }
      }
    }
    for name in rangeNames {
      guard let gauge = runtime.gauge(of: name) else { continue }
      let marks = runtime.playbackMarks(of: name)
      let range = StageRange(low: gauge.low, high: gauge.high, paused: marks.paused, reversed: marks.reversed)
      if ranges[name] != range {
        ranges[name] = range
        changedRanges.append(TraceJSON.string(name) + ":" + range.json)
      }
    }
    let nothing =
      records.isEmpty && numbers.isEmpty && order == nil && changedValues.isEmpty && changedRanges.isEmpty
    if nothing && log.isEmpty && header == self.header { return nil }
    self.header = header
    var json = "{\"type\":\"frame\",\"delta\":true," + header
    if let order { json += ",\"order\":" + order }
    json += ",\"targets\":[" + records.joined(separator: ",") + "]"
    json += ",\"values\":{" + changedValues.joined(separator: ",") + "}"
    json += ",\"ranges\":{" + changedRanges.joined(separator: ",") + "}"
    json += ",\"log\":[" + log.joined(separator: ",") + "]}"
    var out: [UInt8] = []
    out.reserveCapacity(4 + json.utf8.count + numbers.count)
    Self.append(UInt32(json.utf8.count), to: &out)
    out.append(contentsOf: json.utf8)
    out.append(contentsOf: numbers)
    return out
  }

  /// The mask of the numbers that changed when only numbers did (the same element, text,
  /// gauges and attributes, with the same text around their numbers), else nil.
  private static func numbersOnlyChange(from old: DrawnTarget, to new: DrawnTarget) -> UInt32? {
    guard old.element == new.element, old.text == new.text, old.gauges == new.gauges,
      old.group.count == new.group.count, old.shape.count == new.shape.count
    else { return nil }
    var mask: UInt32 = 0
    var slot = 0
    for (olds, news) in [(old.group, new.group), (old.shape, new.shape)] {
      for (before, after) in zip(olds, news) {
        guard before.sameTextAround(after), before.numbers.count == after.numbers.count else { return nil }
        for (a, b) in zip(before.numbers, after.numbers) {
          if slot >= maxNumbers { return nil }
          if a != b { mask |= 1 << slot }
          slot += 1
        }
      }
    }
    return mask
  }

  private static func append(_ value: UInt32, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  private static func append(_ value: UInt64, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }
}

/// A gauge's range and its property's marks, as the inspector shows them.
struct StageRange: Equatable {
  var low: Double
  var high: Double
  var paused: Bool
  var reversed: Bool

  /// `[low,high,paused,reversed]`.
  var json: String {
    "[" + TraceNumber.json(low) + "," + TraceNumber.json(high) + ",\(paused),\(reversed)]"
  }
}

/// A message to a page: JSON text, or a frame (`StageFrameEncoder`).
package enum StageMessage: Sendable, Equatable {
  case text(String)
  case binary([UInt8])
}
