import KeyboardModel

/// Draws a keyboard as lines of terminal text: each row of keys across `width` columns, each key as
/// wide as its weight says, the shift state on the labels, and the last key tapped highlighted.
///
/// With `colors`, keys are drawn on a background (ANSI SGR) in the configuration's ``Appearance/Theme``;
/// without (or with the `plain` theme), in brackets, so the layout reads the same in plain text (a pipe,
/// a `TERM=dumb` terminal, `NO_COLOR`).
public struct KeyboardRenderer: Sendable {
    public var width: Int
    public var colors: Bool
    public var appearance: Appearance

    public init(width: Int, colors: Bool, appearance: Appearance = Appearance()) {
        self.width = width
        self.colors = colors
        self.appearance = appearance
    }

    private var drawsColors: Bool { colors && appearance.theme != .plain }

    /// The lines for sub-keyboard `state.subKeyboard` of `layout`: a line per row.
    ///
    /// A column is a point of ``KeyboardGeometry``'s frames (the ones `kbhost render` draws and a touch
    /// is resolved by) for a keyboard as wide as the terminal: weights, paddings, gaps and margins as
    /// the picture has them, and a blank where a key from the row above reaches down. A key keeps at
    /// least 3 columns, so on a narrow terminal a row may run past its width rather than lose a label.
    public func lines(layout: KeyboardLayout, state: KeyboardState, highlighted: KeyPosition?) -> [String] {
        guard layout.subKeyboards.indices.contains(state.subKeyboard) else { return [] }
        let rows = layout.subKeyboards[state.subKeyboard].rows
        let columns = max(width - 1, (rows.map(\.count).max() ?? 0) * 3)
        let geometry = KeyboardGeometry(layout: layout, page: state.subKeyboard, width: Double(columns))
        var placed = Array(repeating: [KeyboardGeometry.PlacedKey](), count: rows.count)
        for key in geometry.keys { placed[key.position.row].append(key) }
        return placed.map { line($0, shift: state.shift, highlighted: highlighted) }
    }

    /// A row: each key's cell from its frame's left edge to its right, rounded to columns, blanks
    /// between (paddings, gaps, what a key from above takes).
    private func line(_ keys: [KeyboardGeometry.PlacedKey], shift: ShiftState, highlighted: KeyPosition?) -> String {
        var line = ""
        var drawn = 0
        for placed in keys.sorted(by: { $0.frame.x < $1.frame.x }) {
            let start = max(Int(placed.frame.x.rounded()), drawn)
            line += String(repeating: " ", count: start - drawn)
            let end = max(Int(placed.frame.maxX.rounded()), start + 3)
            line += cell(label(placed.key, shift: shift), width: end - start, code: placed.key.code, lit: placed.position == highlighted)
            drawn = end
        }
        return line
    }

    func label(_ key: Key, shift: ShiftState) -> String {
        key.shownLabel(shift: shift, appearance: appearance)
    }

    private func cell(_ label: String, width: Int, code: KeyCode, lit: Bool) -> String {
        let inner = drawsColors ? width - 1 : width - 2
        // A label is the extension's text: an escape sequence in it is drawn, not obeyed.
        let text = DisplayWidth.prefix(of: TerminalText.escaped(label), fitting: max(inner, 1))
        let padding = max(inner - DisplayWidth.columns(of: text), 0)
        let centred = String(repeating: " ", count: padding / 2) + text + String(repeating: " ", count: padding - padding / 2)
        guard drawsColors else { return lit ? "<\(centred)>" : "[\(centred)]" }
        // 256-colour greys: input keys a step lighter (dark theme) or brighter (light) than the others.
        let style = switch (lit, appearance.theme, code == .input) {
        case (true, _, _): "\u{1B}[7m"
        case (false, .light, true): "\u{1B}[48;5;255;38;5;16m"
        case (false, .light, false): "\u{1B}[48;5;250;38;5;16m"
        case (false, _, true): "\u{1B}[48;5;238m"
        case (false, _, false): "\u{1B}[48;5;236m"
        }
        return style + centred + "\u{1B}[0m "
    }
}
