import KeyboardExtensionABI
import KeyboardModel

/// One key event as it crosses to the extension (`kbx_key_event`): what the finger did, where, and the
/// details of a gesture (ABI section 11). Both transports carry exactly this.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Action: UInt32, Sendable, CaseIterable {
        case tap = 1, down, up, longPress, `repeat`, drag

        /// The ABI's name, for traces.
        public var name: String {
            switch self {
            case .tap: "tap"
            case .down: "down"
            case .up: "up"
            case .longPress: "longPress"
            case .repeat: "repeat"
            case .drag: "drag"
            }
        }
    }

    public var action: Action
    public var position: KeyPosition
    /// `.up` after `.longPress`: the index of the callout lifted on; `nil` for none.
    public var callout: Int?
    /// `.repeat`: 1 for the first repeat; 0 otherwise.
    public var repeatCount: Int
    /// `.drag` and the `.up` after it: steps from where the finger went down (right, down positive).
    public var dragX: Int
    public var dragY: Int

    public init(
        _ action: Action, at position: KeyPosition, callout: Int? = nil, repeatCount: Int = 0, dragX: Int = 0, dragY: Int = 0
    ) {
        self.action = action
        self.position = position
        self.callout = callout
        self.repeatCount = repeatCount
        self.dragX = dragX
        self.dragY = dragY
    }

    /// A tap at `position`.
    public static func tap(_ position: KeyPosition) -> KeyEvent { KeyEvent(.tap, at: position) }

    /// The C struct, at this header's size.
    var abiEvent: kbx_key_event {
        kbx_key_event(
            abi_version: KBX_ABI_VERSION, struct_size: UInt32(MemoryLayout<kbx_key_event>.size),
            action: action.rawValue, sub_keyboard: UInt32(clamping: position.subKeyboard),
            row: UInt32(clamping: position.row), column: UInt32(clamping: position.column),
            callout: Int32(clamping: callout ?? -1), repeat_count: UInt32(clamping: repeatCount),
            drag_x: Int32(clamping: dragX), drag_y: Int32(clamping: dragY)
        )
    }

    public var description: String {
        var text = "\(action.name) \(position)"
        if let callout { text += " callout \(callout)" }
        if repeatCount > 0 { text += " repeat \(repeatCount)" }
        if dragX != 0 || dragY != 0 { text += " drag \(dragX),\(dragY)" }
        return text
    }
}
