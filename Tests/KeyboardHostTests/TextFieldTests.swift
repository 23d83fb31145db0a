import KeyboardHost
import Testing

/// The text field's rules, by example. (The properties over random text are in TextFieldPropertyTests.)
@Suite("TextField, by example")
struct TextFieldTests {
    @Test func insertingReplacesTheSelection() {
        var field = TextField(text: "a big dog", selection: 2..<5)
        #expect(field.selectedText == "big")
        field.insertText("small")
        #expect(field.text == "a small dog")
        #expect(field.selection == 7..<7)
    }

    @Test func deletingBackwardDeletesTheSelection() {
        var field = TextField(text: "a big dog", selection: 1..<5)
        field.deleteBackward()
        #expect(field.text == "a dog")
        #expect(field.cursor == 1)
    }

    @Test func adjustingCollapsesTheSelectionFromItsEnd() {
        var field = TextField(text: "abcdef", selection: 1..<3)
        field.adjustTextPosition(byCharacterOffset: -1)
        #expect(field.selection == 2..<2)
        field.adjustTextPosition(byCharacterOffset: .min)
        #expect(field.cursor == 0)
        field.adjustTextPosition(byCharacterOffset: .max)
        #expect(field.cursor == 6)
    }

    @Test(arguments: [
        ("👩‍👩‍👧", "ZWJ sequence"), ("🇫🇷", "flag"), ("👍🏽", "skin tone"), ("e\u{301}", "combining mark"),
        ("\r\n", "CRLF"), ("\u{1100}\u{1161}\u{11A8}", "Hangul jamo"), ("क्षि", "Indic conjunct"),
    ])
    func deleteBackwardRemovesAWholeCluster(_ cluster: String, _ kind: String) {
        var field = TextField(text: "a" + cluster + "b", cursor: 2)
        field.deleteBackward()
        #expect(field.text == "ab", "\(kind)")
        #expect(field.cursor == 1)
    }

    @Test func aCombiningMarkTypedAfterALetterJoinsIt() {
        var field = TextField(text: "xe", cursor: 2)
        field.insertText("\u{301}")
        #expect(field.count == 2)
        #expect(field.cursor == 2)
    }

    @Test func aRegionalIndicatorNextToAnotherMakesAFlag() {
        var field = TextField(text: "🇫", cursor: 1)
        field.insertText("🇷")
        #expect(field.text == "🇫🇷")
        #expect(field.count == 1)
        #expect(field.cursor == 1)
    }

    @Test func markedTextIsReplacedThenCommitted() {
        var field = TextField(text: "ab")
        field.setMarkedText("kan", selectedRange: 3..<3)
        field.setMarkedText("かん", selectedRange: 1..<2)
        #expect(field.text == "abかん")
        #expect(field.markedRange == 2..<4)
        #expect(field.selection == 3..<4)
        field.unmarkText()
        #expect(field.markedRange == nil)
        #expect(field.text == "abかん")
    }

    @Test func aNewDocumentHasANewIdentifier() {
        var field = TextField(text: "one")
        let first = field.documentIdentifier
        field.replaceDocument(with: "two")
        #expect(field.documentIdentifier != first)
        #expect(field.text == "two")
    }

    /// The examples in ContextPolicy's documentation and the README.
    @Test(arguments: [
        (ContextPolicy.characters(3), " th", "ree"),
        (.utf8Bytes(4), "o th", "ree!"),
        (.sentence, " Two th", "ree!"),
        (.paragraph, "One. Two th", "ree! Four"),
        (.unlimited, "One. Two th", "ree! Four"),
    ])
    func documentedExamples(_ policy: ContextPolicy, _ before: String, _ after: String) {
        let field = TextField(text: "One. Two three! Four", cursor: 11)
        #expect(field.contextBefore(policy) == before)
        #expect(field.contextAfter(policy) == after)
    }

    /// A boundary is a whole Character: a "." that a mark follows, or that a prepended scalar begins,
    /// is not one; CR LF is one line break, whichever of its scalars is met first.
    @Test func sentencesEndOnlyAtWholeTerminators() {
        let marked = TextField(text: "a.\u{301}b. c", cursor: 3)  // "a", ".́", "b", "." …
        #expect(marked.contextBefore(.sentence) == "a.\u{301}b")
        #expect(marked.contextAfter(.sentence) == ".")
        let prepended = TextField(text: "x\u{600}.y", cursor: 3)  // "x", "\u{600}.", "y"
        #expect(prepended.contextBefore(.sentence) == "x\u{600}.y")
        #expect(prepended.contextAfter(.sentence) == "")
        let crlf = TextField(text: "one\r\ntwo\r\nthree", cursor: 6)  // "one", CRLF, "two" …
        #expect(crlf.contextBefore(.paragraph) == "tw")
        #expect(crlf.contextAfter(.paragraph) == "o\r\n")
        let separators = TextField(text: "a\u{85}b\u{2029}c。d", cursor: 3)
        #expect(separators.contextBefore(.paragraph) == "b")
        #expect(separators.contextAfter(.sentence) == "\u{2029}")
        #expect(TextField(text: "a\u{85}b\u{2029}c。d", cursor: 7).contextBefore(.sentence) == "d")
    }

    @Test func windowsCanBeEmptyWithTextBeyond() {
        #expect(TextField(text: "Done.", cursor: 5).contextBefore(.sentence) == "")
        #expect(TextField(text: "line\n", cursor: 5).contextBefore(.paragraph) == "")
        #expect(TextField(text: "a👩‍👩‍👧b", cursor: 2).contextBefore(.utf8Bytes(10)) == "👩‍👩‍👧")  // 25 bytes, shown whole
        #expect(TextField(text: "a👩‍👩‍👧b", cursor: 1).contextAfter(.utf8Bytes(10)) == "👩‍👩‍👧")
        #expect(TextField(text: "ab\ncd", cursor: 2).contextAfter(.paragraph) == "\n")
    }

    @Test(arguments: ["characters:5", "utf8-bytes:4000", "sentence", "paragraph", "unlimited"])
    func policiesReadWhatTheyWrite(_ text: String) {
        #expect(ContextPolicy(text)?.description == text)
    }

    @Test(arguments: ["", "characters", "characters:0", "characters:-1", "bytes:3", "sentences"])
    func malformedPoliciesAreRefused(_ text: String) {
        #expect(ContextPolicy(text) == nil)
    }
}
