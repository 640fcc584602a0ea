// A node's playback and timing, and the order of the top-level nodes.
//
// A node keeps only what nearly every node needs (AnimationEngine.swift's `Node`, 56 bytes): one
// time that is the start time while it plays and the hold time while it is held, its delay
// and duration, its flags. A rate or an iteration count other than 1 goes in a side table,
// `nodeExtras`. The functions here put a whole `Playback` and `EffectTiming` back together
// and take them apart again, so the rest of the engine works with the Web Animations model
// as it is written.

extension AnimationEngine {
  // MARK: - Playback and timing

  /// The node's rate: 1 unless it has extras.
  @inline(__always) func rate(of node: Node) -> Double {
    Self.rate(of: node, nodeExtras)
  }

  /// The node's rate, from the engine's `nodeExtras`. (The functions that walk the tree of
  /// timelines take the arrays they read rather than the whole engine: see Engine+Time.swift.)
  @inline(__always) static func rate(of node: Node, _ extras: [NodeExtras]) -> Double {
    node.extras < 0 ? 1 : extras[Int(node.extras)].rate
  }

  /// The node's playback, whole.
  @inline(__always) func playback(of node: Node) -> Playback {
    Self.playback(of: node, nodeExtras)
  }

  /// The node's playback, whole, from the engine's `nodeExtras`.
  @inline(__always) static func playback(of node: Node, _ extras: [NodeExtras]) -> Playback {
    let rate = rate(of: node, extras)
    guard node.isHeld else { return Playback(startTime: node.time, rate: rate, holdTime: nil, isPaused: node.isPaused) }
    let offset = node.extras < 0 ? nil : extras[Int(node.extras)].pausedOffset
    return Playback(startTime: 0, rate: rate, holdTime: node.time, isPaused: node.isPaused, pausedOffset: offset)
  }

  @inline(__always) func playback(of index: Int32) -> Playback {
    playback(of: nodes[Int(index)])
  }

  /// The node's timing, whole.
  @inline(__always) func timing(of node: Node) -> EffectTiming {
    Self.timing(of: node, nodeExtras)
  }

  /// The node's timing, whole, from the engine's `nodeExtras`.
  @inline(__always) static func timing(of node: Node, _ extras: [NodeExtras]) -> EffectTiming {
    var timing = EffectTiming(delay: node.delay, duration: node.duration, direction: node.direction, fill: node.fill)
    if node.extras >= 0 {
      let extras = extras[Int(node.extras)]
      timing.iterations = extras.iterations
      timing.endDelay = extras.endDelay
    }
    return timing
  }

  @inline(__always) func timing(of index: Int32) -> EffectTiming {
    timing(of: nodes[Int(index)])
  }

  /// Stores a playback in the node.
  mutating func setPlayback(_ playback: Playback, of index: Int32) {
    nodes[Int(index)].time = playback.holdTime ?? playback.startTime
    nodes[Int(index)].isHeld = playback.isHeld
    nodes[Int(index)].isPaused = playback.isPaused
    // At rate ±1 the hold time gives the offset back exactly: nothing to keep.
    let offset = abs(playback.rate) == 1 ? nil : playback.pausedOffset
    setExtras(of: index, rate: playback.rate, iterations: nil, endDelay: nil, pausedOffset: .some(offset))
  }

  /// Stores a timing in the node.
  mutating func setTiming(_ timing: EffectTiming, ofNode index: Int32) {
    nodes[Int(index)].delay = timing.delay
    nodes[Int(index)].duration = timing.duration
    nodes[Int(index)].direction = timing.direction
    nodes[Int(index)].fill = timing.fill
    setExtras(of: index, rate: nil, iterations: timing.iterations, endDelay: timing.endDelay, pausedOffset: nil)
  }

  /// Changes the node's playback.
  mutating func changePlayback(of index: Int32, _ change: (inout Playback) -> Void) {
    var playback = playback(of: index)
    change(&playback)
    setPlayback(playback, of: index)
  }

  /// Sets the given extras (nil: unchanged), taking an entry of `nodeExtras` when they are
  /// not all the defaults, and giving it back when they become so.
  private mutating func setExtras(
    of index: Int32, rate: Double?, iterations: Double?, endDelay: Nanoseconds?, pausedOffset: Nanoseconds??
  ) {
    let slot = nodes[Int(index)].extras
    var extras = slot < 0 ? NodeExtras(rate: 1, iterations: 1, endDelay: 0) : nodeExtras[Int(slot)]
    if let rate { extras.rate = rate }
    if let iterations { extras.iterations = iterations }
    if let endDelay { extras.endDelay = endDelay }
    if let pausedOffset { extras.pausedOffset = pausedOffset }
    let isDefault = extras.rate == 1 && extras.iterations == 1 && extras.endDelay == 0 && extras.pausedOffset == nil
    if slot >= 0 {
      if isDefault {
        freeExtras(of: index)
      } else {
        nodeExtras[Int(slot)] = extras
      }
    } else if !isDefault {
      if let free = freeNodeExtras.popLast() {
        nodeExtras[Int(free)] = extras
        nodes[Int(index)].extras = free
      } else {
        nodeExtras.append(extras)
        nodes[Int(index)].extras = Int32(nodeExtras.count - 1)
      }
    }
  }

  /// Gives the node's extras back (when it is freed, or its values become the defaults).
  mutating func freeExtras(of index: Int32) {
    let slot = nodes[Int(index)].extras
    guard slot >= 0 else { return }
    freeNodeExtras.append(slot)
    nodes[Int(index)].extras = -1
  }

  // MARK: - Top-level order

  /// The top-level nodes, in the order they were added.
  ///
  /// Each top-level node carries its place in that order (`Node.order`), so adding and
  /// removing one (every standalone animation is removed when it completes) touches nothing
  /// else; listing them sorts.
  var topLevel: [Int32] {
    get {
      var list: [Int32] = []
      for index in nodes.indices where nodes[index].kind != .free && nodes[index].parent < 0 {
        list.append(Int32(index))
      }
      list.sort { nodes[Int($0)].order < nodes[Int($1)].order }
      return list
    }
    set {
      nextOrder = 0
      for index in newValue { setOrder(of: index) }
    }
  }

  /// Gives a new top-level node the next place in the order.
  mutating func appendTopLevel(_ index: Int32) {
    if nextOrder >= orderLimit {
      // Renumbered from 0, in order, the new node last.
      topLevel = topLevel.filter { $0 != index }
    }
    setOrder(of: index)
  }

  private mutating func setOrder(of index: Int32) {
    // Out of range only in a corrupt snapshot, which `validate` refuses.
    guard index >= 0, Int(index) < nodes.count else { return }
    nodes[Int(index)].order = nextOrder
    nextOrder += 1
  }
}
