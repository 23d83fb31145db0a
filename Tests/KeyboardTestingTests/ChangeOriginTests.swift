import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing

/// Records who made each change its text notifications announce.
final class OriginRecordingKeyboard: KeyboardViewController {
    var origins: [String] = []

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("a"), .input("b")]])]))
    }

    override func textDidChange() {
        origins.append("text \(textDocumentProxy.lastChangeOrigin)")
    }

    override func selectionDidChange() {
        origins.append("selection \(textDocumentProxy.lastChangeOrigin)")
    }
}

@Suite("Who changed the field")
@MainActor
struct ChangeOriginTests {
    /// The keyboard's own typing says `.keyboard`; the user's typing and moves say `.user` — without
    /// the keyboard comparing counts by hand.
    @Test func theNotificationsSayWhoChangedTheField() async throws {
        let host = try KeyboardTestHost(OriginRecordingKeyboard.self, document: "xy")
        try host.show()
        let keyboard = try #require(host.controller as? OriginRecordingKeyboard)
        try await host.type("a")
        #expect(keyboard.origins == ["text keyboard"])
        host.userTypes("z")
        await host.settle()
        host.userMovesCursor(to: 0)
        await host.settle()
        #expect(keyboard.origins == ["text keyboard", "text user", "selection user"])
        try await host.type("b")
        #expect(keyboard.origins.last == "text keyboard")
        #expect(host.document == "bxyaz")
    }
}
