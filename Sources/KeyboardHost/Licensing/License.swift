import Foundation

/// What a license says: which extension, for whom, until when, with which features, and who issued it.
///
/// A `LicenseConfiguration(licenseKey:licenseSecret:)` carries it: the key is this payload as
/// base64url JSON, readable and copyable; the secret is the issuer's Ed25519 signature over exactly
/// those bytes. Changing one character of the key breaks the signature.
public struct License: Codable, Hashable, Sendable {
    /// The reverse-DNS identifier of the one extension it is for.
    public var extensionIdentifier: String
    public var licensee: String
    /// The last day it is valid (inclusive, UTC), as `YYYY-MM-DD`.
    public var expires: String
    public var features: [String]
    /// The issuer's name, and its key's identifier (see ``LicenseIssuer/keyIdentifier``).
    public var issuer: String
    public var issuerKey: String

    public init(extensionIdentifier: String, licensee: String, expires: String, features: [String] = [], issuer: String, issuerKey: String) {
        self.extensionIdentifier = extensionIdentifier
        self.licensee = licensee
        self.expires = expires
        self.features = features
        self.issuer = issuer
        self.issuerKey = issuerKey
    }

    /// A `YYYY-MM-DD` day (UTC) as a date, or `nil` if it is not one (2026-02-30 is not).
    public static func day(_ text: String) -> Date? { parseDay(text) }

    /// Whether a license that `expires` on that day (`YYYY-MM-DD`) has expired at `date`: it is valid
    /// through the whole day, UTC. `nil` if `expires` is not a day.
    public static func hasExpired(_ expires: String, at date: Date) -> Bool? {
        parseDay(expires).map { date >= $0.addingTimeInterval(24 * 60 * 60) }
    }

    static func parseDay(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }  // 2026-02-30 is not a day
        return date
    }
}

/// base64url without padding (RFC 4648 §5): safe in JSON, shell arguments and file names.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
