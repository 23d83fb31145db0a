/// "Did you mean …?": the candidate nearest a mistyped word, if it is near enough to be what was
/// meant. Near is the optimal-string-alignment distance (insertions, deletions, substitutions and
/// swaps of two neighbours, each 1), so `lsit` is one step from `list`.
public enum Suggestion {
    /// The nearest of `candidates` to `word`, if at most a third of its length away (at least 1,
    /// at most 3 edits); ties go to the first.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = distance(Array(word.lowercased()), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the table: the one before last, the last, this one.
        var before = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], before[j - 2] + 1)
                }
            }
            (before, last, row) = (last, row, before)
        }
        return last[b.count]
    }
}
