import Foundation
import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// Reports what UIKit's members say whenever its "?" key is tapped, as an event the host sees (so a
/// test reads it in either isolation); its "☰" key asks for the list of keyboards, its "📖" key for
/// the supplementary lexicon.
final class EnvironmentReportingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(
            layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[
                Key(code: .action("report"), label: "?"), Key(code: .action("list"), label: "☰"), Key(code: .action("lexicon"), label: "📖"),
            ]])]),
            typing: TypingOptions(textReplacements: ["brb": "be right back", "omw": "On my way!"])
        )
    }

    override func keyTapped(_ key: Key) {
        switch key.code {
        case .action("report"):
            reportEvent(KeyboardEvent("environment", [
                "hasFullAccess": "\(hasFullAccess)", "hasDictationKey": "\(hasDictationKey)",
                "needsInputModeSwitchKey": "\(needsInputModeSwitchKey)", "primaryLanguage": textInputMode?.primaryLanguage ?? "none",
                "inputModes": inputModes.map(\.name).joined(separator: ","),
            ]))
        case .action("list"): handleInputModeList()
        case .action("lexicon"):
            requestSupplementaryLexicon { [weak self] lexicon in
                self?.reportEvent(KeyboardEvent("lexicon", Dictionary(uniqueKeysWithValues: lexicon.entries.map { ($0.userInput, $0.documentText) })))
            }
        default: super.keyTapped(key)
        }
    }
}

@Suite("UIKit's environment: full access, input mode, dictation, the switch key, the lexicon")
@MainActor
struct EnvironmentTests {
    private func report(_ host: KeyboardTestHost) async throws -> [String: String] {
        try host.tap("?")
        await host.settle()
        return try #require(host.events.last { $0.name == "environment" }).details
    }

    /// Without settings: what an iOS keyboard sees on a device with nothing turned on, alone.
    @Test(arguments: Isolation.allCases)
    func theDefaultsAreIOSs(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(EnvironmentReportingKeyboard.self, isolation: isolation)
        try host.show()
        #expect(try await report(host) == [
            "hasFullAccess": "false", "hasDictationKey": "false", "needsInputModeSwitchKey": "false", "primaryLanguage": "en-US",
            "inputModes": "EnvironmentReportingKeyboard",
        ])
        host.hide()
        await host.settle()
    }

    /// Per extension (the host's settings) and per field (its language; a secure field has no
    /// dictation), in either isolation.
    @Test(arguments: Isolation.allCases)
    func theSettingsSayPerExtensionAndTheFieldPerField(_ isolation: Isolation) async throws {
        let settings = HostSettings(environment: KeyboardEnvironment(fullAccess: true, primaryLanguage: "fr-FR", dictation: true))
        let host = try KeyboardTestHost(EnvironmentReportingKeyboard.self, settings: settings, isolation: isolation)
        try host.show()
        var seen = try await report(host)
        #expect(seen["hasFullAccess"] == "true" && seen["hasDictationKey"] == "true" && seen["primaryLanguage"] == "fr-FR")
        host.userFocusesField(traits: TextInputTraits(primaryLanguage: "de"))
        await host.settle()
        seen = try await report(host)
        #expect(seen["primaryLanguage"] == "de" && seen["hasDictationKey"] == "true")
        host.userFocusesField(traits: TextInputTraits(isSecureTextEntry: true))
        await host.settle()
        seen = try await report(host)
        #expect(seen["primaryLanguage"] == "fr-FR" && seen["hasDictationKey"] == "false" && seen["hasFullAccess"] == "true")
        host.hide()
        await host.settle()
    }

    /// The host's keyboards: with another, the keyboard needs a switch key, unless the user says it
    /// does not (a host that shows its own); the list is asked for by handleInputModeList.
    @Test(arguments: Isolation.allCases)
    func theSwitchKeyFollowsTheHostsKeyboards(_ isolation: Isolation) async throws {
        let modes = [InputMode(identifier: "test.environment", name: "Mine"), InputMode(identifier: "dev.kbhost.samples.hello", name: "Hello")]
        let host = try KeyboardTestHost(EnvironmentReportingKeyboard.self, isolation: isolation)
        host.session.inputModes = modes
        try host.show()
        let seen = try await report(host)
        #expect(seen["needsInputModeSwitchKey"] == "true" && seen["inputModes"] == "Mine,Hello")
        try host.tap("☰")
        await host.settle()
        #expect(host.log.contains(.request(.showInputModeList)))
        host.hide()
        await host.settle()

        let ownSwitch = HostSettings(environment: KeyboardEnvironment(needsInputModeSwitchKey: false))
        let other = try KeyboardTestHost(EnvironmentReportingKeyboard.self, settings: ownSwitch, isolation: isolation)
        other.session.inputModes = modes
        try other.show()
        #expect(try await report(other)["needsInputModeSwitchKey"] == "false")
        other.hide()
        await other.settle()
    }

    /// The lexicon: the user's words and replacements from the host, then the keyboard's own text
    /// replacements; an input the user has already is not repeated. It comes on a later turn.
    @Test(arguments: Isolation.allCases)
    func theSupplementaryLexiconHoldsTheUsersWordsAndTheReplacements(_ isolation: Isolation) async throws {
        let settings = HostSettings(environment: KeyboardEnvironment(lexicon: [.word("Zanzibar"), LexiconEntry(userInput: "omw", documentText: "omw!")]))
        let host = try KeyboardTestHost(EnvironmentReportingKeyboard.self, settings: settings, isolation: isolation)
        try host.show()
        try host.tap("📖")
        #expect(host.events.isEmpty)  // not before the host's loop turns
        await host.settle()
        #expect(host.events.last?.details == ["Zanzibar": "Zanzibar", "omw": "omw!", "brb": "be right back"])
        host.hide()
        await host.settle()
    }
}
