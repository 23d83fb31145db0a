import KeyboardHost
import KeyboardModel

/// The REPL's key gestures (ABI section 11), as chords, for a terminal has no key up:
///   C-x L, then a key's character: long-press it; then the number of the callout to lift on.
///   C-x H, then a key's character or Backspace: hold it still for ``holdLength`` (delete repeats).
///   C-x < and C-x >: drag the space bar a step left or right (the caret follows).
/// Each gesture then runs on the host's real clock, its events as they fall due.
enum PendingGesture: Equatable {
    /// Waiting for the key to long-press.
    case longPress
    /// Waiting for the key to hold.
    case hold
    /// Waiting for the callout to lift on, of the key at `position`.
    case callout(KeyPosition, [String])
}

extension Repl {
    /// How long C-x H holds a key: long enough for delete to repeat five times.
    static let holdLength = Duration.seconds(1)

    /// C-x L and C-x H: waits for the key.
    func beginGesture(_ gesture: PendingGesture) {
        if saidDismissed() { return }
        guard !isPlain, session.configuration != nil else {
            message = "the keyboard failed: C-x R starts it again"
            return redraw()
        }
        guard session.loadedExtension.takesKeyGestures else {
            message = "\(session.loadedExtension.name) takes taps only (ABI revision 4 or earlier)"
            return redraw()
        }
        pendingGesture = gesture
        message = gesture == .longPress
            ? "long-press: type the key's character (C-g: leave)"
            : "hold for \(Int(Self.holdLength.components.seconds)) s: type the key's character, or Backspace for delete (C-g: leave)"
        redraw()
    }

    /// A printable key while a gesture waits; `false` if none waits.
    func gestureTyped(_ character: Character) -> Bool {
        guard let pending = pendingGesture else { return false }
        switch pending {
        case .longPress, .hold:
            guard let position = gestureKey(character) else {
                pendingGesture = nil
                message = "\(session.loadedExtension.name) shows no key for \(String(character).debugDescription)"
                redraw()
                return true
            }
            if pending == .hold { return makeGesture(.hold(Self.holdLength), at: position) }
            let key = session.configuration?.layout.key(at: position)
            guard let callouts = key?.callouts, !callouts.isEmpty else {
                pendingGesture = nil
                message = "\(key?.label ?? "that key") has no callouts: C-x H holds it"
                redraw()
                return true
            }
            pendingGesture = .callout(position, callouts)
            let shift = session.keyboardState.shift
            let numbered = callouts.indices.prefix(9).map { "\($0 + 1) \(key?.callout($0, shift: shift) ?? callouts[$0])" }
            message = numbered.joined(separator: " · ") + ": the number to lift on (Enter: none)"
            redraw()
        case .callout(let position, let callouts):
            guard let digit = character.wholeNumberValue, (1...min(callouts.count, 9)).contains(digit) else {
                message = "type 1 to \(min(callouts.count, 9)), Enter for none, or C-g to leave"
                redraw()
                return true
            }
            return makeGesture(.longPress(callout: callouts[digit - 1]), at: position)
        }
        return true
    }

    /// Backspace while a gesture waits: holds delete; `false` if none waits.
    func gestureDeleted() -> Bool {
        guard let pending = pendingGesture else { return false }
        guard pending == .hold, let position = keyOnShownPage(where: { $0.code == .delete }) else {
            pendingGesture = nil
            message = pending == .hold ? "\(session.loadedExtension.name) shows no delete key" : "delete has no callouts: C-x H holds it"
            redraw()
            return true
        }
        return makeGesture(.hold(Self.holdLength), at: position)
    }

    /// Enter while a gesture waits: lifts on no callout; `false` if none waits.
    func gestureEntered() -> Bool {
        guard let pending = pendingGesture else { return false }
        if case .callout(let position, _) = pending { return makeGesture(.longPress(callout: nil), at: position) }
        pendingGesture = nil
        message = nil
        redraw()
        return true
    }

    /// C-g: leaves a waiting gesture; `false` if none waits.
    func cancelGesture() -> Bool {
        guard pendingGesture != nil else { return false }
        pendingGesture = nil
        message = nil
        redraw()
        return true
    }

    /// C-x < and C-x >: a drag of the space bar by `steps`.
    func dragSpace(by steps: Int) {
        if saidDismissed() { return }
        guard !isPlain, let position = keyOnShownPage(where: { $0.code == .space }) else {
            message = isPlain ? "the keyboard failed: C-x R starts it again" : "\(session.loadedExtension.name) shows no space bar"
            return redraw()
        }
        _ = makeGesture(.drag(steps: steps), at: position)
    }

    /// The key on the page shown that types `character`, or is labelled with it.
    private func gestureKey(_ character: Character) -> KeyPosition? {
        keyOnShownPage { $0.typedText?.lowercased() == String(character).lowercased() || $0.label == String(character) }
            ?? (character == " " ? keyOnShownPage { $0.code == .space } : nil)
    }

    private func makeGesture(_ gesture: KeyGesture, at position: KeyPosition) -> Bool {
        pendingGesture = nil
        message = nil
        do {
            try session.perform(gesture, at: position)
            lastKey = position
        } catch {
            if session.fault == nil { message = error.description }
        }
        redraw()
        return true
    }
}
