import Foundation
import KeyboardHost

/// The REPL's part of the terminal: the field's rows (the prompt and the document, a row per line
/// around the cursor's), and beneath them a status row and the keyboard. Everything is drawn relative
/// to the cursor's row with plain cursor moves, each row clipped to the width so nothing wraps; lines
/// the REPL prints (submissions, help, the inspector, what a read returned) go above, into the
/// scrollback, where the terminal scrolls them.
@MainActor
final class Screen {
    let colors: Bool
    /// The most rows the field takes; fewer on a short terminal, so the keyboard stays on screen.
    static let maximumFieldRows = 8

    init(colors: Bool) {
        self.colors = colors
    }

    /// Columns of the terminal (80 when it cannot be asked).
    var width: Int { size.columns }

    /// Rows and columns of the terminal (24 × 80 when it cannot be asked).
    var size: (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (24, 80) }
        return (size.ws_row > 0 ? Int(size.ws_row) : 24, Int(size.ws_col))
    }

    /// Which of the field's rows the terminal's cursor was left on by the last drawing: the next one
    /// starts by going back up to the first.
    private var cursorRow = 0

    /// Draws the field's rows with the cursor after `cursor` Characters of `text`, and `below` under them.
    func draw(prompt: String, text: String, cursor: Int, below: [String]) {
        let size = self.size
        let maximumRows = max(1, min(Self.maximumFieldRows, size.rows - below.count - 1))
        let field = FieldRows(prompt: prompt, text: text, cursor: cursor, width: size.columns, maximumRows: maximumRows, style: style)
        var out = up(cursorRow) + "\r"
        for (index, row) in (field.rows + below).enumerated() {
            out += (index > 0 ? "\r\n" : "") + row + Self.clearLine
        }
        out += Self.clearBelow
        let rowsUnder = field.rows.count - 1 - field.cursorRow + below.count
        if rowsUnder > 0 { out += "\u{1B}[\(rowsUnder)A" }
        out += "\r" + (field.cursorColumn > 0 ? "\u{1B}[\(field.cursorColumn)C" : "")
        cursorRow = field.cursorRow
        write(out)
    }

    /// `text` as the terminal may show it: control characters escaped (``TerminalText``). For every
    /// piece of text an extension or the user controls, before it is styled.
    func safe(_ text: some StringProtocol) -> String {
        TerminalText.escaped(text)
    }

    /// Lines printed above the field, not yet written: they go out with the next drawing, in the
    /// same write, so the terminal never shows them with the field and keyboard not yet drawn back
    /// below (a flash to the user; a test that read the screen then saw no field, as CI once did).
    private var above = ""

    /// Prints `lines` above the field (into the scrollback); the caller draws again after, and the
    /// lines are written with that drawing.
    func printAbove(_ lines: [String]) {
        above += up(cursorRow) + "\r" + Self.clearBelow + lines.map { $0 + Self.clearLine }.joined(separator: "\r\n") + "\r\n"
        cursorRow = 0
    }

    /// Leaves the field's rows as they are, clears what is below, and moves to a new line: the
    /// terminal is handed back clean.
    func finish(prompt: String, text: String, cursor: Int) {
        let size = self.size
        let field = FieldRows(prompt: prompt, text: text, cursor: cursor, width: size.columns,
                              maximumRows: max(1, min(Self.maximumFieldRows, size.rows - 1)), style: style)
        write(up(cursorRow) + "\r" + field.rows.map { $0 + Self.clearLine }.joined(separator: "\r\n") + Self.clearBelow + "\r\n")
        cursorRow = 0
    }

    func style(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    private func up(_ rows: Int) -> String {
        rows > 0 ? "\u{1B}[\(rows)A" : ""
    }

    /// The terminal's bell: the key click of a keyboard whose key feedback has sound.
    func bell() {
        write("\u{07}")
    }

    private static let clearLine = "\u{1B}[K"
    private static let clearBelow = "\u{1B}[J"

    private func write(_ text: String) {
        let frame = above + text
        above = ""
        FileHandle.standardOutput.write(Data(frame.utf8))
    }
}
