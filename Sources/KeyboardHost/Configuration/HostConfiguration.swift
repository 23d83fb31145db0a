import Foundation

/// The host's settings file (`kbhost.json`): which license issuers it trusts, and whether it loads
/// unlicensed extensions. JSON; unknown keys are errors (a typo must not silently drop a setting), and
/// every error names the file, the field and what was expected.
///
/// ```json
/// { "trustedIssuers": ["samples/SampleIssuer/sample-issuer.public.json"] }
/// ```
/// Paths are relative to the file's folder.
public struct HostConfiguration: Sendable {
    /// The public key files of trusted issuers, as absolute paths.
    public var trustedIssuerFiles: [String] = []
    /// Load extensions without checking their licenses (development only).
    public var allowUnlicensed = false

    public init(trustedIssuerFiles: [String] = [], allowUnlicensed: Bool = false) {
        self.trustedIssuerFiles = trustedIssuerFiles
        self.allowUnlicensed = allowUnlicensed
    }

    /// The file looked for in the working directory when none is named.
    public static let defaultFileName = "kbhost.json"

    public static func read(_ path: String) throws(HostConfigurationError) -> HostConfiguration {
        let data: Data
        switch FileContents.read(path) {
        case .success(let contents): data = contents
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw .invalid(path: path, problem: DecodingProblem(error).description)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return HostConfiguration(
            trustedIssuerFiles: (file.trustedIssuers ?? []).map {
                $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).standardized.path
            },
            allowUnlicensed: file.allowUnlicensed ?? false
        )
    }

    /// The file's JSON. Unknown keys are refused, by name.
    private struct File: Decodable {
        var trustedIssuers: [String]?
        var allowUnlicensed: Bool?

        private enum Keys: String, CodingKey, CaseIterable { case trustedIssuers, allowUnlicensed }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let all = try decoder.container(keyedBy: AnyKey.self)
            if let unknown = all.allKeys.first(where: { Keys(rawValue: $0.stringValue) == nil }) {
                throw DecodingError.dataCorruptedError(
                    forKey: unknown, in: all,
                    debugDescription: "unknown setting (expected \(Keys.allCases.map(\.rawValue).joined(separator: " or ")))"
                )
            }
            let container = try decoder.container(keyedBy: Keys.self)
            trustedIssuers = try container.decodeIfPresent([String].self, forKey: .trustedIssuers)
            allowUnlicensed = try container.decodeIfPresent(Bool.self, forKey: .allowUnlicensed)
        }
    }

    /// The verifier for the trusted issuers; errors name the key file.
    public func verifier() throws(LicenseFileError) -> LicenseVerifier {
        var issuers: [TrustedIssuer] = []
        for file in trustedIssuerFiles {
            issuers.append(try TrustedIssuer.read(publicKeyFile: file))
        }
        return LicenseVerifier(trusting: issuers)
    }
}

public enum HostConfigurationError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// `problem` names the field (DecodingProblem): `trustedIssuers[1]: expected a string`.
    case invalid(path: String, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "configuration '\(path)': \(reason)"
        case .invalid(let path, let problem): "configuration '\(path)': \(problem)"
        }
    }
}
