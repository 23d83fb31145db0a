import PropertyBased

/// Pieces of text with every kind of cluster the field must never split, and the characters the
/// context policies cut at. Random concatenations make new clusters where pieces meet (a lone regional
/// indicator next to a flag, a combining mark after a letter), which is the point.
public enum UnicodeSamples {
    public static let atoms: [String] = [
        "a", "b", "Z", " ", "  ", "hello", "ünï", "ß",                    // letters, precomposed
        ".", "!", "?", "。", "...",                                       // sentence terminators
        "\n", "\r\n", "\r", "\u{2028}", "\n\n", "\u{85}", "\u{0C}",          // line breaks, CRLF
        "\u{600}", "\u{110BD}",                                          // prepends: "\u{600}." is one Character
        "e\u{301}", "a\u{308}\u{301}", "\u{301}", "\u{20DD}",             // combining marks, a lone one
        "👩‍👩‍👧", "👨‍💻", "🏳️‍🌈", "\u{200D}",                                // ZWJ sequences, a lone ZWJ
        "🇫🇷", "🇯🇵", "🇩",                                               // flags, a lone regional indicator
        "👍🏽", "🏽", "❤️", "1️⃣",                                          // skin tones, variation selectors, keycap
        "\u{1100}\u{1161}\u{11A8}", "한", "\u{1100}", "\u{1161}",         // Hangul: L V T jamo, syllable, lone jamo
        "क्षि", "नमस्ते", "\u{94D}",                                       // Devanagari conjuncts, a lone virama
        "漢字", "ไทย", "🙂",
    ]

    /// A document of up to `pieces` atoms.
    public static func document(pieces: ClosedRange<Int> = 0...40) -> Generator<String, some Sequence & SendableMetatype> {
        Gen.element(of: atoms).array(of: pieces).map { $0.compactMap { $0 }.joined() }
    }
}
