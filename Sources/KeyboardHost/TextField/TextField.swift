import Foundation
import KeyboardModel
import _RopeModule

/// The text field the host owns: the document, the selection, marked text and traits.
///
/// Positions count Characters (extended grapheme clusters). The document is a `BigString` — a rope
/// whose nodes know their Character, scalar and UTF-8 counts — so finding a position, editing and
/// reading a window cost O(log n) plus the size of the edit or window; a 4 MiB document is never
/// copied per keystroke or per snapshot.
///
/// No operation leaves a position inside a Character: where an edit makes clusters merge (a combining
/// mark typed after a letter, a regional indicator next to another, deleting what separated them),
/// positions go to the cluster boundary at or after the edit's end.
///
/// Edits: `TextField+Editing.swift`; the windows the proxy sees: `TextField+Context.swift`.
public struct TextField: Sendable {
    public internal(set) var document: BigString
    /// The selected Characters; empty for a caret.
    public internal(set) var selection: Range<Int>
    /// The marked (provisional) text set with `setMarkedText`, if any.
    public internal(set) var markedRange: Range<Int>?
    public var traits: TextInputTraits
    /// Identifies the document; a new one whenever the field gets a new document.
    public internal(set) var documentIdentifier: UUID
    /// Counts edits of the document's text, so a change is told from none without comparing texts.
    public internal(set) var revision: UInt64 = 0

    /// A field holding `text` with the caret at `cursor` Characters (clamped), or at the end.
    public init(text: String = "", cursor: Int? = nil, traits: TextInputTraits = TextInputTraits()) {
        let document = BigString(text)
        let caret = min(max(cursor ?? document.count, 0), document.count)
        self.init(document: document, selection: caret..<caret, traits: traits)
    }

    /// A field holding `text` with `selection` selected (clamped to the document).
    public init(text: String, selection: Range<Int>, traits: TextInputTraits = TextInputTraits()) {
        let document = BigString(text)
        self.init(document: document, selection: Self.clamp(selection, to: document.count), traits: traits)
    }

    private init(document: BigString, selection: Range<Int>, traits: TextInputTraits) {
        self.document = document
        self.selection = selection
        self.markedRange = nil
        self.traits = traits
        self.documentIdentifier = UUID()
    }

    /// The whole document as a `String` (O(document): for output and tests, not per keystroke).
    public var text: String { String(document) }

    /// Calls `body` with the text's UTF-8, in order, a piece of at most 64 KiB at a time (each piece
    /// whole scalars): for reading a large document through without a copy of all of it.
    public func forEachUTF8Piece(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = document.startIndex
        while start < document.endIndex {
            var (text, end) = piece(after: start, bytes: 64 << 10)
            text.withUTF8 { body($0) }
            start = end
        }
    }

    // Pieces of the rope as native Strings, copied a chunk at a time: a String steps through its
    // scalars many times faster than the rope does. Each piece is whole scalars; `bytes` (at least 4)
    // bounds its UTF-8.

    /// The piece that begins at `start`, and where it ends.
    func piece(after start: BigString.Index, bytes: Int) -> (text: String, end: BigString.Index) {
        let end = document.unicodeScalars.index(
            roundingDown: document.utf8.index(start, offsetBy: min(bytes, document.utf8.count - start.utf8Offset))
        )
        return (String(document.unicodeScalars[start..<end]), end)
    }

    /// The piece that ends at `end`, and where it begins.
    func piece(before end: BigString.Index, bytes: Int) -> (text: String, start: BigString.Index) {
        let start = document.unicodeScalars.index(
            roundingDown: document.utf8.index(end, offsetBy: -min(bytes, end.utf8Offset))
        )
        return (String(document.unicodeScalars[start..<end]), start)
    }

    /// Characters in the document.
    public var count: Int { document.count }
    /// The text's length in UTF-8 bytes; O(1).
    public var utf8Count: Int { document.utf8.count }

    public var hasText: Bool { !document.isEmpty }

    /// The insertion point: the end of the selection.
    public var cursor: Int { selection.upperBound }

    public var selectedText: String { String(document[indices(selection)]) }

    // MARK: Positions

    /// The index of a Character offset (clamped). O(log n).
    func index(at offset: Int) -> BigString.Index {
        document.index(document.startIndex, offsetBy: min(max(offset, 0), document.count))
    }

    func indices(_ range: Range<Int>) -> Range<BigString.Index> {
        let lower = index(at: range.lowerBound)
        return lower..<document.index(lower, offsetBy: range.count)
    }

    func offset(of index: BigString.Index) -> Int {
        document.distance(from: document.startIndex, to: index)
    }

    static func clamp(_ range: Range<Int>, to count: Int) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count)
        return lower..<min(max(range.upperBound, lower), count)
    }
}

extension TextField: Equatable {
    /// Equal when they hold the same document, selection, marked range, traits and identifier (the
    /// revision counts edits, not content, so it does not take part).
    public static func == (left: TextField, right: TextField) -> Bool {
        left.selection == right.selection && left.markedRange == right.markedRange && left.traits == right.traits
            && left.documentIdentifier == right.documentIdentifier && left.document == right.document
    }
}
