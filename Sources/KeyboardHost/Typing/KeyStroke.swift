import KeyboardModel

/// One thing the user types: a character (tapping the key that types it) or a named key.
///
/// Written as text, characters stand for themselves and named keys go in braces:
/// `"hello{delete}{return}"`. `{{` is a literal `{`. Names are the key codes (`delete`, `return`,
/// `space`, `shift`, `done`, `cancel`, `collapse`, `nextKeyboard`, `modeChange:numbers`, …, and
/// `action:NAME` for a key whose code is the layout's own action) and the aliases `backspace`, `enter`
/// and `globe`.
public enum KeyStroke: Hashable, Sendable, CustomStringConvertible {
    case character(Character)
    case key(KeyCode)

    public var description: String {
        switch self {
        case .character(let character): "\"\(character)\""
        case .key(let code): "{\(code)}"
        }
    }

    /// The strokes `text` spells, each with its place in `text` (1-based Characters) for messages.
    public static func parse(_ text: String) throws(KeyStrokeError) -> [(stroke: KeyStroke, place: Int)] {
        var strokes: [(KeyStroke, Int)] = []
        var characters = Array(text)[...]
        var place = 1
        while let character = characters.popFirst() {
            defer { place += 1 }
            guard character == "{" else {
                strokes.append((.character(character), place))
                continue
            }
            if characters.first == "{" {
                characters.removeFirst()
                strokes.append((.character("{"), place))
                place += 1
                continue
            }
            guard let close = characters.firstIndex(of: "}") else { throw .unclosedBrace(place: place) }
            let name = String(characters[..<close])
            characters = characters[characters.index(after: close)...]
            guard let code = aliases[name] ?? KeyCode(name) else { throw .unknownKeyName(name, place: place) }
            strokes.append((.key(code), place))
            place += name.count + 1
        }
        return strokes
    }

    private static let aliases: [String: KeyCode] = ["backspace": .delete, "enter": .return, "globe": .nextKeyboard]

    /// The names a brace may hold, but `action:NAME`: for messages and help.
    public static let names = ["delete", "return", "space", "shift", "done", "cancel", "collapse", "nextKeyboard"]
        + KeyboardMode.allCases.map { "modeChange:\($0.rawValue)" } + ["backspace", "enter", "globe"]
}

/// What is wrong with a text of key strokes, or with typing it on a keyboard.
public enum KeyStrokeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unclosedBrace(place: Int)
    case unknownKeyName(String, place: Int)
    case noKey(KeyStroke, place: Int, keyboard: String)

    public var description: String {
        switch self {
        case .unclosedBrace(let place):
            "'{' at character \(place) starts a key name that is never closed with '}' (write '{{' for a literal '{')"
        case .unknownKeyName(let name, let place):
            "unknown key name '{\(name)}' at character \(place)"
                + (Suggestion.nearest(to: name, among: KeyStroke.names).map { "; did you mean {\($0)}?" } ?? "")
                + " (expected \(KeyStroke.names.joined(separator: ", ")), action:NAME for a key of the layout's own)"
        case .noKey(let stroke, let place, let keyboard):
            "\(keyboard) has no key that types \(stroke) (character \(place))"
        }
    }
}
