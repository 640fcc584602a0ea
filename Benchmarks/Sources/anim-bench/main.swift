// anim-bench prints one `NAME VALUE UNIT` line per figure. An argument keeps only the
// figures whose names start with it: `anim-bench engine.` runs the engine's.
import Foundation

let only = CommandLine.arguments.dropFirst().first ?? ""

func report(_ name: String, _ value: Double, _ unit: String) {
  print("\(name) \(String(format: "%.2f", value)) \(unit)")
}
