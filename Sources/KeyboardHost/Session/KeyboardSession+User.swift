import KeyboardModel

// The user acting in the field (the REPL's editing keys, the testing module's user actions). The field
// changes at once and the extension is told at once; edits the extension posted earlier still apply
// afterwards, in order, as they would on iOS.
extension KeyboardSession {
    /// The user types `text` into the field directly (not through the keyboard).
    public func userInsertText(_ text: String) {
        changeField { $0.insertText(text) }
    }

    /// The user deletes backward in the field directly.
    public func userDeleteBackward() {
        changeField { $0.deleteBackward() }
    }

    /// The user places the caret.
    public func userMoveCursor(to offset: Int) {
        changeField { $0.moveCursor(to: offset) }
    }

    /// The user selects Characters.
    public func userSelect(_ range: Range<Int>) {
        changeField { $0.select(range) }
    }

    /// The user submits the field (return in a single-line field): returns what was submitted, and
    /// the field starts a new, empty document with a new identifier.
    @discardableResult
    public func userSubmit() -> String {
        let submitted = textField.text
        changeField { $0.replaceDocument(with: "") }
        onSubmit?(submitted)
        return submitted
    }

    /// The user deletes the Character after the caret (forward delete), or the selection.
    public func userDeleteForward() {
        changeField { field in
            if field.selection.isEmpty { field.select(field.cursor..<field.cursor + 1) }
            field.deleteBackward()
        }
    }

    /// The user replaces Characters in `range` with `text`, the caret ending at `caret` (clamped).
    public func userReplace(_ range: Range<Int>, with text: String, caret: Int) {
        changeField { field in
            field.select(range)
            field.insertText(text)
            field.moveCursor(to: caret)
        }
    }

    /// The host replaces the document (another file, another field), with a new identifier.
    public func replaceDocument(with text: String, cursor: Int? = nil) {
        changeField { $0.replaceDocument(with: text, cursor: cursor) }
    }

    /// The field's traits change (focus moved to a field of another kind).
    public func setTraits(_ traits: TextInputTraits) {
        changeField { $0.traits = traits }
    }

    /// Applies any change to the field, with the notifications it calls for.
    public func userEdit(_ body: (inout TextField) -> Void) {
        changeField(body)
    }
}
