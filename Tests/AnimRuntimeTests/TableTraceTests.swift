import AnimCore
import Testing

@testable import AnimRuntime

@Suite("Trace format: table")
struct TableTraceTests {
  let columns = [
    TraceColumn(name: "box.x", kind: .number),
    TraceColumn(name: "box.position", kind: .vec2),
    TraceColumn(name: "box.tint", kind: .color),
  ]
  /// Room after the integer part: the point and 3 decimals.
  let fraction = 4

  /// The table as columns: each header's span (from its rule of dashes), and the rows and
  /// marks under it.
  struct Block {
    var names: [String] = []
    var spans: [Range<Int>] = []
    var rows: [[Character]] = []
    var marks: [[Character]] = []
  }

  func blocks(_ text: String) -> [Block] {
    let all = lines(text)
    var blocks: [Block] = []
    var index = 0
    while index < all.count {
      let line = all[index]
      if index + 1 < all.count, let rule = Optional(Array(all[index + 1])),
        !rule.isEmpty, rule.allSatisfy({ $0 == "-" || $0 == " " })
      {
        var block = Block()
        var start: Int?
        for (i, c) in (rule + [" "]).enumerated() {
          if c == "-", start == nil { start = i }
          if c == " ", let s = start {
            block.spans.append(s..<i)
            start = nil
          }
        }
        let header = Array(line)
        block.names = block.spans.map { String(header[$0]).trimmingSpaces() }
        blocks.append(block)
        index += 2
        continue
      }
      let chars = Array(line)
      if line.contains("> ") {
        blocks[blocks.count - 1].marks.append(chars)
      } else {
        blocks[blocks.count - 1].rows.append(chars)
      }
      index += 1
    }
    return blocks
  }

  /// The cell of `row` under `span` (a row may end early where its last cells are blank).
  func cell(_ row: [Character], _ span: Range<Int>) -> [Character] {
    span.map { $0 < row.count ? row[$0] : " " }
  }

  /// Checks that a numeric cell holds `value` rounded to 3 decimals and is aligned on its
  /// point: the integer part ends `fraction` characters before the column's end.
  func expectNumber(_ cell: [Character], _ value: Double, _ context: String) {
    let text = String(cell).trimmingSpaces()
    let rounded = (value * 1000).rounded(.toNearestOrAwayFromZero) / 1000
    #expect(Double(text) == rounded, "\(context): \(text) for \(value)")
    let integerEnd = cell.count - fraction
    #expect(cell[integerEnd - 1].isNumber, "\(context): '\(String(cell))' not aligned")
    #expect(cell[integerEnd] == "." || cell[integerEnd] == " ", "\(context): '\(String(cell))' not aligned")
  }

  @Test func columnsAlignOnThePoint() {
    var records: [TraceRecord] = []
    var expected: [(t: Double, x: Double, p: Vec2)] = []
    for k in 0...30 {
      let time = Nanoseconds(seconds: Double(k) / 60)
      let t = Double(time) / 1e9
      let x = 100 * t * t - 7.5
      let p = Vec2(1 / (t + 0.3), -t * 1000)
      expected.append((t, x, p))
      records.append(
        sample(
          time, ("box.x", .number(x)), ("box.position", .vec2(p)),
          ("box.tint", .color(Color(red8: 255, green8: 136, blue8: 0)))))
    }
    let text = render(.table, records, columns: columns)
    let table = blocks(text)
    #expect(table.count == 1)
    let block = table[0]
    #expect(block.names == ["t", "box.x", "box.position.x", "box.position.y", "box.tint"])
    #expect(block.rows.count == expected.count)
    for (row, values) in zip(block.rows, expected) {
      expectNumber(cell(row, block.spans[0]), values.t, "t")
      expectNumber(cell(row, block.spans[1]), values.x, "box.x")
      expectNumber(cell(row, block.spans[2]), values.p.x, "box.position.x")
      expectNumber(cell(row, block.spans[3]), values.p.y, "box.position.y")
      #expect(String(cell(row, block.spans[4])) == "#ff8800ff")
    }
    // Headers are right-aligned over their columns, two spaces apart.
    let header = lines(text)[0]
    #expect(header.hasSuffix("box.tint"))
    for (a, b) in zip(block.spans, block.spans.dropFirst()) { #expect(b.lowerBound == a.upperBound + 2) }
  }

  @Test func eventsAndPrintsAreLinesOfTheirOwn() {
    let records: [TraceRecord] = [
      sample(0, ("box.x", .number(0))),
      .event(time: 1_300_000_000, name: "complete", subject: "intro"),
      .event(time: 1_300_000_000, name: "intro-done", subject: nil),
      .print(time: 1_300_000_000, text: "landed at 1.3s\nand \u{1B}[31mred"),
      sample(1_300_000_000, ("box.x", .number(130))),
    ]
    let table = blocks(render(.table, records, columns: [columns[0]]))
    #expect(table.count == 1)
    let block = table[0]
    #expect(block.rows.count == 2)
    #expect(block.marks.count == 3)
    let tSpan = block.spans[0]
    let after = block.marks.map { String($0[tSpan.upperBound...]) }
    #expect(after == ["  > complete intro", "  > \"intro-done\"", "  > print: landed at 1.3s\\nand \\u{1B}[31mred"])
    for mark in block.marks { expectNumber(cell(mark, tSpan), 1.3, "mark time") }
  }

  @Test func aWideValueWidensItsColumnUnderANewHeader() {
    let records = [
      sample(0, ("box.x", .number(1.5))),
      sample(1_000_000_000, ("box.x", .number(1_234_567.25))),
      sample(2_000_000_000, ("box.x", .number(-3))),
    ]
    let table = blocks(render(.table, records, columns: [columns[0]]))
    #expect(table.count == 2)
    #expect(table.map(\.rows.count) == [1, 2])
    #expect(table[1].spans[1].count > table[0].spans[1].count)
    expectNumber(cell(table[0].rows[0], table[0].spans[1]), 1.5, "before")
    expectNumber(cell(table[1].rows[0], table[1].spans[1]), 1_234_567.25, "wide")
    expectNumber(cell(table[1].rows[1], table[1].spans[1]), -3, "after")
  }

  @Test func nonFiniteAndMissingValues() {
    let records = [
      sample(0, ("box.x", .number(.nan)), ("box.position", .vec2(Vec2(.infinity, -.infinity)))),
      sample(1_000_000_000, ("box.position", .vec2(Vec2(1, 2)))),
    ]
    let block = blocks(render(.table, records, columns: Array(columns.prefix(2))))[0]
    #expect(String(cell(block.rows[0], block.spans[1])).trimmingSpaces() == "nan")
    #expect(String(cell(block.rows[0], block.spans[2])).trimmingSpaces() == "inf")
    #expect(String(cell(block.rows[0], block.spans[3])).trimmingSpaces() == "-inf")
    #expect(String(cell(block.rows[1], block.spans[1])).trimmingSpaces() == "")
    expectNumber(cell(block.rows[1], block.spans[2]), 1, "x")
  }

  @Test func anEmptyTraceIsAHeader() {
    let text = render(.table, [], columns: [columns[0]])
    #expect(lines(text).count == 2)
    #expect(blocks(text).first?.names == ["t", "box.x"])
  }
}

extension String {
  func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
