import _RopeModule

// The windows of text the extension's proxy sees, cut by a ContextPolicy. Each costs O(log n) plus
// the window (for sentence and paragraph: plus the text scanned to find the boundary).
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
            var start = end
            while start > document.startIndex {
                let previous = document.index(before: start)
                if end.utf8Offset - previous.utf8Offset > limit { break }
                start = previous
            }
            return start
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
            var end = start
            while end < document.endIndex {
                let next = document.index(after: end)
                if next.utf8Offset - start.utf8Offset > limit { break }
                end = next
            }
            return end
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
