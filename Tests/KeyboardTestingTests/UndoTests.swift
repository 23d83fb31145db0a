import Foundation
import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// Its "↶" key undoes the last touch's edits, and reports whether there was one.
final class UndoingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(
            layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
                [.input("h"), .input("e"), .input("l"), .input("o"), .input("i"), .input("👍🏽")],
                [Key(code: .space, label: "space"), Key(code: .delete, label: "⌫"), Key(code: .action("undo"), label: "↶"),
                 Key(code: .action("deleteTwo"), label: "⌫⌫")],
            ])]),
            typing: TypingOptions(doubleSpacePeriod: true)
        )
    }

    override func keyTapped(_ key: Key) {
        if key.code == .action("deleteTwo") {
            textDocumentProxy.deleteBackward()
            textDocumentProxy.deleteBackward()
            return
        }
        guard key.code == .action("undo") else { return super.keyTapped(key) }
        reportEvent(KeyboardEvent("undo", ["undone": "\(undoManager.undo())"]))
    }
}

@Suite("Undo of the keyboard's own edits")
@MainActor
struct UndoTests {
    private func host(
        _ isolation: Isolation, document: String = "", policy: ContextPolicy? = nil, latency: Duration? = nil,
        platform: PlatformProfile = .exact
    ) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(
            UndoingKeyboard.self, document: document, policy: policy, latency: latency, isolation: isolation, platform: platform
        )
        try host.show()
        return host
    }

    /// Taps the undo key; whether it undid anything.
    private func undo(_ host: KeyboardTestHost) async throws -> Bool {
        try host.tap("↶")
        await host.settle()
        return host.events.last?.details["undone"] == "true"
    }

    @Test(arguments: Isolation.allCases, [Duration.zero, .milliseconds(30)])
    func eachTouchIsAStep(_ isolation: Isolation, latency: Duration) async throws {
        let host = try host(isolation, latency: latency)
        try await host.type("hi  ")
        #expect(host.document == "hi. ")  // the double space's full stop: a delete and an insert, one touch
        #expect(try await undo(host))
        #expect(host.document == "hi ")
        #expect(try await undo(host))
        #expect(host.document == "hi")
        #expect(try await undo(host))
        #expect(try await undo(host))
        #expect(host.document == "")
        #expect(try await undo(host) == false)
        #expect(host.document == "")
        host.hide()
        await host.settle()
    }

    /// A held delete and its repeats are one step: one undo puts back all it took.
    @Test(arguments: Isolation.allCases)
    func aHeldDeleteIsUndoneWhole(_ isolation: Isolation) async throws {
        let host = try host(isolation, document: "hello world")
        try await host.hold(.delete, for: .seconds(1))
        #expect(host.document == "hello")
        #expect(try await undo(host))
        #expect(host.document == "hello world")
        host.hide()
        await host.settle()
    }

    /// The user's change, or a delete whose Character the proxy could not see, ends the history:
    /// undo then does nothing rather than guess.
    @Test(arguments: Isolation.allCases)
    func whatTheProxyCannotKnowEndsTheHistory(_ isolation: Isolation) async throws {
        let host = try host(isolation)
        try await host.type("he")
        host.userTypes("e")  // the text before the caret still ends as the keyboard left it
        await host.settle()
        #expect(try await undo(host) == false)
        #expect(host.document == "hee")
        host.hide()
        await host.settle()

        // The proxy shows one Character before the caret.
        let narrow = try self.host(isolation, document: "ab", policy: .characters(1))
        try await narrow.type("{delete}")
        #expect(try await undo(narrow))
        #expect(narrow.document == "ab")
        // Two deletes in one turn: the second's Character was not shown when it was posted.
        try narrow.tap("⌫⌫")
        await narrow.settle()
        #expect(narrow.document == "")
        #expect(try await undo(narrow) == false)
        #expect(narrow.document == "")
        narrow.hide()
        await narrow.settle()
    }

    /// A window wider than the history keeps (an `unlimited` policy on a long document): the history
    /// keeps the end of it, and a touch's edits are still undone exactly.
    @Test(arguments: Isolation.allCases)
    func aWideWindowIsUndoneFromItsEnd(_ isolation: Isolation) async throws {
        let document = String(repeating: "word 👍🏽 ", count: 4000)  // 32,000 Characters, 64 KiB
        let host = try host(isolation, document: document, policy: .unlimited)
        try await host.type("{delete}{delete}hi")
        #expect(host.document == String(document.dropLast(2)) + "hi")
        for _ in 0..<4 { #expect(try await undo(host)) }
        #expect(host.document == document)
        host.hide()
        await host.settle()
    }

    /// Under Android a delete takes a UTF-16 unit: undoing an inserted emoji takes all of its units,
    /// and a delete that took part of one is not undone.
    @Test(arguments: Isolation.allCases)
    func androidsUnitsAreCounted(_ isolation: Isolation) async throws {
        let host = try host(isolation, platform: .android)
        try await host.type("h👍🏽")
        #expect(try await undo(host))
        #expect(host.document == "h")
        host.hide()
        await host.settle()
    }
}
