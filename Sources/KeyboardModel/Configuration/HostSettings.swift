import Foundation

/// What the host hands an extension before it asks for its configuration: the user's choices for this
/// extension on this machine, from the host's configuration file and flags (`kbhost.json`'s
/// `extensions`, `--license`, `--layout`, `--set`).
///
/// It crosses the C boundary as the JSON object `create_instance` receives. The SDK lays it over what
/// `createConfiguration()` returns (``KeyboardConfiguration/applying(_:)``): a license or layout given
/// here replaces the extension's own, `typing` and `appearance` change only the fields they name, and
/// `options` are the extension's to read.
public struct HostSettings: Codable, Hashable, Sendable {
    /// The license the user installed for this extension.
    public var license: LicenseConfiguration?
    /// The layout the user chose (a built-in one by name, or a file, resolved by the host).
    public var layout: KeyboardLayout?
    /// Fields of ``TypingOptions`` to change, as a JSON object (`{"autocapitalization": true}`).
    public var typing: JSONValue?
    /// Fields of ``Appearance`` to change, as a JSON object (`{"theme": "light"}`).
    public var appearance: JSONValue?
    /// Anything else, for the extension to interpret (`{"vibrate": false, "language": "fr"}`).
    public var options: [String: JSONValue]
    /// A folder the host made for this extension alone (mode 0700), where it may keep files across
    /// runs; `nil` if the host gives none. Set by the host, not by the user's settings.
    public var storage: String?
    /// Where the keyboard runs: full access, language, dictation, the host's keyboards, the user's
    /// words (``KeyboardEnvironment``). Set by the user and completed by the host.
    public var environment: KeyboardEnvironment?

    public init(
        license: LicenseConfiguration? = nil, layout: KeyboardLayout? = nil, typing: JSONValue? = nil,
        appearance: JSONValue? = nil, options: [String: JSONValue] = [:], storage: String? = nil,
        environment: KeyboardEnvironment? = nil
    ) {
        self.license = license
        self.layout = layout
        self.typing = typing
        self.appearance = appearance
        self.options = options
        self.storage = storage
        self.environment = environment
    }

    /// No settings: `{}`.
    public static let none = HostSettings()

    public var isEmpty: Bool { self == .none }

    private enum CodingKeys: String, CodingKey, CaseIterable { case license, layout, typing, appearance, options, storage, environment }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        license = try container.decodeIfPresent(LicenseConfiguration.self, forKey: .license)
        layout = try container.decodeIfPresent(KeyboardLayout.self, forKey: .layout)
        typing = try container.decodeIfPresent(JSONValue.self, forKey: .typing)
        appearance = try container.decodeIfPresent(JSONValue.self, forKey: .appearance)
        options = try container.decodeIfPresent([String: JSONValue].self, forKey: .options) ?? [:]
        storage = try container.decodeIfPresent(String.self, forKey: .storage)
        environment = try container.decodeIfPresent(KeyboardEnvironment.self, forKey: .environment)
        // The partial objects must be valid on their own, so a typo is caught where it was written (in
        // a file; from a newer host, a field this SDK does not know is skipped).
        let unknownKeys: JSONInput.UnknownKeys = decoder.userInfo[.ignoresUnknownKeys] as? Bool == true ? .ignored : .refused
        if let typing { _ = try TypingOptions.self.decode(typing, at: container, key: .typing, unknownKeys: unknownKeys) }
        if let appearance { _ = try Appearance.self.decode(appearance, at: container, key: .appearance, unknownKeys: unknownKeys) }
    }
}

extension Decodable {
    /// Decodes `value` as this type, rethrowing a failure as one at `key` of `container`, so the
    /// message names the field.
    package static func decode<Key: CodingKey>(
        _ value: JSONValue, at container: KeyedDecodingContainer<Key>, key: Key, unknownKeys: JSONInput.UnknownKeys = .refused
    ) throws -> Self {
        do {
            return try JSONValueDecoding.decode(Self.self, from: value, unknownKeys: unknownKeys)
        } catch {
            let problem = DecodingProblem(error).description
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: problem)
        }
    }
}

/// Decoding a ``JSONValue`` as a `Decodable` type, through its JSON text.
package enum JSONValueDecoding {
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, unknownKeys: JSONInput.UnknownKeys = .refused) throws -> T {
        let decoder = JSONDecoder()
        if case .ignored = unknownKeys { decoder.userInfo[.ignoresUnknownKeys] = true }
        return try decoder.decode(T.self, from: JSONEncoder().encode(value))
    }

    /// `value` as a ``JSONValue``, through its JSON text.
    package static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }
}

extension HostSettings {
    /// `other` laid over these settings (flags over the configuration file): its license and layout
    /// replace these; its `typing`, `appearance` and `options` change the fields they name.
    public func overlaid(with other: HostSettings) -> HostSettings {
        func merge(_ mine: JSONValue?, _ theirs: JSONValue?) -> JSONValue? {
            guard let theirs else { return mine }
            return mine.map { $0.merging(theirs) } ?? theirs
        }
        return HostSettings(
            license: other.license ?? license,
            layout: other.layout ?? layout,
            typing: merge(typing, other.typing),
            appearance: merge(appearance, other.appearance),
            options: options.merging(other.options) { mine, theirs in mine.merging(theirs) },
            storage: other.storage ?? storage,
            environment: other.environment.map { environment?.overlaid(with: $0) ?? $0 } ?? environment
        )
    }
}
