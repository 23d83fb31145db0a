/// A keyboard's keys: one or more sub-keyboards (letters, numbers, symbols), each rows of keys.
///
/// A key is addressed by position — sub-keyboard, row, column, all from 0 — which is what the host
/// sends in a key event (`kbx_key_event`).
public struct KeyboardLayout: Codable, Hashable, Sendable {
    public var subKeyboards: [SubKeyboard]
    /// A secure keyboard's layout (a PIN pad): pages without their own ``SubKeyboard/shuffle`` take the
    /// secure defaults (``Shuffle/secureDefaults(for:)``).
    public var secure: Bool

    public init(subKeyboards: [SubKeyboard], secure: Bool = false) {
        self.subKeyboards = subKeyboards
        self.secure = secure
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case subKeyboards, secure }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subKeyboards = try container.decode([SubKeyboard].self, forKey: .subKeyboards)
        secure = try container.decodeIfPresent(Bool.self, forKey: .secure) ?? false
        let keys = subKeyboards.reduce(0) { $0 + $1.rows.reduce(0) { $0 + $1.count } }
        if keys > Self.maximumKeys {
            throw DecodingError.dataCorruptedError(
                forKey: .subKeyboards, in: container,
                debugDescription: "\(keys) keys, more than the \(Self.maximumKeys) a layout may have"
            )
        }
    }

    /// The most keys a layout may have, over all its sub-keyboards: an emoji keyboard's pages hold a
    /// few thousand; every key is drawn and planned for, so the host refuses far more at the door.
    public static let maximumKeys = 10_000

    /// The first sub-keyboard of `mode`, if any.
    public func subKeyboard(for mode: KeyboardMode) -> Int? {
        subKeyboards.firstIndex { $0.mode == mode }
    }

    /// The keys of sub-keyboard `page` with their positions, row by row; none if there is no such page.
    public func keys(onPage page: Int) -> [(position: KeyPosition, key: Key)] {
        guard subKeyboards.indices.contains(page) else { return [] }
        return subKeyboards[page].rows.enumerated().flatMap { row, keys in
            keys.enumerated().map { (KeyPosition(subKeyboard: page, row: row, column: $0.offset), $0.element) }
        }
    }

    /// The first key of sub-keyboard `page`, row by row, that `matches`. Allocates nothing: the key
    /// planner asks on every tap.
    public func firstPosition(onPage page: Int, where matches: (Key) -> Bool) -> KeyPosition? {
        guard subKeyboards.indices.contains(page) else { return nil }
        for (row, keys) in subKeyboards[page].rows.enumerated() {
            if let column = keys.firstIndex(where: matches) { return KeyPosition(subKeyboard: page, row: row, column: column) }
        }
        return nil
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
    /// Space around the rows.
    public var margins: Margins
    /// Space between keys of a row, and between rows, in key units (a standard key is 1 wide).
    public var horizontalGap: Double
    public var verticalGap: Double
    /// How the page is shuffled (``KeyboardLayout/shuffled(using:)``); `nil`: as the layout says
    /// (``KeyboardLayout/shuffle(of:)``).
    public var shuffle: Shuffle?

    public init(
        mode: KeyboardMode, rows: [[Key]], tapByPosition: Bool = false, margins: Margins = Margins(),
        horizontalGap: Double = 0, verticalGap: Double = 0, shuffle: Shuffle? = nil
    ) {
        self.mode = mode
        self.rows = rows
        self.tapByPosition = tapByPosition
        self.margins = margins
        self.horizontalGap = horizontalGap
        self.verticalGap = verticalGap
        self.shuffle = shuffle
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case mode, rows, tapByPosition, margins, horizontalGap, verticalGap, shuffle
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(KeyboardMode.self, forKey: .mode)
        rows = try container.decode([[Key]].self, forKey: .rows)
        tapByPosition = try container.decodeIfPresent(Bool.self, forKey: .tapByPosition) ?? false
        margins = try container.decodeIfPresent(Margins.self, forKey: .margins) ?? Margins()
        horizontalGap = try container.decodeIfPresent(Double.self, forKey: .horizontalGap) ?? 0
        verticalGap = try container.decodeIfPresent(Double.self, forKey: .verticalGap) ?? 0
        shuffle = try container.decodeIfPresent(Shuffle.self, forKey: .shuffle)
        for (value, key) in [(horizontalGap, CodingKeys.horizontalGap), (verticalGap, .verticalGap)] where !(value.isFinite && value >= 0) {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected a number of 0 or more")
        }
    }
}

/// Space around a sub-keyboard's rows: each side a fraction of the keyboard's width (or height), or an
/// absolute size in key units. In JSON: `{"left": {"fraction": 0.02}, "top": {"absolute": 0.5}}`.
public struct Margins: Codable, Hashable, Sendable {
    public var left: Length
    public var right: Length
    public var top: Length
    public var bottom: Length

    public init(left: Length = .absolute(0), right: Length = .absolute(0), top: Length = .absolute(0), bottom: Length = .absolute(0)) {
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
    }

    public enum Length: Codable, Hashable, Sendable {
        case fraction(Double)
        case absolute(Double)

        private enum CodingKeys: String, CodingKey, CaseIterable { case fraction, absolute }

        public init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch (try container.decodeIfPresent(Double.self, forKey: .fraction), try container.decodeIfPresent(Double.self, forKey: .absolute)) {
            case (let fraction?, nil):
                guard fraction.isFinite, (0..<0.5).contains(fraction) else {
                    throw DecodingError.dataCorruptedError(forKey: .fraction, in: container, debugDescription: "expected a fraction from 0 to below 0.5")
                }
                self = .fraction(fraction)
            case (nil, let absolute?):
                guard absolute.isFinite, absolute >= 0 else {
                    throw DecodingError.dataCorruptedError(forKey: .absolute, in: container, debugDescription: "expected a number of 0 or more")
                }
                self = .absolute(absolute)
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected either {\"fraction\": x} or {\"absolute\": x}"))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .fraction(let value): try container.encode(value, forKey: .fraction)
            case .absolute(let value): try container.encode(value, forKey: .absolute)
            }
        }

        /// The length in key units, for a keyboard `total` units across.
        public func units(of total: Double) -> Double {
            switch self {
            case .fraction(let fraction): fraction * total
            case .absolute(let units): units
            }
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case left, right, top, bottom }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        left = try container.decodeIfPresent(Length.self, forKey: .left) ?? .absolute(0)
        right = try container.decodeIfPresent(Length.self, forKey: .right) ?? .absolute(0)
        top = try container.decodeIfPresent(Length.self, forKey: .top) ?? .absolute(0)
        bottom = try container.decodeIfPresent(Length.self, forKey: .bottom) ?? .absolute(0)
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
