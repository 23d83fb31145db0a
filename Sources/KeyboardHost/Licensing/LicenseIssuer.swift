import Crypto
import Foundation

/// Someone who issues licenses: a name and an Ed25519 key pair. The private key signs; hosts trust the
/// public key (``TrustedIssuer``).
public struct LicenseIssuer: Sendable {
    public let name: String
    let privateKey: Curve25519.Signing.PrivateKey

    /// A new issuer with a fresh key pair from the system's cryptographic random source.
    public init(name: String) {
        self.name = name
        privateKey = Curve25519.Signing.PrivateKey()
    }

    init(name: String, privateKey: Curve25519.Signing.PrivateKey) {
        self.name = name
        self.privateKey = privateKey
    }

    public var trusted: TrustedIssuer {
        TrustedIssuer(name: name, publicKey: privateKey.publicKey)
    }

    /// Identifies the key: the first 8 bytes of the SHA-256 of the public key, in hex.
    public var keyIdentifier: String { trusted.keyIdentifier }

    /// Issues a license: the key (the payload) and the secret (the signature over it).
    public func issue(
        extensionIdentifier: String, licensee: String, expires: String, features: [String] = []
    ) throws -> LicenseConfiguration {
        guard License.parseDay(expires) != nil else { throw LicenseError.malformed(field: "expires", reason: "is not a day in the form YYYY-MM-DD") }
        let license = License(
            extensionIdentifier: extensionIdentifier, licensee: licensee, expires: expires, features: features,
            issuer: name, issuerKey: keyIdentifier
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = try encoder.encode(license)
        let signature = try privateKey.signature(for: payload)
        return LicenseConfiguration(licenseKey: Base64URL.encode(payload), licenseSecret: Base64URL.encode(signature))
    }

    // MARK: Files

    /// The private key file: JSON `{"issuer": …, "privateKey": base64url}`. Keep it secret (written 0600).
    public func privateKeyFile() throws -> Data {
        try Self.encoder.encode(IssuerFile(issuer: name, privateKey: Base64URL.encode(privateKey.rawRepresentation), publicKey: nil))
    }

    /// Reads a private key file; errors name the file and the field.
    public static func read(privateKeyFile path: String) throws(LicenseFileError) -> LicenseIssuer {
        let file = try IssuerFile.read(path)
        guard let text = file.privateKey else { throw .field(path: path, field: "privateKey", problem: "missing") }
        guard let raw = Base64URL.decode(text), let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
            throw .field(path: path, field: "privateKey", problem: "expected a base64url Ed25519 private key (32 bytes)")
        }
        return LicenseIssuer(name: file.issuer, privateKey: key)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()
}

/// An issuer a host trusts: its name and public key.
public struct TrustedIssuer: Sendable {
    public let name: String
    let publicKey: Curve25519.Signing.PublicKey

    public var keyIdentifier: String {
        String(SHA256Hex.of(publicKey.rawRepresentation).prefix(16))
    }

    /// The public key file: JSON `{"issuer": …, "publicKey": base64url}`. Safe to share.
    public func publicKeyFile() throws -> Data {
        try LicenseIssuer.encoder.encode(IssuerFile(issuer: name, privateKey: nil, publicKey: Base64URL.encode(publicKey.rawRepresentation)))
    }

    /// Reads a public key file; errors name the file and the field.
    public static func read(publicKeyFile path: String) throws(LicenseFileError) -> TrustedIssuer {
        let file = try IssuerFile.read(path)
        guard let text = file.publicKey else { throw .field(path: path, field: "publicKey", problem: "missing") }
        guard let raw = Base64URL.decode(text), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
            throw .field(path: path, field: "publicKey", problem: "expected a base64url Ed25519 public key (32 bytes)")
        }
        return TrustedIssuer(name: file.issuer, publicKey: key)
    }
}

/// The JSON of an issuer's key files.
struct IssuerFile: Codable {
    var issuer: String
    var privateKey: String?
    var publicKey: String?

    static func read(_ path: String) throws(LicenseFileError) -> IssuerFile {
        let data: Data
        switch FileContents.read(path) {
        case .success(let contents): data = contents
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        do {
            return try JSONInput.decode(IssuerFile.self, from: data)
        } catch {
            throw .field(path: path, field: nil, problem: DecodingProblem(error).description)
        }
    }
}

/// A key file that cannot be used: the file, and the field, and what was expected.
public enum LicenseFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case field(path: String, field: String?, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "'\(path)': \(reason)"
        case .field(let path, let field?, let problem): "'\(path)': \(field): \(problem)"
        case .field(let path, nil, let problem): "'\(path)': \(problem)"
        }
    }
}
