/// How the host draws the keyboard: `KeyboardConfiguration.appearance`.
public struct Appearance: Codable, Hashable, Sendable {
    /// The keys' colours.
    public var theme: Theme
    /// Letter keys show lower case while shift is off (iOS's "Show Lowercase Keys"); off, they always
    /// show capitals, as the first iPhone keyboards did.
    public var showsLowercaseKeys: Bool

    public enum Theme: String, Codable, Hashable, Sendable, CaseIterable {
        /// Light text on dark keys: what most terminals look right with.
        case dark
        /// Dark text on light keys.
        case light
        /// Black and white only, keys in brackets: no colour at all.
        case plain

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let theme = Theme(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "unknown theme '\(name)' (expected \(Theme.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            self = theme
        }
    }

    public init(theme: Theme = .dark, showsLowercaseKeys: Bool = true) {
        self.theme = theme
        self.showsLowercaseKeys = showsLowercaseKeys
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case theme, showsLowercaseKeys }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? .dark
        showsLowercaseKeys = try container.decodeIfPresent(Bool.self, forKey: .showsLowercaseKeys) ?? true
    }
}
