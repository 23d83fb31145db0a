import Dispatch

/// The host's loop and its clock: where the host runs deferred work — the "later turn" on which posted
/// edits are applied — and the timers of the host and its extensions.
///
/// Two kinds of thing wait here. *Work* (posted edits waiting for their turn) must run before the host
/// is quiet. *Timers* (an extension's timeouts and periodic work, the host's command timeouts) run when
/// their time comes, and a host may be quiet with timers still to come.
///
/// ``MainQueueScheduler`` runs on real time, on the main dispatch queue (the REPL). ``VirtualScheduler``
/// runs on virtual time, which moves only when told (the test host, `kbhost run`).
@MainActor
public protocol HostScheduler: AnyObject, Sendable {
    /// The host's clock: time since the scheduler began. Extensions read it (the ABI's `now`), from any
    /// thread.
    nonisolated var now: Duration { get }
    /// Runs `work` on the main actor after `delay`, never before the current turn ends.
    func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void)
    /// Runs `work` after `delay` unless the returned closure cancels it first. `label` says what the
    /// timer is for, for reports of what is pending (``VirtualScheduler/pendingTimers``); `repeats`, that
    /// it is one of a periodic series (set again each time it fires): background, not work left undone.
    func scheduleTimer(
        after delay: Duration, label: String, repeats: Bool, _ work: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void
    /// Something that counts an extension's work in this process, if this scheduler waits for it
    /// before it calls the host quiet; `nil` for a scheduler on real time, which need not know.
    func makeExtensionWork() -> ExtensionWork?
}

extension HostScheduler {
    /// A one-shot timer.
    @discardableResult
    public func scheduleTimer(after delay: Duration, label: String, _ work: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        scheduleTimer(after: delay, label: label, repeats: false, work)
    }
}

/// The main dispatch queue, which `dispatchMain()` or Swift's async `main` runs, on real time.
public final class MainQueueScheduler: HostScheduler {
    private let start = ContinuousClock.now

    public init() {}

    public nonisolated var now: Duration { ContinuousClock.now - start }

    public func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) {
        let run: @Sendable () -> Void = { MainActor.assumeIsolated { work() } }
        if delay <= .zero {
            DispatchQueue.main.async(execute: run)
        } else {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay.dispatchInterval, execute: run)
        }
    }

    public func scheduleTimer(
        after delay: Duration, label: String, repeats: Bool, _ work: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void {
        let item = DispatchWorkItem { MainActor.assumeIsolated { work() } }
        DispatchQueue.main.asyncAfter(deadline: .now() + max(delay, .zero).dispatchInterval, execute: item)
        return { item.cancel() }
    }

    public func makeExtensionWork() -> ExtensionWork? { nil }
}

extension Duration {
    /// The duration as Dispatch counts time (whole nanoseconds).
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: nanosecondsClamped))
    }

    /// Whole nanoseconds, clamped to Int64.
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? (seconds < 0 ? .min : .max) : sum
    }
}
