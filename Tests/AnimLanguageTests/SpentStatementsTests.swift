// A large script's reader hands each batch of statements it has handed over back to the
// parsing thread, which lets go of it (SpentStatements.swift): what the runner still holds
// of a batch must stay whole, and what waits must go when let go.

import Dispatch
import Testing

@testable import AnimLanguage

@Suite struct SpentStatementsTests {
  /// `count` checked `target` statements, each with its own span.
  static func batch(_ count: Int, from start: Int) -> [CheckedStatement?] {
    (start..<start + count).map { i in
      let name = Identifier("t\(i)", span: SourceSpan(start: i * 10 + 7, end: i * 10 + 7 + "t\(i)".utf8.count))
      let declaration = TargetDeclaration(
        name: name, properties: [], bodySpan: SourceSpan(start: i * 10 + 8, end: i * 10 + 9))
      let statement = Statement(kind: .target(declaration), span: SourceSpan(start: i * 10, end: i * 10 + 9))
      return CheckedStatement(statement: statement, facts: ResolvedFacts(), isGathered: false, hasFacts: false)
    }
  }

  @Test func batchesWaitUntilLetGo() {
    let spent = SpentStatements()
    var handed = [Self.batch(3, from: 0), Self.batch(2, from: 3)]
    #expect(spent.addIfFree(&handed))
    #expect(handed.isEmpty)
    #expect(spent.waitingCount == 2)
    spent.letGo()
    #expect(spent.waitingCount == 0)
    handed = [Self.batch(1, from: 5)]
    #expect(spent.addIfFree(&handed))
    #expect(spent.waitingCount == 1)
  }

  /// While the parsing thread holds the list, the runner's batches stay with it, whole, to
  /// go with the next: the runner does not wait.
  @Test func batchesHandedBackWhileTheListIsHeldStayWithTheRunner() throws {
    let spent = SpentStatements()
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = try #require(
      WorkerThread.start {
        spent.batches.withLock { _ in
          holding.signal()
          release.wait()
        }
      })
    holding.wait()
    var handed = [Self.batch(3, from: 0)]
    let wentWhileHeld = spent.addIfFree(&handed)
    release.signal()
    holder.join()
    #expect(!wentWhileHeld)
    #expect(handed.count == 1)
    #expect(handed.first?.count == 3)
    #expect(spent.waitingCount == 0)
    handed.append(Self.batch(2, from: 3))
    #expect(spent.addIfFree(&handed))
    #expect(handed.isEmpty)
    #expect(spent.waitingCount == 2)
  }

  @Test func aStatementHeldOutOfALetGoBatchStaysWhole() {
    let spent = SpentStatements()
    let batch = Self.batch(4, from: 0)
    let held = batch[2]!
    var handed = [batch]
    spent.addIfFree(&handed)
    spent.letGo()
    guard case .target(let declaration) = held.statement.kind else {
      Issue.record("expected a target")
      return
    }
    #expect(declaration.name.text == "t2")
    #expect(held.statement.span == SourceSpan(start: 20, end: 29))
  }

  /// A runner that gives each statement back when done with it (`giveBack`), keeping a copy
  /// of every tenth: what it read, and what it kept to the end, is what one thread hands over.
  @Test(arguments: [6, 7] as [UInt64])
  func statementsGivenBackLeaveWhatIsKeptWhole(_ seed: UInt64) {
    let source = CheckedStatementReaderTests.largeScript(seed: seed)
    var reader = CheckedStatementReader(source)
    var read: [String] = []
    var kept: [CheckedStatement] = []
    while let checked = reader.next() {
      read.append(CheckedStatementReaderTests.describe(checked))
      if read.count % 10 == 0 { kept.append(checked) }
      reader.giveBack(checked)
    }
    _ = reader.finish()
    var check = StatementByStatementCheck(source, in: Environment(), mode: .script)
    var expected: [CheckedStatement] = []
    while let checked = check.next() { expected.append(checked) }
    _ = check.finish()
    #expect(read.count > 100)
    #expect(read == expected.map(CheckedStatementReaderTests.describe))
    let everyTenth = stride(from: 9, to: expected.count, by: 10).map { expected[$0] }
    #expect(kept.map(\.statement) == everyTenth.map(\.statement))
  }

  /// Every statement of a large script kept by its runner to the end (its batches let go on
  /// the parsing thread meanwhile) is what the same check hands over on one thread.
  @Test(arguments: [4, 5] as [UInt64])
  func statementsKeptPastTheirBatchAreWhatOneThreadHandsOver(_ seed: UInt64) {
    let source = CheckedStatementReaderTests.largeScript(seed: seed)
    var reader = CheckedStatementReader(source)
    var kept: [CheckedStatement] = []
    while let checked = reader.next() { kept.append(checked) }
    _ = reader.finish()
    var check = StatementByStatementCheck(source, in: Environment(), mode: .script)
    var expected: [CheckedStatement] = []
    while let checked = check.next() { expected.append(checked) }
    _ = check.finish()
    #expect(kept.count > 100)
    #expect(kept.map(\.statement) == expected.map(\.statement))
    #expect(kept.map(CheckedStatementReaderTests.describe) == expected.map(CheckedStatementReaderTests.describe))
  }
}
