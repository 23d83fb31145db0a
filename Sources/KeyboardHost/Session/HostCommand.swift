import Foundation
import KeyboardExtensionABI

/// What the host's user can ask an extension to do (the REPL's commands, `kbhost run --action`).
/// The extension does it asynchronously and answers once.
public enum HostCommand: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case readFullDocument = "read-full-document"
    case deleteFullDocument = "delete-full-document"
    case moveToBeginning = "move-to-beginning"
    case moveToEnd = "move-to-end"

    var code: kbx_host_command {
        switch self {
        case .readFullDocument: kbx_host_command(KBX_COMMAND_READ_FULL_DOCUMENT)
        case .deleteFullDocument: kbx_host_command(KBX_COMMAND_DELETE_FULL_DOCUMENT)
        case .moveToBeginning: kbx_host_command(KBX_COMMAND_MOVE_TO_BEGINNING)
        case .moveToEnd: kbx_host_command(KBX_COMMAND_MOVE_TO_END)
        }
    }

    public var description: String { rawValue }
}

/// An extension's answer to a ``HostCommand``.
public struct CommandResult: Sendable, Equatable {
    public let command: HostCommand
    public let succeeded: Bool
    /// The text before the selection (read).
    public let before: String?
    /// The text after the selection (read).
    public let after: String?
    /// The selected text, if any (read).
    public let selected: String?
    /// Characters deleted (delete; also when a delete stopped midway, and when the host answered it
    /// itself: then the host's count of what the extension's edits removed).
    public let deletedCharacters: Int?
    /// Snapshot round trips the walk took.
    public let roundTrips: Int?
    /// Whether the text read (read) or the count (delete) is certain; `nil` for the moves and
    /// failures. An extension that does not say is taken at its word: `true`.
    public let exact: Bool?
    /// Why it failed: the extension's reason (``CommandFailure``), or the host's own `hidden`,
    /// `timedOut`, `malformedAnswer`, `answerTooLarge` (more than the host takes in one answer, 63 MiB:
    /// a read of a document that large).
    public let error: CommandFailure?

    /// An answer may be as large as the host takes one (a read's is the whole document).
    private static let answerLimits = JSONInput.Limits(
        maximumBytes: HostAPITable.maximumAnswerBytes, maximumDepth: JSONInput.Limits.standard.maximumDepth
    )

    package init(command: HostCommand, succeeded: Bool, json: String) {
        // Fields of a newer extension's answer are skipped; a reason this host does not know is kept.
        guard let answer = try? JSONInput.decode(CommandAnswer.self, fromUTF8: json, limits: Self.answerLimits, unknownKeys: .ignored) else {
            self.init(command: command, failure: .malformedAnswer)
            return
        }
        self.init(
            command: command, succeeded: succeeded && answer.error == nil, before: answer.before,
            after: answer.after, selected: answer.selected, deletedCharacters: answer.deletedCharacters,
            roundTrips: answer.roundTrips, error: answer.error ?? (succeeded ? nil : .failed),
            exact: succeeded && answer.error == nil && [.readFullDocument, .deleteFullDocument].contains(command)
                ? answer.exact ?? true : nil
        )
    }

    init(command: HostCommand, failure: CommandFailure, deletedCharacters: Int? = nil) {
        self.init(
            command: command, succeeded: false, before: nil, after: nil, selected: nil,
            deletedCharacters: deletedCharacters, roundTrips: nil, error: failure, exact: nil
        )
    }

    private init(
        command: HostCommand, succeeded: Bool, before: String?, after: String?, selected: String?,
        deletedCharacters: Int?, roundTrips: Int?, error: CommandFailure?, exact: Bool?
    ) {
        self.exact = exact
        self.command = command
        self.succeeded = succeeded
        self.before = before
        self.after = after
        self.selected = selected
        self.deletedCharacters = deletedCharacters
        self.roundTrips = roundTrips
        self.error = error
    }
}
