import Benchmark
import KeyboardExtension

// Release benchmarks of the host and the SDK. Run:
//   KBHOST_BENCHMARKS=1 swift package benchmark
// or one group: … benchmark --filter "Full document.*"

let benchmarks: @Sendable () -> Void = {
    textFieldBenchmarks()
    fullDocumentBenchmarks()
    isolationBenchmarks()
    anchorBenchmarks()
}

/// Mixed text: Latin, accents, CJK, emoji sequences, sentences and line breaks.
func sampleDocument(bytes: Int) -> String {
    let paragraph = "Typing café notes: 漢字 and 👩‍👩‍👧 with 🇫🇷 flags. Another sentence here! Done?\n"
    var text = ""
    text.reserveCapacity(bytes + paragraph.utf8.count)
    while text.utf8.count < bytes { text += paragraph }
    return text
}

/// The same mixed text, each paragraph numbered: no stretch of it repeats, so a reader that takes a
/// window it has seen before for "nothing new" (the anchor) is not misled by the document's period.
func numberedDocument(bytes: Int) -> String {
    let paragraph = "Typing café notes: 漢字 and 👩‍👩‍👧 with 🇫🇷 flags. Another sentence here! Done?\n"
    var text = ""
    text.reserveCapacity(bytes + paragraph.utf8.count + 8)
    var number = 0
    while text.utf8.count < bytes {
        number += 1
        text += "\(number) " + paragraph
    }
    return text
}

/// A keyboard with one key and delete, for round trips through the C boundary.
final class OneKeyKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [[.input("x"), Key(code: .delete, label: "⌫")]]),
        ]))
    }
}
