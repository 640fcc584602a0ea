import Testing

@testable import AnimLanguage

/// Every form of grammar.md parses to the tree it means (compared through SyntaxDump).
@Suite struct ParserTests {
  static let forms: [(String, String)] = [
    // Declarations
    ("let duration = 600ms", "(let duration 600ms)"),
    ("let accent = #ff8800", "(let accent #ff8800ff)"),
    ("curve snap = cubic(0.2, 0.9, 0.1, 1)", "(curve snap (call cubic 0.2 0.9 0.1 1))"),
    (
      "curve wobble = spring(response: 0.5, dampingFraction: 0.45)",
      "(curve wobble (call spring response: 0.5 dampingFraction: 0.45))"
    ),
    ("curve s = steps(4, jumpEnd)", "(curve s (call steps 4 jumpEnd))"),
    (
      "curve b = spring(duration: 300ms, bounce: 0.3, velocity: -2)",
      "(curve b (call spring duration: 300ms bounce: 0.3 velocity: (- 2)))"
    ),
    (
      "curve m = spring(mass: 1, stiffness: 100, damping: 10)",
      "(curve m (call spring mass: 1 stiffness: 100 damping: 10))"
    ),
    ("curve e = easeInOut", "(curve e easeInOut)"),
    (
      "target card  { angle: 0, opacity: 0, position: (0, 0), tint: #000000 }",
      "(target card (angle 0) (opacity 0) (position (vec 0 0)) (tint #000000ff))"
    ),
    (
      "target t {\n  a: 1\n  b: (1, 2, 3)\n\n  c: (1, 2, 3, 4),\n}",
      "(target t (a 1) (b (vec 1 2 3)) (c (vec 1 2 3 4)))"
    ),
    ("target e {}", "(target e)"),
    // Keyword property names inside a target's braces and after a dot
    ("target r { to: 1, fill: #fff }", "(target r (to 1) (fill #ffffffff))"),
    ("r.to", "(expr r.to)"),
    ("animate r.fill to #000 over 1s", "(animate r.fill (to #000000ff) (over 1s))"),
    ("let x = r.repeat + r.now.x", "(let x (+ r.repeat r.now.x))"),
    // Timelines
    ("timeline t { }", "(timeline t)"),
    ("timeline t repeat 2 autoreverse {\n  wait 1s\n}", "(timeline t (repeat 2) (autoreverse) (wait 1s))"),
    // Animate
    (
      "animate card.opacity to 1 over 300ms with easeIn",
      "(animate card.opacity (to 1) (over 300ms) (with easeIn))"
    ),
    ("animate card.x from 0 to 100 over 1s", "(animate card.x (from 0) (to 100) (over 1s))"),
    (
      "animate card.x to 1 with spring(response: 0.5, dampingFraction: 1)",
      "(animate card.x (to 1) (with (call spring response: 0.5 dampingFraction: 1)))"
    ),
    (
      "animate b.s to 1 over 1s with steps(4, jumpEnd)",
      "(animate b.s (to 1) (over 1s) (with (call steps 4 jumpEnd)))"
    ),
    // Every option, in any order
    (
      "animate a.b to 1 over 1s delay 200ms repeat 3 autoreverse speed 2 fill both merge replace",
      "(animate a.b (to 1) (over 1s) (delay 200ms) (repeat 3) (autoreverse) (speed 2) (fill both) (merge replace))"
    ),
    (
      "animate a.b to 1 over 1s merge replace fill none repeat forever delay 1s",
      "(animate a.b (to 1) (over 1s) (merge replace) (fill none) (repeat forever) (delay 1s))"
    ),
    ("animate a.b to 1 over 1s fill forwards", "(animate a.b (to 1) (over 1s) (fill forwards))"),
    (
      "animate a.b to 1 over 1s fill backwards repeat 0.5",
      "(animate a.b (to 1) (over 1s) (fill backwards) (repeat 0.5))"
    ),
    // Keyframes, both kinds
    (
      "keyframes card.x over 1s {\n  0%: 0\n  40%: 10 with easeOut\n  100%: 20 with spring(duration: 300ms, bounce: 0.3)\n}",
      "(keyframes card.x (over 1s) (key 0% 0) (key 40% 10 (with easeOut)) (key 100% 20 (with (call spring duration: 300ms bounce: 0.3))))"
    ),
    (
      "keyframes card.x repeat 2 { 0ms: 0, 250ms: 1, 1s: 2 }",
      "(keyframes card.x (repeat 2) (key 0s 0) (key 250ms 1) (key 1s 2))"
    ),
    ("keyframes card.x { duration * 2: 5 }", "(keyframes card.x (key (* duration 2) 5))"),
    // set, print, emit
    ("set card.x to 5", "(set card.x 5)"),
    ("print \"hello\"", "(print \"hello\")"),
    ("emit \"intro-done\"", "(emit \"intro-done\")"),
    // Handlers
    ("on complete intro { emit \"intro-done\" }", "(on complete intro (emit \"intro-done\"))"),
    ("on start card.x {\n  print \"moving\"\n}", "(on start card.x (print \"moving\"))"),
    ("on repeat intro { print \"again\" }", "(on repeat intro (print \"again\"))"),
    ("on \"intro-done\" { print \"done\" }", "(on \"intro-done\" (print \"done\"))"),
    ("on complete start { }", "(on complete start)"),
    // Control statements
    ("play intro", "(play intro)"),
    ("pause", "(pause)"), ("pause intro", "(pause intro)"), ("pause card.x", "(pause card.x)"),
    ("resume", "(resume)"), ("resume intro", "(resume intro)"),
    ("reverse", "(reverse)"), ("reverse card.x", "(reverse card.x)"),
    ("seek intro to 1.5s", "(seek intro 1500ms)"),
    ("seek card.x to 100ms", "(seek card.x 100ms)"),
    ("speed intro 2", "(speed intro 2)"), ("speed intro -0.5", "(speed intro (- 0.5))"),
    ("finish intro", "(finish intro)"), ("cancel card.x", "(cancel card.x)"),
    ("tween intro to landed over 2s", "(tween intro (to landed) (over 2s))"),
    (
      "tween intro to 1s + 200ms over 500ms with easeOut", "(tween intro (to (+ 1s 200ms)) (over 500ms) (with easeOut))"
    ),
    ("wait 1.2s", "(wait 1200ms)"),
    // Labels and placements
    ("label landed", "(label landed)"),
    ("label landed at 2s", "(label landed (at 2s))"),
    ("at 1.5s animate a.b to 1 over 1s", "(at 1500ms (animate a.b (to 1) (over 1s)))"),
    ("at +250ms print \"x\"", "(at +250ms (print \"x\"))"),
    ("at -250ms print \"x\"", "(at -250ms (print \"x\"))"),
    ("at landed print \"x\"", "(at landed (print \"x\"))"),
    ("at landed + 250ms print \"x\"", "(at (+ landed 250ms) (print \"x\"))"),
    ("at landed - 250ms emit \"x\"", "(at (- landed 250ms) (emit \"x\"))"),
    ("at (-250ms) wait 1s", "(at (paren (- 250ms)) (wait 1s))"),
    ("with previous animate a.b to 1 over 1s", "(with-previous (animate a.b (to 1) (over 1s)))"),
    ("at 1s play intro", "(at 1s (play intro))"),
    ("at 2s set a.b to 0", "(at 2s (set a.b 0))"),
    ("at 1s keyframes a.b { 0ms: 1 }", "(at 1s (keyframes a.b (key 0s 1)))"),
    // Groups
    ("sequence {\n  wait 1s\n  print \"a\"\n}", "(sequence (wait 1s) (print \"a\"))"),
    (
      "parallel { animate a.b to 1 over 1s; animate a.c to 2 over 2s }",
      "(parallel (animate a.b (to 1) (over 1s)) (animate a.c (to 2) (over 2s)))"
    ),
    (
      "timeline t {\n  at 1s sequence {\n    at 0.5s parallel { wait 1s }\n  }\n}",
      "(timeline t (at 1s (sequence (at 500ms (parallel (wait 1s))))))"
    ),
    // Expressions
    ("1 + 2 * 3", "(expr (+ 1 (* 2 3)))"),
    ("(1 + 2) * 3", "(expr (* (paren (+ 1 2)) 3))"),
    ("1 - 2 - 3", "(expr (- (- 1 2) 3))"),
    ("8 / 4 / 2", "(expr (/ (/ 8 4) 2))"),
    ("-x * 2", "(expr (* (- x) 2))"),
    ("--1", "(expr (- (- 1)))"),
    ("2 * -3", "(expr (* 2 (- 3)))"),
    ("now", "(expr now)"),
    ("now + 1s", "(expr (+ now 1s))"),
    ("card.position.x", "(expr card.position.x)"),
    ("card.tint.r", "(expr card.tint.r)"),
    ("(a).x", "(expr (. (paren a) x))"),
    ("rgb(255, 136, 0)", "(expr (call rgb 255 136 0))"),
    ("rgba(255, 136, 0, 0.5)", "(expr (call rgba 255 136 0 0.5))"),
    ("min(1, 2)", "(expr (call min 1 2))"),
    ("clamp(x, 0, 1)", "(expr (call clamp x 0 1))"),
    ("f()", "(expr (call f))"),
    ("(1, 2)", "(expr (vec 1 2))"),
    ("(1, 2) * 2", "(expr (* (vec 1 2) 2))"),
    ("12", "(expr 12)"), ("3.5", "(expr 3.5)"), (".5", "(expr 0.5)"), ("1e3", "(expr 1000)"),
    ("1_000", "(expr 1000)"), ("2.5e-1", "(expr 0.25)"), ("1E+2", "(expr 100)"),
    ("250ms", "(expr 250ms)"), ("1.5s", "(expr 1500ms)"), ("0.0000000015s", "(expr 2ns)"),
    ("40%", "(expr 40%)"), ("12.5%", "(expr 12.5%)"),
    ("#abc", "(expr #aabbccff)"), ("#AbCdEf", "(expr #abcdefff)"), ("#11223344", "(expr #11223344)"),
    // Strings, escapes and interpolation
    ("\"a\\nb\\t\\\"c\\\\d\\{e\"", "(expr \"a\\nb\\t\\\"c\\\\d\\{e\")"),
    ("\"lone } brace\"", "(expr \"lone } brace\")"),
    (
      "print \"landed at {now}, angle {card.angle}\"",
      "(print (string \"landed at \" now \", angle \" card.angle))"
    ),
    ("print \"{1 + 2}{x}\"", "(print (string (+ 1 2) x))"),
    ("print \"v = {(1, 2)}!\"", "(print (string \"v = \" (vec 1 2) \"!\"))"),
    ("print \"\"", "(print \"\")"),
    ("print \"é ✓\"", "(print \"é ✓\")"),
    // Comments (nested), shebang, separators
    ("/* a /* nested */ still comment */ play x", "(play x)"),
    ("play x // trailing", "(play x)"),
    ("#!/usr/bin/env anim\nplay x", "(play x)"),
    ("play a; pause b;  resume c", "(play a)\n(pause b)\n(resume c)"),
    (";;\n\nplay a;\n;", "(play a)"),
    // Continuation lines: after an operator, a comma, inside parentheses
    ("let x = 1 +\n  2", "(let x (+ 1 2))"),
    ("let x = 1 *\n\n  2", "(let x (* 1 2))"),
    ("curve c = cubic(0.2,\n  0.9,\n  0.1, 1)", "(curve c (call cubic 0.2 0.9 0.1 1))"),
    ("let v = (\n  1\n  + 2\n)", "(let v (paren (+ 1 2)))"),
    ("let x = 1\n- 2", "(let x 1)\n(expr (- 2))"),
    // Contextual words are names where a name is expected, and statements where they begin one
    ("target label { angle: 0 }", "(target label (angle 0))"),
    ("animate label.angle to 90 over 1s", "(animate label.angle (to 90) (over 1s))"),
    ("let delay = 2s", "(let delay 2s)"),
    ("let s = set + wait * speed", "(let s (+ set (* wait speed)))"),
    ("set set.x to 1", "(set set.x 1)"),
    ("speed speed 2", "(speed speed 2)"),
    ("set.x", "(expr set.x)"),
    ("wait", "(expr wait)"),
    ("label = 2", "(= label 2)"),
    ("wait repeat", "(wait repeat)"),
    ("on repeat t { }", "(on repeat t)"),
    ("timeline t { label landed; at landed play u }", "(timeline t (label landed) (at landed (play u)))"),
    // Booleans, comparisons, logic: or < and < not < comparisons < + - < * /
    ("let b = true", "(let b true)"),
    ("let b = not false", "(let b (not false))"),
    ("let b = 1 + 2 < 3 * 4", "(let b (< (+ 1 2) (* 3 4)))"),
    ("let b = a < b and c >= d or not e == f", "(let b (or (and (< a b) (>= c d)) (not (== e f))))"),
    ("let b = a != b", "(let b (!= a b))"),
    ("let b = a <= b", "(let b (<= a b))"),
    ("let b = a > b", "(let b (> a b))"),
    ("let b = a or b or c", "(let b (or (or a b) c))"),
    ("let b = a and\n  b", "(let b (and a b))"),
    ("let b = (a < b) == true", "(let b (== (paren (< a b)) true))"),
    // var and assignment
    ("var count = 0", "(var count 0)"),
    ("count = count + 1", "(= count (+ count 1))"),
    ("at 1s count = 2", "(at 1s (= count 2))"),
    // Loops and conditions
    ("for i in 0..<12 { print \"{i}\" }", "(for i (..< 0 12) (print (string i)))"),
    ("for k in 1...n { }", "(for k (... 1 n))"),
    ("for i in a + 1..<b * 2 {\n  wait 1s\n}", "(for i (..< (+ a 1) (* b 2)) (wait 1s))"),
    ("if a < 3 { play t }", "(if (when (< a 3) (play t)))"),
    (
      "if a { play t } else if b { play u } else { play v }",
      "(if (when a (play t)) (when b (play u)) (else (play v)))"
    ),
    ("if a {\n} else {\n  wait 1s\n}", "(if (when a) (else (wait 1s)))"),
    // Groups
    ("target dots[12] { y: 0, x: index * 40 }", "(target dots (count 12) (y 0) (x (* index 40)))"),
    ("animate dots[3].y to 1 over 1s", "(animate dots[3].y (to 1) (over 1s))"),
    ("animate dots[i + 1].y to 1 over 1s", "(animate dots[(+ i 1)].y (to 1) (over 1s))"),
    ("set dots.y to index * 10", "(set dots.y (* index 10))"),
    ("let v = dots[2].y + 1", "(let v (+ (. (index dots 2) y) 1))"),
    ("pause dots[0].y", "(pause dots[0].y)"),
    ("on complete dots[3].y { }", "(on complete dots[3].y)"),
    // Stagger
    (
      "animate dots.y to 1 over 1s stagger 50ms",
      "(animate dots.y (to 1) (over 1s) (stagger 50ms))"
    ),
    (
      "animate dots.y to 1 over 1s delay 1s stagger 40ms from center",
      "(animate dots.y (to 1) (over 1s) (delay 1s) (stagger 40ms (from center)))"
    ),
    (
      "animate dots.y to 1 over 1s stagger total 1s with easeIn",
      "(animate dots.y (to 1) (over 1s) (stagger (total 1s) (with easeIn)))"
    ),
    (
      "animate dots.y to 1 over 1s stagger 100ms from center grid (4, 3)",
      "(animate dots.y (to 1) (over 1s) (stagger 100ms (from center) (grid (vec 4 3))))"
    ),
    (
      "animate dots.y to 1 over 1s stagger 10ms from random(7)",
      "(animate dots.y (to 1) (over 1s) (stagger 10ms (from (random 7))))"
    ),
    ("animate d.y to 1 stagger 5ms from 3", "(animate d.y (to 1) (stagger 5ms (from 3)))"),
    ("animate d.y to 1 stagger 5ms from end", "(animate d.y (to 1) (stagger 5ms (from end)))"),
    ("animate d.y to 1 stagger 5ms from edges", "(animate d.y (to 1) (stagger 5ms (from edges)))"),
    ("animate d.y to 1 stagger 5ms from start", "(animate d.y (to 1) (stagger 5ms (from start)))"),
    // Nested timelines and target kinds
    ("timeline t { intro }", "(timeline t (expr intro))"),
    (
      "timeline t { at 1s intro speed 2 repeat 2 autoreverse }",
      "(timeline t (at 1s (nested intro (speed 2) (repeat 2) (autoreverse))))"
    ),
    ("timeline t { with previous intro delay 1s }", "(timeline t (with-previous (nested intro (delay 1s))))"),
    ("target card: circle { r: 1 }", "(target card (kind circle) (r 1))"),
    ("target dots[3]: rect { }", "(target dots (count 3) (kind rect))"),
    ("target holder: none { v: 0 }", "(target holder (kind none) (v 0))"),
    ("target title: text \"Hi {index}\" { x: 0 }", "(target title (kind text (string \"Hi \" index)) (x 0))"),
    (
      "keyframes dots.y over 1s stagger 20ms { 0%: 0, 100%: 1 }",
      "(keyframes dots.y (over 1s) (stagger 20ms) (key 0% 0) (key 100% 1))"
    ),
  ]

  @Test(arguments: forms)
  func parsesForm(_ source: String, _ expected: String) {
    let (dump, errors) = dumpOf(source)
    #expect(errors == [])
    #expect(dump == expected)
  }
  /// A whole script of the everyday forms (a card flips in, a badge bounces, the director
  /// pauses and reverses it), statement by statement.
  @Test func languageExample() {
    let script = """
      // A card flips in, a badge bounces, and the director pauses and reverses it.
      let duration = 600ms
      let accent   = #ff8800

      curve snap   = cubic(0.2, 0.9, 0.1, 1)
      curve wobble = spring(response: 0.5, dampingFraction: 0.45)

      target card  { angle: 0, opacity: 0, position: (0, 0), tint: #000000 }
      target badge { scale: 0 }

      timeline intro {
        animate card.opacity to 1 over 300ms with easeIn        // starts at 0s
        at 100ms animate card.angle to 180 over duration with snap
        animate card.tint to accent over 200ms                   // appended: starts at 700ms
        with previous animate badge.scale to 1 with wobble       // starts with the tint
        label landed
        at landed + 250ms print "landed at {now}, angle {card.angle}"
      }

      on complete intro { emit "intro-done" }
      on "intro-done" { print "done" }

      play intro
      at 400ms pause intro
      at 1s    resume intro
      wait 1.2s
      reverse intro                                              // at 1.2s
      """
    let expected = [
      "(let duration 600ms)",
      "(let accent #ff8800ff)",
      "(curve snap (call cubic 0.2 0.9 0.1 1))",
      "(curve wobble (call spring response: 0.5 dampingFraction: 0.45))",
      "(target card (angle 0) (opacity 0) (position (vec 0 0)) (tint #000000ff))",
      "(target badge (scale 0))",
      "(timeline intro"
        + " (animate card.opacity (to 1) (over 300ms) (with easeIn))"
        + " (at 100ms (animate card.angle (to 180) (over duration) (with snap)))"
        + " (animate card.tint (to accent) (over 200ms))"
        + " (with-previous (animate badge.scale (to 1) (with wobble)))"
        + " (label landed)"
        + " (at (+ landed 250ms) (print (string \"landed at \" now \", angle \" card.angle))))",
      "(on complete intro (emit \"intro-done\"))",
      "(on \"intro-done\" (print \"done\"))",
      "(play intro)",
      "(at 400ms (pause intro))",
      "(at 1s (resume intro))",
      "(wait 1200ms)",
      "(reverse intro)",
    ]
    let source = SourceText(name: "example.anim", contents: script)
    let result = parse(source)
    #expect(result.diagnostics.isEmpty)
    #expect(result.file.statements.map(SyntaxDump.dump) == expected)
    #expect(result.file.comments.count == 5)
  }
}
