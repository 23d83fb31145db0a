import Foundation

/// The host's settings file (`kbhost.json`): which license issuers it trusts, whether it loads
/// unlicensed extensions, and the extensions to load with the user's settings for each
/// (``ExtensionEntry``). JSON; unknown keys are errors (a typo must not silently drop a setting), and
/// every error names the file, the field and what was expected.
///
/// ```json
/// { "trustedIssuers": ["samples/SampleIssuer/sample-issuer.public.json"],
///   "extensions": [{ "path": ".build/debug/libHelloKeyboard.so", "typing": { "autocapitalization": true } }] }
/// ```
/// Paths are relative to the file's folder.
public struct HostConfiguration: Sendable {
    /// The public key files of trusted issuers, as absolute paths.
    public var trustedIssuerFiles: [String] = []
    /// Load extensions without checking their licenses (development only).
    public var allowUnlicensed = false
    /// The extensions to load (those with a path) and the settings for each.
    public var extensions: [ExtensionEntry] = []
    /// Folders of installed bundles, as absolute paths (before the per-user default).
    public var bundleDirectories: [String] = []

    public init(
        trustedIssuerFiles: [String] = [], allowUnlicensed: Bool = false, extensions: [ExtensionEntry] = [],
        bundleDirectories: [String] = []
    ) {
        self.trustedIssuerFiles = trustedIssuerFiles
        self.allowUnlicensed = allowUnlicensed
        self.extensions = extensions
        self.bundleDirectories = bundleDirectories
    }

    /// The settings for `loaded`: those of the first entry for it, or none.
    public func settings(for loaded: LoadedExtension) -> HostSettings {
        extensions.first { $0.matches(loaded) }?.settings ?? .none
    }

    /// The file looked for in the working directory when none is named.
    public static let defaultFileName = "kbhost.json"

    public static func read(_ path: String) throws(HostConfigurationError) -> HostConfiguration {
        let data: Data
        switch FileContents.read(path) {
        case .success(let contents): data = contents
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        return try parse(data, path: path)
    }

    /// The configuration in `data`, read from `path` (paths in it are relative to its folder).
    package static func parse(_ data: Data, path: String) throws(HostConfigurationError) -> HostConfiguration {
        let file: File
        do {
            file = try JSONInput.decode(File.self, from: data)
        } catch {
            throw .invalid(path: path, problem: DecodingProblem(error).description)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var extensions: [ExtensionEntry] = []
        for (index, entry) in (file.extensions ?? []).enumerated() {
            do {
                extensions.append(try entry.resolved(relativeTo: folder, field: "extensions[\(index)]"))
            } catch {
                throw .invalid(path: path, problem: error.description)
            }
        }
        return HostConfiguration(
            trustedIssuerFiles: (file.trustedIssuers ?? []).map { absolute($0, relativeTo: folder) },
            allowUnlicensed: file.allowUnlicensed ?? false,
            extensions: extensions,
            bundleDirectories: (file.bundles ?? []).map { absolute($0, relativeTo: folder) }
        )
    }

    /// The file's JSON. Unknown keys are refused, by name.
    private struct File: Decodable {
        var trustedIssuers: [String]?
        var allowUnlicensed: Bool?
        var extensions: [ExtensionEntryFile]?
        var bundles: [String]?

        private enum CodingKeys: String, CodingKey, CaseIterable { case trustedIssuers, allowUnlicensed, extensions, bundles }

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            trustedIssuers = try container.decodeIfPresent([String].self, forKey: .trustedIssuers)
            allowUnlicensed = try container.decodeIfPresent(Bool.self, forKey: .allowUnlicensed)
            extensions = try container.decodeIfPresent([ExtensionEntryFile].self, forKey: .extensions)
            bundles = try container.decodeIfPresent([String].self, forKey: .bundles)
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
