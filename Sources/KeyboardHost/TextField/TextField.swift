import Foundation

/// The text field the host owns: the document and the cursor, in Characters (extended grapheme
/// clusters). No operation leaves the cursor inside a cluster, even where an edit makes two clusters
/// merge (a combining mark typed after a letter) or split.
///
/// This first model keeps the document in one `String`; edits cost O(document). It is the reference
/// the rope-backed model (issue 3) is checked against.
public struct TextField: Sendable, Equatable {
    public private(set) var text: String
    /// Characters before the cursor.
    public private(set) var cursor: Int
    /// Identifies the document; a new one for every new document (see ``replaceDocument(with:cursor:)``).
    public private(set) var documentIdentifier: UUID

    /// A field holding `text`, the cursor at `cursor` Characters (clamped), or at the end.
    public init(text: String = "", cursor: Int? = nil) {
        self.text = text
        self.documentIdentifier = UUID()
        self.cursor = 0
        self.cursor = clamped(cursor ?? text.count)
    }

    /// Starts a new document, with a new identifier.
    public mutating func replaceDocument(with text: String, cursor: Int? = nil) {
        self = TextField(text: text, cursor: cursor)
    }

    public var textBeforeCursor: Substring { text[..<cursorIndex] }
    public var textAfterCursor: Substring { text[cursorIndex...] }

    // MARK: Edits (the operations an extension posts)

    /// Inserts `insertion` at the cursor and puts the cursor after it.
    public mutating func insertText(_ insertion: String) {
        let insertionEnd = textBeforeCursor.utf8.count + insertion.utf8.count
        text.insert(contentsOf: insertion, at: cursorIndex)
        cursor = characterOffset(atUTF8Offset: insertionEnd)
    }

    /// Deletes the Character before the cursor; nothing at the start.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        let end = cursorIndex
        let start = text.index(before: end)
        let startOffset = text.utf8.distance(from: text.startIndex, to: start)
        text.removeSubrange(start..<end)
        cursor = characterOffset(atUTF8Offset: startOffset)
    }

    /// Moves the cursor by `offset` Characters, stopping at the ends.
    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        cursor = clamped(cursor + offset)
    }

    // MARK: Positions

    private var cursorIndex: String.Index { text.index(text.startIndex, offsetBy: cursor) }

    private func clamped(_ offset: Int) -> Int { min(max(offset, 0), text.count) }

    /// The Character offset of the cluster boundary at or after a UTF-8 offset: where the cursor goes
    /// when an edit made clusters merge across it.
    private func characterOffset(atUTF8Offset target: Int) -> Int {
        var offset = 0
        var index = text.startIndex
        while index < text.endIndex, text.utf8.distance(from: text.startIndex, to: index) < target {
            index = text.index(after: index)
            offset += 1
        }
        return offset
    }
}
