/// How many terminal columns text takes: 2 for East Asian wide characters and emoji shown as emoji,
/// 0 for marks and invisible format characters, 1 otherwise; a Character takes the width of its widest
/// part. An approximation of what terminals do (they disagree on some emoji), without locale.
public enum DisplayWidth {
    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    public static func columns(of character: Character) -> Int {
        if character.isNewline { return 0 }
        var width = 0
        for scalar in character.unicodeScalars {
            if scalar.properties.isEmojiPresentation || scalar == "\u{FE0F}" { return 2 }
            width = max(width, columns(of: scalar))
        }
        return width
    }

    static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        let value = scalar.value
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, by block).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` if it fits in `columns`, else as much as fits with "…" in the last column: a cut row
    /// says it was cut.
    public static func fitted(_ text: String, columns: Int) -> String {
        guard Self.columns(of: text) > columns else { return text }
        return columns > 0 ? prefix(of: text, fitting: columns - 1) + "…" : ""
    }

    /// The longest suffix of `text` that fits in `columns`, in whole Characters.
    public static func suffix(of text: String, fitting columns: Int) -> String {
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let width = Self.columns(of: text[previous])
            if used + width > columns { break }
            used += width
            start = previous
        }
        return String(text[start...])
    }

    /// The longest prefix of `text` that fits in `columns`, in whole Characters.
    public static func prefix(of text: String, fitting columns: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let width = Self.columns(of: character)
            if used + width > columns { break }
            used += width
            result.append(character)
        }
        return result
    }
}
