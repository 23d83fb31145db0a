// Editing the field, as UITextDocumentProxy and UIKeyInput. Every edit is posted: it takes effect on
// a later turn of the host's loop, and the snapshot follows.
extension TextDocumentProxy {
    /// Inserts `text` in place of the marked text, or else of the selection; the caret goes after it.
    public func insertText(_ text: String) {
        host.insertText(text)
    }

    /// Deletes the selection, or else the Character before the cursor.
    public func deleteBackward() {
        host.deleteBackward()
    }

    /// Moves the caret by `offset` Characters (negative: backwards) from the end of the selection,
    /// stopping at the document's ends. Collapses the selection and commits marked text.
    public func adjustTextPosition(byCharacterOffset offset: Int) {
        host.adjustTextPosition(byCharacterOffset: offset)
    }

    /// Replaces the marked text (or else the selection) with `markedText`, marks it, and selects
    /// `selectedRange` within it. Unlike UIKit's `NSRange` of UTF-16 units, `selectedRange` counts
    /// Characters from the start of the marked text, like every offset here.
    public func setMarkedText(_ markedText: String, selectedRange: Range<Int>) {
        host.setMarkedText(markedText, selectedRange: selectedRange)
    }

    /// Commits the marked text: it stays in the document, no longer marked.
    public func unmarkText() {
        host.unmarkText()
    }
}
