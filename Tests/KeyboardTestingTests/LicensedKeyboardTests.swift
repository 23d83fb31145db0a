import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing

/// An author testing their keyboard's license under a host that requires one.
@Suite("A licensed keyboard under the test host")
@MainActor
struct LicensedKeyboardTests {
    static let issuer = LicenseIssuer(name: "Test Issuer")
    static let license = try! issuer.issue(extensionIdentifier: "com.example.licensed", licensee: "Tests", expires: "2099-12-31")

    final class LicensedKeyboard: KeyboardViewController {
        static var license: LicenseConfiguration?
        override func createConfiguration() -> KeyboardConfiguration {
            KeyboardConfiguration(license: Self.license, layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("a")]])]))
        }
    }

    @Test func aValidLicenseActivatesAndAnyOtherIsRefused() async throws {
        let licensing = Licensing.required(LicenseVerifier(trusting: [Self.issuer.trusted]))
        LicensedKeyboard.license = Self.license
        let host = try KeyboardTestHost(LicensedKeyboard.self, id: "com.example.licensed", name: "Licensed", licensing: licensing)
        try host.show()
        try await host.type("a")
        #expect(host.document == "a")
        host.hide()

        LicensedKeyboard.license = nil
        #expect(throws: SessionError.unlicensed(extension: "Licensed", problem: .missing)) { try host.show() }
        LicensedKeyboard.license = Self.license
        let other = try KeyboardTestHost(LicensedKeyboard.self, id: "com.example.other", name: "Other", licensing: licensing)
        #expect(throws: SessionError.unlicensed(extension: "Other", problem: .otherExtension(licensed: "com.example.licensed", actual: "com.example.other"))) {
            try other.show()
        }
        #expect(!other.session.isShown)
    }
}
