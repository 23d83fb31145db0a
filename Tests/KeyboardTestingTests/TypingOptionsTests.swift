import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// QWERTY with the typing options given to it.
final class OptionsKeyboard: KeyboardViewController {
    nonisolated(unsafe) static var typing = TypingOptions()

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: .qwerty, typing: Self.typing)
    }
}

@MainActor
@Suite("Typing options", .serialized)
struct TypingOptionsTests {
    private func host(
        _ typing: TypingOptions, document: String = "", cursor: Int? = nil, traits: TextInputTraits = TextInputTraits(),
        platform: PlatformProfile = .exact
    ) throws -> KeyboardTestHost {
        OptionsKeyboard.typing = typing
        let host = try KeyboardTestHost(OptionsKeyboard.self, document: document, cursor: cursor, traits: traits, platform: platform)
        try host.show()
        return host
    }

    /// Under `ios` the keyboard is not told of its own typing (no textDidChange): the SDK's shift follows
    /// the snapshots that acknowledge it instead.
    @Test(arguments: [PlatformProfile.exact, .ios])
    func autocapitalizationCapitalizesSentenceStarts(_ platform: PlatformProfile) async throws {
        let host = try host(TypingOptions(autocapitalization: true), platform: platform)
        #expect(host.session.keyboardState.shift == .on)  // an empty field starts a sentence
        // Typed with lower-case letters only: the capitals are the keyboard's.
        for character in "hello. how are you? fine" {
            try host.tap(at: try #require(position(of: character, in: host)))
            await host.settle()
        }
        #expect(host.document == "Hello. How are you? Fine")
    }

    @Test func withoutTheOptionNothingIsCapitalized() async throws {
        let host = try host(TypingOptions())
        #expect(host.session.keyboardState.shift == .off)
        try await host.type("hello. you")
        #expect(host.document == "hello. you")
    }

    @Test func theFieldsTraitDecides() async throws {
        let none = try host(TypingOptions(autocapitalization: true), traits: TextInputTraits(autocapitalizationType: .none))
        #expect(none.session.keyboardState.shift == .off)
        let words = try host(TypingOptions(autocapitalization: true), traits: TextInputTraits(autocapitalizationType: .words))
        for character in "new york" {
            try words.tap(at: try #require(position(of: character, in: words)))
            await words.settle()
        }
        #expect(words.document == "New York")
        let secure = try host(TypingOptions(autocapitalization: true), traits: TextInputTraits(isSecureTextEntry: true))
        #expect(secure.session.keyboardState.shift == .off)
    }

    @Test func movingIntoASentenceTurnsTheAutomaticShiftOff() async throws {
        let host = try host(TypingOptions(autocapitalization: true), document: "One. Two", cursor: nil)
        #expect(host.session.keyboardState.shift == .off)  // after "Two"
        host.userMovesCursor(to: 5)  // after "One. "
        await host.settle()
        #expect(host.session.keyboardState.shift == .on)
        host.userMovesCursor(to: 2)
        await host.settle()
        #expect(host.session.keyboardState.shift == .off)
    }

    @Test func tappingAnAutomaticShiftTurnsItOffAndTheTypeCommandStillTypesWhatItIsAsked() async throws {
        let host = try host(TypingOptions(autocapitalization: true))
        try host.tap(.shift)
        #expect(host.session.keyboardState.shift == .off)  // not caps lock
        try await host.type("iPhone. and Then")
        #expect(host.document == "iPhone. and Then")
    }

    @Test func aCapitalComesBackAfterTheNumbersPage() async throws {
        let host = try host(TypingOptions(autocapitalization: true))
        try await host.type("Call 911. ")
        #expect(host.session.keyboardState == KeyboardState(subKeyboard: 1, shift: .off))  // still on numbers
        try host.tap("ABC")
        #expect(host.session.keyboardState == KeyboardState(subKeyboard: 0, shift: .on))
    }

    @Test func textReplacementsReplaceTheWordASpaceOrPunctuationEnds() async throws {
        let host = try host(TypingOptions(autocorrection: true, textReplacements: ["omw": "on my way!", "teh": "the"]))
        try await host.type("omw to teh shop, teh")
        #expect(host.document == "on my way! to the shop, teh")
        try await host.type(".")
        #expect(host.document == "on my way! to the shop, the.")
        try await host.type(" xomw ")  // only whole words
        #expect(host.document == "on my way! to the shop, the. xomw ")
    }

    @Test func theFieldCanTurnAutocorrectionOff() async throws {
        let replacements = ["teh": "the"]
        let off = try host(TypingOptions(autocorrection: true, textReplacements: replacements), traits: TextInputTraits(autocorrectionType: .no))
        try await off.type("teh ")
        #expect(off.document == "teh ")
        let optionOff = try host(TypingOptions(autocorrection: false, textReplacements: replacements))
        try await optionOff.type("teh ")
        #expect(optionOff.document == "teh ")
    }

    @Test func doubleSpaceTypesAFullStop() async throws {
        let host = try host(TypingOptions(doubleSpacePeriod: true))
        try await host.type("ok  then  ")
        #expect(host.document == "ok. then. ")
        try await host.type(" ")  // a third space after ". " is a space
        #expect(host.document == "ok. then.  ")
    }

    private func position(of character: Character, in host: KeyboardTestHost) -> KeyPosition? {
        let layout = host.session.configuration!.layout
        for (sub, keyboard) in layout.subKeyboards.enumerated() {
            for (row, keys) in keyboard.rows.enumerated() {
                if let column = keys.firstIndex(where: { $0.typedText == String(character) || ($0.code == .space && character == " ") }) {
                    return KeyPosition(subKeyboard: sub, row: row, column: column)
                }
            }
        }
        return nil
    }
}
