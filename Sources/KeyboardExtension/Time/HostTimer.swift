/// A timer on the host's clock (``HostClock``), for keyboards that would rather be called back than
/// await: made by ``KeyboardViewController/scheduleTimer(after:repeatingEvery:_:)``, as Foundation's
/// `Timer.scheduledTimer(withTimeInterval:repeats:block:)`.
///
/// A one-shot timer fires once; a repeating one fires every interval until ``invalidate()``. Either
/// stops when the keyboard goes away (the host destroys its timers with the instance).
@MainActor
public final class HostTimer {
    /// Whether it will fire again.
    public private(set) var isValid = true
    private let repeats: Bool
    private let fire: @MainActor (HostTimer) -> Void
    private var cancel: (@MainActor () -> Void)?
    private let onEnd: @MainActor (HostTimer) -> Void

    /// `schedule` sets the host's timer (one-shot, or repeating with an interval) and returns its cancel.
    init(
        after delay: Duration, repeatingEvery interval: Duration?,
        schedule: @MainActor (Duration, Duration?, @escaping @MainActor () -> Void) -> @MainActor () -> Void,
        onEnd: @escaping @MainActor (HostTimer) -> Void,
        fire: @escaping @MainActor (HostTimer) -> Void
    ) {
        repeats = interval != nil
        self.onEnd = onEnd
        self.fire = fire
        // The host takes an interval below 1 ms as 1 ms (the ABI's schedule_repeating_timer).
        cancel = schedule(delay, interval.map { max($0, .milliseconds(1)) }) { [weak self] in self?.fired() }
    }

    /// Stops it: it will not fire again.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        cancel?()
        cancel = nil
        onEnd(self)
    }

    private func fired() {
        guard isValid else { return }
        if !repeats {
            isValid = false
            cancel = nil
            onEnd(self)
        }
        fire(self)
    }
}
