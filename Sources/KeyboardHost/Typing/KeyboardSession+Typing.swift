// Typing as a person would, for hosts that drive a keyboard from text (kbhost run --type, piped lines).
extension KeyboardSession {
    public enum TypingFailure: Error, Equatable {
        /// The keyboard, as it is now, has no key (or way to a key) that types the stroke.
        case noKey
        /// A tap failed in the extension.
        case tapFailed(SessionError)
    }

    /// Types one stroke: the taps ``KeyPlanner`` plans on the keyboard as it is now (shift for a
    /// capital, a mode key for another page), waiting after each for the host to apply what the
    /// keyboard posted — a person taps after seeing the result of the previous tap.
    public func type(_ stroke: KeyStroke) async throws(TypingFailure) {
        guard let layout = configuration?.layout,
              let taps = KeyPlanner.taps(for: stroke, layout: layout, state: keyboardState)
        else { throw .noKey }
        for position in taps {
            do {
                try tap(position)
            } catch {
                throw .tapFailed(error)
            }
            await settle()
        }
    }
}
