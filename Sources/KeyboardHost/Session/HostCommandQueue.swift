/// A command sent to an extension (``KeyboardSession/send(_:)``); its answer is
/// ``KeyboardSession/result(of:)``.
public struct SentCommand: Hashable, Sendable {
    public let command: HostCommand
    let request: UInt64
}

/// The host's commands under way with one extension, and their answers: each numbered, timed out on
/// the host's clock by silence, answered by the host itself when the extension cannot (`hidden`,
/// `timedOut`, `extensionFailed`), and handed to whoever waits for it, or kept until asked for.
///
/// The session owns one, and tells it what it hears from the extension; the queue knows nothing of
/// the connection beyond `cancel`, which asks the extension to stop a command that timed out.
@MainActor
final class HostCommandQueue {
    /// How long a command may go without a word from the extension before the host answers it
    /// `timedOut`.
    var timeout: Duration = .seconds(120)
    /// Told of every answer, the host's own included, as it is given.
    var onFinished: ((CommandResult) -> Void)?
    /// Asks the extension to stop a command the host has answered `timedOut`.
    var cancel: ((UInt64) -> Void)?

    private let scheduler: any HostScheduler
    private var pending: [UInt64: PendingCommand] = [:]
    private var unclaimed: [UInt64: CommandResult] = [:]
    private var waiters: [UInt64: [CheckedContinuation<CommandResult, Never>]] = [:]
    private var nextRequest: UInt64 = 1

    /// A command the extension has not answered yet.
    private struct PendingCommand {
        let command: HostCommand
        /// When the host last heard from the extension (an answer, a posted edit) while it ran.
        var lastHeard: Duration
        /// Characters the extension's applied edits removed while it ran: the host's own count, given
        /// when the host answers a delete itself (`hidden`, `timedOut`).
        var deleted = 0
        var cancelTimeout: (@MainActor () -> Void)?
    }

    init(scheduler: any HostScheduler) {
        self.scheduler = scheduler
    }

    /// Numbers `command`; if `deliverable`, keeps it pending with its timeout, else answers it `hidden`.
    func begin(_ command: HostCommand, deliverable: Bool) -> SentCommand {
        let sent = SentCommand(command: command, request: nextRequest)
        nextRequest += 1
        guard deliverable else {
            // Answered, as every command is, through onFinished: the session's log and timeline see it.
            let result = CommandResult(command: command, failure: .hidden)
            onFinished?(result)
            deliver(result, for: sent.request)
            return sent
        }
        pending[sent.request] = PendingCommand(command: command, lastHeard: scheduler.now)
        armTimeout(sent.request)
        return sent
    }

    /// The answer to `sent`: at once if it came already.
    func result(of sent: SentCommand) async -> CommandResult {
        if let result = unclaimed.removeValue(forKey: sent.request) { return result }
        return await withCheckedContinuation { waiters[sent.request, default: []].append($0) }
    }

    func isPending(_ sent: SentCommand) -> Bool { pending[sent.request] != nil }

    var isEmpty: Bool { pending.isEmpty }

    /// The commands not answered yet, oldest first.
    var commands: [HostCommand] {
        pending.sorted { $0.key < $1.key }.map(\.value.command)
    }

    /// The extension answered `request`.
    func extensionFinished(_ request: UInt64, succeeded: Bool, json: String) {
        guard let command = pending[request]?.command else { return }  // unknown, or answered already
        finish(request, CommandResult(command: command, succeeded: succeeded, json: json))
    }

    /// The host answers every command under way itself: the keyboard went (`hidden`), or failed.
    func finishAll(error: CommandFailure) {
        for request in pending.keys.sorted() {
            finish(request, failure: error)
        }
    }

    /// The extension said something (posted an edit): the commands under way are alive.
    func heardFromExtension() {
        guard !pending.isEmpty else { return }
        let now = scheduler.now
        for request in pending.keys { pending[request]?.lastHeard = now }
    }

    /// Characters the extension's edits just removed: counted for the deletes under way.
    func countDeleted(_ characters: Int) {
        guard characters > 0 else { return }
        for (request, command) in pending where command.command == .deleteFullDocument {
            pending[request]?.deleted += characters
        }
    }

    /// One timer per command, due ``timeout`` after the host last heard from the extension. It is not
    /// moved at every edit (a walk posts thousands); when it fires early it is set again for what is
    /// left.
    private func armTimeout(_ request: UInt64) {
        guard let command = pending[request] else { return }
        let due = command.lastHeard + timeout
        pending[request]?.cancelTimeout = scheduler.scheduleTimer(
            after: due - scheduler.now, label: "\(command.command) timeout"
        ) { [weak self] in
            self?.timeoutFired(request)
        }
    }

    private func timeoutFired(_ request: UInt64) {
        guard let command = pending[request] else { return }
        if scheduler.now < command.lastHeard + timeout {
            armTimeout(request)
            return
        }
        finish(request, failure: .timedOut)
        cancel?(request)
    }

    /// The host answers a command itself; a delete says how much the extension's edits removed.
    private func finish(_ request: UInt64, failure: CommandFailure) {
        guard let command = pending[request] else { return }
        let deleted = command.command == .deleteFullDocument ? command.deleted : nil
        finish(request, CommandResult(command: command.command, failure: failure, deletedCharacters: deleted))
    }

    private func finish(_ request: UInt64, _ result: CommandResult) {
        guard let command = pending.removeValue(forKey: request) else { return }
        command.cancelTimeout?()
        onFinished?(result)
        deliver(result, for: request)
    }

    private func deliver(_ result: CommandResult, for request: UInt64) {
        guard let waiting = waiters.removeValue(forKey: request) else {
            unclaimed[request] = result
            return
        }
        waiting.forEach { $0.resume(returning: result) }
    }
}
