/// A keyboard's keys: one or more sub-keyboards (letters, numbers, symbols), each rows of keys.
///
/// A key is addressed by position — sub-keyboard, row, column, all from 0 — which is what the host
/// sends in a key event (`kbx_key_event`).
public struct KeyboardLayout: Codable, Hashable, Sendable {
    public var subKeyboards: [SubKeyboard]

    public init(subKeyboards: [SubKeyboard]) {
        self.subKeyboards = subKeyboards
    }

    /// The key at a position, or `nil` when the layout has none there.
    public func key(at position: KeyPosition) -> Key? {
        guard subKeyboards.indices.contains(position.subKeyboard) else { return nil }
        let rows = subKeyboards[position.subKeyboard].rows
        guard rows.indices.contains(position.row), rows[position.row].indices.contains(position.column)
        else { return nil }
        return rows[position.row][position.column]
    }
}

/// One page of a keyboard.
public struct SubKeyboard: Codable, Hashable, Sendable {
    public var mode: KeyboardMode
    public var rows: [[Key]]

    public init(mode: KeyboardMode, rows: [[Key]]) {
        self.mode = mode
        self.rows = rows
    }
}

/// Which page a sub-keyboard is.
public enum KeyboardMode: String, Codable, Hashable, Sendable, CaseIterable {
    case letters, numbers, symbols
}

/// Where a key is: sub-keyboard, row and column, from 0.
public struct KeyPosition: Hashable, Sendable, CustomStringConvertible {
    public var subKeyboard: Int
    public var row: Int
    public var column: Int

    public init(subKeyboard: Int, row: Int, column: Int) {
        self.subKeyboard = subKeyboard
        self.row = row
        self.column = column
    }

    public var description: String { "sub-keyboard \(subKeyboard), row \(row), column \(column)" }
}
