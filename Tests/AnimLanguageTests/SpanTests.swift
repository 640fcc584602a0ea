import Testing

@testable import AnimLanguage

/// Nodes carry the spans of the text they came from (the checker points at them; the
/// formatter places comments by them).
@Suite struct SpanTests {
  func parsed(_ text: String) -> (SourceText, SourceFile) {
    let source = SourceText(name: "t", contents: text)
    let result = parse(source)
    #expect(result.diagnostics.isEmpty)
    return (source, result.file)
  }

  @Test func animateSpans() throws {
    let text = "at 100ms animate card.angle to 180 over duration with snap delay 1s"
    let (source, file) = parsed(text)
    let statement = try #require(file.statements.first)
    #expect(source.text(of: statement.span) == text)
    #expect(source.text(of: try #require(statement.placement).span) == "at 100ms")
    guard case .animate(let animate) = statement.kind else {
      Issue.record("not an animate")
      return
    }
    #expect(source.text(of: animate.property.span) == "card.angle")
    #expect(source.text(of: animate.property.target.span) == "card")
    #expect(source.text(of: animate.property.property.span) == "angle")
    #expect(source.text(of: animate.to.span) == "180")
    #expect(source.text(of: try #require(animate.over).span) == "duration")
    #expect(source.text(of: try #require(animate.curve).span) == "snap")
    #expect(animate.options.map { source.text(of: $0.span) } == ["delay 1s"])
  }

  @Test func expressionSpans() throws {
    let text = "let x = spring(response: 0.5, dampingFraction: -(a.b + 1) * 2)"
    let (source, file) = parsed(text)
    guard case .letBinding(let binding) = try #require(file.statements.first).kind,
      case .call(let callee, let arguments) = binding.value.kind
    else {
      Issue.record("unexpected shape")
      return
    }
    #expect(source.text(of: binding.value.span) == "spring(response: 0.5, dampingFraction: -(a.b + 1) * 2)")
    #expect(source.text(of: callee.span) == "spring")
    #expect(arguments.map { source.text(of: $0.span) } == ["response: 0.5", "dampingFraction: -(a.b + 1) * 2"])
    guard case .binary(.multiply, let negation, _) = arguments[1].value.kind,
      case .negate(let parenthesized) = negation.kind,
      case .parenthesized(let sum) = parenthesized.kind
    else {
      Issue.record("unexpected shape")
      return
    }
    #expect(source.text(of: negation.span) == "-(a.b + 1)")
    #expect(source.text(of: parenthesized.span) == "(a.b + 1)")
    #expect(source.text(of: sum.span) == "a.b + 1")
  }

  @Test func interpolationSpansAreFileOffsets() throws {
    let text = "play x\nprint \"at {now}, {card.angle * 2}!\""
    let (source, file) = parsed(text)
    guard case .print(let literal) = file.statements[1].kind else {
      Issue.record("not a print")
      return
    }
    #expect(source.text(of: literal.span) == "\"at {now}, {card.angle * 2}!\"")
    let pieces = literal.parts.map { part -> String in
      switch part {
      case .text(_, let span): return source.text(of: span)
      case .interpolation(let expression): return source.text(of: expression.span)
      }
    }
    #expect(pieces == ["at ", "now", ", ", "card.angle * 2", "!"])
  }

  @Test func blockAndDeclarationSpans() throws {
    let text = "timeline intro {\n  wait 1s\n}\ntarget r { to: 1 }"
    let (source, file) = parsed(text)
    guard case .timeline(let timeline) = file.statements[0].kind,
      case .target(let target) = file.statements[1].kind
    else {
      Issue.record("unexpected shape")
      return
    }
    #expect(source.text(of: file.statements[0].span) == "timeline intro {\n  wait 1s\n}")
    #expect(source.text(of: timeline.body.span) == "{\n  wait 1s\n}")
    #expect(source.text(of: timeline.body.statements[0].span) == "wait 1s")
    #expect(source.text(of: target.bodySpan) == "{ to: 1 }")
    #expect(target.properties.map { source.text(of: $0.span) } == ["to: 1"])
  }

  @Test func commentsReachTheFile() {
    let (_, file) = parsed("// a\nplay x /* b */\nprint \"{1 /* c */}\"")
    #expect(file.comments.map(\.text) == ["// a", "/* b */", "/* c */"])
  }
}

/// `InputCompleteness`, the one check of whether typed input stops in the middle of a
/// statement, tells the REPL to read another line.
@Suite struct IncompleteInputTests {
  @Test(arguments: [
    ("timeline a {", true), ("timeline a {\n  wait 1s\n", true), ("let x = 1 +", true),
    ("let x = (1,", true), ("curve c = cubic(0.1,\n", true), ("target t { a: 1,", true),
    ("on complete a {", true),
    ("animate a.b to 1", false), ("print \"abc", false), ("let x = 1 @", false), ("}", false),
    ("animate a.b to\n", false), ("animate a.b to", false), ("let x =", false),
    ("let x = f(", true), ("let x = 1 *", true),
  ])
  func incomplete(_ text: String, _ expected: Bool) {
    #expect(InputCompleteness(of: SourceText(name: "<repl>", contents: text)).needsMoreInput == expected)
  }
}
