import Dispatch

/// A ``HostScheduler`` on virtual time, for deterministic runs (the test host, `kbhost run`), as
/// swift-nio's embedded event loop: nothing runs until asked, time moves only when told, and "nothing
/// left to do" is a fact, not a guess.
///
/// It waits for three things: its own *work* (posted edits waiting for their turn), the *extension
/// work* of the extensions it hosts (``ExtensionWork``: their tasks, counted by the host's executors),
/// and *timers*, which run when their time comes. ``settle()`` runs until neither kind of work is left,
/// moving time to work that is due later (an edit under latency), and leaves timers that are still to
/// come; ``advance(by:)`` moves time on, running everything that falls due, in order.
///
/// Items run in order of due time, then of scheduling. Between two items, every extension's work runs
/// until it is idle, so an item that wakes a task (a snapshot a walker awaits, a timer a sleep awaits)
/// sees that task reach its next wait before anything else happens.
@MainActor
public final class VirtualScheduler: HostScheduler {
    /// Virtual time since the scheduler was made. Read from any thread (an extension's `now`); moved
    /// only here, on the main actor.
    public nonisolated var now: Duration { clock.withLock { $0 } }

    private let clock = Locked<Duration>(.zero)

    private func move(to instant: Duration) {
        clock.withLock { $0 = max($0, instant) }
    }

    private var queue: [Item] = []
    private var nextOrder = 0
    private var works: [WeakWork] = []

    private struct Item {
        let due: Duration
        let order: Int
        /// A timer (a timeout, a periodic reshuffle) rather than work: it runs when its time comes, but
        /// does not keep the host busy, so a timer that re-arms itself cannot keep ``settle()`` running.
        let timer: PendingTimer?
        let work: @MainActor () -> Void
    }

    private struct WeakWork {
        weak var work: ExtensionWork?
    }

    public init() {}

    // MARK: Scheduling

    public func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) {
        enqueue(after: delay, timer: nil, work)
    }

    @discardableResult
    public func scheduleTimer(
        after delay: Duration, label: String, repeats: Bool, _ work: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void {
        let timer = PendingTimer(label: label, due: now + max(delay, .zero), repeats: repeats)
        let order = enqueue(after: delay, timer: timer, work)
        return { [weak self] in self?.queue.removeAll { $0.order == order } }
    }

    /// An extension's work that ``settle()`` and ``advance(by:)`` wait for.
    public func makeExtensionWork() -> ExtensionWork? {
        let work = ExtensionWork()
        works.removeAll { $0.work == nil }
        works.append(WeakWork(work: work))
        return work
    }

    @discardableResult
    private func enqueue(after delay: Duration, timer: PendingTimer?, _ work: @escaping @MainActor () -> Void) -> Int {
        let order = nextOrder
        queue.append(Item(due: now + max(delay, .zero), order: order, timer: timer, work: work))
        nextOrder += 1
        return order
    }

    // MARK: What waits

    /// Whether host work waits (at any due time) or an extension has work under way.
    public var hasWork: Bool { queue.contains { $0.timer == nil } || busyWork != nil }

    /// Timers still to run, in the order they will.
    public var pendingTimers: [PendingTimer] {
        queue.filter { $0.timer != nil }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }.compactMap(\.timer)
    }

    /// When the next timer is due, if any.
    public var nextTimerDue: Duration? { queue.filter { $0.timer != nil }.map(\.due).min() }

    /// How many extension jobs (and cross-thread calls) are under way now.
    public var extensionWorkInFlight: Int { works.compactMap(\.work).reduce(0) { $0 + $1.inFlight } }

    private var busyWork: ExtensionWork? { works.lazy.compactMap(\.work).first { !$0.isIdle } }

    // MARK: Running

    /// Runs until the host is quiet: no work waits and no extension has work under way. Work due later
    /// (an edit under latency) moves time to it; timers that fall due on the way run in their turn;
    /// timers still to come are left alone.
    public func settle() async {
        await withTaskExecutorPreference(MainQueueTaskExecutor.shared) {
            await Self.fence()
            while let item = await next(dueBy: nil) {
                run(item)
            }
        }
    }

    /// Moves time forward by `duration`, running everything that falls due — work and timers, in order,
    /// with extension work settled after each — and ends settled at the new time. Work due later than
    /// that stays waiting.
    public func advance(by duration: Duration) async {
        await withTaskExecutorPreference(MainQueueTaskExecutor.shared) {
            await Self.fence()
            let end = now + max(duration, .zero)
            while let item = await next(dueBy: end) {
                run(item)
            }
            move(to: end)
        }
    }

    /// Moves time on to the next timer and runs what falls due up to it; `false` if no timer waits.
    @discardableResult
    public func advanceToNextTimer() async -> Bool {
        await settle()
        guard let due = nextTimerDue else { return false }
        await advance(by: due - now)
        return true
    }

    /// Waits until everything enqueued on the main queue before the call has run. The queue is FIFO, so
    /// a task the caller started just before (a test's `Task { await keyboard.read() }`) has taken its
    /// first step — and posted what it posts — before the scheduler looks at what waits. A fence, not a
    /// guess: it waits for those jobs, not for a number of turns.
    private static func fence() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    /// Lets every extension's work run until idle, then takes the next item: with a `limit`, the first
    /// due by it; without, the first in order as long as any work waits (only timers left: none).
    private func next(dueBy limit: Duration?) async -> Item? {
        while let busy = busyWork {
            await busy.idle()
        }
        if limit == nil, !queue.contains(where: { $0.timer == nil }) { return nil }
        guard let index = queue.indices.min(by: { (queue[$0].due, queue[$0].order) < (queue[$1].due, queue[$1].order) }),
              limit.map({ queue[index].due <= $0 }) ?? true
        else { return nil }
        return queue.remove(at: index)
    }

    private func run(_ item: Item) {
        move(to: item.due)
        item.work()
    }
}

/// A timer waiting on a ``VirtualScheduler``.
public struct PendingTimer: Hashable, Sendable, CustomStringConvertible {
    /// What it is for: "Hello Keyboard timer 3", "read-full-document timeout".
    public let label: String
    /// When it is due, on the scheduler's clock.
    public let due: Duration
    /// Whether it is one of a periodic series (a reshuffle every 300 s): the keyboard's background.
    public let repeats: Bool

    public var description: String { "\(label), due at \(due)\(repeats ? ", repeating" : "")" }
}
