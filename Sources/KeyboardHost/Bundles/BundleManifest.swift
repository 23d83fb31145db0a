import Foundation
import KeyboardModel

/// `manifest.json` of an installable extension bundle (a folder `<identifier>.kbx`): what the
/// extension says it is, the shared library's file name and SHA-256, and its layout and license files.
///
/// ```json
/// { "formatVersion": 1, "identifier": "com.example.tiny", "name": "Tiny", "version": "1.0.0",
///   "abiVersion": 1, "library": "libTiny.so", "sha256": "9f86d0…",
///   "layout": "layout.json", "license": "license.json" }
/// ```
///
/// Unknown keys are errors: a manifest from a newer format, or with a typo, is refused, not half-read.
public struct BundleManifest: Codable, Hashable, Sendable {
    public static let currentFormatVersion = 1
    public static let fileName = "manifest.json"

    public var formatVersion: Int
    public var identifier: String
    public var name: String
    public var version: String
    public var abiVersion: UInt32
    /// The shared library's file name, in the bundle's folder.
    public var library: String
    /// The library's SHA-256, lower-case hex.
    public var sha256: String
    /// A layout file in the bundle, handed to the extension as its layout.
    public var layout: String?
    /// A license file in the bundle, handed to the extension as its license.
    public var license: String?

    public init(
        identifier: String, name: String, version: String, abiVersion: UInt32, library: String, sha256: String,
        layout: String? = nil, license: String? = nil
    ) {
        formatVersion = Self.currentFormatVersion
        self.identifier = identifier
        self.name = name
        self.version = version
        self.abiVersion = abiVersion
        self.library = library
        self.sha256 = sha256
        self.layout = layout
        self.license = license
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case formatVersion, identifier, name, version, abiVersion, library, sha256, layout, license
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        guard formatVersion == Self.currentFormatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: container,
                debugDescription: "format \(formatVersion) is not one this kbhost reads (\(Self.currentFormatVersion))"
            )
        }
        identifier = try container.decode(String.self, forKey: .identifier)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(String.self, forKey: .version)
        abiVersion = try container.decode(UInt32.self, forKey: .abiVersion)
        library = try container.decode(String.self, forKey: .library)
        sha256 = try container.decode(String.self, forKey: .sha256)
        layout = try container.decodeIfPresent(String.self, forKey: .layout)
        license = try container.decodeIfPresent(String.self, forKey: .license)
        for (key, file) in [(CodingKeys.library, library), (.layout, layout ?? "x"), (.license, license ?? "x")]
        where file.isEmpty || file.contains("/") || file.hasPrefix(".") {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected a file name in the bundle, not '\(file)'")
        }
        guard sha256.count == 64, sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: "expected 64 lower-case hex digits")
        }
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
