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
