// Typing as a person would, for hosts that drive a keyboard from text (kbhost run --type, piped lines).
extension KeyboardSession {
    public enum TypingFailure: Error, Equatable {
        /// The keyboard, as it is now, has no key (or way to a key) that types the stroke.
        case noKey
        /// A tap failed in the extension.
        case tapFailed(SessionError)
    }

    /// Makes the next tap toward typing `stroke`: the first of the taps ``KeyPlanner`` plans on the
    /// keyboard as it is now (shift for a capital, a mode key for another page). Returns whether the
    /// stroke is typed. Callers tap again, after letting the host apply what the keyboard posted, until
    /// it is: a person looks before the next tap, and a keyboard may change its state by itself
    /// (automatic shift), so the plan is made afresh each time. A gesture is made, rather than a tap,
    /// once its key is the next: it has begun (``perform(_:at:)``), and its later events wait on the
    /// host's clock.
    public func tapToward(_ stroke: KeyStroke) throws(TypingFailure) -> Bool {
        guard let layout = configuration?.layout,
              let taps = KeyPlanner.taps(for: stroke, layout: layout, state: keyboardState),
              let next = taps.first
        else { throw .noKey }
        do {
            if taps.count == 1, case .gesture(let gesture, _) = stroke {
                try perform(gesture, at: next)
            } else {
                try tap(next)
            }
        } catch {
            throw .tapFailed(error)
        }
        return taps.count == 1
    }

    /// Types one stroke: ``tapToward(_:)`` until it is typed, waiting after each tap for the host to
    /// apply what the keyboard posted; at most ``KeyPlanner/maximumTapsPerStroke`` taps.
    public func type(_ stroke: KeyStroke) async throws(TypingFailure) {
        for _ in 0..<KeyPlanner.maximumTapsPerStroke {
            let typed = try tapToward(stroke)
            await settle()
            if typed { return }
        }
        throw .noKey
    }
}
