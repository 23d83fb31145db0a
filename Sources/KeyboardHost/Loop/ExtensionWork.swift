import CHostRuntime

/// The work one hosted extension has under way in this process, counted exactly: how a host on
/// virtual time knows that an extension has nothing left to run.
///
/// What counts (see `HostExecutors.swift` for how):
/// - every Swift job the extension caused — a task it started in a callback, a task its continuation
///   woke, the nonisolated work such a task hopped to — from the moment it is enqueued until it has
///   run to its next suspension or its end;
/// - every host-API call it made from another thread, from the call until the main queue delivers it.
///
/// "Caused" is followed through the thread: the host marks the thread while it calls into the
/// extension (``run(_:)``), the executors mark it while they run one of its jobs, and a job enqueued
/// while the thread is marked belongs to that extension. The host unmarks the thread while it handles
/// a call from the extension (``unattributed(_:)``), so what the host wakes in turn — a test awaiting a
/// command's answer, say — is not counted as the extension's.
///
/// Not counted, by design: a task suspended waiting for something (it is not runnable); a sleep on a
/// real clock (`Task.sleep`, `asyncAfter`): that is a timer the host cannot move, so it is left alone,
/// as the host's own future timers are; threads the extension starts itself, which the ABI does not
/// allow for time.
public final class ExtensionWork: Sendable {
    /// Its number, as the thread-local mark and the executors know it; never 0.
    let number: UInt64

    private struct State {
        var inFlight = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    public init() {
        precondition(
            HostExecutors.areInstalled,
            "KeyboardHost's executors are not installed, so a host on virtual time cannot see extension work: "
                + "link KeyboardHost into the executable (its CHostRuntime constructor installs them before main)"
        )
        number = Self.registry.withLock { registry in
            registry.next += 1
            return registry.next
        }
        Self.registry.withLock { $0.works[number] = WeakWork(work: self) }
    }

    deinit {
        _ = Self.registry.withLock { $0.works.removeValue(forKey: number) }
    }

    /// Jobs and cross-thread calls under way now.
    public var inFlight: Int { state.withLock(\.inFlight) }

    /// Whether nothing of the extension's is runnable: it is waiting, or done.
    public var isIdle: Bool { inFlight == 0 }

    /// Called on the main actor before ``idle()`` waits: a connection that can look for the
    /// extension's answer itself (a child process's wire) does so here, rather than be woken for it.
    @MainActor var beforeWaiting: (() -> Void)?

    /// Returns once nothing of the extension's is under way; at once if nothing is.
    @MainActor
    public func idle() async {
        if !isIdle { beforeWaiting?() }
        // The continuation is stored under the lock, so a job that ends in between cannot be missed.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.inFlight == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// One more piece of work under way (any thread).
    func began() {
        state.withLock { $0.inFlight += 1 }
    }

    /// A piece of work ended (any thread). At zero, whoever waits in ``idle()`` goes on — woken with
    /// the thread unmarked, so their own work is not counted as the extension's.
    func ended() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        guard !waiters.isEmpty else { return }
        Self.unattributed { waiters.forEach { $0.resume() } }
    }

    /// Runs `body` (a call into the extension) with the thread marked as this extension's, and the
    /// tasks it starts marked too (a task-local value they inherit).
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$taskWork.withValue(number) {
            let previous = kbx_swap_current_work(number)
            defer { kbx_swap_current_work(previous) }
            return try body()
        }
    }

    /// The extension a task belongs to: bound while the host calls into an extension, and inherited
    /// by the tasks started meanwhile and by theirs.
    @TaskLocal private static var taskWork: UInt64 = 0

    /// Runs `body` (the host handling a call from an extension) with the thread unmarked.
    public static func unattributed<T>(_ body: () throws -> T) rethrows -> T {
        let previous = kbx_swap_current_work(0)
        defer { kbx_swap_current_work(previous) }
        return try body()
    }

    /// The extension whose work the current thread is doing, if any: the thread is marked, and the
    /// task running (if one is) is the extension's. The second test keeps a task of somebody else's
    /// that an extension's job woke — a test awaiting what the extension computed — from counting as
    /// the extension's beyond that one job.
    static var current: ExtensionWork? {
        let number = kbx_current_work()
        guard number != 0 else { return nil }
        if withUnsafeCurrentTask(body: { $0 != nil }), taskWork != number { return nil }
        return registry.withLock { $0.works[number]?.work }
    }

    private struct WeakWork {
        weak var work: ExtensionWork?
    }

    private struct Registry {
        var next: UInt64 = 0
        var works: [UInt64: WeakWork] = [:]
    }

    private static let registry = Locked(Registry())
}
