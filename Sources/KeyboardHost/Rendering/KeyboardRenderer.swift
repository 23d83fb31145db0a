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

    /// The lines for sub-keyboard `state.subKeyboard` of `layout`.
    public func lines(layout: KeyboardLayout, state: KeyboardState, highlighted: KeyPosition?) -> [String] {
        guard layout.subKeyboards.indices.contains(state.subKeyboard) else { return [] }
        let keyboard = layout.subKeyboards[state.subKeyboard]
        return keyboard.rows.enumerated().map { row, keys in
            line(keys, row: row, subKeyboard: state.subKeyboard, gap: keyboard.horizontalGap, shift: state.shift, highlighted: highlighted)
        }
    }

    /// A row across the width: each key's left padding as blank columns, then its cell, with the
    /// sub-keyboard's gap between keys; all in proportion to the units they take.
    private func line(_ keys: [Key], row: Int, subKeyboard: Int, gap: Double, shift: ShiftState, highlighted: KeyPosition?) -> String {
        let available = max(width - 1, keys.count * 3)
        let units = keys.reduce(0) { $0 + max($1.leftPadding, 0) + max($1.width, 0.1) } + gap * Double(max(keys.count - 1, 0))
        let columnsPerUnit = Double(available) / max(units, 0.1)
        var line = ""
        var used = 0.0
        var drawn = 0
        // Cumulative rounding: the row always adds up to the same width.
        func take(_ units: Double, minimum: Int) -> Int {
            used += units * columnsPerUnit
            let columns = max(Int(used.rounded()) - drawn, minimum)
            drawn += columns
            return columns
        }
        for (column, key) in keys.enumerated() {
            let blank = take(max(key.leftPadding, 0) + (column > 0 ? gap : 0), minimum: 0)
            line += String(repeating: " ", count: blank)
            let cell = take(max(key.width, 0.1), minimum: 3)
            let position = KeyPosition(subKeyboard: subKeyboard, row: row, column: column)
            line += self.cell(label(key, shift: shift), width: cell, code: key.code, lit: position == highlighted)
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
