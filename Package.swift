// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "anim",
  products: [
    // The engine is a library that other Swift programs can embed.
    .library(name: "AnimCore", targets: ["AnimCore"]),
    .library(name: "AnimLanguage", targets: ["AnimLanguage"]),
    .library(name: "AnimRuntime", targets: ["AnimRuntime"]),
    .executable(name: "anim", targets: ["anim"]),
    // Seeded random sources, random valid scripts and JSON edits for tests, benchmarks and fuzz
    // seeds. A product only so that Benchmarks (a package of its own) can use it; the libraries
    // above do not contain it.
    .library(name: "AnimTestSupport", targets: ["AnimTestSupport"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    // `swift package generate-documentation --target AnimCore` (the DocC catalog in
    // Sources/AnimCore/AnimCore.docc). A command plugin: `swift build` and `swift test` never build it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // `anim preview`'s server: HTTP/1 and the WebSocket its page listens on. Without
    // Hummingbird's default traits (swift-configuration support, full Foundation), which the
    // stage does not use: a cold build compiles swift-configuration and swift-system less.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
  ],
  targets: [
    // Time, values, curves, animations, timelines, clocks, events. No parsing, no I/O.
    .target(
      name: "AnimCore",
      dependencies: [.product(name: "HeapModule", package: "swift-collections")],
      linkerSettings: [.linkedLibrary("m")]
    ),
    // Source text, lexer, parser, syntax tree, checker, diagnostics, formatter; in AnimCore's
    // vocabulary where the engine has one (fill modes, step positions).
    // (libm: the builtin functions `sin` and `cos`, folded by the checker and run by the runtime.)
    .target(name: "AnimLanguage", dependencies: ["AnimCore"], linkerSettings: [.linkedLibrary("m")]),
    // GNU readline, the system library (libreadline-dev); only AnimREPL's LineEditor uses it.
    .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
    // The interactive session: the evaluator (no terminal), piped input, and the one
    // readline-facing line editor.
    // Schedules a checked syntax tree on the engine and runs its handlers; the trace formats.
    .target(name: "AnimRuntime", dependencies: ["AnimCore", "AnimLanguage"]),
    // The signals `anim run` and the REPL both catch (Ctrl-C, SIGTERM, SIGHUP...), and ending
    // the process by one once the terminal is put right.
    .target(name: "AnimSignals"),
    .target(name: "AnimREPL", dependencies: ["AnimCore", "AnimLanguage", "AnimRuntime", "AnimSignals", "CReadline"]),
    // The stage without a server: how a target is drawn (SVG attributes from its properties),
    // the session a page steers (transport, scrubbing, reload), `/state`'s JSON, and the page
    // itself (generated from Resources/ into StageAssets.swift: scripts/generate-stage-assets.sh).
    .target(name: "AnimStage", dependencies: ["AnimCore", "AnimLanguage", "AnimRuntime"], exclude: ["Resources"]),
    // `anim preview`'s HTTP and WebSocket server (Hummingbird), over AnimStage.
    .target(
      name: "AnimStageServer",
      dependencies: [
        "AnimStage", "AnimRuntime", "AnimLanguage", "AnimCore",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
      ]
    ),
    // The command-line front: thin.
    .executableTarget(
      name: "anim",
      dependencies: [
        "AnimCore", "AnimLanguage", "AnimRuntime", "AnimREPL", "AnimSignals", "AnimStage", "AnimStageServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // libFuzzer over lex, parse, check and fmt: fuzz/run.sh SECONDS builds and runs it.
    .systemLibrary(name: "CLibFuzzer"),
    .executableTarget(name: "anim-fuzz", dependencies: ["AnimLanguage", "AnimTestSupport", "CLibFuzzer"]),
    // libFuzzer over restoring saved sessions: fuzz/run-restore.sh SECONDS builds and runs it.
    .executableTarget(
      name: "anim-fuzz-restore", dependencies: ["AnimCore", "AnimLanguage", "AnimRuntime", "CLibFuzzer"]),
    // What tests, benchmarks and `anim-fuzz --write-seeds` share: SeededRandom (AnimCore's
    // SplitMix64), ScriptGenerator, JSONEdit. Never a dependency of a shipped target.
    .target(name: "AnimTestSupport", dependencies: ["AnimCore", "AnimLanguage"]),
    .testTarget(name: "AnimCoreTests", dependencies: ["AnimCore", "AnimTestSupport"]),
    // An independent reference evaluator of the timing model, written from grammar.md's rules
    // with no dependency on AnimCore: a test helper, never shipped.
    .target(name: "AnimOracle", linkerSettings: [.linkedLibrary("m")]),
    // The engine against the oracle on seeded random operation sequences
    // (ANIM_DIFFERENTIAL_SECONDS=N for a long run: see Tests/AnimDifferentialTests/README.md).
    .testTarget(
      name: "AnimDifferentialTests", dependencies: ["AnimCore", "AnimOracle", "AnimTestSupport"], exclude: ["README.md"]
    ),
    .testTarget(
      name: "AnimLanguageTests", dependencies: ["AnimLanguage", "AnimCore", "AnimTestSupport"],
      resources: [.copy("Golden")]),
    .testTarget(
      name: "AnimRuntimeTests", dependencies: ["AnimRuntime", "AnimLanguage", "AnimCore", "AnimTestSupport"]),
    .testTarget(
      name: "AnimREPLTests", dependencies: ["AnimREPL", "AnimRuntime", "AnimLanguage", "AnimCore", "AnimTestSupport"]),
    .testTarget(
      name: "AnimStageTests", dependencies: ["AnimStage", "AnimStageServer", "AnimRuntime", "AnimLanguage", "AnimCore"]),
    // End to end: runs the built `anim` binary (the dependency makes `swift test` build it).
    .testTarget(name: "AnimCLITests", dependencies: ["anim", "anim-fuzz-restore", "AnimTestSupport"]),
  ]
)
