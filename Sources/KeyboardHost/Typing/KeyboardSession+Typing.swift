// Typing as a person would, for hosts that drive a keyboard from text (kbhost run --type, piped lines).
extension KeyboardSession {
    public enum TypingFailure: Error, Equatable {
        /// The keyboard, as it is now, has no key (or way to a key) that types the stroke.
        case noKey
        /// A tap failed in the extension.
        case tapFailed(SessionError)
    }

    /// Types one stroke as a person would: the first of the taps ``KeyPlanner`` plans on the keyboard
    /// as it is now (shift for a capital, a mode key for another page), then waits for the host to apply
    /// what the keyboard posted and plans again from what the keyboard shows then — a person looks
    /// before the next tap, and a keyboard may change its state by itself (automatic shift).
    public func type(_ stroke: KeyStroke) async throws(TypingFailure) {
        for _ in 0..<KeyPlanner.maximumTapsPerStroke {
            guard let layout = configuration?.layout,
                  let taps = KeyPlanner.taps(for: stroke, layout: layout, state: keyboardState),
                  let next = taps.first
            else { throw .noKey }
            do {
                try tap(next)
            } catch {
                throw .tapFailed(error)
            }
            await settle()
            if taps.count == 1 { return }
        }
        throw .noKey
    }
}
