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
            var start = end
            while start > document.startIndex {
                let previous = document.index(before: start)
                if policy.isBoundary(document[previous]) { break }
                start = previous
            }
            return start
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
            var end = start
            while end < document.endIndex {
                let character = document[end]
                end = document.index(after: end)
                if policy.isBoundary(character) { break }
            }
            return end
        }
    }
}
