import KeyboardModel

// The test as the user, acting in the text field directly (not through the keyboard). The field
// changes at once and the extension is notified at once.
extension KeyboardTestHost {
    /// The user types `text` into the field (say, with a hardware keyboard or a paste).
    public func userTypes(_ text: String) {
        session.userInsertText(text)
    }

    /// The user deletes backward in the field.
    public func userDeletesBackward() {
        session.userDeleteBackward()
    }

    /// The user places the caret.
    public func userMovesCursor(to offset: Int) {
        session.userMoveCursor(to: offset)
    }

    /// The user selects Characters.
    public func userSelects(_ range: Range<Int>) {
        session.userSelect(range)
    }

    /// The user submits the field: returns the text, and a new empty document begins.
    @discardableResult
    public func userSubmits() -> String {
        session.userSubmit()
    }

    /// Focus moves to another field, with these traits and this text.
    public func userFocusesField(text: String = "", cursor: Int? = nil, traits: TextInputTraits) {
        session.userEdit { field in
            field.replaceDocument(with: text, cursor: cursor)
            field.traits = traits
        }
    }
}
