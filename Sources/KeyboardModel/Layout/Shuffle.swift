/// How a sub-keyboard is shuffled, as secure keyboards (banking, FIDO2 PIN pads) do so that someone
/// watching the screen or the touches cannot learn the input.
///
/// `keys` moves the input keys (label and value together) to other input positions; `values` gives
/// the input keys each other's values, so a key's label no longer says what it types. Each is
/// independent. A page without its own setting is not shuffled, unless its layout is ``KeyboardLayout/secure``:
/// then the secure keyboards' defaults apply — letters not shuffled; numbers and symbols shuffled;
/// values not shuffled.
public struct Shuffle: Codable, Hashable, Sendable {
    public var keys: Bool
    public var values: Bool

    public init(keys: Bool, values: Bool = false) {
        self.keys = keys
        self.values = values
    }

    /// The secure keyboards' defaults for a page of `mode`.
    public static func secureDefaults(for mode: KeyboardMode) -> Shuffle {
        Shuffle(keys: mode != .letters, values: false)
    }

    public static let none = Shuffle(keys: false, values: false)
}

extension KeyboardLayout {
    /// The layout with each sub-keyboard shuffled as its ``SubKeyboard/shuffle`` says. Only input keys
    /// move; a position keeps its geometry (width, height, padding), so the keyboard's shape is the same.
    /// Use the system's cryptographic random source (`SystemRandomNumberGenerator`, the default).
    public func shuffled<Random: RandomNumberGenerator>(using random: inout Random) -> KeyboardLayout {
        var layout = self
        for index in layout.subKeyboards.indices {
            let shuffle = layout.shuffle(of: index)
            guard shuffle.keys || shuffle.values else { continue }
            var rows = layout.subKeyboards[index].rows
            let positions = rows.indices.flatMap { row in rows[row].indices.filter { rows[row][$0].code == .input }.map { (row, $0) } }
            var keys = positions.map { rows[$0.0][$0.1] }
            if shuffle.keys { keys.shuffle(using: &random) }
            if shuffle.values {
                let values = keys.map(\.typedText).shuffled(using: &random)
                for i in keys.indices { keys[i].output = values[i] }
            }
            for (slot, (row, column)) in positions.enumerated() {
                let place = rows[row][column]
                rows[row][column] = Key(
                    code: .input, label: keys[slot].label, output: keys[slot].output,
                    width: place.width, height: place.height, leftPadding: place.leftPadding
                )
            }
            layout.subKeyboards[index].rows = rows
        }
        return layout
    }

    /// How sub-keyboard `index` is shuffled: its own setting, else the secure defaults for a secure
    /// layout, else not at all.
    public func shuffle(of index: Int) -> Shuffle {
        subKeyboards[index].shuffle ?? (secure ? .secureDefaults(for: subKeyboards[index].mode) : .none)
    }

    /// Whether any page shuffles.
    public var shuffles: Bool {
        subKeyboards.indices.contains { shuffle(of: $0).keys || shuffle(of: $0).values }
    }

    /// Shuffled with the system's cryptographic random source.
    public func shuffled() -> KeyboardLayout {
        var random = SystemRandomNumberGenerator()
        return shuffled(using: &random)
    }
}
