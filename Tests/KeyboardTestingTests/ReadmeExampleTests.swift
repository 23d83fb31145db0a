import KeyboardExtension
import KeyboardTesting
import Testing

/// The README's "Testing an extension" example, verbatim, so the front door stays true.
final class MyKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        let letters = "abcdefghijklmnopqrstuvwxyz".map { Key.input(String($0)) }
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [letters, [Key(code: .space, label: "space"), Key(code: .delete, label: "⌫")]]),
        ]))
    }
}

@Test @MainActor func typesAtTheCursor() throws {
    let host = try KeyboardTestHost(MyKeyboard.self, document: "a dog", cursor: 2, policy: .sentence,
                                    latency: .milliseconds(30))
    try host.show()
    try host.type("big ")                 // taps, applying posted edits after each
    #expect(host.document == "a big dog")
    host.userMovesCursor(to: 0)           // the user acting in the field
    #expect(host.notifications.suffix(2) == ["selectionWillChange", "selectionDidChange"])
    try host.tap("x")
    host.advance(by: .milliseconds(29))   // not applied yet: 30 ms of emulated IPC
    #expect(host.document == "a big dog")
    host.advance(by: .milliseconds(1))
    #expect(host.document == "xa big dog")
}
