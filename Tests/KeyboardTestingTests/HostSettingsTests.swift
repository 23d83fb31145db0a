import Foundation
import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// A keyboard that reads the host's settings in `createConfiguration()`, as an author would: its
/// `options.rows` chooses how many letter rows it shows.
final class SettingsReadingKeyboard: KeyboardViewController {
    static var settingsSeenInCreateConfiguration: [HostSettings] = []

    override func createConfiguration() -> KeyboardConfiguration {
        Self.settingsSeenInCreateConfiguration.append(hostSettings)
        let rows = Int(hostSettings.options["rows"]?.numberValue ?? 1)
        let letters = ["abc", "def", "ghi"].prefix(rows).map { $0.map { Key.input(String($0)) } }
        return KeyboardConfiguration(
            layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: Array(letters))]),
            typing: TypingOptions(keyFeedback: KeyFeedback(highlight: true, sound: true))
        )
    }
}

/// A keyboard that refuses a replacement layout, by overriding how settings are applied.
final class FixedLayoutKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("z")]])]))
    }

    override func configuration(applying settings: HostSettings, to own: KeyboardConfiguration) -> KeyboardConfiguration {
        var settings = settings
        settings.layout = nil
        return own.applying(settings)
    }
}

@MainActor
@Suite("Host settings handed to the extension")
struct HostSettingsTests {
    @Test func settingsArriveBeforeCreateConfiguration() async throws {
        SettingsReadingKeyboard.settingsSeenInCreateConfiguration = []
        let settings = HostSettings(options: ["rows": .number(3), "language": .string("fr")])
        let host = try KeyboardTestHost(SettingsReadingKeyboard.self, settings: settings)
        try host.show()
        var handed = settings
        handed.environment = KeyboardEnvironment(
            needsInputModeSwitchKey: false, inputModes: [InputMode(identifier: host.session.loadedExtension.identifier, name: "SettingsReadingKeyboard")]
        )
        #expect(SettingsReadingKeyboard.settingsSeenInCreateConfiguration == [handed])
        #expect(host.session.configuration?.layout.subKeyboards[0].rows.count == 3)
        try await host.type("gig")
        #expect(host.document == "gig")
    }

    /// With no settings of the user's, the extension gets only what the host knows of where it runs:
    /// its list of keyboards (this one), and so no need of a switch key.
    @Test func withoutSettingsTheExtensionGetsOnlyTheHostsEnvironment() throws {
        SettingsReadingKeyboard.settingsSeenInCreateConfiguration = []
        let host = try KeyboardTestHost(SettingsReadingKeyboard.self)
        try host.show()
        let environment = KeyboardEnvironment(
            needsInputModeSwitchKey: false, inputModes: [InputMode(identifier: host.session.loadedExtension.identifier, name: "SettingsReadingKeyboard")]
        )
        #expect(SettingsReadingKeyboard.settingsSeenInCreateConfiguration == [HostSettings(environment: environment)])
        #expect(host.session.configuration?.layout.subKeyboards[0].rows.count == 1)
    }

    @Test func aLayoutAndLicenseFromTheHostReplaceTheExtensionsOwn() async throws {
        let license = LicenseConfiguration(licenseKey: "k", licenseSecret: "s")
        let host = try KeyboardTestHost(
            SettingsReadingKeyboard.self, settings: HostSettings(license: license, layout: .qwerty)
        )
        try host.show()
        #expect(host.session.configuration?.layout == .qwerty)
        #expect(host.session.configuration?.license == license)
        try await host.type("Hi, 42#")
        #expect(host.document == "Hi, 42#")
    }

    @Test func typingAndAppearanceChangeOnlyTheFieldsTheyName() throws {
        let host = try KeyboardTestHost(
            SettingsReadingKeyboard.self,
            settings: HostSettings(
                typing: .object(["keyFeedback": .object(["highlight": .bool(false)])]),
                appearance: .object(["theme": .string("light")])
            )
        )
        try host.show()
        let configuration = try #require(host.session.configuration)
        // The extension's own sound stays on; only the highlight changed.
        #expect(configuration.typing.keyFeedback == KeyFeedback(highlight: false, sound: true))
        #expect(configuration.appearance == Appearance(theme: .light, showsLowercaseKeys: true))
    }

    @Test func anExtensionCanRefuseAHostSetting() throws {
        let host = try KeyboardTestHost(FixedLayoutKeyboard.self, settings: HostSettings(layout: .qwerty))
        try host.show()
        #expect(host.session.configuration?.layout.subKeyboards[0].rows == [[.input("z")]])
    }

    @Test func aHostLayoutIsCheckedAgainstTheInputType() throws {
        let host = try KeyboardTestHost(PinKeyboard.self, settings: HostSettings(layout: .qwerty))
        let error = #expect(throws: SessionError.self) { try host.show() }
        #expect(error?.description.contains(#"subKeyboards[0].rows[0][0]: "q" is not allowed for input type digits"#) == true, "\(String(describing: error))")
        #expect(!host.session.isShown)
    }

    @Test func licensesFromTheHostAreVerified() throws {
        let issuer = LicenseIssuer(name: "Test Issuer")
        let id = "test.settings.licensed"
        let license = try issuer.issue(extensionIdentifier: id, licensee: "Someone", expires: "2099-12-31")
        let verifier = LicenseVerifier(trusting: [issuer.trusted])
        let unlicensed = try KeyboardTestHost(SettingsReadingKeyboard.self, id: id, licensing: .required(verifier))
        #expect(throws: SessionError.self) { try unlicensed.show() }
        let licensed = try KeyboardTestHost(
            SettingsReadingKeyboard.self, id: id, licensing: .required(verifier), settings: HostSettings(license: license)
        )
        try licensed.show()
        #expect(licensed.session.isShown)
    }
}

/// A PIN keyboard: digits only.
final class PinKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: .numericPad, inputType: .digits)
    }
}
