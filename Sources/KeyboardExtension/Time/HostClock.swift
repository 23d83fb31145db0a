/// The host's clock, as a Swift `Clock`: the only clock a keyboard extension waits on.
///
/// ```swift
/// // A multi-tap key: the letter commits if no tap comes within 800 ms.
/// pendingCommit?.cancel()
/// pendingCommit = Task {
///     try await clock.sleep(for: .milliseconds(800))
///     commitLetter()
/// }
/// ```
///
/// Its time is the host's (the ABI's `now` and `schedule_timer`): on a device-like host, the machine's
/// monotonic clock; on a test host or `kbhost run`, virtual time, which moves only when the host moves
/// it — so a test of the multi-tap key above advances 800 ms in no time, and exactly. A sleep is a
/// timer the host knows of: it ends when the host's clock reaches the deadline, or, if the task is
/// cancelled first, at once with `CancellationError`.
///
/// Why never `Task.sleep`, `DispatchQueue.asyncAfter` or a thread of your own: they run on the
/// machine's clock, which the host does not see. A test host cannot move them (your test must then
/// really wait, and fails on a loaded machine), cannot tell when they are due, and does not count them
/// as your keyboard's work; a host that is busy makes them fire late or early against what they wait
/// for. Everything a keyboard waits for is the host's: a snapshot, the acknowledgement of its edits,
/// or this clock.
public struct HostClock: Clock {
    /// A point on the host's clock: the time since the host began.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset) on the host's clock" }
    }

    let reader: HostClockReader
    let timers: TimerScheduler

    public var now: Instant { Instant(offset: reader.read()) }

    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the host's clock reaches `deadline`; throws `CancellationError` at once if the
    /// task is (or becomes) cancelled. `tolerance` is ignored: the host is exact.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await timers.sleep(until: deadline.offset, reader: reader)
    }
}

/// Where a clock's sleeps become timers: the instance's host connection, used on the main actor only.
final class TimerScheduler: @unchecked Sendable {
    // Read and called on the main actor only (the sleeps hop there first).
    private let schedule: @MainActor (Duration, @escaping @MainActor () -> Void) -> @MainActor () -> Void

    init(_ schedule: @escaping @MainActor (Duration, @escaping @MainActor () -> Void) -> @MainActor () -> Void) {
        self.schedule = schedule
    }

    @MainActor
    func sleep(until deadline: Duration, reader: HostClockReader) async throws {
        try Task.checkCancellation()
        let delay = deadline - reader.read()
        guard delay > .zero else { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.start(continuation) { schedule(delay, $0) }
            }
        } onCancel: {
            MainQueue.run { sleeper.finish(throwing: CancellationError()) }
        }
    }

    @MainActor
    func schedule(after delay: Duration, _ body: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        schedule(delay, body)
    }
}

/// One sleep: its continuation and its timer. Main actor only, so a cancellation that arrives from
/// another thread, or before the timer was set, is settled in order.
@MainActor
private final class Sleeper {
    private var continuation: CheckedContinuation<Void, any Error>?
    private var cancelTimer: (@MainActor () -> Void)?
    private var cancelled = false

    func start(
        _ continuation: CheckedContinuation<Void, any Error>,
        schedule: (@escaping @MainActor () -> Void) -> @MainActor () -> Void
    ) {
        if cancelled { return continuation.resume(throwing: CancellationError()) }
        self.continuation = continuation
        cancelTimer = schedule { [weak self] in self?.finish(throwing: nil) }
    }

    func finish(throwing error: (any Error)?) {
        guard let continuation else {
            if error != nil { cancelled = true }  // cancelled before it started
            return
        }
        self.continuation = nil
        cancelTimer?()
        cancelTimer = nil
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
