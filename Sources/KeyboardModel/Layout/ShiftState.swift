/// The shift key's state; it crosses the C boundary as `kbx_shift_state`.
public enum ShiftState: UInt32, Hashable, Sendable, Codable, CaseIterable {
    case off = 0
    /// The next letter is upper case, then shift goes off.
    case on = 1
    case capsLock = 2
}

/// What the keyboard shows: which sub-keyboard, and the shift state.
public struct KeyboardState: Hashable, Sendable {
    public var subKeyboard: Int
    public var shift: ShiftState

    public init(subKeyboard: Int = 0, shift: ShiftState = .off) {
        self.subKeyboard = subKeyboard
        self.shift = shift
    }
}
