import KeyboardModel

/// One thing the user types: a character (tapping the key that types it), a named key, or a gesture
/// on either.
///
/// Written as text, characters stand for themselves and named keys go in braces:
/// `"hello{delete}{return}"`. `{{` is a literal `{`. Names are the key codes (`delete`, `return`,
/// `space`, `shift`, `done`, `cancel`, `collapse`, `nextKeyboard`, `modeChange:numbers`, …, and
/// `action:NAME` for a key whose code is the layout's own action) and the aliases `backspace`, `enter`
/// and `globe`. Gestures (``KeyGesture``) name their key — a character or a key name — after the
/// gesture: `{longpress:e:é}` long-presses `e` and lifts on its callout `é` (`{longpress:e}` lifts on
/// none), `{hold:delete:2s}` holds delete for 2 s of the host's clock (`500ms` works too),
/// `{drag:space:-5}` drags the space bar five steps left.
public indirect enum KeyStroke: Hashable, Sendable, CustomStringConvertible {
    case character(Character)
    case key(KeyCode)
    /// A gesture on the key a character or a key name stands for.
    case gesture(KeyGesture, on: KeyStroke)

    public var description: String {
        switch self {
        case .character(let character): "\"\(character)\""
        case .key(let code): "{\(code)}"
        case .gesture(let gesture, let target): "\(gesture) on \(target)"
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
            if let gesture = try gesture(name, place: place) {
                strokes.append((gesture, place))
            } else {
                guard let code = key(named: name) else { throw .unknownKeyName(name, place: place) }
                strokes.append((.key(code), place))
            }
            place += name.count + 1
        }
        return strokes
    }

    private static let aliases: [String: KeyCode] = ["backspace": .delete, "enter": .return, "globe": .nextKeyboard]

    private static func key(named name: String) -> KeyCode? { aliases[name] ?? KeyCode(name) }

    /// The gesture a brace's `name` spells (`longpress:e:é`, `hold:delete:2s`, `drag:space:-5`), or
    /// `nil` if it names no gesture.
    private static func gesture(_ name: String, place: Int) throws(KeyStrokeError) -> KeyStroke? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let kind = name[..<colon], rest = String(name[name.index(after: colon)...])
        guard ["longpress", "hold", "drag"].contains(kind) else { return nil }
        if kind == "longpress" {
            // `longpress:KEY` or `longpress:KEY:CALLOUT`; a key name may hold a colon itself
            // (`modeChange:numbers`), so the whole rest is tried as a key first.
            if key(named: rest) != nil || rest.count == 1 { return .gesture(.longPress(callout: nil), on: try target(rest[...], in: name, place: place)) }
            guard let last = rest.lastIndex(of: ":"), rest.index(after: last) != rest.endIndex else {
                throw .badGesture(name, place: place, problem: "write {longpress:KEY} or {longpress:KEY:CALLOUT}")
            }
            return .gesture(.longPress(callout: String(rest[rest.index(after: last)...])), on: try target(rest[..<last], in: name, place: place))
        }
        guard let last = rest.lastIndex(of: ":") else {
            throw .badGesture(name, place: place, problem: kind == "hold" ? "write {hold:KEY:DURATION}, e.g. {hold:delete:2s}" : "write {drag:KEY:STEPS}, e.g. {drag:space:-5}")
        }
        let pressed = try target(rest[..<last], in: name, place: place), amount = rest[rest.index(after: last)...]
        if kind == "hold" {
            let duration: Duration
            do {
                duration = try DurationText.parse(amount)
            } catch .tooLong {
                throw .badGesture(name, place: place, problem: "'\(amount)' is too long: \(DurationText.Problem.tooLong)")
            } catch {
                duration = .zero  // no unit, or negative: refused below, as zero is
            }
            guard duration > .zero else {
                throw .badGesture(name, place: place, problem: "'\(amount)' is not a duration above 0 (write 2s, 1.5s or 500ms)")
            }
            return .gesture(.hold(duration), on: pressed)
        }
        guard let steps = Int(amount), steps != 0 else {
            throw .badGesture(name, place: place, problem: "'\(amount)' is not a whole number of steps other than 0 (negative goes left)")
        }
        return .gesture(.drag(steps: steps), on: pressed)
    }

    /// The key a gesture names: a key name, or one character.
    private static func target(_ text: Substring, in name: String, place: Int) throws(KeyStrokeError) -> KeyStroke {
        if let code = key(named: String(text)) { return .key(code) }
        guard text.count == 1, let character = text.first else {
            throw .badGesture(name, place: place, problem: "'\(text)' is neither one character nor a key name")
        }
        return .character(character)
    }

    /// The names a brace may hold, but `action:NAME`: for messages and help.
    public static let names = ["delete", "return", "space", "shift", "done", "cancel", "collapse", "nextKeyboard"]
        + KeyboardMode.allCases.map { "modeChange:\($0.rawValue)" } + ["backspace", "enter", "globe"]

    /// The gestures a brace may hold, for messages and help.
    public static let gestureForms = ["longpress:KEY[:CALLOUT]", "hold:KEY:DURATION", "drag:KEY:STEPS"]
}

/// What is wrong with a text of key strokes, or with typing it on a keyboard.
public enum KeyStrokeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unclosedBrace(place: Int)
    case unknownKeyName(String, place: Int)
    case noKey(KeyStroke, place: Int, keyboard: String)
    case badGesture(String, place: Int, problem: String)

    public var description: String {
        switch self {
        case .unclosedBrace(let place):
            "'{' at character \(place) starts a key name that is never closed with '}' (write '{{' for a literal '{')"
        case .unknownKeyName(let name, let place):
            "unknown key name '{\(name)}' at character \(place)"
                + (Suggestion.nearest(to: name, among: KeyStroke.names).map { "; did you mean {\($0)}?" } ?? "")
                + " (expected \(KeyStroke.names.joined(separator: ", ")), action:NAME for a key of the layout's own,"
                + " or a gesture: \(KeyStroke.gestureForms.joined(separator: ", ")))"
        case .noKey(let stroke, let place, let keyboard):
            "\(keyboard) has no key that types \(stroke) (character \(place))"
        case .badGesture(let name, let place, let problem):
            "'{\(name)}' at character \(place): \(problem)"
        }
    }
}
