import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing

/// Clicks for a key the host did not tap itself: its "⇥" key moves the caret as a gesture would.
final class ClickingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("a"), Key(code: .action("jump"), label: "⇥")]])]))
    }

    override func keyTapped(_ key: Key) {
        guard key.code == .action("jump") else { return super.keyTapped(key) }
        playInputClick()
        textDocumentProxy.adjustTextPosition(byCharacterOffset: 1)
    }
}

@Suite("playInputClick")
@MainActor
struct InputClickTests {
    /// The click reaches the host as a request (ABI revision 4), through either transport; the host
    /// plays it (the REPL's bell) when its user wants clicks.
    @Test(arguments: [Isolation.inProcess, .process])
    func theClickReachesTheHost(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(ClickingKeyboard.self, document: "xy", cursor: 0, isolation: isolation)
        try host.show()
        try host.tap("⇥")
        await host.settle()
        #expect(host.log.filter { $0 == .request(.playInputClick) }.count == 1)
        #expect(host.cursor == 1)
        try await host.type("a")
        #expect(host.log.filter { $0 == .request(.playInputClick) }.count == 1)  // the host's own tap: no request
        host.hide()
        await host.settle()
    }
}
