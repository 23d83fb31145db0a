import Dispatch
import KeyboardExtensionABI

/// Reads the host's clock (the ABI's `now`, revision 2) from any thread. A host of revision 1, or no
/// host at all (a controller made in a unit test), has no clock to read: then it is the time since
/// this process first asked, on the machine's monotonic clock.
final class HostClockReader: Sendable {
    private let host: UInt
    private let now: (@convention(c) (OpaquePointer?) -> UInt64)?

    init(host: OpaquePointer?, now: (@convention(c) (OpaquePointer?) -> UInt64)?) {
        self.host = UInt(bitPattern: host)
        self.now = now
    }

    /// Whether this is the host's own clock (and its timers follow it).
    var isHostClock: Bool { now != nil }

    func read() -> Duration {
        guard let now else { return ContinuousClock.now - Self.epoch }
        return .nanoseconds(Int64(clamping: now(OpaquePointer(bitPattern: host))))
    }

    private static let epoch = ContinuousClock.now
}

/// Whether the caller runs on the main dispatch queue (where the host calls the extension and the
/// main actor runs). On Linux the main queue is drained by a worker thread once the process is in
/// `dispatchMain()`, so `Thread.isMainThread` cannot tell; a queue-specific key can.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Runs `body` on the main actor: now if this is the main queue, else as soon as the main queue can.
    static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
        if isCurrent {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }
}
