// BoundedQueue: what one thread sends another (a parser's statements to its checker, a
// checker's checked statements to a runner), a few batches at a time, so that neither waits
// for long and no more than a few batches are held.

import Dispatch

/// A bounded first-in first-out queue from one thread to another.
final class BoundedQueue<Item: Sendable>: @unchecked Sendable {
  // `items[head...]` are waiting; guarded by `lock`. An item taken is moved out, leaving nil:
  // what the queue hands over is then the only reference to it (a batch the taker consumes
  // in place, not a copy of it, which a reference left behind would force).
  private var items: [Item?] = []
  private var head = 0
  private let lock = DispatchSemaphore(value: 1)
  private let waiting = DispatchSemaphore(value: 0)
  private let room: DispatchSemaphore

  init(capacity: Int) {
    room = DispatchSemaphore(value: capacity)
  }

  /// Adds an item, waiting while the queue is full.
  func put(_ item: Item) {
    room.wait()
    lock.wait()
    items.append(item)
    lock.signal()
    waiting.signal()
  }

  /// Removes the oldest item, waiting while the queue is empty.
  func take() -> Item {
    waiting.wait()
    lock.wait()
    let item = items[head].take()!
    head += 1
    if head >= 32 {
      items.removeFirst(head)
      head = 0
    }
    lock.signal()
    room.signal()
    return item
  }
}
