import KeyboardHost
import Testing
import TestSupport

/// The sample, built as a shared library by SwiftPM, loaded through the real loader and typed on.
@Suite("HelloKeyboard through dlopen")
@MainActor
struct HelloKeyboardTests {
    /// Shows the sample on a field, types `keys` as taps (waiting after each, as a person would),
    /// hides it, and returns the field.
    private func type(_ keys: String, into field: TextField = TextField()) async throws -> TextField {
        let session = KeyboardSession(
            extension: try ExtensionLoader.load(path: try BuildProducts.sample("HelloKeyboard")), textField: field
        )
        try session.show()
        for (stroke, _) in try KeyStroke.parse(keys) {
            let layout = try #require(session.configuration?.layout)
            for position in try #require(KeyPlanner.taps(for: stroke, layout: layout, state: session.keyboardState)) {
                try session.tap(position)
                await session.settle()
            }
        }
        session.hide()
        #expect(session.reportedErrors.isEmpty)
        return session.textField
    }

    @Test func descriptor() throws {
        let loaded = try ExtensionLoader.load(path: try BuildProducts.sample("HelloKeyboard"))
        #expect(loaded.identifier == "dev.kbhost.samples.hello")
        #expect(loaded.name == "Hello Keyboard")
        #expect(loaded.version == "1.0.0")
        #expect(loaded.abiVersion == 1)
    }

    @Test func typesIntoAnEmptyField() async throws {
        let field = try await type("hello world")
        #expect(field.text == "hello world")
        #expect(field.cursor == 11)
    }

    @Test func typesAtTheCursorOfASeededDocument() async throws {
        let field = try await type("big ", into: TextField(text: "a dog", cursor: 2))
        #expect(field.text == "a big dog")
        #expect(field.cursor == 6)
    }

    @Test func deleteRemovesWholeCharacters() async throws {
        // Before the cursor: a family emoji (one Character of 5 scalars), then "é" as e + U+0301.
        let field = try await type("{delete}{delete}x", into: TextField(text: "hi 👩‍👩‍👧e\u{301}!", cursor: 5))
        #expect(field.text == "hi x!")
        #expect(field.cursor == 4)
    }

    @Test func deleteAtTheStartDoesNothing() async throws {
        let field = try await type("{delete}", into: TextField(text: "abc", cursor: 0))
        #expect(field.text == "abc")
        #expect(field.cursor == 0)
    }

    @Test func capitalsTakeShiftAndDigitsTheNumbersPage() async throws {
        let field = try await type("Hi 42 OK")
        #expect(field.text == "Hi 42 OK")
        #expect(field.cursor == 8)
    }

    @Test func returnAndSpaceKeysTypeTheirText() async throws {
        let field = try await type("a b{return}c")
        #expect(field.text == "a b\nc")
        #expect(field.cursor == 5)
    }

    @Test func aCharacterWithoutAKeyIsNotOnTheLayout() throws {
        let loaded = try ExtensionLoader.load(path: try BuildProducts.sample("HelloKeyboard"))
        let session = KeyboardSession(extension: loaded)
        try session.show()
        defer { session.hide() }
        #expect(KeyPlanner.taps(for: .character("~"), layout: session.configuration!.layout, state: session.keyboardState) == nil)
        #expect(throws: SessionError.noSuchKey(extension: "Hello Keyboard", position: .init(subKeyboard: 0, row: 9, column: 0))) {
            try session.tap(.init(subKeyboard: 0, row: 9, column: 0))
        }
    }
}

/// An extension written in C, built by cc: the boundary is C, so it loads and types like a Swift one.
@Suite("An extension written in C")
@MainActor
struct CExtensionTests {
    @Test func loadsAndTypes() async throws {
        let loaded = try ExtensionLoader.load(path: try CFixture.build("cKeyboard"))
        #expect(loaded.name == "C Keyboard")
        let session = KeyboardSession(extension: loaded, textField: TextField(text: "z"))
        try session.show()
        for column in [0, 1, 3, 1] {  // a, b, delete, b
            try session.tap(.init(subKeyboard: 0, row: 0, column: column))
            await session.settle()
        }
        session.hide()
        #expect(session.textField.text == "zab")
        #expect(session.textField.cursor == 3)
    }

    @Test func aCombiningMarkJoinsTheCharacterBeforeIt() async throws {
        // Typing U+0301 after "a" makes one Character "á": the cursor stays after it, never inside.
        let session = KeyboardSession(extension: try ExtensionLoader.load(path: try CFixture.build("cKeyboard")))
        try session.show()
        for column in [0, 2] {
            try session.tap(.init(subKeyboard: 0, row: 0, column: column))
            await session.settle()
        }
        #expect(session.textField.text == "a\u{301}")
        #expect(session.textField.text.count == 1)
        #expect(session.textField.cursor == 1)
        // Delete removes the whole Character.
        try session.tap(.init(subKeyboard: 0, row: 0, column: 3))
        await session.settle()
        #expect(session.textField.text == "")
        session.hide()
    }
}
