// The scenes' figure, as issue 15 defines it.
//
// - scenes.stagger: a group of 10,000 members with 12 staggered `animate` statements on it
//   (120,000 animations), checked and started: ms from the script's text to every animation
//   on the engine (parse, check, declare the members, evaluate each member's values, compute
//   the stagger, start), as `anim trace` does before its first sample. Best of 3. Goal:
//   under 1,000 ms in release.
import AnimRuntime
import Foundation

func runSceneBenchmarks() {
  if wants("scenes.stagger") { report("scenes.stagger", bestStaggerSceneTime(), "ms") }
}

/// The scene: one group, twelve properties, each animated once on every member with a
/// different stagger (origins, a total, a grid, a curve, a seeded shuffle).
func staggerSceneScript(members: Int = 10_000) -> String {
  let staggers = [
    "stagger 1ms", "stagger 1ms from end", "stagger 1ms from center", "stagger 1ms from edges",
    "stagger 1ms from 17", "stagger total 2s", "stagger 1ms with easeIn", "stagger 10ms from center grid (100, 100)",
    "stagger 10ms from 5050 grid (100, 100)", "stagger 1ms from random(7)", "stagger total 1s with easeOut",
    "stagger 2ms from start grid (100, 100)",
  ]
  var text = "target dots[\(members)] { "
  text += (0..<staggers.count).map { "p\($0): 0" }.joined(separator: ", ")
  text += " }\n"
  for (index, stagger) in staggers.enumerated() {
    text += "animate dots.p\(index) to index * \(index + 1) over 1s \(stagger)\n"
  }
  return text
}

func bestStaggerSceneTime() -> Double {
  let text = staggerSceneScript()
  var best = Double.infinity
  for _ in 0..<3 {
    let start = DispatchTime.now().uptimeNanoseconds
    let (program, source) = checkedProgram(text)
    let runtime = Runtime()
    _ = runtime.run(program, of: source, at: 0)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    let count = runtime.propertyNames.count
    FileHandle.standardError.write("scenes.stagger: \(count) properties\n".data(using: .utf8)!)
    best = min(best, elapsed)
  }
  return best
}
