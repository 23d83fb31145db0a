/// What a keyboard learns of where it runs, as iOS's system tells an input view controller: whether
/// the user allowed it full access, the language of its input mode, whether dictation is offered,
/// the other keyboards and whether it must show a key to switch to them, and the user's own words.
///
/// Part of ``HostSettings`` (`"environment"`): the user sets it per extension (`kbhost.json`,
/// `--set environment.fullAccess=true`), and the host fills in what it knows — its list of keyboards
/// (``inputModes``) and, unless the user said, ``needsInputModeSwitchKey`` from that list. A field
/// may ask for a language of its own (``TextInputTraits/primaryLanguage``), and a secure field never
/// offers dictation: the SDK's `textInputMode` and `hasDictationKey` follow the field.
public struct KeyboardEnvironment: Codable, Hashable, Sendable {
    /// Whether the user allowed the keyboard full access (iOS: Settings › Keyboards › Allow Full
    /// Access). Default: no, as on iOS.
    public var fullAccess: Bool?
    /// The BCP 47 language of the keyboard's input mode (`"fr-FR"`). Default: `en-US`.
    public var primaryLanguage: String?
    /// Whether the host offers dictation (iOS shows its own dictation key then). Default: no.
    public var dictation: Bool?
    /// Whether the keyboard must show a key that switches to the next keyboard (iOS: false where the
    /// system shows its own globe). Default: whether ``inputModes`` holds another keyboard.
    public var needsInputModeSwitchKey: Bool?
    /// The host's keyboards, in the order the globe key goes through them; set by the host.
    public var inputModes: [InputMode]?
    /// The user's own words and text replacements (iOS: Settings › General › Keyboard › Text
    /// Replacement), for `requestSupplementaryLexicon`.
    public var lexicon: [LexiconEntry]?

    public init(
        fullAccess: Bool? = nil, primaryLanguage: String? = nil, dictation: Bool? = nil, needsInputModeSwitchKey: Bool? = nil,
        inputModes: [InputMode]? = nil, lexicon: [LexiconEntry]? = nil
    ) {
        self.fullAccess = fullAccess
        self.primaryLanguage = primaryLanguage
        self.dictation = dictation
        self.needsInputModeSwitchKey = needsInputModeSwitchKey
        self.inputModes = inputModes
        self.lexicon = lexicon
    }

    /// The language an input mode has when no one says.
    public static let defaultLanguage = "en-US"

    /// `other` laid over this: each field it sets replaces this one's.
    public func overlaid(with other: KeyboardEnvironment) -> KeyboardEnvironment {
        KeyboardEnvironment(
            fullAccess: other.fullAccess ?? fullAccess, primaryLanguage: other.primaryLanguage ?? primaryLanguage,
            dictation: other.dictation ?? dictation, needsInputModeSwitchKey: other.needsInputModeSwitchKey ?? needsInputModeSwitchKey,
            inputModes: other.inputModes ?? inputModes, lexicon: other.lexicon ?? lexicon
        )
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case fullAccess, primaryLanguage, dictation, needsInputModeSwitchKey, inputModes, lexicon
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fullAccess = try container.decodeIfPresent(Bool.self, forKey: .fullAccess)
        primaryLanguage = try container.decodeIfPresent(String.self, forKey: .primaryLanguage)
        dictation = try container.decodeIfPresent(Bool.self, forKey: .dictation)
        needsInputModeSwitchKey = try container.decodeIfPresent(Bool.self, forKey: .needsInputModeSwitchKey)
        inputModes = try container.decodeIfPresent([InputMode].self, forKey: .inputModes)
        lexicon = try container.decodeIfPresent([LexiconEntry].self, forKey: .lexicon)
        if let language = primaryLanguage, !InputMode.isLanguageTag(language) {
            throw DecodingError.dataCorruptedError(
                forKey: .primaryLanguage, in: container, debugDescription: "'\(language)' is not a BCP 47 language tag such as en-US or fr"
            )
        }
    }
}

/// One keyboard of the host's list (UIKit's `UITextInputMode`).
public struct InputMode: Codable, Hashable, Sendable {
    /// The extension's identifier.
    public var identifier: String
    /// The name users see.
    public var name: String
    /// Its language, if the host knows it.
    public var primaryLanguage: String?

    public init(identifier: String, name: String, primaryLanguage: String? = nil) {
        self.identifier = identifier
        self.name = name
        self.primaryLanguage = primaryLanguage
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case identifier, name, primaryLanguage }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        name = try container.decode(String.self, forKey: .name)
        primaryLanguage = try container.decodeIfPresent(String.self, forKey: .primaryLanguage)
    }

    /// Whether `text` looks like a BCP 47 tag: an ISO 639 language of 2 or 3 letters, then subtags of
    /// 1–8 letters or digits after hyphens (`en`, `fr-CA`, `zh-Hant-TW`).
    public static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

/// One entry of a supplementary lexicon (UIKit's `UILexiconEntry`): what the user types and what it
/// stands for (a text replacement), or a word of the user's with both the same.
public struct LexiconEntry: Codable, Hashable, Sendable {
    public var userInput: String
    public var documentText: String

    public init(userInput: String, documentText: String) {
        self.userInput = userInput
        self.documentText = documentText
    }

    /// A word of the user's own: typed as it is written.
    public static func word(_ word: String) -> LexiconEntry { LexiconEntry(userInput: word, documentText: word) }

    private enum CodingKeys: String, CodingKey, CaseIterable { case userInput, documentText }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userInput = try container.decode(String.self, forKey: .userInput)
        documentText = try container.decodeIfPresent(String.self, forKey: .documentText) ?? userInput
    }
}
