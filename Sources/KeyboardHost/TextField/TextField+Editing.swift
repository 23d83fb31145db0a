import _RopeModule

// The edits an extension posts (UITextDocumentProxy's) and the ones a user makes in the field.
extension TextField {
    /// Inserts `text` in place of the marked text, or else of the selection, and puts the caret after
    /// it. Marked text is committed.
    public mutating func insertText(_ text: String) {
        let replaced = replace(markedRange ?? selection, with: text)
        markedRange = nil
        selection = replaced.upperBound..<replaced.upperBound
    }

    /// Deletes the selection, or else the Character before the caret. Inside marked text the marked
    /// text shrinks; elsewhere marked text is committed first.
    public mutating func deleteBackward() {
        let target = selection.isEmpty ? max(selection.lowerBound - 1, 0)..<selection.lowerBound : selection
        guard !target.isEmpty else { return }
        if let marked = markedRange, marked.contains(target.lowerBound), target.upperBound <= marked.upperBound {
            let remaining = marked.count - target.count
            let replaced = replace(target, with: "")
            markedRange = remaining > 0 ? marked.lowerBound..<min(marked.lowerBound + remaining, count) : nil
            selection = replaced.upperBound..<replaced.upperBound
        } else {
            markedRange = nil
            let replaced = replace(target, with: "")
            selection = replaced.upperBound..<replaced.upperBound
        }
    }

    /// Deletes as ``deleteBackward()`` does, but a caret with no selection and no marked text deletes
    /// one `unit` before it: with `.utf16` (Android's `deleteSurroundingText(1, 0)`), the last UTF-16
    /// unit of the Character before the caret, so "é" written e + U+0301 becomes "e", and 👍🏽 loses half
    /// of its skin tone's surrogate pair. A String cannot hold the half left over, so it becomes U+FFFD
    /// (what a lone surrogate shows as; this host's choice). Returns the Character cut, if one was.
    @discardableResult
    public mutating func deleteBackward(in unit: TextUnit) -> Character? {
        let caret = selection.lowerBound
        guard unit == .utf16, selection.isEmpty, markedRange == nil, caret > 0 else {
            deleteBackward()
            return nil
        }
        let before = document[document.index(before: index(at: caret))]
        let units = before.utf16
        guard units.count > 1 else {
            deleteBackward()
            return nil
        }
        // Decoding repairs what the cut left: a lead surrogate without its trail becomes U+FFFD.
        let replaced = replace(caret - 1..<caret, with: String(decoding: units.dropLast(), as: UTF16.self))
        selection = replaced.upperBound..<replaced.upperBound
        return before
    }

    /// Moves the caret `offset` Characters from the end of the selection, stopping at the ends of the
    /// document. Collapses the selection and commits marked text.
    public mutating func adjustTextPosition(byCharacterOffset offset: Int) {
        adjustTextPosition(by: offset, in: .characters)
    }

    /// Moves the caret by `offset` counted in `unit` (a platform's count: iOS moves by UTF-16 units),
    /// collapsing the selection from its end. A move that would end inside a Character stops at the
    /// boundary before it, on the side it came from; that Character is returned.
    @discardableResult
    public mutating func adjustTextPosition(by offset: Int, in unit: TextUnit) -> Character? {
        var caret = selection.upperBound
        var inside: Character?
        switch unit {
        case .characters:
            let offset = min(max(offset, -count), count)  // any Int may arrive: no overflow
            caret = min(max(caret + offset, 0), count)
        case .utf16:
            var remaining = offset.magnitude
            var index = self.index(at: caret)
            while remaining > 0 {
                let forward = offset > 0
                guard forward ? index < document.endIndex : index > document.startIndex else { break }
                let next = forward ? index : document.index(before: index)
                let character = document[next]
                let units = UInt(character.utf16.count)
                guard units <= remaining else {
                    inside = character
                    break
                }
                remaining -= units
                caret += forward ? 1 : -1
                index = forward ? document.index(after: index) : next
            }
        }
        markedRange = nil
        selection = caret..<caret
        return inside
    }

    /// Replaces the marked text (or else the selection) with `text`, marks it, and selects
    /// `selectedRange` within it (Characters from the start of the marked text, clamped). Empty `text`
    /// removes the marked text.
    public mutating func setMarkedText(_ text: String, selectedRange: Range<Int>) {
        let replaced = replace(markedRange ?? selection, with: text)
        if replaced.isEmpty {
            markedRange = nil
            selection = replaced.lowerBound..<replaced.lowerBound
            return
        }
        markedRange = replaced
        let inMarked = Self.clamp(selectedRange, to: replaced.count)
        selection = (replaced.lowerBound + inMarked.lowerBound)..<(replaced.lowerBound + inMarked.upperBound)
    }

    /// Commits the marked text: it stays in the document, no longer marked. The selection stays.
    public mutating func unmarkText() {
        markedRange = nil
    }

    /// Deletes `range` (clamped) and puts the caret where it was. Commits marked text.
    public mutating func deleteRange(_ range: Range<Int>) {
        markedRange = nil
        let replaced = replace(range, with: "")
        selection = replaced.upperBound..<replaced.upperBound
    }

    // MARK: The user, acting in the field

    /// Selects `range` (clamped); an empty range places the caret. Commits marked text.
    public mutating func select(_ range: Range<Int>) {
        markedRange = nil
        selection = Self.clamp(range, to: count)
    }

    /// Places the caret at `offset` (clamped). Commits marked text.
    public mutating func moveCursor(to offset: Int) {
        select(offset..<offset)
    }

    /// Starts a new document, with a new identifier (the field was submitted, or another one focused).
    public mutating func replaceDocument(with text: String, cursor: Int? = nil) {
        self = TextField(text: text, cursor: cursor, traits: traits)
    }

    // MARK: The one primitive

    /// Replaces the Characters in `range` with `replacement` and returns the range it occupies now, in
    /// Characters, widened to cluster boundaries where it merged with its neighbours.
    @discardableResult
    mutating func replace(_ range: Range<Int>, with replacement: String) -> Range<Int> {
        let range = Self.clamp(range, to: count)
        if range.isEmpty && replacement.isEmpty { return range }
        revision &+= 1
        let bounds = indices(range)
        let startUTF8 = document.utf8.distance(from: document.startIndex, to: bounds.lowerBound)
        document.replaceSubrange(bounds, with: replacement)
        let start = document.utf8.index(document.startIndex, offsetBy: startUTF8)
        let end = document.utf8.index(start, offsetBy: replacement.utf8.count)
        let lower = offset(of: document.index(roundingDown: start))
        return lower..<max(lower, offset(of: document.index(roundingUp: end)))
    }
}
