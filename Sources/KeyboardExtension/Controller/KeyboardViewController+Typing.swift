// The configuration's typing options (`TypingOptions`), carried out by the default `keyTapped(_:)`
// and, for automatic shift, after every change of the text or selection. Judged, as on iOS, from the
// proxy's context: what the host last sent.

extension KeyboardViewController {
    /// Inserts what a key typed, with the typing options: a text replacement for the word a space,
    /// return or punctuation ends, and two spaces for a full stop.
    func insertTyped(_ text: String) {
        let options = configuration?.typing ?? TypingOptions()
        let traits = textDocumentProxy.snapshot.traits
        let before = textDocumentProxy.documentContextBeforeInput ?? ""

        if options.doubleSpacePeriod, text == " ", !traits.isSecureTextEntry, Self.endsWordThenSpace(before) {
            textDocumentProxy.deleteBackward()
            textDocumentProxy.insertText(". ")
            return
        }
        if options.autocorrection, traits.autocorrectionType != .no, !traits.isSecureTextEntry,
           let first = text.first, Self.endsWord(first) {
            let word = Self.lastWord(of: before)
            if !word.isEmpty, let replacement = options.textReplacements[String(word)] {
                for _ in 0..<word.count { textDocumentProxy.deleteBackward() }
                textDocumentProxy.insertText(replacement)
            }
        }
        textDocumentProxy.insertText(text)
    }

    /// Turns shift on where the field wants a capital and the keyboard's autocapitalization is on, and
    /// back off when the cursor leaves such a place — but never undoes a shift the user chose. Not
    /// during a full-document walk: its steps show the start of the document, which wants a capital,
    /// and they are not the user's; the walk's end calls this again, with the caret back.
    package func updateAutomaticShift() {
        guard !isWalkingFullDocument, configuration?.typing.autocapitalization == true,
              layout.subKeyboards.indices.contains(keyboardState.subKeyboard),
              layout.subKeyboards[keyboardState.subKeyboard].mode == .letters
        else { return }
        let wanted = wantsCapital()
        if wanted, keyboardState.shift == .off {
            keyboardState.shift = .on
            shiftIsAutomatic = true
        } else if !wanted, shiftIsAutomatic, keyboardState.shift == .on {
            keyboardState.shift = .off
            shiftIsAutomatic = false
        }
    }

    /// Whether the next letter should be a capital, from the field's `autocapitalizationType` and the
    /// text before the cursor.
    func wantsCapital() -> Bool {
        let traits = textDocumentProxy.snapshot.traits
        guard !traits.isSecureTextEntry else { return false }
        let before = textDocumentProxy.documentContextBeforeInput ?? ""
        switch traits.autocapitalizationType {
        case .none: return false
        case .allCharacters: return true
        case .words: return before.last.map(\.isWhitespace) ?? true
        case .sentences:
            guard let last = before.last else { return true }
            if last.isNewline { return true }
            guard last.isWhitespace else { return false }
            let trimmed = before.reversed().drop(while: \.isWhitespace)
            guard let end = trimmed.first else { return true }
            return ".!?".contains(end)
        }
    }

    /// A letter or digit, then exactly one space: where a second space types a full stop.
    static func endsWordThenSpace(_ text: String) -> Bool {
        guard text.last == " " else { return false }
        let rest = text.dropLast()
        guard let previous = rest.last else { return false }
        return previous.isLetter || previous.isNumber
    }

    /// Whether typing `character` ends the word before it.
    static func endsWord(_ character: Character) -> Bool {
        character.isWhitespace || ".,!?;:".contains(character)
    }

    /// The letters and digits (and apostrophes) at the end of `text`.
    static func lastWord(of text: String) -> Substring {
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let character = text[previous]
            guard character.isLetter || character.isNumber || character == "'" else { break }
            start = previous
        }
        return text[start...]
    }
}
