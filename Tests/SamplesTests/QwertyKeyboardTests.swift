import Foundation
import KeyboardHost
import KeyboardTesting
import Testing
import TestSupport

/// The everyday QWERTY sample, built as `libQwertyKeyboard.so`, hosted by the testing module.
@MainActor
@Suite("Sample: QwertyKeyboard")
struct QwertyKeyboardTests {
    /// Each test runs in both modes: the library in a child process, and in the test's process.
    private func keyboard(
        document: String = "", cursor: Int? = nil, policy: ContextPolicy = .sentence, isolation: Isolation,
        platform: PlatformProfile = .exact
    ) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(
            extensionAt: try BuildProducts.sample("QwertyKeyboard"), document: document, cursor: cursor, policy: policy,
            isolation: isolation, platform: platform
        )
        try host.show()
        return host
    }

    /// Taps the keys labelled with each character as a thumb would, without thinking about shift.
    private func thumb(_ text: String, on host: KeyboardTestHost) async throws {
        for character in text {
            try host.tap(character == " " ? "space" : String(character))
            await host.settle()
        }
    }

    @Test(arguments: Isolation.allCases) func sentencesStartWithACapitalByThemselves(_ isolation: Isolation) async throws {
        let host = try keyboard(isolation: isolation)
        #expect(host.session.keyboardState.shift == .on)
        try await thumb("hello there", on: host)
        try host.tap("123")
        try host.tap(".")
        await host.settle()
        try host.tap("space")
        await host.settle()
        try host.tap("ABC")
        try await thumb("how", on: host)
        #expect(host.document == "Hello there. How")
    }

    @Test(arguments: Isolation.allCases) func shiftAndCapsLock(_ isolation: Isolation) async throws {
        let host = try keyboard(document: "x ", isolation: isolation)
        host.userMovesCursor(to: 1)  // mid-sentence: no automatic capital
        await host.settle()
        try host.tap(.shift)
        try host.tap(.shift)
        #expect(host.session.keyboardState.shift == .capsLock)
        try await thumb("abc", on: host)
        try host.tap(.shift)
        try await thumb("d", on: host)
        #expect(host.document == "xABCd ")
    }

    @Test(arguments: Isolation.allCases) func doubleSpaceTypesAFullStopAndDeleteWordTakesAWord(_ isolation: Isolation) async throws {
        let host = try keyboard(isolation: isolation)
        try await host.type("Hi there  ")
        #expect(host.document == "Hi there. ")
        try host.tap("⌫ word")
        await host.settle()
        #expect(host.document == "Hi there")
        try host.tap("⌫ word")
        await host.settle()
        #expect(host.document == "Hi ")
        try host.tap("⌫ word")
        await host.settle()
        #expect(host.document == "")
    }

    @Test(arguments: Isolation.allCases, PlatformProfile.all)
    func deleteWordGoesOnPastWhatTheProxyShows(_ isolation: Isolation, _ platform: PlatformProfile) async throws {
        // Three Characters of context: "bravissimo" takes four rounds of deletes and snapshots — on iOS
        // too, where no textDidChange says the keyboard's deletes have landed.
        let host = try keyboard(document: "alpha bravissimo", policy: .characters(3), isolation: isolation, platform: platform)
        try host.tap("⌫ word")
        await host.settle()
        #expect(host.document == "alpha ")
    }

    @Test(arguments: Isolation.allCases) func readAllReportsTheCounts(_ isolation: Isolation) async throws {
        let text = "One two. Three four!\nFive six seven? Eight"
        let host = try keyboard(document: text, cursor: 10, policy: .characters(5), isolation: isolation)
        try host.tap("read all")
        await host.settle()
        let event = try #require(host.events.last)
        #expect(event.name == "read all")
        #expect(event.details["characters"] == "\(text.count)")
        #expect(event.details["words"] == "8")
        #expect(event.details["sentences"] == "4")
        #expect(event.details["lines"] == "2")
        #expect(Int(event.details["roundTrips"] ?? "") ?? 0 > 1)  // more than one window: a real walk
        #expect(host.document == text)
        #expect(host.cursor == 10)
    }

    /// A walk's steps show the start of the document, where autocapitalization wants a capital; they
    /// are not the user's, so shift does not flicker on and off with them, and is as it was after.
    @Test(arguments: Isolation.allCases, PlatformProfile.all)
    func aWalkDoesNotMoveAutocapitalizationsShift(_ isolation: Isolation, _ platform: PlatformProfile) async throws {
        let host = try keyboard(document: "One two. three four five six", cursor: 13, policy: .characters(4), isolation: isolation, platform: platform)
        #expect(host.session.keyboardState.shift == .off)  // mid-sentence
        let before = host.log.count
        try host.tap("read all")
        await host.settle()
        #expect(host.events.last?.name == "read all")
        let shiftChanges = host.log.dropFirst(before).filter { if case .keyboardState = $0 { true } else { false } }
        #expect(shiftChanges.isEmpty, "\(shiftChanges)")
        #expect(host.session.keyboardState.shift == .off)
        #expect(host.cursor == 13)
    }

    @Test(arguments: Isolation.allCases) func clearAllAndMovesWalkTheWholeDocument(_ isolation: Isolation) async throws {
        let text = String(repeating: "Lorem ipsum dolor sit amet. ", count: 40)
        let host = try keyboard(document: text, cursor: 300, policy: .characters(50), isolation: isolation)
        try host.tap("⇤ start")
        await host.settle()
        #expect(host.cursor == 0)
        try host.tap("end ⇥")
        await host.settle()
        #expect(host.cursor == text.count)
        try host.tap("clear all")
        await host.settle()
        #expect(host.document == "")
        #expect(host.events.last == KeyboardEvent("clear all", ["deletedCharacters": "\(text.count)"]))
    }

    @Test(arguments: Isolation.allCases) func typingStopsAWalkAndTheKeyboardSaysWhy(_ isolation: Isolation) async throws {
        let host = try keyboard(document: String(repeating: "word ", count: 200), cursor: 0, policy: .characters(10), isolation: isolation)
        host.latency = .milliseconds(20)
        try host.tap("read all")
        await host.advance(by: .milliseconds(50))
        try host.tap("q")
        await host.settle()
        #expect(host.events.last?.name == "read all stopped")
        #expect(host.events.last?.details["error"]?.contains("userCancelled") == true)
    }

    /// The globe key is there only where `needsInputModeSwitchKey` says: the host has other
    /// keyboards. A tap asks for the next; held, it asks for the host's list.
    @Test(arguments: Isolation.allCases) func theGlobeKeyIsThereWhenOtherKeyboardsAreAndAsksForThem(_ isolation: Isolation) async throws {
        let alone = try keyboard(isolation: isolation)
        #expect(alone.session.configuration?.layout.firstPosition(onPage: 0) { $0.code == .nextKeyboard } == nil)
        #expect(alone.session.configuration?.layout.subKeyboards[0].rows.last?.first { $0.code == .space }?.width == 6)
        alone.hide()
        await alone.settle()

        let host = try KeyboardTestHost(extensionAt: try BuildProducts.sample("QwertyKeyboard"), isolation: isolation)
        host.session.inputModes = [
            InputMode(identifier: "dev.kbhost.samples.qwerty", name: "QWERTY"), InputMode(identifier: "dev.kbhost.samples.hello", name: "Hello"),
        ]
        try host.show()
        try host.tap(.nextKeyboard)
        #expect(host.log.contains(.request(.advanceToNextInputMode)))
        try await host.hold(.nextKeyboard, for: .seconds(1))
        #expect(host.log.filter { $0 == .request(.showInputModeList) }.count == 1)
        #expect(host.log.filter { $0 == .request(.advanceToNextInputMode) }.count == 1)  // the hold did not advance
        host.hide()
        await host.settle()
    }

    /// The suggestion row: words of the document that complete the one typed, and the lexicon's
    /// (the user's words, text replacements); a tap puts the word in place.
    @Test(arguments: Isolation.allCases) func theSuggestionRowCompletesFromTheDocumentAndTheLexicon(_ isolation: Isolation) async throws {
        let settings = HostSettings(
            typing: .object(["textReplacements": .object(["omw": .string("On my way!")])]),
            environment: KeyboardEnvironment(lexicon: [.word("Zanzibar")])
        )
        let host = try KeyboardTestHost(
            extensionAt: try BuildProducts.sample("QwertyKeyboard"), document: "the helium and the hello ", settings: settings,
            isolation: isolation
        )
        try host.show()
        await host.settle()
        func suggestions() -> [String] {
            host.session.configuration?.layout.subKeyboards[0].rows[1].map(\.label).filter { !$0.isEmpty } ?? []
        }
        #expect(suggestions().isEmpty)
        try await host.type("he")
        #expect(suggestions() == ["helium", "hello"])
        try await host.type("ll")
        #expect(suggestions() == ["hello"])
        try host.tap("hello")
        await host.settle()
        #expect(host.document == "the helium and the hello hello ")
        try await host.type("om")
        #expect(suggestions() == ["On my way!"])
        try await host.type("{delete}{delete}za")
        #expect(suggestions() == ["Zanzibar"])
        host.hide()
        await host.settle()
    }

    @Test(arguments: Isolation.allCases) func itsLicenseIsTheSampleIssuers(_ isolation: Isolation) async throws {
        let issuer = try TrustedIssuer.read(
            publicKeyFile: BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path
        )
        for sample in ["QwertyKeyboard", "SecurePasscodeKeyboard"] {
            let host = try KeyboardTestHost(
                extensionAt: try BuildProducts.sample(sample), licensing: .required(LicenseVerifier(trusting: [issuer])),
                isolation: isolation
            )
            try host.show()
            #expect(host.session.isShown)
            host.hide()
            await host.settle()
        }
    }
}
