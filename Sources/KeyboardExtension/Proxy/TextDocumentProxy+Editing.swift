// Editing the field, as UITextDocumentProxy and UIKeyInput. Every edit is posted: it takes effect on
// a later turn of the host's loop, and the snapshot follows.
extension TextDocumentProxy {
    /// Inserts `text` at the cursor, replacing the selection if there is one.
    public func insertText(_ text: String) {
        host.insertText(text)
    }

    /// Deletes the selection, or else the Character before the cursor.
    public func deleteBackward() {
        host.deleteBackward()
    }

    /// Moves the cursor by `offset` Characters (negative: backwards), stopping at the document's ends.
    public func adjustTextPosition(byCharacterOffset offset: Int) {
        host.adjustTextPosition(byCharacterOffset: offset)
    }
}
