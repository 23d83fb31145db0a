// Editing the field, as UITextDocumentProxy and UIKeyInput. Every edit is posted: it takes effect on
// a later turn of the host's loop, and the snapshot follows.
extension TextDocumentProxy {
    /// Inserts `text` in place of the marked text, or else of the selection; the caret goes after it.
    public func insertText(_ text: String) {
        undoManager.recordInsert(text)
        postedOperations += 1
        host.insertText(text)
    }

    /// Deletes the selection, or else the Character before the cursor.
    public func deleteBackward() {
        undoManager.recordDelete()
        postedOperations += 1
        host.deleteBackward()
    }

    /// Moves the caret by `offset` Characters (negative: backwards) from the end of the selection,
    /// stopping at the document's ends. Collapses the selection and commits marked text.
    public func adjustTextPosition(byCharacterOffset offset: Int) {
        undoManager.recordOther()
        postedOperations += 1
        host.adjustTextPosition(byCharacterOffset: offset)
    }

    /// Moves the caret by `count` Characters (negative: backwards) whatever the platform counts
    /// ``adjustTextPosition(byCharacterOffset:)`` in: under iOS and Android, which count UTF-16 units,
    /// the offset is worked out from the context the proxy shows (as far as it shows; beyond it, one
    /// unit per Character). What a space-bar drag moves by.
    public func adjustTextPosition(byCharacters count: Int) {
        guard count != 0 else { return }
        adjustTextPosition(byCharacterOffset: Self.offset(ofCharacters: count, before: snapshot.contextBefore, after: snapshot.contextAfter, in: snapshot.platform.caretMoveUnit))
    }

    /// The offset in `unit` of a move by `count` Characters over the text shown `before` and `after`
    /// the caret; one unit per Character beyond it.
    nonisolated static func offset(ofCharacters count: Int, before: String, after: String, in unit: TextUnit) -> Int {
        let context = count < 0 ? before.suffix(-count) : after.prefix(count)
        let units = unit.count(of: context) + (abs(count) - context.count)
        return count < 0 ? -units : units
    }

    /// Replaces the marked text (or else the selection) with `markedText`, marks it, and selects
    /// `selectedRange` within it. Unlike UIKit's `NSRange` of UTF-16 units, `selectedRange` counts
    /// Characters from the start of the marked text, like every offset here.
    public func setMarkedText(_ markedText: String, selectedRange: Range<Int>) {
        undoManager.recordOther()
        postedOperations += 1
        host.setMarkedText(markedText, selectedRange: selectedRange)
    }

    /// Commits the marked text: it stays in the document, no longer marked.
    public func unmarkText() {
        undoManager.recordOther()
        postedOperations += 1
        host.unmarkText()
    }

    // MARK: Beyond UIKit (ABI section 7), for the full-document walker

    /// Selects an absolute range, if the field is still as snapshot `ifSnapshot` showed it.
    func setSelectedRange(_ range: Range<Int>, ifSnapshot snapshot: UInt64) {
        undoManager.recordOther()
        postedOperations += 1
        host.setSelectedRange(range, ifSnapshot: snapshot)
    }

    /// Deletes an absolute range, if the field is still as snapshot `ifSnapshot` showed it.
    func deleteRange(_ range: Range<Int>, ifSnapshot snapshot: UInt64) {
        undoManager.recordOther()
        postedOperations += 1
        host.deleteRange(range, ifSnapshot: snapshot)
    }
}
