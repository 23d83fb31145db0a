import KeyboardExtension
import KeyboardTesting
import Testing

/// Each row of the notification table (FieldChange): what the extension is sent for each kind of change.
@Suite("Notification order, row by row")
@MainActor
struct NotificationTableTests {
    private func host(_ document: String = "abc") throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(ProbeKeyboard.self, document: document, cursor: 1)
        try host.show()
        host.clearLog()
        return host
    }

    private func sequence(_ host: KeyboardTestHost) -> [String] {
        host.log.compactMap { event in
            switch event {
            case .textWillChange, .textDidChange, .selectionWillChange, .selectionDidChange: event.description
            case .snapshot: "snapshot"
            default: nil
            }
        }
    }

    @Test(arguments: ["a", "⌫", "mark"])
    func aTextChangeFromTheKeyboard(_ key: String) async throws {
        let host = try host()
        try host.tap(key)
        await host.settle()
        #expect(sequence(host) == ["textWillChange", "snapshot", "textDidChange"])
    }

    @Test func aTextChangeFromTheUser() throws {
        let host = try host()
        host.userTypes("z")
        host.userDeletesBackward()
        #expect(sequence(host) == ["textWillChange", "snapshot", "textDidChange", "textWillChange", "snapshot", "textDidChange"])
    }

    @Test func aSelectionChange() async throws {
        let host = try host()
        try host.tap("→")
        await host.settle()
        host.userSelects(0..<2)
        host.userMovesCursor(to: 3)
        #expect(sequence(host) == Array(repeating: ["selectionWillChange", "snapshot", "selectionDidChange"], count: 3).flatMap { $0 })
    }

    @Test func aNewDocument() throws {
        let host = try host()
        host.userSubmits()
        #expect(sequence(host) == ["textWillChange", "selectionWillChange", "snapshot", "selectionDidChange", "textDidChange"])
    }

    @Test func newTraits() throws {
        let host = try host()
        host.session.setTraits(TextInputTraits(keyboardType: .emailAddress))
        #expect(sequence(host) == ["textWillChange", "selectionWillChange", "snapshot", "selectionDidChange", "textDidChange"])
    }

    @Test func nothingChangesForTheKeyboardsEdits() async throws {
        let host = try host("")
        try host.tap("⌫")   // delete at the start
        try host.tap("←")   // move before the start
        await host.settle()
        // No notification; the snapshot alone answers the turn (it acknowledges both operations).
        #expect(sequence(host) == ["snapshot"])
        #expect(host.log.filter { if case .applied = $0 { true } else { false } }.count == 2)
        #expect(try #require(host.controller).textDocumentProxy.snapshot.operationsApplied == 2)
    }

    @Test func nothingChangesForTheUser() throws {
        let host = try host("")
        host.userMovesCursor(to: 0)
        host.userDeletesBackward()
        #expect(sequence(host) == [])
    }

    @Test func editsPostedInOneTurnAreAnsweredTogether() async throws {
        let host = try host()
        try host.tap("a")
        try host.tap("b")
        // Both posted in one turn: applied in order on the next, then one snapshot and one set of
        // notifications, for the biggest change.
        #expect(host.document == "abc")
        await host.settle()
        #expect(host.document == "aabbc")
        #expect(sequence(host) == ["textWillChange", "snapshot", "textDidChange"])
    }

    @Test func aTurnWithATextChangeAndAMoveIsATextChange() async throws {
        let host = try host()
        try host.tap("→")
        try host.tap("a")
        await host.settle()
        #expect(sequence(host) == ["textWillChange", "snapshot", "textDidChange"])
    }
}
