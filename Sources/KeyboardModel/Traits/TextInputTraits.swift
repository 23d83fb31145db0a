/// The traits of the text field the keyboard types into, as UIKit's `UITextInputTraits`. Raw values are
/// UIKit's, so code ported from iOS compares the same numbers; they cross the C boundary as `uint32_t`.
public struct TextInputTraits: Hashable, Sendable, Codable {
    public var keyboardType: KeyboardType
    public var returnKeyType: ReturnKeyType
    public var autocapitalizationType: AutocapitalizationType
    public var autocorrectionType: AutocorrectionType
    public var spellCheckingType: SpellCheckingType
    public var isSecureTextEntry: Bool
    /// UIKit's `UITextContentType` raw value (`"oneTimeCode"`, `"password"`, `"emailAddress"`, …), or `nil`.
    public var textContentType: String?
    /// The BCP 47 language the field asks for (`"fr-FR"`: an app's `UIResponder.textInputMode`), or
    /// `nil` for the keyboard's own (``KeyboardEnvironment/primaryLanguage``). ABI revision 5.
    public var primaryLanguage: String?

    public init(
        keyboardType: KeyboardType = .default, returnKeyType: ReturnKeyType = .default,
        autocapitalizationType: AutocapitalizationType = .sentences, autocorrectionType: AutocorrectionType = .default,
        spellCheckingType: SpellCheckingType = .default, isSecureTextEntry: Bool = false, textContentType: String? = nil,
        primaryLanguage: String? = nil
    ) {
        self.primaryLanguage = primaryLanguage
        self.keyboardType = keyboardType
        self.returnKeyType = returnKeyType
        self.autocapitalizationType = autocapitalizationType
        self.autocorrectionType = autocorrectionType
        self.spellCheckingType = spellCheckingType
        self.isSecureTextEntry = isSecureTextEntry
        self.textContentType = textContentType
    }

    /// UIKit's `UIKeyboardType`.
    public enum KeyboardType: UInt32, Hashable, Sendable, Codable, CaseIterable {
        case `default` = 0, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad,
             emailAddress, decimalPad, twitter, webSearch, asciiCapableNumberPad
    }

    /// UIKit's `UIReturnKeyType`.
    public enum ReturnKeyType: UInt32, Hashable, Sendable, Codable, CaseIterable {
        case `default` = 0, go, google, join, next, route, search, send, yahoo, done, emergencyCall, `continue`
    }

    /// UIKit's `UITextAutocapitalizationType`.
    public enum AutocapitalizationType: UInt32, Hashable, Sendable, Codable, CaseIterable {
        case none = 0, words, sentences, allCharacters
    }

    /// UIKit's `UITextAutocorrectionType`.
    public enum AutocorrectionType: UInt32, Hashable, Sendable, Codable, CaseIterable {
        case `default` = 0, no, yes
    }

    /// UIKit's `UITextSpellCheckingType`.
    public enum SpellCheckingType: UInt32, Hashable, Sendable, Codable, CaseIterable {
        case `default` = 0, no, yes
    }
}
