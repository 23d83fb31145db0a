/// How the keyboard types, beyond what its keys say: the options of `KeyboardConfiguration.typing`.
///
/// The SDK's `KeyboardViewController.keyTapped(_:)` carries them out, always within the text field's
/// traits (a field whose `autocapitalizationType` is `.none` is never capitalized, whatever the
/// keyboard's option says), as an iOS keyboard is expected to. All default to off, as
/// `UIInputViewController` does nothing of the kind unless the keyboard does it; turn on what yours does.
public struct TypingOptions: Codable, Hashable, Sendable {
    /// Turn shift on by itself where the field's `autocapitalizationType` asks for a capital: at the
    /// start of a sentence (`.sentences`), of a word (`.words`), or always (`.allCharacters`), judged
    /// from the text before the cursor.
    public var autocapitalization: Bool
    /// Replace a word when a space, return or punctuation key ends it, if it is one of
    /// ``textReplacements`` (as iOS's text replacements, `UILexicon`), unless the field says
    /// `autocorrectionType: .no`.
    public var autocorrection: Bool
    /// What autocorrection replaces: typed word → text (`"omw"` → `"On my way!"`).
    public var textReplacements: [String: String]
    /// Two spaces after a word type a full stop and a space, as iOS's "." shortcut.
    public var doubleSpacePeriod: Bool
    /// What the host does when a key is tapped.
    public var keyFeedback: KeyFeedback

    public init(
        autocapitalization: Bool = false, autocorrection: Bool = false, textReplacements: [String: String] = [:],
        doubleSpacePeriod: Bool = false, keyFeedback: KeyFeedback = KeyFeedback()
    ) {
        self.autocapitalization = autocapitalization
        self.autocorrection = autocorrection
        self.textReplacements = textReplacements
        self.doubleSpacePeriod = doubleSpacePeriod
        self.keyFeedback = keyFeedback
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case autocapitalization, autocorrection, textReplacements, doubleSpacePeriod, keyFeedback
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TypingOptions()
        autocapitalization = try container.decodeIfPresent(Bool.self, forKey: .autocapitalization) ?? defaults.autocapitalization
        autocorrection = try container.decodeIfPresent(Bool.self, forKey: .autocorrection) ?? defaults.autocorrection
        textReplacements = try container.decodeIfPresent([String: String].self, forKey: .textReplacements) ?? [:]
        doubleSpacePeriod = try container.decodeIfPresent(Bool.self, forKey: .doubleSpacePeriod) ?? defaults.doubleSpacePeriod
        keyFeedback = try container.decodeIfPresent(KeyFeedback.self, forKey: .keyFeedback) ?? defaults.keyFeedback
        if let bad = textReplacements.keys.sorted().first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            throw DecodingError.dataCorruptedError(
                forKey: .textReplacements, in: container,
                debugDescription: "'\(bad)': expected a typed word (not empty, no spaces)"
            )
        }
    }
}

/// What the host does when a key is tapped. A secure keyboard turns the highlight off: a lit key tells
/// whoever watches the screen which digit was typed.
public struct KeyFeedback: Codable, Hashable, Sendable {
    /// Draw the tapped key lit until the next tap (iOS's key preview).
    public var highlight: Bool
    /// Sound a click (in a terminal, the bell).
    public var sound: Bool

    public init(highlight: Bool = true, sound: Bool = false) {
        self.highlight = highlight
        self.sound = sound
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case highlight, sound }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        highlight = try container.decodeIfPresent(Bool.self, forKey: .highlight) ?? true
        sound = try container.decodeIfPresent(Bool.self, forKey: .sound) ?? false
    }
}
