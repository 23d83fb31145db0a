/// Something that happened in the keyboard, reported to the host to show or record — the delegate
/// callbacks of the secure-keyboard SDKs (key received, usage changed, rule failed, authentication
/// failed), or a result the keyboard worked out (a count). Crosses the C boundary as JSON
/// (`report_event`). Hosts show and log events: never put a secret in one.
public struct KeyboardEvent: Codable, Hashable, Sendable, CustomStringConvertible {
    /// What happened, in a few words: `"authentication failed"`.
    public var name: String
    /// About it: `["attemptsRemaining": "3"]`.
    public var details: [String: String]

    public init(_ name: String, _ details: [String: String] = [:]) {
        self.name = name
        self.details = details
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, details }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        details = try container.decodeIfPresent([String: String].self, forKey: .details) ?? [:]
    }

    /// `authentication failed (attemptsRemaining: 3)`: details in key order.
    public var description: String {
        details.isEmpty ? name : name + " (" + details.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }
}
