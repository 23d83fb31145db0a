/// A keyboard's keys: one or more sub-keyboards (letters, numbers, symbols), each rows of keys.
///
/// A key is addressed by position — sub-keyboard, row, column, all from 0 — which is what the host
/// sends in a key event (`kbx_key_event`).
public struct KeyboardLayout: Codable, Hashable, Sendable {
    public var subKeyboards: [SubKeyboard]

    public init(subKeyboards: [SubKeyboard]) {
        self.subKeyboards = subKeyboards
    }

    /// The first sub-keyboard of `mode`, if any.
    public func subKeyboard(for mode: KeyboardMode) -> Int? {
        subKeyboards.firstIndex { $0.mode == mode }
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
    /// Whether a physical keyboard uses this page by position rather than by label: typing "1" taps
    /// whatever key sits where "1" sits on a standard pad. Secure PIN pads shuffle their labels and
    /// ask for this, so that the user's finger, not the label, chooses.
    public var tapByPosition: Bool

    public init(mode: KeyboardMode, rows: [[Key]], tapByPosition: Bool = false) {
        self.mode = mode
        self.rows = rows
        self.tapByPosition = tapByPosition
    }

    private enum CodingKeys: String, CodingKey { case mode, rows, tapByPosition }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(KeyboardMode.self, forKey: .mode)
        rows = try container.decode([[Key]].self, forKey: .rows)
        tapByPosition = try container.decodeIfPresent(Bool.self, forKey: .tapByPosition) ?? false
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
