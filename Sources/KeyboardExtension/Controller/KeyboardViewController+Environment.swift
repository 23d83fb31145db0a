import KeyboardModel

// What UIInputViewController tells a keyboard of where it runs — full access, the input mode's
// language, dictation, the switch key and the list of keyboards, the user's lexicon — each backed by
// the host's settings (`KeyboardEnvironment`, per extension) and the field (its language, its
// secure entry).

/// UIKit's `UITextInputMode`: the language the keyboard types in, for this field.
public struct TextInputMode: Hashable, Sendable {
    /// A BCP 47 tag: `"en-US"`, `"fr"`.
    public let primaryLanguage: String
}

/// UIKit's `UILexicon`: words and text replacements a keyboard may offer as suggestions.
public struct Lexicon: Hashable, Sendable {
    public let entries: [LexiconEntry]
}

extension KeyboardViewController {
    /// What the host told this instance of where it runs (`KeyboardEnvironment`); empty outside a
    /// host.
    public var environment: KeyboardEnvironment { hostSettings.environment ?? KeyboardEnvironment() }

    /// Whether the user allowed this keyboard full access (`environment.fullAccess`; no by default,
    /// as on iOS). A keyboard without it keeps to itself: no network, no shared container.
    public var hasFullAccess: Bool { environment.fullAccess ?? false }

    /// Whether the keyboard must show its own key to switch keyboards (the globe): the host has other
    /// keyboards and shows no switch of its own. The host works it out from its list of keyboards
    /// unless its user set `environment.needsInputModeSwitchKey`.
    public var needsInputModeSwitchKey: Bool { environment.needsInputModeSwitchKey ?? false }

    /// Whether the host shows a dictation key beside this keyboard: it offers dictation
    /// (`environment.dictation`) and the field is not a secure one, where iOS offers none.
    public var hasDictationKey: Bool { (environment.dictation ?? false) && !textDocumentProxy.isSecureTextEntry }

    /// The input mode for the field shown: the language the field asks for (its
    /// `TextInputTraits.primaryLanguage`), else the keyboard's (`environment.primaryLanguage`), else
    /// `en-US`.
    public var textInputMode: TextInputMode? {
        TextInputMode(
            primaryLanguage: textDocumentProxy.snapshot.traits.primaryLanguage ?? environment.primaryLanguage
                ?? KeyboardEnvironment.defaultLanguage
        )
    }

    /// The host's keyboards, in the order the globe key goes through them (this one among them).
    public var inputModes: [InputMode] { environment.inputModes ?? [] }

    /// Shows the host's list of keyboards for the user to pick one, as UIKit's
    /// `handleInputModeList(from:with:)` does on a long-press of the globe key (ABI revision 5). A
    /// host of an earlier revision has no list: the keyboard advances to the next instead.
    public func handleInputModeList() {
        if !textDocumentProxy.host.showInputModeList() { advanceToNextInputMode() }
    }

    /// The lexicon iOS would give: the user's words and text replacements the host keeps
    /// (`environment.lexicon`), then this keyboard's own text replacements (its configuration's
    /// `typing.textReplacements`, with the user's changes), each user input once. Handed to
    /// `completion` on a later turn of the main queue, as UIKit calls back.
    public func requestSupplementaryLexicon(completion: @escaping @MainActor (Lexicon) -> Void) {
        let lexicon = supplementaryLexicon
        Task { @MainActor in completion(lexicon) }
    }

    /// ``requestSupplementaryLexicon(completion:)`` for async code.
    public func requestSupplementaryLexicon() async -> Lexicon {
        await withCheckedContinuation { continuation in
            requestSupplementaryLexicon { continuation.resume(returning: $0) }
        }
    }

    var supplementaryLexicon: Lexicon {
        var entries = environment.lexicon ?? []
        var seen = Set(entries.map(\.userInput))
        let replacements = configuration?.typing.textReplacements ?? [:]
        for input in replacements.keys.sorted() where seen.insert(input).inserted {
            entries.append(LexiconEntry(userInput: input, documentText: replacements[input]!))
        }
        return Lexicon(entries: entries)
    }
}
