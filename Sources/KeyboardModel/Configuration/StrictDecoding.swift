/// Decoding that refuses keys it does not know, by name: in a layout or configuration file a typo must
/// be an error, not a silently ignored setting. JSON from the other side of the ABI is decoded with
/// ``JSONInput/UnknownKeys/ignored``, which turns the refusal off (a newer peer's fields).
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws if the object being decoded has a key not among `known`.
    package func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ known: Keys.Type) throws {
        if userInfo[.ignoresUnknownKeys] as? Bool == true { return }
        let container = try container(keyedBy: AnyCodingKey.self)
        let names = Set(Keys.allCases.map(\.stringValue))
        if let unknown = container.allKeys.first(where: { !names.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: container,
                debugDescription: "unknown key (expected \(Keys.allCases.map(\.stringValue).joined(separator: ", ")))"
            )
        }
    }
}

extension CodingUserInfoKey {
    /// Set (to `true`) by ``JSONInput/decode(_:from:limits:unknownKeys:)`` for JSON from a peer.
    static let ignoresUnknownKeys = CodingUserInfoKey(rawValue: "dev.kbhost.ignoresUnknownKeys")!
}
