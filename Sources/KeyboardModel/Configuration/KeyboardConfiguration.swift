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

    public init(
        license: LicenseConfiguration? = nil, layout: KeyboardLayout, requestsSecureEntry: Bool = false,
        inputType: InputType = .text
    ) {
        self.license = license
        self.layout = layout
        self.requestsSecureEntry = requestsSecureEntry
        self.inputType = inputType
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case license, layout, requestsSecureEntry, inputType }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        license = try container.decodeIfPresent(LicenseConfiguration.self, forKey: .license)
        layout = try container.decode(KeyboardLayout.self, forKey: .layout)
        requestsSecureEntry = try container.decodeIfPresent(Bool.self, forKey: .requestsSecureEntry) ?? false
        inputType = try container.decodeIfPresent(InputType.self, forKey: .inputType) ?? .text
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
}
