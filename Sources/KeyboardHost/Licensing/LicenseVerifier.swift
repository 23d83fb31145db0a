import Crypto
import Foundation

/// Checks an extension's license against the issuers a host trusts.
public struct LicenseVerifier: Sendable {
    public var trusted: [TrustedIssuer]

    public init(trusting trusted: [TrustedIssuer]) {
        self.trusted = trusted
    }

    /// The license, if `configuration` is a valid license for `extensionIdentifier` on `day`; else the
    /// one reason it is not.
    public func verify(
        _ configuration: LicenseConfiguration?, for extensionIdentifier: String, on day: Date = Date()
    ) throws(LicenseError) -> License {
        guard let configuration else { throw .missing }
        guard let payload = Base64URL.decode(configuration.licenseKey) else {
            throw .malformed(field: "licenseKey", reason: "is not base64url")
        }
        let license: License
        do {
            license = try JSONInput.decode(License.self, from: payload)
        } catch {
            throw .malformed(field: "licenseKey", reason: "does not hold a license (\(DecodingProblem(error)))")
        }
        guard let signature = Base64URL.decode(configuration.licenseSecret), signature.count == 64 else {
            throw .malformed(field: "licenseSecret", reason: "is not a base64url Ed25519 signature (64 bytes)")
        }
        guard let issuer = trusted.first(where: { $0.keyIdentifier == license.issuerKey }) else {
            throw .unknownIssuer(name: license.issuer, key: license.issuerKey)
        }
        guard issuer.publicKey.isValidSignature(signature, for: payload) else {
            throw .badSignature(issuer: issuer.name)
        }
        guard license.extensionIdentifier == extensionIdentifier else {
            throw .otherExtension(licensed: license.extensionIdentifier, actual: extensionIdentifier)
        }
        guard let expired = License.hasExpired(license.expires, at: day) else {
            throw .malformed(field: "expires", reason: "'\(license.expires)' is not a day in the form YYYY-MM-DD")
        }
        guard !expired else { throw .expired(on: license.expires) }
        return license
    }
}

/// Why a license is refused: one line each.
public enum LicenseError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing
    case malformed(field: String, reason: String)
    case unknownIssuer(name: String, key: String)
    case badSignature(issuer: String)
    case otherExtension(licensed: String, actual: String)
    case expired(on: String)

    public var description: String {
        switch self {
        case .missing:
            "no license: the configuration has no LicenseConfiguration"
        case .malformed(let field, let reason):
            "malformed license: \(field) \(reason)"
        case .unknownIssuer(let name, let key):
            "license issued by '\(name)' (key \(key)), which this host does not trust"
        case .badSignature(let issuer):
            "license does not carry a valid signature by '\(issuer)': the key or the secret was changed"
        case .otherExtension(let licensed, let actual):
            "license is for '\(licensed)', not '\(actual)'"
        case .expired(let day):
            "license expired on \(day)"
        }
    }
}
