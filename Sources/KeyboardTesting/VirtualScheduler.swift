import KeyboardHost

/// A ``HostScheduler`` on virtual time, for deterministic tests (as swift-nio's `EmbeddedEventLoop`):
/// nothing runs until the test says so, and time moves only when the test moves it.
///
/// Work runs in order of due time, then of scheduling. Work scheduled while running runs in the same
/// ``advance(by:)`` if it falls due within it.
@MainActor
public final class VirtualScheduler: HostScheduler {
    /// Virtual time since the scheduler was made.
    public private(set) var now: Duration = .zero

    private var queue: [Item] = []
    private var nextOrder = 0

    private struct Item {
        let due: Duration
        let order: Int
        /// A timer (a timeout, a periodic reshuffle) rather than work: it runs when its time comes, but
        /// does not keep the scheduler busy, so a timer that re-arms itself cannot make
        /// ``runUntilIdle()`` run forever.
        let isTimer: Bool
        let work: @MainActor () -> Void
    }

    public init() {}

    public func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) {
        enqueue(after: delay, isTimer: false, work)
    }

    /// Schedules a timer and returns a way to cancel it (a timeout that became void).
    @discardableResult
    public func scheduleTimer(after delay: Duration, _ work: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        let order = enqueue(after: delay, isTimer: true, work)
        return { [weak self] in self?.queue.removeAll { $0.order == order } }
    }

    @discardableResult
    private func enqueue(after delay: Duration, isTimer: Bool, _ work: @escaping @MainActor () -> Void) -> Int {
        let order = nextOrder
        queue.append(Item(due: now + max(delay, .zero), order: order, isTimer: isTimer, work: work))
        nextOrder += 1
        return order
    }

    /// Whether no work is waiting (timers may be).
    public var isIdle: Bool { !queue.contains { !$0.isTimer } }

    /// When the next work falls due, if any.
    public var nextDue: Duration? { queue.map(\.due).min() }

    /// Moves time forward by `duration`, running all work that falls due, in order.
    public func advance(by duration: Duration) {
        let end = now + max(duration, .zero)
        while let next = popNext(dueBy: end) {
            now = max(now, next.due)
            next.work()
        }
        now = end
    }

    /// Runs work until none is left, moving time to each due time in turn; timers that fall due on the
    /// way run in their turn. Returns how many items ran.
    @discardableResult
    public func runUntilIdle() -> Int {
        var count = 0
        while !isIdle, let next = popNext(dueBy: nil) {
            now = max(now, next.due)
            next.work()
            count += 1
        }
        return count
    }

    private func popNext(dueBy limit: Duration?) -> Item? {
        guard let index = queue.indices.min(by: { (queue[$0].due, queue[$0].order) < (queue[$1].due, queue[$1].order) }),
              limit.map({ queue[index].due <= $0 }) ?? true
        else { return nil }
        return queue.remove(at: index)
    }
}
