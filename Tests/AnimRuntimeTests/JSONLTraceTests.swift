import AnimCore
import AnimLanguage
import AnimTestSupport
import Foundation
import Testing

@testable import AnimRuntime

@Suite("Trace format: jsonl")
struct JSONLTraceTests {
  func line(_ record: TraceRecord) -> String { JSONLTraceWriter.line(record) }

  @Test func theSampleOfTheDesign() {
    // README's trace format: {"t":0.5,"values":{"box.x":40,"box.pos":[0,120],"box.tint":"#ff8800ff"}}
    let record = sample(
      500_000_000, ("box.x", .number(40)), ("box.pos", .vec2(Vec2(0, 120))),
      ("box.tint", .color(Color(red8: 0xff, green8: 0x88, blue8: 0x00))))
    #expect(line(record) == ##"{"t":0.5,"values":{"box.x":40,"box.pos":[0,120],"box.tint":"#ff8800ff"}}"## + "\n")
  }

  /// A sample of many pieces (made two at a time, on two threads) is the same line, in
  /// order, as written value by value: numbers, vectors and colors, a name that needs escaping,
  /// and the same sample again (its keys then cached).
  /// A piece of a line of numbers, with keys such as `"t226000.opacity":`, and the array of
  /// its values each stay under glibc's mmap threshold, 128 KiB: a larger block is a mapping
  /// of its own, faulted in page by page for every piece.
  @Test func aPieceOfNumbersStaysUnderTheMmapThreshold() {
    let key = "\"t226000.opacity\":".utf8.count + 1
    let room = 32 + TraceNumber.maxLength + SampleKeys.valuesPerPiece * (key + TraceNumber.maxLength + 1)
    #expect(room < 128 * 1024)
    #expect(SampleKeys.valuesPerPiece * MemoryLayout<AnimationValue>.stride < 128 * 1024)
  }

  @Test func aSampleOfManyPiecesIsWrittenInOrder() {
    let count = SampleKeys.piecesMadeInPairs * SampleKeys.valuesPerPiece + 2 * SampleKeys.valuesPerPiece + 3
    var values: [(String, AnimationValue)] = []
    var expected = #"{"t":0.25,"values":{"#
    for i in 0..<count {
      if i > 0 { expected += "," }
      switch i % 3 {
      case 0:
        values.append(("n\(i).x", .number(Double(i))))
        expected += #""n\#(i).x":\#(i)"#
      case 1:
        values.append(("v\(i).p", .vec2(Vec2(Double(i), -0.5))))
        expected += #""v\#(i).p":[\#(i),-0.5]"#
      default:
        let byte = i % 256
        values.append(("c\(i).tint", .color(Color(red8: UInt8(byte), green8: 0, blue8: 255))))
        expected += ##""c\##(i).tint":"#\##(String(format: "%02x", byte))00ffff""##
      }
    }
    values[7].0 = #"q"7.x"#
    expected = expected.replacingOccurrences(of: #""v7.p":"#, with: #""q\"7.x":"#)
    expected += "}}\n"
    let record = TraceRecord.sample(time: 250_000_000, values: values.map { NamedValue(name: $0.0, value: $0.1) })
    var writer = JSONLTraceWriter()
    var first = ""
    var second = ""
    writer.write(record) { first += $0 }
    writer.write(record) { second += $0 }
    #expect(first == expected)
    #expect(second == expected)
  }

  @Test func numbers() {
    #expect(line(sample(0, ("a.n", .number(2.5)))) == #"{"t":0,"values":{"a.n":2.5}}"# + "\n")
    #expect(line(sample(0, ("a.n", .number(-7)))) == #"{"t":0,"values":{"a.n":-7}}"# + "\n")
    let third = 1.0 / 3
    #expect(line(sample(0, ("a.n", .number(third)))) == #"{"t":0,"values":{"a.n":\#(third.description)}}"# + "\n")
    #expect(line(sample(0, ("a.n", .number(1e-7)))) == #"{"t":0,"values":{"a.n":1e-7}}"# + "\n")
    // Non-finite numbers are null: still JSON.
    #expect(line(sample(0, ("a.n", .number(.nan)))) == #"{"t":0,"values":{"a.n":null}}"# + "\n")
    #expect(line(sample(0, ("a.p", .vec2(Vec2(.infinity, 1))))) == #"{"t":0,"values":{"a.p":[null,1]}}"# + "\n")
  }

  @Test func vectors() {
    #expect(line(sample(0, ("a.p", .vec2(Vec2(1.5, -2))))) == #"{"t":0,"values":{"a.p":[1.5,-2]}}"# + "\n")
    #expect(line(sample(0, ("a.p", .vec3(Vec3(1, 2, 3))))) == #"{"t":0,"values":{"a.p":[1,2,3]}}"# + "\n")
    #expect(
      line(sample(0, ("a.p", .vec4(Vec4(0, 0.25, 0.5, 1))))) == #"{"t":0,"values":{"a.p":[0,0.25,0.5,1]}}"# + "\n")
  }

  @Test func colorsAreUnpremultipliedHex() {
    // Half-transparent: stored premultiplied, written straight.
    let (r, g, b, a) = (1.0, 0.5, 0.2, 0.5)
    let color = Color(red: r, green: g, blue: b, alpha: a)
    let expected = "#" + [r, g, b, a].map { String(format: "%02x", byte($0)) }.joined()
    #expect(expected == "#ff803380")  // 127.5 rounds up to 128 = 0x80; 0.2 · 255 = 51 = 0x33
    #expect(line(sample(0, ("a.c", .color(color)))) == #"{"t":0,"values":{"a.c":"\#(expected)"}}"# + "\n")
    #expect(line(sample(0, ("a.c", .color(.zero)))) == ##"{"t":0,"values":{"a.c":"#00000000"}}"## + "\n")
  }

  @Test func events() {
    #expect(
      line(.event(time: 1_300_000_000, name: "complete", subject: "intro"))
        == #"{"t":1.3,"event":"complete","subject":"intro"}"# + "\n")
    #expect(
      line(.event(time: 0, name: "start", subject: "box.x")) == #"{"t":0,"event":"start","subject":"box.x"}"# + "\n")
    #expect(
      line(.event(time: 2_000_000_000, name: "repeat", subject: "sweep"))
        == #"{"t":2,"event":"repeat","subject":"sweep"}"# + "\n")
  }

  @Test func emitsHaveNoSubject() {
    #expect(
      line(.event(time: 1_300_000_000, name: "intro-done", subject: nil)) == #"{"t":1.3,"event":"intro-done"}"# + "\n")
  }

  @Test func prints() {
    #expect(line(.print(time: 1_300_000_000, text: "landed at 1.3s")) == #"{"t":1.3,"print":"landed at 1.3s"}"# + "\n")
  }

  @Test func timesAreExactSeconds() {
    #expect(line(.print(time: 500_000_000, text: "")) == #"{"t":0.5,"print":""}"# + "\n")
    #expect(line(.print(time: 16_666_667, text: "")) == #"{"t":0.016666667,"print":""}"# + "\n")
    // The text reads back to the Double nearest the exact time.
    #expect(Double("0.016666667") == Double(16_666_667) / 1e9)
  }

  @Test func escaping() {
    #expect(TraceJSON.string(#"say "hi""#) == #""say \"hi\"""#)
    #expect(TraceJSON.string(#"a\b"#) == #""a\\b""#)
    #expect(TraceJSON.string("1\n2\t3\r") == #""1\n2\t3\r""#)
    #expect(TraceJSON.string("\u{08}\u{0C}") == #""\b\f""#)
    #expect(TraceJSON.string("\u{01}\u{1F}\u{7F}") == #""\u0001\u001f\u007f""#)
    #expect(TraceJSON.string("\u{2028}\u{2029}") == #""\u2028\u2029""#)
    #expect(TraceJSON.string("héllo ✓ 🎬 e\u{301}") == "\"héllo ✓ 🎬 e\u{301}\"")
    #expect(TraceJSON.string("/") == #""/""#)
    #expect(TraceJSON.string(" box.x~") == #"" box.x~""#)
  }

  /// Whatever a print holds, its line is one line of JSON that reads back to the text.
  @Test func anyTextReadsBack() throws {
    var texts = [
      String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
      "quote \" backslash \\ brace { } \u{0} nul", "🎬 \u{2028} \u{FEFF} \u{10FFFF}",
    ]
    var random = SeededRandom(seed: 9)
    for _ in 0..<200 {
      let scalars = (0..<Int.random(in: 0...20, using: &random)).compactMap { _ in
        Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &random))
      }
      texts.append(String(String.UnicodeScalarView(scalars)))
    }
    for text in texts {
      for record in [TraceRecord.print(time: 7, text: text), .event(time: 7, name: text, subject: text)] {
        let json = line(record)
        #expect(json.hasSuffix("\n") && !json.dropLast().contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        if case .print = record {
          #expect(object["print"] as? String == text)
        } else {
          #expect(object["event"] as? String == text)
          #expect(object["subject"] as? String == text)
        }
      }
    }
  }

  @Test func namesAreEscapedToo() throws {
    let json = line(sample(0, ("we\"ird.x", .number(1))))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let values = try #require(object["values"] as? [String: Any])
    #expect((values["we\"ird.x"] as? NSNumber)?.doubleValue == 1)
  }

  /// A streamed sample's columns write the keys of a range of them, `"T.p":` each escaped
  /// as `TraceJSON.string` escapes it, after what the bytes held, each key's end noted: from
  /// a table of runs of targets and names stored whole (a name that needs escaping among
  /// them, in the range or not), and from names listed.
  @Test func columnsWriteTheKeysOfARange() {
    var engine = AnimationEngine()
    var table = PropertyTable()
    var names: [String] = []
    for k in 0..<3_000 {
      if k == 2_000 {
        // (Stored whole.)
        table["we\"ird\\.x"] = engine.addProperty(.number(0))
        names.append("we\"ird\\.x")
      }
      let properties = k == 2_500 ? ["é"] : k % 9 == 0 ? ["x"] : ["x", "y", "opacity"]
      let ids = properties.map { _ in engine.addProperty(.number(1)) }
      ids.withUnsafeBufferPointer { table.appendNew(target: "box\(k)", properties: properties, ids: $0) }
      names += properties.map { "box\(k).\($0)" }
    }
    #expect(table.names == names)
    let fromTable = TraceSampleColumns(table: table)
    let listed = TraceSampleColumns(listed: names)
    // Around the names to escape (the first stored whole, the second a run's property).
    let odd = names.firstIndex(of: "we\"ird\\.x")!
    let accented = names.firstIndex(of: "box2500.é")!
    let ranges = [
      0..<names.count, 0..<0, 1..<4, 10..<odd, odd - 3..<odd + 3, odd + 1..<accented, accented..<accented + 1,
      accented + 1..<names.count,
    ]
    for range in ranges {
      for columns in [fromTable, listed] {
        var bytes = Array("{".utf8)
        var ends = [-1]
        columns.appendKeys(in: range, to: &bytes, ends: &ends)
        var expected = Array("{".utf8)
        var expectedEnds = [-1]
        for name in names[range] {
          expected += Array((TraceJSON.string(name) + ":").utf8)
          expectedEnds.append(expected.count)
        }
        #expect(bytes == expected, "\(range)")
        #expect(ends == expectedEnds, "\(range)")
      }
    }
  }

  @Test func theWriterWritesOneLinePerRecordInOrder() {
    let records: [TraceRecord] = [
      .event(time: 0, name: "start", subject: "intro"),
      sample(0, ("t.a", .number(0))),
      .print(time: 1_000_000_000, text: "hi"),
      sample(1_000_000_000, ("t.a", .number(1))),
    ]
    let text = render(.jsonl, records, columns: [TraceColumn(name: "t.a", kind: .number)])
    #expect(lines(text) == records.map { String(line($0).dropLast()) })
    #expect(render(.jsonl, [], columns: []) == "")
  }

  /// The line as the writer first built it, from strings: what the byte writer must match.
  func referenceLine(_ record: TraceRecord) -> String {
    func number(_ x: Double) -> String { x.isFinite ? TraceNumber.referenceFormat(x) : "null" }
    var line = "{\"t\":" + number(seconds(record.time))
    switch record {
    case .sample(_, let values):
      line += ",\"values\":{"
      for (index, named) in values.enumerated() {
        if index > 0 { line += "," }
        line += TraceJSON.string(named.name) + ":"
        switch named.value {
        case .number(let x): line += number(x)
        case .color(let color): line += "\"" + color.hexString() + "\""
        case .vec2(let v): line += "[" + [v.x, v.y].map(number).joined(separator: ",") + "]"
        case .vec3(let v): line += "[" + [v.x, v.y, v.z].map(number).joined(separator: ",") + "]"
        case .vec4(let v): line += "[" + [v.x, v.y, v.z, v.w].map(number).joined(separator: ",") + "]"
        }
      }
      line += "}"
    case .event(_, let name, let subject):
      line += ",\"event\":" + TraceJSON.string(name)
      if let subject { line += ",\"subject\":" + TraceJSON.string(subject) }
    case .print(_, let text):
      line += ",\"print\":" + TraceJSON.string(text)
    case .control:
      return ""  // not a line of the trace: the chart's only
    }
    return line + "}\n"
  }

  /// One writer over many samples whose names stay, change, grow and shrink from one to the
  /// next (it keeps each position's key), with values of every kind and magnitude: every
  /// line is the reference's, byte for byte.
  @Test func theWriterMatchesTheReferenceLineForLine() {
    var random = SeededRandom(seed: 12)
    let names = [
      "box.x", "box.pos", "a.b", "we\"ird.x", "back\\slash.y", "tab\t.z", "héllo.✓", "🎬.x", "\u{2028}.p", "",
    ]
    func double() -> Double {
      switch random.next() % 4 {
      case 0: Double(bitPattern: random.next())
      case 1: Double(Int64(random.next() % 2_000_001) - 1_000_000) / 64
      case 2: Double(random.next() >> 11) / Double(1 << 53) * 100
      default: [0, -0.0, .nan, .infinity, -.infinity, 1e15, 1e-5, 123.456][Int(random.next() % 8)]
      }
    }
    func value() -> AnimationValue {
      switch random.next() % 6 {
      case 0: .color(Color(red: double(), green: double(), blue: double(), alpha: double()))
      case 1: .vec2(Vec2(double(), double()))
      case 2: .vec3(Vec3(double(), double(), double()))
      case 3: .vec4(Vec4(double(), double(), double(), double()))
      default: .number(double())
      }
    }
    var writer = JSONLTraceWriter()
    var current = (0..<5).map { _ in names[Int(random.next() % UInt64(names.count))] }
    for step in 0..<3_000 {
      switch random.next() % 8 {
      case 0 where !current.isEmpty:
        current[Int(random.next() % UInt64(current.count))] = names[Int(random.next() % UInt64(names.count))]
      case 1: current.append(names[Int(random.next() % UInt64(names.count))])
      case 2: if !current.isEmpty { current.removeLast(Int(random.next() % UInt64(current.count + 1))) }
      case 3: current.shuffle(using: &random)
      default: break
      }
      if current.isEmpty && step % 2 == 0 { current = ["box.x"] }
      let time = Int64(random.next() % 100_000_000_000) - 1_000_000_000
      let record: TraceRecord
      switch random.next() % 10 {
      case 0: record = .event(time: time, name: "complete", subject: random.next() % 2 == 0 ? nil : "box.x")
      case 1: record = .print(time: time, text: "t \"\(step)\"")
      default: record = .sample(time: time, values: current.map { NamedValue(name: $0, value: value()) })
      }
      let written = writer.write(record)
      #expect(written == referenceLine(record), "record \(step)")
      #expect(line(record) == written, "record \(step)")
      if written != referenceLine(record) { break }
    }
  }

  /// A sample larger than a piece (`SampleKeys.valuesPerPiece`) is handed over in pieces whose
  /// text is the line, the first time its names are seen (keys escaped on the way) and the
  /// second (keys from the cache), and a sample of other names after them.
  @Test func aLargeSampleInPiecesIsItsLine() {
    let count = 2 * SampleKeys.valuesPerPiece + 7
    let values = (0..<count).map { NamedValue(name: "t\($0).\"x\"", value: .number(Double($0) / 3)) }
    let other = (0..<(SampleKeys.valuesPerPiece + 1)).map { NamedValue(name: "u\($0).p", value: .vec2(Vec2(1, 2))) }
    var writer = JSONLTraceWriter()
    for (time, record) in [(0, values), (1, values), (2, other), (3, values)].map({
      ($0.0, TraceRecord.sample(time: Int64($0.0) * 1_000_000, values: $0.1))
    }) {
      var pieces: [String] = []
      writer.write(record) { pieces.append($0) }
      #expect(pieces.count == (time == 2 ? 2 : 3), "sample \(time)")
      #expect(pieces.joined() == referenceLine(record), "sample \(time)")
    }
  }
}
