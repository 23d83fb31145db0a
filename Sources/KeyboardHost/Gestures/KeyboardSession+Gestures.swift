import KeyboardModel

// A finger that stays on a key (ABI section 11): its events go out at their times on the host's clock.
extension KeyboardSession {
    /// Makes `gesture` on the key at `position`: sends its `.down` now, and schedules its other events
    /// as host work at their times (``KeyGesture/events(on:at:)``), so a host on virtual time moves its
    /// clock through them as it settles, and one on real time sends them as they fall due. Throws what
    /// the `.down` met, or why the gesture cannot be made; what a later event meets is reported as an
    /// ``SessionEvent/error(_:)`` and ends the gesture. The gesture ends with the appearance, without
    /// its `.up` (the view went away under the finger).
    public func perform(_ gesture: KeyGesture, at position: KeyPosition) throws(SessionError) {
        guard isShown, let layout = configuration?.layout else { throw .notShown(extension: name) }
        guard loadedExtension.takesKeyGestures else { throw .gesturesUnsupported(extension: name, gesture: gesture) }
        guard let key = layout.key(at: position) else { throw .noSuchKey(extension: name, position: position) }
        let events: [(at: Duration, event: KeyEvent)]
        do {
            events = try gesture.events(on: key, at: position)
        } catch {
            throw .gestureRefused(extension: name, position: position, problem: error)
        }
        onEvent?(.keyGesture(gesture, position))
        try send(events[0].event)
        let appearance = appearance
        let ended = GestureState()
        for (time, event) in events.dropFirst() {
            scheduler.schedule(after: time) { [weak self] in
                guard let self, !ended.value, isShown, self.appearance == appearance else { return }
                do throws(SessionError) {
                    try send(event)
                } catch .failed {
                    ended.value = true  // the session's fault is its last event
                } catch {
                    ended.value = true
                    extensionReported("the \(gesture) ended: \(error)")
                }
            }
        }
    }
}

/// Whether a gesture ended early, shared by its scheduled events.
@MainActor
private final class GestureState {
    var value = false
}
