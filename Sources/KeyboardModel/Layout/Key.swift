/// One key: what it does (`code`), what it shows (`label`) and, for input keys, what it types
/// (`output`, which may differ from the label).
public struct Key: Codable, Hashable, Sendable {
    public var code: KeyCode
    /// The text drawn on the key.
    public var label: String
    /// What an input key types; `nil` means the label.
    public var output: String?
    /// Width relative to the other keys of its row (1 is a standard key).
    public var width: Double

    public init(code: KeyCode, label: String, output: String? = nil, width: Double = 1) {
        self.code = code
        self.label = label
        self.output = output
        self.width = width
    }

    /// An input key that shows and types `text`.
    public static func input(_ text: String, width: Double = 1) -> Key {
        Key(code: .input, label: text, width: width)
    }

    /// What the key types when tapped: its output for an input key, a space for the space bar, a line
    /// break for return; `nil` for keys that type nothing (delete, shift, mode changes, …).
    public var typedText: String? {
        switch code {
        case .input: output ?? label
        case .space: " "
        case .return: "\n"
        default: nil
        }
    }

    /// What the key types with shift in `shift` state: an input key's text upper-cased when shift is
    /// on or locked.
    public func typedText(shift: ShiftState) -> String? {
        guard code == .input, shift != .off, let text = typedText else { return typedText }
        return text.uppercased()
    }

    private enum CodingKeys: String, CodingKey { case code, label, output, width }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(KeyCode.self, forKey: .code)
        label = try container.decode(String.self, forKey: .label)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        width = try container.decodeIfPresent(Double.self, forKey: .width) ?? 1
    }
}
