// Time, as an extension has it: the host's clock and timers on it (HostClock, HostTimer).
extension KeyboardViewController {
    /// The host's clock: `try await clock.sleep(for: .milliseconds(300))` waits 300 ms of the host's
    /// time — real on a device-like host, virtual in a test host, where the test moves it. Never wait
    /// with `Task.sleep`, `DispatchQueue.asyncAfter` or threads of your own (``HostClock`` says why).
    public nonisolated var clock: HostClock { hostClock }

    /// Calls `body` after `delay` of the host's clock, and then every `interval` if one is given, until
    /// the timer is invalidated or the keyboard goes away.
    @discardableResult
    public func scheduleTimer(
        after delay: Duration, repeatingEvery interval: Duration? = nil, _ body: @escaping @MainActor (HostTimer) -> Void
    ) -> HostTimer {
        let timer = HostTimer(
            after: delay, repeatingEvery: interval,
            schedule: { [host = textDocumentProxy.host] delay, interval, fire in host.scheduleTimer(after: delay, every: interval, fire) },
            onEnd: { [weak self] in self?.liveTimers.removeValue(forKey: ObjectIdentifier($0)) },
            fire: body
        )
        if timer.isValid { liveTimers[ObjectIdentifier(timer)] = timer }
        return timer
    }

    /// Ends every timer of this instance: it is going away.
    func invalidateTimers() {
        for timer in liveTimers.values { timer.invalidate() }
        liveTimers.removeAll()
    }
}
