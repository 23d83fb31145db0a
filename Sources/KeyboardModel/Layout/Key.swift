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
    /// Height relative to the other rows (a row is as high as its highest key).
    public var height: Double
    /// Empty space before the key, in the same units as `width` (the indent of a middle row).
    public var leftPadding: Double
    /// The secondary values the key offers on a long-press, in the order they are shown (`é è ê ë` on
    /// `e`): the host shows them and the user lifts on one (ABI section 11). Empty: none, and holding
    /// the key repeats it instead. In lower case: the SDK types them upper case under shift, as the key.
    public var callouts: [String]

    public init(
        code: KeyCode, label: String, output: String? = nil, width: Double = 1, height: Double = 1, leftPadding: Double = 0,
        callouts: [String] = []
    ) {
        self.code = code
        self.label = label
        self.output = output
        self.width = width
        self.height = height
        self.leftPadding = leftPadding
        self.callouts = callouts
    }

    /// An input key that shows and types `text`.
    public static func input(_ text: String, width: Double = 1, callouts: [String] = []) -> Key {
        Key(code: .input, label: text, width: width, callouts: callouts)
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

    /// The text a host draws on the key (the REPL, pictures): an input key's label in upper case under
    /// shift (always, unless the appearance shows lower-case keys); the shift key shows its state.
    public func shownLabel(shift: ShiftState, appearance: Appearance) -> String {
        switch code {
        case .input where shift != .off || !appearance.showsLowercaseKeys: label.uppercased()
        case .shift where shift == .on: label + "•"
        case .shift where shift == .capsLock: label + "⇪"
        default: label
        }
    }

    /// Callout `index` as typed with shift in `shift` state (upper case when shift is on or locked);
    /// `nil` for an index the key does not have.
    public func callout(_ index: Int, shift: ShiftState) -> String? {
        guard callouts.indices.contains(index) else { return nil }
        return shift == .off ? callouts[index] : callouts[index].uppercased()
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case code, label, output, width, height, leftPadding, callouts }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(leftPadding, forKey: .leftPadding)
        if !callouts.isEmpty { try container.encode(callouts, forKey: .callouts) }
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(KeyCode.self, forKey: .code)
        label = try container.decode(String.self, forKey: .label)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        width = try container.decodeIfPresent(Double.self, forKey: .width) ?? 1
        height = try container.decodeIfPresent(Double.self, forKey: .height) ?? 1
        leftPadding = try container.decodeIfPresent(Double.self, forKey: .leftPadding) ?? 0
        callouts = try container.decodeIfPresent([String].self, forKey: .callouts) ?? []
        if let index = callouts.firstIndex(where: \.isEmpty) {
            throw DecodingError.dataCorruptedError(
                forKey: .callouts, in: container, debugDescription: "callout \(index) is empty; a callout types its text, so give it some"
            )
        }
        for (value, key, allowsZero) in [(width, CodingKeys.width, false), (height, .height, false), (leftPadding, .leftPadding, true)]
        where !(value.isFinite && (allowsZero ? value >= 0 : value > 0)) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: allowsZero ? "expected a number of 0 or more" : "expected a number above 0"
            )
        }
    }
}
