import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing
import TestSupport

/// A keyboard as an author would write one, with keys that exercise the proxy.
final class ProbeKeyboard: KeyboardViewController {
    /// What the proxy said at each notification: "name [before|after] selected".
    var seen: [String] = []
    private var snapshotWaiters: [CheckedContinuation<Void, Never>] = []

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            [.input("a"), .input("b"), .input("."), Key(code: .delete, label: "⌫"), Key(code: .space, label: "space")],
            ["←", "→", "mark", "commit", "xxx"].map { Key(code: .input, label: $0) },
        ])]))
    }

    override func keyTapped(_ key: Key) {
        switch key.label {
        case "←": textDocumentProxy.adjustTextPosition(byCharacterOffset: -1)
        case "→": textDocumentProxy.adjustTextPosition(byCharacterOffset: 1)
        case "mark": textDocumentProxy.setMarkedText("かな", selectedRange: 2..<2)
        case "commit": textDocumentProxy.unmarkText()
        case "xxx":
            // Async work that waits for the host between edits, as a full-document walker does.
            Task { @MainActor in
                for _ in 0..<3 {
                    textDocumentProxy.insertText("x")
                    await nextSnapshot()
                }
            }
        default: super.keyTapped(key)
        }
    }

    private func nextSnapshot() async {
        await withCheckedContinuation { snapshotWaiters.append($0) }
    }

    private func note(_ name: String) {
        let proxy = textDocumentProxy
        seen.append("\(name) [\(proxy.documentContextBeforeInput ?? "")|\(proxy.documentContextAfterInput ?? "")]"
            + (proxy.selectedText.map { " \($0)" } ?? ""))
    }

    override func textWillChange() { note("textWillChange") }
    override func selectionWillChange() { note("selectionWillChange") }
    override func selectionDidChange() { note("selectionDidChange") }
    override func textDidChange() {
        note("textDidChange")
        let waiters = snapshotWaiters
        snapshotWaiters.removeAll()
        waiters.forEach { $0.resume() }
    }
}

@Suite("KeyboardTestHost")
@MainActor
struct KeyboardTestHostTests {
    private func probe(_ host: KeyboardTestHost) throws -> ProbeKeyboard {
        try #require(host.controller as? ProbeKeyboard)
    }

    @Test func seedsTypesAndAssertsOnTheField() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: "Hi", cursor: 1)
        try host.show()
        try await host.type("ab{delete}b")
        #expect(host.document == "Habi")
        #expect(host.cursor == 3)
        #expect(host.errors.isEmpty)
    }

    @Test func editsWaitForTheLatencyOnVirtualTime() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: "x", latency: .milliseconds(30))
        try host.show()
        try host.tap("a")
        await host.advance(by: .milliseconds(29))
        #expect(host.document == "x")
        #expect(try probe(host).textDocumentProxy.documentContextBeforeInput == "x")  // still the old state
        await host.advance(by: .milliseconds(1))
        #expect(host.document == "xa")
        #expect(try probe(host).textDocumentProxy.documentContextBeforeInput == "xa")
        #expect(host.scheduler.now == .milliseconds(30))
    }

    @Test func theLogShowsEveryCallInOrder() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self)
        try host.show()
        #expect(host.log.map(\.description) == ["viewDidLoad", "snapshot #1", "viewWillAppear", "viewDidAppear"])
        host.clearLog()
        try host.tap("a")
        await host.settle()
        #expect(host.log.map(\.description) == [
            "keyTapped(sub-keyboard 0, row 0, column 0)", "posted insertText(\"a\")",
            "applied insertText(\"a\")", "textWillChange", "snapshot #2", "textDidChange",
        ])
    }

    @Test func theUserTypesMovesSelectsAndSubmits() throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: "one two", policy: .unlimited)
        try host.show()
        let keyboard = try probe(host)

        host.userTypes("!")
        #expect(host.document == "one two!")
        host.userMovesCursor(to: 3)
        host.userSelects(4..<7)
        #expect(keyboard.textDocumentProxy.selectedText == "two")
        #expect(keyboard.seen == [
            "textWillChange [one two|]", "textDidChange [one two!|]",
            "selectionWillChange [one two!|]", "selectionDidChange [one| two!]",
            "selectionWillChange [one| two!]", "selectionDidChange [one |!] two",
        ])

        let oldIdentifier = host.documentIdentifier
        keyboard.seen.removeAll()
        #expect(host.userSubmits() == "one two!")
        #expect(host.document == "")
        #expect(host.documentIdentifier != oldIdentifier)
        #expect(keyboard.textDocumentProxy.documentIdentifier == host.documentIdentifier)
        #expect(keyboard.seen == [
            "textWillChange [one |!] two", "selectionWillChange [one |!] two",
            "selectionDidChange [|]", "textDidChange [|]",
        ])
    }

    @Test func aNewFieldBringsItsTraits() throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self)
        try host.show()
        host.userFocusesField(traits: TextInputTraits(
            keyboardType: .numberPad, returnKeyType: .done, autocapitalizationType: .none, autocorrectionType: .no,
            spellCheckingType: .no, isSecureTextEntry: true, textContentType: "oneTimeCode"
        ))
        let proxy = try probe(host).textDocumentProxy
        #expect(proxy.keyboardType == .numberPad)
        #expect(proxy.returnKeyType == .done)
        #expect(proxy.autocapitalizationType == .none)
        #expect(proxy.autocorrectionType == .no)
        #expect(proxy.spellCheckingType == .no)
        #expect(proxy.isSecureTextEntry)
        #expect(proxy.textContentType == "oneTimeCode")
    }

    @Test func thePolicyCutsWhatTheProxySees() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: "One. Two three! Four", cursor: 11, policy: .characters(3))
        try host.show()
        let proxy = try probe(host).textDocumentProxy
        #expect(proxy.documentContextBeforeInput == " th")
        #expect(proxy.documentContextAfterInput == "ree")
        host.policy = .sentence
        try host.tap("→")
        await host.settle()
        #expect(proxy.documentContextBeforeInput == " Two thr")
        #expect(proxy.documentContextAfterInput == "ee!")
    }

    @Test func markedTextIsSetAndCommitted() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: "ab", policy: .unlimited)
        try host.show()
        try host.tap("mark")
        await host.settle()
        #expect(host.document == "abかな")
        #expect(host.markedRange == 2..<4)
        #expect(host.cursor == 4)
        try host.tap("a")  // inserting replaces the marked text
        await host.settle()
        #expect(host.document == "aba")
        #expect(host.markedRange == nil)
        try host.tap("mark")
        try host.tap("commit")
        await host.settle()
        #expect(host.document == "abaかな")
        #expect(host.markedRange == nil)
    }

    @Test func settleRunsTheExtensionsAsyncWorkToTheEnd() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, latency: .milliseconds(40))
        try host.show()
        try host.tap("xxx")
        await host.settle()
        #expect(host.document == "xxx")
        #expect(host.scheduler.now == .milliseconds(120))  // three round trips of 40 ms, on virtual time
    }

    @Test func aFreshControllerForEveryAppearance() throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self)
        try host.show()
        let first = try probe(host)
        host.hide()
        #expect(host.controller == nil)
        try host.show()
        #expect(try probe(host) !== first)
    }

    @Test func aKeyTheKeyboardDoesNotHave() throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, name: "Probe")
        try host.show()
        #expect(throws: KeyboardTestHostError.noSuchKey("\"z\"", keyboard: "Probe")) { try host.tap("z") }
    }

    @Test func hostsABuiltSharedLibraryToo() async throws {
        let host = try KeyboardTestHost(extensionAt: try BuildProducts.sample("HelloKeyboard"), document: "x ")
        try host.show()
        try await host.type("hello")
        #expect(host.document == "x hello")
        #expect(host.controller == nil)  // its controller lives in its own image
    }

    @Test func aClassOfTheTestsRunsInAChildProcessToo() async throws {
        let host = try KeyboardTestHost(ProbeKeyboard.self, name: "Probe", document: "x ", isolation: .process)
        try host.show()
        let child = try #require(host.session.childProcessID)
        #expect(child != getpid())
        try await host.type("ab")
        #expect(host.document == "x ab")
        #expect(host.controller == nil)  // the instance is in the child
    }

    @Test func aClassLocalToAFunctionCannotBeFoundByAChildAndSaysSo() async throws {
        final class Local: KeyboardViewController {}
        try withKnownIssue {
            let host = try KeyboardTestHost(Local.self, name: "Local", isolation: .process)
            #expect(throws: (any Error).self) { try host.show() }
            #expect(host.fault?.description.contains("declare it at the top level, or host it with isolation: .inProcess") == true)
        } matching: { $0.comments.contains { $0.rawValue.contains("Local could not be started") } }
    }
}
