#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeyboardExtensionABI

// The full document: read it, delete it, move to its ends — as Fleksy's SDK offers, but event-driven,
// exact under every context policy, and cancellable. See DocumentWalker for how.
extension KeyboardViewController {
    /// Reads the whole document by walking the caret through it, then puts the caret (or selection)
    /// back. Never changes the document. Keys and notifications keep arriving while it runs; a key
    /// tap, or the user acting in the field, ends it with `userCancelled`.
    public func readFullDocumentContext() async throws(FullDocumentContext.Error) -> FullDocumentContext {
        try await walk { walker throws(FullDocumentContext.Error) in try await walker.read() }
    }

    /// Deletes the whole document, a window at a time. Cancelled midway it stops cleanly: what it
    /// deleted so far is the only change, and the error's `deletedCharacters` says how much.
    @discardableResult
    public func deleteFullDocumentContext() async throws(FullDocumentContext.Error) -> FullDocumentDeletion {
        try await walk { walker throws(FullDocumentContext.Error) in try await walker.delete() }
    }

    /// Puts the caret at the start of the document.
    public func moveCursorToBeginningOfDocument() async throws(FullDocumentContext.Error) {
        try await walk { walker throws(FullDocumentContext.Error) in try await walker.move(toEnd: false) }
    }

    /// Puts the caret at the end of the document.
    public func moveCursorToEndOfDocument() async throws(FullDocumentContext.Error) {
        try await walk { walker throws(FullDocumentContext.Error) in try await walker.move(toEnd: true) }
    }

    /// Runs one walk at a time.
    private func walk<T>(
        _ body: (DocumentWalker) async throws(FullDocumentContext.Error) -> T
    ) async throws(FullDocumentContext.Error) -> T {
        guard activeWalker == nil else { throw .operationInProgress }
        let walker = DocumentWalker(
            proxy: textDocumentProxy, timeout: fullDocumentContextTimeout,
            now: { [hostClock] in hostClock.now.offset }, scheduleTimeout: scheduleTimeout
        )
        activeWalker = walker
        defer {
            walker.end()
            activeWalker = nil
            // The walk's steps did not move shift (they are not the user's); the caret is back now.
            updateAutomaticShift()
        }
        return try await body(walker)
    }

    /// Runs a command from the host's user and answers it (ABI: host_command). The host may cancel it
    /// (cancel_command): the walk then stops at its next step and posts nothing more.
    func runHostCommand(_ command: kbx_host_command, request: UInt64) {
        commandTasks[request] = Task { @MainActor in
            defer { commandTasks[request] = nil }
            let answer: CommandAnswer
            do throws(FullDocumentContext.Error) {
                switch Int(command) {
                case KBX_COMMAND_READ_FULL_DOCUMENT:
                    let context = try await readFullDocumentContext()
                    answer = CommandAnswer(
                        before: context.fullDocumentContextBeforeInput, after: context.fullDocumentContextAfterInput,
                        selected: context.selectedText ?? "", roundTrips: context.roundTrips, exact: context.isExact
                    )
                case KBX_COMMAND_DELETE_FULL_DOCUMENT:
                    let deletion = try await deleteFullDocumentContext()
                    answer = CommandAnswer(
                        deletedCharacters: deletion.deletedCharacters, roundTrips: deletion.roundTrips, exact: deletion.isExact
                    )
                case KBX_COMMAND_MOVE_TO_BEGINNING:
                    try await moveCursorToBeginningOfDocument()
                    answer = CommandAnswer(roundTrips: 1)
                case KBX_COMMAND_MOVE_TO_END:
                    try await moveCursorToEndOfDocument()
                    answer = CommandAnswer(roundTrips: 1)
                default:
                    answer = CommandAnswer(error: .unsupported)
                }
            } catch {
                answer = CommandAnswer(deletedCharacters: error.deletedCharacters, error: CommandFailure(rawValue: error.reason.rawValue))
            }
            let json = (try? JSONEncoder().encode(answer)) ?? Data("{}".utf8)
            json.withUnsafeBytes { textDocumentProxy.host.commandFinished(request, succeeded: answer.error == nil, json: $0) }
        }
    }

    /// The host gave up on a command (ABI: cancel_command).
    func cancelHostCommand(_ request: UInt64) {
        commandTasks[request]?.cancel()
    }
}
