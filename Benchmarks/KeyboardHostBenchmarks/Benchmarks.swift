import Benchmark
import KeyboardExtension

// Release benchmarks of the host and the SDK. Run:
//   KBHOST_BENCHMARKS=1 swift package benchmark
// or one group: … benchmark --filter "Full document.*"

let benchmarks: @Sendable () -> Void = {
    textFieldBenchmarks()
    fullDocumentBenchmarks()
    isolationBenchmarks()
}

/// Mixed text: Latin, accents, CJK, emoji sequences, sentences and line breaks.
func sampleDocument(bytes: Int) -> String {
    let paragraph = "Typing café notes: 漢字 and 👩‍👩‍👧 with 🇫🇷 flags. Another sentence here! Done?\n"
    var text = ""
    text.reserveCapacity(bytes + paragraph.utf8.count)
    while text.utf8.count < bytes { text += paragraph }
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
