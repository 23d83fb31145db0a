import KeyboardExtension

// What the benchmarks (kbhost-bench and the ordo-one suite) type into and read: documents, and a
// keyboard with nothing of its own to measure.

/// A paragraph of mixed text: Latin, accents, CJK, emoji sequences, sentences and a line break.
private let paragraph = "Typing café notes: 漢字 and 👩‍👩‍👧 with 🇫🇷 flags. Another sentence here! Done?\n"

/// Mixed text, one paragraph again and again.
public func sampleDocument(bytes: Int) -> String {
    var text = ""
    text.reserveCapacity(bytes + paragraph.utf8.count)
    while text.utf8.count < bytes { text += paragraph }
    return text
}

/// The same mixed text, each paragraph numbered so that no stretch of it repeats (a reader that
/// takes a window it has seen before for "nothing new" is not misled by the document's period).
public func numberedDocument(bytes: Int) -> String {
    var text = ""
    text.reserveCapacity(bytes + paragraph.utf8.count + 8)
    var number = 0
    while text.utf8.count < bytes {
        number += 1
        text += "\(number) " + paragraph
    }
    return text
}

/// The same size in one script: Chinese, no sentence break, no line break (a minified file is one
/// sentence too): for taps, whose cost should not depend on the script around the caret.
public func cjkDocument(bytes: Int) -> String {
    String(repeating: "漢字仮名交じり文", count: bytes / 24 + 1)
}

/// A keyboard with one key and delete: what is measured is the host and the wire, not a keyboard.
/// At the top level of a file, so that an isolated worker (this executable started again) finds it
/// by its name.
public final class OneKeyKeyboard: KeyboardViewController {
    override public func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [[.input("x"), Key(code: .delete, label: "⌫")]]),
        ]))
    }
}

