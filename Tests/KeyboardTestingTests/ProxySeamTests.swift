import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing

/// An author's text logic, written against the proxy protocol: deletes the word before the cursor.
@MainActor func deleteWord(in proxy: some TextDocumentProxying) {
    let before = proxy.documentContextBeforeInput ?? ""
    let trailing = before.reversed().prefix { $0 == " " }.count
    let word = before.dropLast(trailing).reversed().prefix { $0 != " " }.count
    for _ in 0..<(trailing + word) { proxy.deleteBackward() }
}

/// The author's own fake: a string and a caret, edited at once.
@MainActor final class StringProxy: TextDocumentProxying {
    var text: String
    var caret: Int
    init(_ text: String, caret: Int? = nil) {
        self.text = text
        self.caret = caret ?? text.count
    }

    var documentContextBeforeInput: String? { caret == 0 ? nil : String(text.prefix(caret)) }
    var documentContextAfterInput: String? { caret == text.count ? nil : String(text.dropFirst(caret)) }
    var selectedText: String? { nil }
    var hasText: Bool { !text.isEmpty }
    let documentIdentifier = UUID()
    var keyboardType: TextInputTraits.KeyboardType { .default }
    var returnKeyType: TextInputTraits.ReturnKeyType { .default }
    var autocapitalizationType: TextInputTraits.AutocapitalizationType { .sentences }
    var autocorrectionType: TextInputTraits.AutocorrectionType { .default }
    var isSecureTextEntry: Bool { false }

    func insertText(_ inserted: String) {
        text.insert(contentsOf: inserted, at: text.index(text.startIndex, offsetBy: caret))
        caret += inserted.count
    }

    func deleteBackward() {
        guard caret > 0 else { return }
        text.remove(at: text.index(text.startIndex, offsetBy: caret - 1))
        caret -= 1
    }

    func adjustTextPosition(byCharacterOffset offset: Int) { caret = min(max(caret + offset, 0), text.count) }
    func setMarkedText(_ markedText: String, selectedRange: Range<Int>) { insertText(markedText) }
    func unmarkText() {}
}

/// A keyboard whose "⌫ word" key runs the same logic on its real proxy.
final class WordDeletingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[Key(code: .action("deleteWord"), label: "⌫ word")]])]))
    }

    override func keyTapped(_ key: Key) {
        guard key.code == .action("deleteWord") else { return super.keyTapped(key) }
        deleteWord(in: textDocumentProxy)
    }
}

@Suite("The proxy as a protocol")
@MainActor
struct ProxySeamTests {
    /// Below the host: the author's fake, no keyboard hosted.
    @Test func theLogicRunsOnAFake() {
        let proxy = StringProxy("Hello big world  ")
        deleteWord(in: proxy)
        #expect(proxy.text == "Hello big ")
        let grapheme = StringProxy("ok 👩‍👩‍👧")
        deleteWord(in: grapheme)
        #expect(grapheme.text == "ok ")
    }

    /// The same logic on the SDK's proxy, through the host: the same result once applied.
    @Test func theSameLogicRunsOnTheRealProxy() async throws {
        let host = try KeyboardTestHost(WordDeletingKeyboard.self, document: "Hello big world  ")
        try host.show()
        try host.tap("⌫ word")
        await host.settle()
        #expect(host.document == "Hello big ")
    }
}
