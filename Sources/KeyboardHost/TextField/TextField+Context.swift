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
    // (a minified file is one sentence) is all window. So the text is scanned in blocks copied out
    // of the rope — a native String steps through scalars many times faster than a rope steps
    // through Characters — and a Character is looked at only where a scalar may begin a boundary
    // (ContextPolicy.mayBeginBoundary). Blocks start small, for most sentences are, and double.

    private static let firstBlock = 256
    private static let largestBlock = 64 << 10

    /// Just after the last boundary before `end`, or the start of the document.
    private func boundaryWindowStart(endingAt end: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        var blockEnd = end
        var size = Self.firstBlock
        while blockEnd > document.startIndex {
            let blockStart = document.unicodeScalars.index(
                roundingDown: document.utf8.index(blockEnd, offsetBy: -min(size, blockEnd.utf8Offset))
            )
            let text = String(document.unicodeScalars[blockStart..<blockEnd])
            let block = text.unicodeScalars
            var next = blockStart
            var i = block.endIndex
            while i > block.startIndex {
                block.formIndex(before: &i)
                guard policy.mayBeginBoundary(block[i]) else { continue }
                let offset = text.utf8.distance(from: block.startIndex, to: i)
                let character = document.index(roundingDown: document.utf8.index(blockStart, offsetBy: offset))
                if policy.isBoundary(document[character]) { return document.index(after: character) }
                // Part of a longer Character (a "." with a mark): go on before it.
                guard character >= blockStart else { next = character; break }
                i = text.utf8.index(block.startIndex, offsetBy: character.utf8Offset - blockStart.utf8Offset)
            }
            blockEnd = next
            size = min(size * 2, Self.largestBlock)
        }
        return document.startIndex
    }

    /// Just after the first boundary at or after `start`, or the end of the document.
    private func boundaryWindowEnd(startingAt start: BigString.Index, _ policy: ContextPolicy) -> BigString.Index {
        var blockStart = start
        var size = Self.firstBlock
        while blockStart < document.endIndex {
            let blockEnd = document.unicodeScalars.index(
                roundingDown: document.utf8.index(blockStart, offsetBy: min(size, document.utf8.count - blockStart.utf8Offset))
            )
            let text = String(document.unicodeScalars[blockStart..<blockEnd])
            let block = text.unicodeScalars
            var i = block.startIndex
            while i < block.endIndex {
                if policy.mayBeginBoundary(block[i]) {
                    let offset = text.utf8.distance(from: block.startIndex, to: i)
                    let character = document.index(roundingDown: document.utf8.index(blockStart, offsetBy: offset))
                    if policy.isBoundary(document[character]) { return document.index(after: character) }
                }
                block.formIndex(after: &i)
            }
            blockStart = blockEnd
            size = min(size * 2, Self.largestBlock)
        }
        return document.endIndex
    }
}
