import KeyboardTesting
import Testing
@testable import ExternalKeyboard

@MainActor
@Suite struct ExternalKeyboardTests {
    @Test func typesThroughItsKeys() async throws {
        let host = try KeyboardTestHost(ExternalKeyboard.self, document: "Say: ")
        try host.show()
        try await host.type("hello, World 42")
        #expect(host.document == "Say: hello, World 42")
        #expect(host.cursor == 20)
    }

    @Test func capitalizesTheStartOfASentence() async throws {
        let host = try KeyboardTestHost(ExternalKeyboard.self)
        try host.show()
        #expect(host.session.keyboardState.shift == .on)
        try host.tap("h")
        try host.tap("i")
        await host.settle()
        #expect(host.document == "Hi")
    }
}
