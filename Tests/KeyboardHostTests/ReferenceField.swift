import KeyboardHost

/// The text field's semantics, written the slow, obvious way on a `String`: the oracle the rope-backed
/// `TextField` is checked against. Every position is found by walking from the start.
struct ReferenceField: Equatable {
    var text: String
    var selection: Range<Int>
    var marked: Range<Int>?

    init(text: String, cursor: Int) {
        self.text = text
        let caret = min(max(cursor, 0), text.count)
        selection = caret..<caret
    }

    var count: Int { text.count }

    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }

    /// Character boundaries of `text`, as UTF-8 offsets: 0, …, utf8.count.
    private var boundaries: [Int] {
        var offsets = [0]
        var utf8 = 0
        for character in text {
            utf8 += character.utf8.count
            offsets.append(utf8)
        }
        return offsets
    }

    private mutating func replace(_ range: Range<Int>, with replacement: String) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count), upper = min(max(range.upperBound, lower), count)
        if lower == upper && replacement.isEmpty { return lower..<upper }
        let start = text.utf8.distance(from: text.startIndex, to: index(lower))
        text.replaceSubrange(index(lower)..<index(upper), with: replacement)
        let end = start + replacement.utf8.count
        let bounds = boundaries
        let roundedDown = bounds.lastIndex { $0 <= start }!
        let roundedUp = bounds.firstIndex { $0 >= end }!
        return roundedDown..<max(roundedDown, roundedUp)
    }

    mutating func apply(_ operation: TextOperation) {
        switch operation {
        case .insertText(let text):
            let replaced = replace(marked ?? selection, with: text)
            marked = nil
            selection = replaced.upperBound..<replaced.upperBound
        case .deleteBackward:
            let target = selection.isEmpty ? max(selection.lowerBound - 1, 0)..<selection.lowerBound : selection
            if target.isEmpty { return }
            if let m = marked, m.lowerBound <= target.lowerBound, target.upperBound <= m.upperBound {
                let remaining = m.count - target.count
                let replaced = replace(target, with: "")
                marked = remaining > 0 ? m.lowerBound..<min(m.lowerBound + remaining, count) : nil
                selection = replaced.upperBound..<replaced.upperBound
            } else {
                marked = nil
                let replaced = replace(target, with: "")
                selection = replaced.upperBound..<replaced.upperBound
            }
        case .adjustTextPosition(let offset):
            let caret = min(max(selection.upperBound + offset, 0), count)
            marked = nil
            selection = caret..<caret
        case .setMarkedText(let text, let range):
            let replaced = replace(marked ?? selection, with: text)
            if replaced.isEmpty {
                marked = nil
                selection = replaced.lowerBound..<replaced.lowerBound
            } else {
                marked = replaced
                let lower = min(range.lowerBound, replaced.count), upper = min(max(range.upperBound, lower), replaced.count)
                selection = (replaced.lowerBound + lower)..<(replaced.lowerBound + upper)
            }
        case .unmarkText:
            marked = nil
        case .setSelectedRange(let range, _):
            select(range)
        case .deleteRange(let range, _):
            marked = nil
            let replaced = replace(range, with: "")
            selection = replaced.upperBound..<replaced.upperBound
        }
    }

    mutating func select(_ range: Range<Int>) {
        let lower = min(max(range.lowerBound, 0), count)
        marked = nil
        selection = lower..<min(max(range.upperBound, lower), count)
    }
}

/// The context policies' definitions (ContextPolicy's table), on an array of Characters.
enum PolicyDefinition {
    static func before(_ characters: [Character], end: Int, _ policy: ContextPolicy) -> String {
        var start = end
        switch policy {
        case .unlimited: start = 0
        case .characters(let n): start = max(0, end - n)
        case .utf8Bytes(let n):
            var bytes = 0
            while start > 0, bytes + characters[start - 1].utf8.count <= n {
                bytes += characters[start - 1].utf8.count
                start -= 1
            }
            if start == end && end > 0 { start -= 1 }  // at least one Character, however long
        case .sentence, .paragraph:
            while start > 0, !isBoundary(characters[start - 1], policy) { start -= 1 }
        }
        return String(characters[start..<end])
    }

    static func after(_ characters: [Character], start: Int, _ policy: ContextPolicy) -> String {
        var end = start
        switch policy {
        case .unlimited: end = characters.count
        case .characters(let n): end = min(characters.count, start + n)
        case .utf8Bytes(let n):
            var bytes = 0
            while end < characters.count, bytes + characters[end].utf8.count <= n {
                bytes += characters[end].utf8.count
                end += 1
            }
            if end == start && start < characters.count { end += 1 }
        case .sentence, .paragraph:
            while end < characters.count {
                end += 1
                if isBoundary(characters[end - 1], policy) { break }
            }
        }
        return String(characters[start..<end])
    }

    private static func isBoundary(_ character: Character, _ policy: ContextPolicy) -> Bool {
        if character.isNewline { return true }
        return policy == .sentence && [".", "!", "?", "。"].contains(character)
    }
}
