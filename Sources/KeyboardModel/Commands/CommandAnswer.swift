/// The JSON an extension answers a host command with (KeyboardExtensionABI.h, host_command): the SDK
/// writes it, the host reads it; this type is the one schema both use. Every field is optional; which
/// a command fills is in the header:
///
///     read    {"before": "…", "after": "…", "selected": "…", "roundTrips": N, "exact": true}
///     delete  {"deletedCharacters": N, "roundTrips": N, "exact": true}
///     moves   {"roundTrips": N}
///     failure {"error": "userCancelled", "deletedCharacters": N}
///
/// A host reads it with ``JSONInput/UnknownKeys/ignored``: a field a newer SDK adds is skipped.
public struct CommandAnswer: Codable, Hashable, Sendable {
    public var before: String?
    public var after: String?
    public var selected: String?
    public var deletedCharacters: Int?
    public var roundTrips: Int?
    /// Whether the text read, or the count deleted, is certain (revision 3); missing means true.
    public var exact: Bool?
    /// Why the command failed; `nil` if it did not.
    public var error: CommandFailure?

    public init(
        before: String? = nil, after: String? = nil, selected: String? = nil, deletedCharacters: Int? = nil,
        roundTrips: Int? = nil, exact: Bool? = nil, error: CommandFailure? = nil
    ) {
        self.before = before
        self.after = after
        self.selected = selected
        self.deletedCharacters = deletedCharacters
        self.roundTrips = roundTrips
        self.exact = exact
        self.error = error
    }
}

/// Why a host command failed: the extension's reasons (its full-document walker's, and `unsupported`),
/// and the host's own for a command it answered itself. In JSON, its name as a string.
public enum CommandFailure: Hashable, Sendable, Codable, CustomStringConvertible, RawRepresentable, ExpressibleByStringLiteral {
    // The extension's: its full-document walker's reasons, by the same names (the SDK's
    // FullDocumentContext.Error.Reason says what each means), and a command it does not do.
    case userCancelled, documentChanged, cancelled, operationInProgress, proxyUnresponsive, keyboardHidden
    case unsupported
    /// The host's: the keyboard was hidden before it answered.
    case hidden
    /// The host's: no answer within the host's command timeout.
    case timedOut
    /// The host's: the answer was not JSON of this schema.
    case malformedAnswer
    /// The host's: the answer was larger than the host takes in one (a read of a huge document).
    case answerTooLarge
    /// The host's: the extension answered with a failure status and no reason.
    case failed
    /// The host's: the extension's process failed before it answered.
    case extensionFailed
    /// A reason this side does not know (a newer peer's), as it was sent.
    case other(String)

    private static let known: [CommandFailure] = [
        .userCancelled, .documentChanged, .cancelled, .operationInProgress, .proxyUnresponsive, .keyboardHidden,
        .unsupported, .hidden, .timedOut, .malformedAnswer, .answerTooLarge, .failed, .extensionFailed,
    ]

    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .userCancelled: "userCancelled"
        case .documentChanged: "documentChanged"
        case .cancelled: "cancelled"
        case .operationInProgress: "operationInProgress"
        case .proxyUnresponsive: "proxyUnresponsive"
        case .keyboardHidden: "keyboardHidden"
        case .unsupported: "unsupported"
        case .hidden: "hidden"
        case .timedOut: "timedOut"
        case .malformedAnswer: "malformedAnswer"
        case .answerTooLarge: "answerTooLarge"
        case .failed: "failed"
        case .extensionFailed: "extensionFailed"
        case .other(let reason): reason
        }
    }

    public var description: String { rawValue }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
