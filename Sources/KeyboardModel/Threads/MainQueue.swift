import Dispatch

/// Tells whether code runs on the main dispatch queue, which is where the main actor runs — and where
/// the host calls its extensions. Both sides need to know (each links its own copy of this module).
///
/// Not `Thread.isMainThread`: on Linux, once the process is in `dispatch_main()` (as Swift's async
/// `main` is), the main thread has exited and a worker thread drains the main queue. The main actor
/// follows the queue, so the queue is what to ask about.
package enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    package static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Runs `body` on the main actor: now if this is the main queue, else as soon as the main queue can.
    package static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
        if isCurrent {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }
}
