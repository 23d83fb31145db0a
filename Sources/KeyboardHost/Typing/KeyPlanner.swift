import KeyboardModel

/// Plans the taps that type one stroke on a keyboard as it is now, as a person would:
///
/// 1. a sub-keyboard used by position (a shuffled PIN pad) takes the key at the character's place on a
///    standard pad (``PhysicalKeyMap``);
/// 2. otherwise the key on the shown sub-keyboard that types the character, or has the named code;
/// 3. a letter in the other case: shift (tapped until it is in the state that types it), then the key;
/// 4. a key on another sub-keyboard: the mode keys that lead there (fewest taps), then the key.
public enum KeyPlanner {
    /// Taps a host makes for one stroke before it gives up: a keyboard that keeps changing under the
    /// plan (a shift that will not stay off) must not keep it tapping forever.
    public static let maximumTapsPerStroke = 6

    /// The taps, or `nil` when the keyboard cannot type the stroke from here. For a gesture, the taps
    /// that reach its key, and then its key (which the gesture presses rather than taps).
    public static func taps(for stroke: KeyStroke, layout: KeyboardLayout, state: KeyboardState) -> [KeyPosition]? {
        if case .gesture(_, let target) = stroke { return taps(for: target, layout: layout, state: state) }
        return taps(for: stroke, layout: layout, state: state, visited: [])
    }

    /// `visited`: sub-keyboards the plan has passed through, so mode keys never go round in a circle.
    private static func taps(
        for stroke: KeyStroke, layout: KeyboardLayout, state: KeyboardState, visited: Set<Int>
    ) -> [KeyPosition]? {
        let current = state.subKeyboard
        guard layout.subKeyboards.indices.contains(current) else { return nil }
        if layout.subKeyboards[current].tapByPosition, case .character(let character) = stroke,
           let place = PhysicalKeyMap.place(of: character, mode: layout.subKeyboards[current].mode),
           layout.key(at: KeyPosition(subKeyboard: current, row: place.row, column: place.column)) != nil {
            return [KeyPosition(subKeyboard: current, row: place.row, column: place.column)]
        }
        if let position = find(stroke, on: current, layout, shift: state.shift) {
            return [position]
        }
        if case .character = stroke, let shiftKey = find(.key(.shift), on: current, layout, shift: state.shift) {
            // Each shift tap moves off -> on -> caps lock -> off; try the states in that order.
            var shift = state.shift
            var presses: [KeyPosition] = []
            for _ in 0..<2 {
                shift = shift == .off ? .on : shift == .on ? .capsLock : .off
                presses.append(shiftKey)
                if let position = find(stroke, on: current, layout, shift: shift) { return presses + [position] }
            }
        }
        // Through mode keys, shortest first: a page one mode key away before one two away (QWERTY's
        // symbols are reached from letters through numbers).
        let seen = visited.union([current])
        var best: [KeyPosition]?
        for (index, keyboard) in layout.subKeyboards.enumerated() where !seen.contains(index) {
            guard let modeKey = find(.key(.modeChange(keyboard.mode)), on: current, layout, shift: state.shift),
                  let rest = taps(for: stroke, layout: layout, state: KeyboardState(subKeyboard: index), visited: seen)
            else { continue }
            if best == nil || rest.count + 1 < best!.count { best = [modeKey] + rest }
        }
        return best
    }

    private static func find(_ stroke: KeyStroke, on subKeyboard: Int, _ layout: KeyboardLayout, shift: ShiftState) -> KeyPosition? {
        layout.firstPosition(onPage: subKeyboard) { key in
            switch stroke {
            case .character(let character): key.typedText(shift: shift) == String(character)
            case .key(let code): key.code == code
            case .gesture: false  // planned by its key (taps(for:layout:state:))
            }
        }
    }
}

/// Where characters sit on a standard physical pad, for sub-keyboards used by position.
public enum PhysicalKeyMap {
    /// Rows of a standard pad per mode; a space is a place with no character.
    public static let rows: [KeyboardMode: [String]] = [
        .numbers: ["123", "456", "789", " 0 "],
        .letters: ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
    ]

    public static func place(of character: Character, mode: KeyboardMode) -> (row: Int, column: Int)? {
        guard character != " ", let rows = rows[mode] else { return nil }
        let lower = Character(character.lowercased())
        for (row, text) in rows.enumerated() {
            if let column = text.firstIndex(of: lower).map({ text.distance(from: text.startIndex, to: $0) }) {
                return (row, column)
            }
        }
        return nil
    }
}
