import Dispatch

/// Where the host runs deferred work: the "later turn of the event loop" on which posted operations
/// are applied. Production uses the main dispatch queue; tests can supply one they advance by hand.
@MainActor
public protocol HostScheduler {
    /// Runs `work` on the main actor after `delay`, never before the current turn ends.
    func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void)
    /// Runs `work` after `delay` unless the returned closure cancels it first: a timer (an
    /// extension's timeout), which a test scheduler tells from work.
    func scheduleTimer(after delay: Duration, _ work: @escaping @MainActor () -> Void) -> @MainActor () -> Void
}

/// The main dispatch queue, which `dispatchMain()` or Swift's async `main` runs.
public struct MainQueueScheduler: HostScheduler {
    public init() {}

    public func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) {
        let run: @Sendable () -> Void = { MainActor.assumeIsolated { work() } }
        if delay <= .zero {
            DispatchQueue.main.async(execute: run)
        } else {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay.dispatchInterval, execute: run)
        }
    }

    public func scheduleTimer(after delay: Duration, _ work: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        let item = DispatchWorkItem { MainActor.assumeIsolated { work() } }
        DispatchQueue.main.asyncAfter(deadline: .now() + max(delay, .zero).dispatchInterval, execute: item)
        return { item.cancel() }
    }
}

extension Duration {
    /// The duration as Dispatch counts time (whole nanoseconds).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
