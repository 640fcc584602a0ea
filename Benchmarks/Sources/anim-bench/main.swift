// anim-bench prints one `NAME VALUE UNIT` line per figure. An argument keeps only the
// figures whose names start with it: `anim-bench engine.` runs the engine's.
import Foundation

let only = CommandLine.arguments.dropFirst().first ?? ""

func report(_ name: String, _ value: Double, _ unit: String) {
  print("\(name) \(String(format: "%.2f", value)) \(unit)")
}

/// Whether a figure called `name` is wanted.
func wants(_ name: String) -> Bool {
  name.hasPrefix(only)
}

/// Whether any figure of the group `prefix` (such as `front.`) is wanted.
func wants(group prefix: String) -> Bool {
  prefix.hasPrefix(only) || only.hasPrefix(prefix)
}

// A child process that front.memory starts to measure one check (FrontBenchmarks.swift).
if let status = runFrontMemoryChildIfAsked() { exit(status) }
// The helper that front.run starts to measure one run of the anim binary (FrontRunBenchmarks.swift).
if let status = runFrontRunHelperIfAsked() { exit(status) }

if wants(group: "front.") { runFrontBenchmarks() }
// anim trace --until 0s against anim check, on the release binary (FrontRunBenchmarks.swift).
if wants(group: "front.run") { runFrontRunBenchmarks() }
// anim repl FILE (the file loaded, then the end of input) against anim check, the same way.
if wants(group: "front.repl") { runFrontReplBenchmarks() }
// The engine's figures (EngineBenchmarks.swift).
if wants(group: "engine.") { runEngineBenchmarks() }
// The curves' own figures (CurveBenchmarks.swift).
if wants(group: "curve.") { runCurveBenchmarks() }
// The runtime's figures (RuntimeBenchmarks.swift).
if wants(group: "runtime.") || wants(group: "trace.") { runRuntimeBenchmarks() }
// The scenes' figure (SceneBenchmarks.swift).
if wants(group: "scenes.") { runSceneBenchmarks() }
