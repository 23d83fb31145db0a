/// What a key does. Encoded as a string: `"input"`, `"delete"`, …, `"modeChange:numbers"` for a key
/// that switches to another sub-keyboard, and `"action:deleteWord"` for a key whose meaning is the
/// keyboard's own (the host draws and taps it like any other; the default `keyTapped` ignores it).
public enum KeyCode: Hashable, Sendable {
    case input
    case shift
    case modeChange(KeyboardMode)
    case delete
    case space
    case `return`
    case done
    case cancel
    case collapse
    case nextKeyboard
    /// A key the keyboard gives a meaning of its own, by name: delete word, read all, a toolbar button.
    case action(String)
}

extension KeyCode: Codable, LosslessStringConvertible {
    public init?(_ description: String) {
        switch description {
        case "input": self = .input
        case "shift": self = .shift
        case "delete": self = .delete
        case "space": self = .space
        case "return": self = .return
        case "done": self = .done
        case "cancel": self = .cancel
        case "collapse": self = .collapse
        case "nextKeyboard": self = .nextKeyboard
        case let text where text.hasPrefix("action:") && text.count > "action:".count:
            self = .action(String(text.dropFirst("action:".count)))
        default:
            let prefix = "modeChange:"
            guard description.hasPrefix(prefix),
                  let mode = KeyboardMode(rawValue: String(description.dropFirst(prefix.count)))
            else { return nil }
            self = .modeChange(mode)
        }
    }

    public var description: String {
        switch self {
        case .input: "input"
        case .shift: "shift"
        case .modeChange(let mode): "modeChange:\(mode.rawValue)"
        case .delete: "delete"
        case .space: "space"
        case .return: "return"
        case .done: "done"
        case .cancel: "cancel"
        case .collapse: "collapse"
        case .nextKeyboard: "nextKeyboard"
        case .action(let name): "action:\(name)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = KeyCode(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown key code '\(text)' (expected input, shift, delete, space, return, done, "
                    + "cancel, collapse, nextKeyboard, modeChange:letters|numbers|symbols or action:<name>)"
            )
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
