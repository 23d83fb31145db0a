import KeyboardHost

/// The field as rows of the terminal: a row per line of the document (split at line breaks), the
/// cursor's line and as many around it as fit, half above and half below where the document has
/// them. The first row starts with the prompt; the others with a gutter as wide, which says how many
/// lines are out of sight (`↑3`, `↓12`).
///
/// Each row is clipped to the width, never wrapped: a row cut short ends in "…". The cursor's row
/// scrolls sideways to keep the cursor in view, and says with a leading "…" that it did. Only the
/// text near the cursor is looked at (``reach`` Characters either way), so a long document costs the
/// rows drawn, not its length; a line longer than that is shown from where the look began, with "…".
struct FieldRows {
    /// The rows, styled, without line ends.
    let rows: [String]
    /// Which row the cursor is on, and its column.
    let cursorRow: Int
    let cursorColumn: Int

    /// How far from the cursor, in Characters, the rows are looked for.
    static let reach = 64 << 10

    init(prompt: String, text: String, cursor: Int, width: Int, maximumRows: Int, style: (String, String) -> String) {
        let prompt = TerminalText.escaped(prompt)
        let gutter = DisplayWidth.columns(of: prompt)
        let room = max(width - 1 - gutter, 4)

        let caret = text.index(text.startIndex, offsetBy: max(cursor, 0), limitedBy: text.endIndex) ?? text.endIndex
        let lower = text.index(caret, offsetBy: -Self.reach, limitedBy: text.startIndex) ?? text.startIndex
        let upper = text.index(caret, offsetBy: Self.reach, limitedBy: text.endIndex) ?? text.endIndex
        var above = text[lower..<caret].split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var below = text[caret..<upper].split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let head = above.removeLast(), tail = below.removeFirst()
        // Lines the look began or ended inside: shown with "…" where they go on.
        let firstIsPartial = lower > text.startIndex, lastIsPartial = upper < text.endIndex

        let budget = maximumRows - 1
        let shownAbove = min(above.count, max(budget - below.count, budget / 2))
        let shownBelow = min(below.count, budget - shownAbove)

        func line(_ line: Substring, partialStart: Bool) -> String {
            let text = (partialStart ? "…" : "") + TerminalText.escaped(line)
            return DisplayWidth.fitted(text, columns: room)
        }
        var lines: [String] = []
        for (index, text) in above.suffix(shownAbove).enumerated() {
            lines.append(line(text, partialStart: firstIsPartial && index == 0 && shownAbove == above.count))
        }
        let (row, column) = Self.cursorLine(
            head: head, tail: tail, room: room,
            cutBefore: firstIsPartial && above.isEmpty, cutAfter: lastIsPartial && below.isEmpty
        )
        lines.append(row)
        for text in below.prefix(shownBelow) {
            lines.append(line(text, partialStart: false))
        }

        // The gutters: the prompt, then how many lines are out of sight, where it fits.
        let hiddenAbove = above.count - shownAbove, hiddenBelow = below.count - shownBelow
        var gutters = [style(prompt, "1;36")] + Array(repeating: String(repeating: " ", count: gutter), count: lines.count - 1)
        func mark(_ index: Int, _ text: String) {
            guard index > 0, index < gutters.count, text.count + 1 <= gutter else { return }
            gutters[index] = String(repeating: " ", count: gutter - text.count - 1) + style(text, "2") + " "
        }
        if hiddenAbove > 0 || (firstIsPartial && shownAbove == above.count && shownAbove > 0) {
            mark(1, "↑" + (hiddenAbove > 0 ? "\(hiddenAbove)\(firstIsPartial ? "+" : "")" : "+"))
        }
        if hiddenBelow > 0 || (lastIsPartial && shownBelow > 0) {
            mark(gutters.count - 1, "↓" + (hiddenBelow > 0 ? "\(hiddenBelow)\(lastIsPartial ? "+" : "")" : "+"))
        }
        rows = zip(gutters, lines).map { $0 + $1 }
        cursorRow = shownAbove
        cursorColumn = gutter + column
    }

    /// The cursor's line, scrolled sideways: as much before the cursor as leaves a column for it,
    /// then as much after as fits; "…" where it was cut. Costs the row's width, not the line's length.
    private static func cursorLine(head: Substring, tail: Substring, room: Int, cutBefore: Bool, cutAfter: Bool) -> (String, Int) {
        func columns(_ character: Character) -> Int { DisplayWidth.columns(of: TerminalText.escaped(String(character))) }
        var start = head.endIndex, before = 0
        while start > head.startIndex {
            let previous = head.index(before: start)
            let width = columns(head[previous])
            if before + width > room - 1 { break }
            start = previous
            before += width
        }
        let leftCut = start > head.startIndex || cutBefore
        if leftCut {  // a column for the "…"
            while before + 1 > room - 1, start < head.endIndex {
                before -= columns(head[start])
                start = head.index(after: start)
            }
        }
        var end = tail.startIndex, used = before + (leftCut ? 1 : 0)
        while end < tail.endIndex {
            let width = columns(tail[end])
            if used + width > room { break }
            used += width
            end = tail.index(after: end)
        }
        var shownTail = TerminalText.escaped(tail[tail.startIndex..<end])
        if end < tail.endIndex || cutAfter {
            // The last column says the line goes on.
            var cut = tail[tail.startIndex..<end]
            while used + 1 > room, !cut.isEmpty {
                used -= columns(cut.removeLast())
            }
            shownTail = TerminalText.escaped(cut) + "…"
        }
        let row = (leftCut ? "…" : "") + TerminalText.escaped(head[start...]) + shownTail
        return (row, before + (leftCut ? 1 : 0))
    }
}
