import Foundation
import KeyboardHost

/// The REPL's part of the terminal: the field's row (prompt and line), and beneath it a status row
/// and the keyboard. Everything is drawn relative to the field's row with plain cursor moves, each
/// row clipped to the width so nothing wraps; lines the REPL prints (submissions, help, the
/// inspector) go above, into the scrollback.
@MainActor
final class Screen {
    let colors: Bool

    init(colors: Bool) {
        self.colors = colors
    }

    /// Columns of the terminal (80 when it cannot be asked).
    var width: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Draws the field's row with the cursor after `cursor` Characters of `text`, and `below` under it.
    func draw(prompt: String, text: String, cursor: Int, below: [String]) {
        let width = self.width
        let (line, column) = fieldRow(prompt: prompt, text: text, cursor: cursor, width: width)
        var out = "\r" + line + Self.clearLine
        for row in below {
            out += "\r\n" + row + Self.clearLine
        }
        out += Self.clearBelow
        if !below.isEmpty { out += "\u{1B}[\(below.count)A" }
        out += "\r" + (column > 0 ? "\u{1B}[\(column)C" : "")
        write(out)
    }

    /// `text` as the terminal may show it: control characters escaped (``TerminalText``). For every
    /// piece of text an extension or the user controls, before it is styled.
    func safe(_ text: some StringProtocol) -> String {
        TerminalText.escaped(text)
    }

    /// Prints `lines` above the field (into the scrollback); the caller draws again after.
    func printAbove(_ lines: [String]) {
        write("\r" + Self.clearBelow + lines.map { $0 + Self.clearLine }.joined(separator: "\r\n") + "\r\n")
    }

    /// Leaves the field's row as it is, clears what is below, and moves to a new line: the terminal is
    /// handed back clean.
    func finish(prompt: String, text: String) {
        let (line, _) = fieldRow(prompt: prompt, text: text, cursor: text.count, width: width)
        write("\r" + line + Self.clearLine + Self.clearBelow + "\r\n")
    }

    func style(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// The row: the prompt, then as much of the text around the cursor as fits (a single-line field
    /// scrolls sideways), and the column of the cursor.
    private func fieldRow(prompt: String, text: String, cursor: Int, width: Int) -> (String, Int) {
        let prompt = TerminalText.escaped(prompt)
        let promptWidth = DisplayWidth.columns(of: prompt)
        let room = max(width - 1 - promptWidth, 4)
        // Out from the cursor, one Character at a time: as much before it as leaves a column for the
        // cursor, then as much after as fits. Costs the row's width, not the line's length. Each
        // Character as it is shown: a line break or an escape in the field drawn escaped, never acted on.
        let characters = Array(text)
        func shown(_ index: Int) -> String { TerminalText.escaped(String(characters[index])) }
        let cursor = min(cursor, characters.count)
        var start = cursor
        var before = 0
        while start > 0, before + DisplayWidth.columns(of: shown(start - 1)) <= room - 1 {
            start -= 1
            before += DisplayWidth.columns(of: shown(start))
        }
        var end = cursor
        var used = before
        while end < characters.count, used + DisplayWidth.columns(of: shown(end)) <= room {
            used += DisplayWidth.columns(of: shown(end))
            end += 1
        }
        return (style(prompt, "1;36") + TerminalText.escaped(String(characters[start..<end])), promptWidth + before)
    }

    /// The terminal's bell: the key click of a keyboard whose key feedback has sound.
    func bell() {
        write("\u{07}")
    }

    private static let clearLine = "\u{1B}[K"
    private static let clearBelow = "\u{1B}[J"

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
