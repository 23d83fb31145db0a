import KeyboardHost

/// C-x t: tap any key of the page shown, whether or not it types a character — a toolbar's
/// `read all`, a `▶`, the `123` key. The user types part of a key's label or of what it does
/// (`delete`, `readAll`), or its place (`2,3`: row 2, key 3, counted from 1); Tab goes to the next
/// key that matches (with nothing typed, through every key in order), Enter taps the one lit on the
/// keyboard, C-g or C-c leaves.
struct KeyPicker {
    /// What the user typed.
    private(set) var query = ""
    /// The keys that match, best first.
    private(set) var matches: [KeyPosition] = []
    /// Which of them is lit.
    private var selected = 0

    private let keys: [(position: KeyPosition, key: Key)]

    /// A picker over the keys of `page` of `layout`.
    init(layout: KeyboardLayout, page: Int) {
        keys = layout.keys(onPage: page)
        rank()
    }

    /// The lit key, if any matches.
    var choice: KeyPosition? { matches.isEmpty ? nil : matches[selected % matches.count] }

    mutating func type(_ character: Character) {
        query.append(character)
        rank()
    }

    mutating func deleteBackward() {
        guard !query.isEmpty else { return }
        query.removeLast()
        rank()
    }

    /// Tab: the next match, round again after the last.
    mutating func next() {
        guard !matches.isEmpty else { return }
        selected = (selected + 1) % matches.count
    }

    /// What the status row says: what was typed, the lit key and how many match, and the keys to use.
    func status(label: (KeyPosition) -> String) -> String {
        let found = choice.map { "→ \(label($0)) (\(selected + 1) of \(matches.count))" } ?? "no key matches"
        return "tap: \(query)▏ \(found)  Tab: next · Enter: tap · C-g: leave"
    }

    /// The keys that match, best first: a place (`row,key`) is exact; otherwise a label equal to the
    /// query, then one that begins with it, then one that contains it, then what the key does.
    private mutating func rank() {
        selected = 0
        let query = self.query.lowercased()
        if query.isEmpty {
            matches = keys.map(\.position)
            return
        }
        let place = query.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if place.count == 2, let key = keys.first(where: { $0.position.row == place[0] - 1 && $0.position.column == place[1] - 1 }) {
            matches = [key.position]
            return
        }
        func score(_ key: Key) -> Int? {
            let label = key.label.lowercased(), code = key.code.description.lowercased()
            if label == query { return 0 }
            if label.hasPrefix(query) { return 1 }
            if label.contains(query) { return 2 }
            if code == query || code == "action:" + query { return 3 }
            if code.contains(query) { return 4 }
            return nil
        }
        matches = keys.compactMap { entry in score(entry.key).map { (entry.position, $0) } }
            .enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
    }
}
