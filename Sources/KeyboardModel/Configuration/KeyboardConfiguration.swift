import Foundation

/// What an extension answers when the host asks for its configuration
/// (`KeyboardViewController.createConfiguration()`), as in Fleksy's SDK.
///
/// It crosses the C boundary as JSON (see `create_configuration` in `KeyboardExtensionABI.h`), so the
/// host and each extension can carry their own copy of this type.
public struct KeyboardConfiguration: Codable, Hashable, Sendable {
    /// The license the extension runs under; `nil` for an unlicensed extension.
    public var license: LicenseConfiguration?
    /// The keys the host draws and the user taps.
    public var layout: KeyboardLayout
    /// Whether the keyboard wants a secure field (a PIN pad): the host masks the text and keeps it out
    /// of history.
    public var requestsSecureEntry: Bool
    /// What the keyboard's input keys may type; the host checks the layout against it.
    public var inputType: InputType
    /// Seconds after which a shuffled layout is shuffled again while the keyboard is shown (it is also
    /// shuffled on every appearance); 0: never. Default 5 minutes.
    public var layoutRefreshInterval: Double
    /// Autocapitalization, autocorrection, key feedback…
    public var typing: TypingOptions
    /// How the host draws the keys.
    public var appearance: Appearance

    public init(
        license: LicenseConfiguration? = nil, layout: KeyboardLayout, requestsSecureEntry: Bool = false,
        inputType: InputType = .text, layoutRefreshInterval: Double = 300, typing: TypingOptions = TypingOptions(),
        appearance: Appearance = Appearance()
    ) {
        self.license = license
        self.layout = layout
        self.requestsSecureEntry = requestsSecureEntry
        self.inputType = inputType
        self.layoutRefreshInterval = layoutRefreshInterval
        self.typing = typing
        self.appearance = appearance
    }

    /// The host's settings laid over this configuration: the user's license and layout replace the
    /// extension's own; `typing` and `appearance` change the fields they name. A partial object that
    /// does not decode leaves its part as it was (the host checked it when it read its file).
    public func applying(_ settings: HostSettings) -> KeyboardConfiguration {
        var result = self
        if let license = settings.license { result.license = license }
        if let layout = settings.layout { result.layout = layout }
        if let typing = settings.typing, let merged = try? Self.merge(self.typing, typing) { result.typing = merged }
        if let appearance = settings.appearance, let merged = try? Self.merge(self.appearance, appearance) {
            result.appearance = merged
        }
        return result
    }

    /// `overrides` laid over `value`. The settings were checked when they were read; a field in them
    /// this side does not know (a newer host's) is skipped rather than losing the rest.
    private static func merge<T: Codable>(_ value: T, _ overrides: JSONValue) throws -> T {
        let current = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        return try JSONValueDecoding.decode(T.self, from: current.merging(overrides), unknownKeys: .ignored)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case license, layout, requestsSecureEntry, inputType, layoutRefreshInterval, typing, appearance
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        license = try container.decodeIfPresent(LicenseConfiguration.self, forKey: .license)
        layout = try container.decode(KeyboardLayout.self, forKey: .layout)
        requestsSecureEntry = try container.decodeIfPresent(Bool.self, forKey: .requestsSecureEntry) ?? false
        inputType = try container.decodeIfPresent(InputType.self, forKey: .inputType) ?? .text
        layoutRefreshInterval = try container.decodeIfPresent(Double.self, forKey: .layoutRefreshInterval) ?? 300
        typing = try container.decodeIfPresent(TypingOptions.self, forKey: .typing) ?? TypingOptions()
        appearance = try container.decodeIfPresent(Appearance.self, forKey: .appearance) ?? Appearance()
        guard layoutRefreshInterval.isFinite, layoutRefreshInterval >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .layoutRefreshInterval, in: container, debugDescription: "expected seconds, 0 or more")
        }
    }
}

/// A license key and the issuer's secret for it, as `LicenseConfiguration(licenseKey:licenseSecret:)`
/// in Fleksy's SDK.
public struct LicenseConfiguration: Codable, Hashable, Sendable {
    public var licenseKey: String
    public var licenseSecret: String

    public init(licenseKey: String, licenseSecret: String) {
        self.licenseKey = licenseKey
        self.licenseSecret = licenseSecret
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case licenseKey, licenseSecret
    }

    /// The most characters of a key and of a secret: an issued key is a few hundred, a secret 86.
    public static let maximumKeyLength = 16_384, maximumSecretLength = 1_024

    /// Strict, and bounded: an unknown key is an error (a typo would leave the license unread), and so
    /// is a key or secret far longer than any issued (the verifier's work grows with them).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        licenseKey = try container.decode(String.self, forKey: .licenseKey)
        licenseSecret = try container.decode(String.self, forKey: .licenseSecret)
        for (value, key, limit) in [(licenseKey, CodingKeys.licenseKey, Self.maximumKeyLength), (licenseSecret, .licenseSecret, Self.maximumSecretLength)]
        where value.utf8.count > limit {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(value.utf8.count) bytes, more than the \(limit) allowed"
            )
        }
    }
}
