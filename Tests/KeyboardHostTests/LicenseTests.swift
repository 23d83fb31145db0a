import Foundation
import KeyboardHost
import PropertyBased
import Testing

@Suite("Licenses")
struct LicenseTests {
    private let issuer = LicenseIssuer(name: "Acme Keyboards")
    private let extensionID = "com.example.keyboard"

    private func day(_ text: String) -> Date { License.day(text)! }

    private func refusal(_ license: LicenseConfiguration?, for id: String? = nil, on: String = "2026-06-01",
                         trusting: [TrustedIssuer]? = nil) -> LicenseError? {
        do {
            _ = try LicenseVerifier(trusting: trusting ?? [issuer.trusted]).verify(license, for: id ?? extensionID, on: day(on))
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidLicenseSaysWhatItGrants() throws {
        let configuration = try issuer.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: "2026-12-31", features: ["swipe"])
        let license = try LicenseVerifier(trusting: [issuer.trusted]).verify(configuration, for: extensionID, on: day("2026-06-01"))
        #expect(license.licensee == "Jo")
        #expect(license.features == ["swipe"])
        #expect(license.issuer == "Acme Keyboards")
        #expect(license.issuerKey == issuer.keyIdentifier)
    }

    @Test func validThroughTheWholeExpiryDayAndNotAfter() throws {
        let configuration = try issuer.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: "2026-12-31")
        #expect(refusal(configuration, on: "2026-12-31") == nil)
        #expect(refusal(configuration, on: "2027-01-01") == .expired(on: "2026-12-31"))
        #expect(refusal(configuration, on: "2027-01-01")?.description == "license expired on 2026-12-31")
    }

    @Test func missing() {
        #expect(refusal(nil)?.description == "no license: the configuration has no LicenseConfiguration")
    }

    @Test func malformed() throws {
        let good = try issuer.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: "2026-12-31")
        #expect(refusal(LicenseConfiguration(licenseKey: "not base64!", licenseSecret: good.licenseSecret))?.description
            == "malformed license: licenseKey is not base64url")
        let notALicense = LicenseConfiguration(licenseKey: "eyJhIjoxfQ", licenseSecret: good.licenseSecret)  // {"a":1}
        #expect(refusal(notALicense)?.description.hasPrefix("malformed license: licenseKey does not hold a license") == true)
        #expect(refusal(LicenseConfiguration(licenseKey: good.licenseKey, licenseSecret: "abc"))?.description
            == "malformed license: licenseSecret is not a base64url Ed25519 signature (64 bytes)")
    }

    @Test func signedByAnIssuerTheHostDoesNotTrust() throws {
        let stranger = LicenseIssuer(name: "Someone Else")
        let configuration = try stranger.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: "2026-12-31")
        #expect(refusal(configuration)?.description
            == "license issued by 'Someone Else' (key \(stranger.keyIdentifier)), which this host does not trust")
    }

    @Test func aChangedKeyBreaksTheSignature() throws {
        let configuration = try issuer.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: "2026-12-31")
        // Extend the expiry by editing the key: the same issuer, but not its signature.
        let payload = String(decoding: Data(base64Encoded: Self.padded(configuration.licenseKey))!, as: UTF8.self)
            .replacingOccurrences(of: "2026-12-31", with: "2099-12-31")
        let forged = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(refusal(LicenseConfiguration(licenseKey: forged, licenseSecret: configuration.licenseSecret))
            == .badSignature(issuer: "Acme Keyboards"))
        // A key pair with the same name but another key is another issuer.
        #expect(refusal(configuration, trusting: [LicenseIssuer(name: "Acme Keyboards").trusted])
            == .unknownIssuer(name: "Acme Keyboards", key: issuer.keyIdentifier))
    }

    @Test func issuedForAnotherExtension() throws {
        let configuration = try issuer.issue(extensionIdentifier: "com.example.other", licensee: "Jo", expires: "2026-12-31")
        #expect(refusal(configuration)?.description == "license is for 'com.example.other', not 'com.example.keyboard'")
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "26-01-01", "2026/01/01", "tomorrow", ""])
    func anExpiryThatIsNotADayIsRefusedWhenIssuing(_ expires: String) {
        #expect(throws: LicenseError.self) { try issuer.issue(extensionIdentifier: extensionID, licensee: "Jo", expires: expires) }
    }

    @Test func keyFilesRoundTripAndNameWhatIsWrong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let privatePath = folder.appendingPathComponent("p.json").path, publicPath = folder.appendingPathComponent("q.json").path
        try issuer.privateKeyFile().write(to: URL(fileURLWithPath: privatePath))
        try issuer.trusted.publicKeyFile().write(to: URL(fileURLWithPath: publicPath))
        #expect(try LicenseIssuer.read(privateKeyFile: privatePath).keyIdentifier == issuer.keyIdentifier)
        #expect(try TrustedIssuer.read(publicKeyFile: publicPath).keyIdentifier == issuer.keyIdentifier)

        #expect(throws: LicenseFileError.field(path: publicPath, field: "privateKey", problem: "missing")) {
            try LicenseIssuer.read(privateKeyFile: publicPath)
        }
        try #"{"issuer": "x", "publicKey": "AAAA"}"#.write(toFile: publicPath, atomically: true, encoding: .utf8)
        #expect(throws: LicenseFileError.field(path: publicPath, field: "publicKey", problem: "expected a base64url Ed25519 public key (32 bytes)")) {
            try TrustedIssuer.read(publicKeyFile: publicPath)
        }
        try #"{"publicKey": 3}"#.write(toFile: publicPath, atomically: true, encoding: .utf8)
        #expect(throws: LicenseFileError.field(path: publicPath, field: nil, problem: "issuer: missing")) {
            try TrustedIssuer.read(publicKeyFile: publicPath)
        }
        #expect(throws: LicenseFileError.unreadable(path: "/nonexistent/k.json", reason: "no such file")) {
            try TrustedIssuer.read(publicKeyFile: "/nonexistent/k.json")
        }
    }

    @Test func arbitraryKeysAndSecretsAreRefusedNeverFatal() async {
        let verifier = LicenseVerifier(trusting: [issuer.trusted])
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 0...200), Gen.uint8().array(of: 0...100)) { key, secret in
            let configuration = LicenseConfiguration(
                licenseKey: String(decoding: key, as: UTF8.self), licenseSecret: String(decoding: secret, as: UTF8.self)
            )
            #expect(throws: LicenseError.self) { try verifier.verify(configuration, for: "com.example.keyboard") }
        }
    }

    @Test func arbitraryKeyFilesAreRefusedNeverFatal() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...300)) { bytes in
            try? Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(throws: LicenseFileError.self) { try TrustedIssuer.read(publicKeyFile: path) }
        }
    }

    private static func padded(_ text: String) -> String {
        let base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }
}
