import _RopeModule

// The windows of text the extension's proxy sees, cut by a ContextPolicy. Each costs O(log n) plus
// copying the window (for sentence and paragraph, the window is what is scanned for the boundary).
extension TextField {
    /// Text before the selection, as the policy shows it.
    public func contextBefore(_ policy: ContextPolicy) -> String {
        let end = index(at: selection.lowerBound)
        return String(document[windowStart(endingAt: end, policy)..<end])
    }

    /// Text after the selection, as the policy shows it.
    public func contextAfter(_ policy: ContextPolicy) -> String {
        let start = index(at: selection.upperBound)
        return String(document[start..<windowEnd(startingAt: start, policy)])
    }

    private func windowStart(endingAt end: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        switch policy {
        case .unlimited:
            return document.startIndex
        case .characters(let count):
            return document.index(end, offsetBy: -count, limitedBy: document.startIndex) ?? document.startIndex
        case .utf8Bytes(let limit):
            // Jump to the byte `limit` before the end and round up to a Character boundary: the
            // longest run of whole Characters that fits. O(log n), not a walk through the window.
            guard end.utf8Offset > limit else { return document.startIndex }
            let start = document.index(roundingUp: document.utf8.index(end, offsetBy: -limit))
            // One Character longer than the limit is shown whole rather than hidden.
            return start < end ? start : document.index(before: end)
        case .sentence, .paragraph:
            return boundaryWindowStart(endingAt: end, policy)
        }
    }

    private func windowEnd(startingAt start: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        switch policy {
        case .unlimited:
            return document.endIndex
        case .characters(let count):
            return document.index(start, offsetBy: count, limitedBy: document.endIndex) ?? document.endIndex
        case .utf8Bytes(let limit):
            guard document.utf8.count - start.utf8Offset > limit else { return document.endIndex }
            let end = document.index(roundingDown: document.utf8.index(start, offsetBy: limit))
            return end > start ? end : document.index(after: start)
        case .sentence, .paragraph:
            return boundaryWindowEnd(startingAt: start, policy)
        }
    }

    // Sentence and paragraph windows end at the nearest boundary, however far: a text without one
    // (a minified file is one sentence) is all window. So the text is scanned by scalars in pieces
    // copied out of the rope (TextField.piece), and a Character is looked at only where a scalar may
    // begin a boundary (ContextPolicy.mayBeginBoundary). Pieces start small, for most sentences are,
    // and double.

    private static let firstPiece = 256
    private static let largestPiece = 64 << 10

    /// Just after the last boundary before `end`, or the start of the document.
    private func boundaryWindowStart(endingAt end: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        var pieceEnd = end
        var size = Self.firstPiece
        while pieceEnd > document.startIndex {
            let (text, pieceStart) = piece(before: pieceEnd, bytes: size)
            let scalars = text.unicodeScalars
            var next = pieceStart
            var i = scalars.endIndex
            while i > scalars.startIndex {
                scalars.formIndex(before: &i)
                guard policy.mayBeginBoundary(scalars[i]) else { continue }
                let character = self.character(at: i, in: text, from: pieceStart)
                if policy.isBoundary(document[character]) { return document.index(after: character) }
                // Part of a longer Character (a "." with a mark): go on before it.
                guard character >= pieceStart else { next = character; break }
                i = text.utf8.index(text.startIndex, offsetBy: character.utf8Offset - pieceStart.utf8Offset)
            }
            pieceEnd = next
            size = min(size * 2, Self.largestPiece)
        }
        return document.startIndex
    }

    /// Just after the first boundary at or after `start`, or the end of the document.
    private func boundaryWindowEnd(startingAt start: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        var pieceStart = start
        var size = Self.firstPiece
        while pieceStart < document.endIndex {
            let (text, pieceEnd) = piece(after: pieceStart, bytes: size)
            let scalars = text.unicodeScalars
            for i in scalars.indices where policy.mayBeginBoundary(scalars[i]) {
                let character = self.character(at: i, in: text, from: pieceStart)
                if policy.isBoundary(document[character]) { return document.index(after: character) }
            }
            pieceStart = pieceEnd
            size = min(size * 2, Self.largestPiece)
        }
        return document.endIndex
    }

    /// Where in the document the Character begins that holds the scalar at `i` of `text`, a piece
    /// copied from `pieceStart`.
    private func character(at i: String.Index, in text: String, from pieceStart: BigString.Index) -> BigString.Index {
        let offset = text.utf8.distance(from: text.startIndex, to: i)
        return document.index(roundingDown: document.utf8.index(pieceStart, offsetBy: offset))
    }
}
