import KeyboardTesting
import Testing
@testable import ExternalKeyboard

@MainActor
@Suite struct ExternalKeyboardTests {
    @Test func typesThroughItsKeys() throws {
        let host = try KeyboardTestHost(ExternalKeyboard.self, document: "Say: ")
        try host.show()
        try host.type("hello, World 42")
        #expect(host.document == "Say: hello, World 42")
        #expect(host.cursor == 20)
    }

    @Test func capitalizesTheStartOfASentence() throws {
        let host = try KeyboardTestHost(ExternalKeyboard.self)
        try host.show()
        #expect(host.session.keyboardState.shift == .on)
        try host.tap("h")
        try host.tap("i")
        host.runUntilIdle()
        #expect(host.document == "Hi")
    }
}
