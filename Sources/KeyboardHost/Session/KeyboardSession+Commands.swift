import KeyboardExtensionABI

/// A command sent to an extension (``KeyboardSession/send(_:)``); its answer is
/// ``KeyboardSession/result(of:)``.
public struct SentCommand: Hashable, Sendable {
    public let command: HostCommand
    let request: UInt64
}

/// A command the extension has not answered yet.
struct PendingCommand {
    let command: HostCommand
    /// When the host last heard from the extension (an answer, a posted edit) while it ran.
    var lastHeard: Duration
    /// Characters the extension's applied edits removed while it ran: the host's own count, given
    /// when the host answers a delete itself (`hidden`, `timedOut`).
    var deleted = 0
    var cancelTimeout: (@MainActor () -> Void)?
}

// Host commands: asking the extension to read or delete the whole document, or move to its ends.
extension KeyboardSession {
    /// Sends `command` and waits for the extension's answer. Keys, the user's actions and posted edits
    /// keep flowing meanwhile. Answered by the host itself with `hidden` if the keyboard goes away
    /// first, and with `timedOut` (the extension is then asked to stop) if the extension says nothing
    /// — no answer, no posted edit — for ``commandTimeout`` of the host's clock.
    ///
    /// On virtual time the host runs to get the answer: it settles, and while the command is still
    /// unanswered with nothing left to run, it moves time on to its next timer (the extension's, or in
    /// the end the command's timeout).
    public func perform(_ command: HostCommand) async -> CommandResult {
        let sent = send(command)
        if let virtual = scheduler as? VirtualScheduler {
            await virtual.settle()
            while isPending(sent), await virtual.advanceToNextTimer() {}
        }
        return await result(of: sent)
    }

    /// Sends `command` now: when this returns, the extension has it and has started on it.
    public func send(_ command: HostCommand) -> SentCommand {
        let request = nextCommandRequest
        nextCommandRequest += 1
        let sent = SentCommand(command: command, request: request)
        onEvent?(.command(command))
        guard isShown else {
            deliver(CommandResult(command: command, failure: "hidden"), for: request)
            return sent
        }
        commands[request] = PendingCommand(command: command, lastHeard: scheduler.now)
        armTimeout(request)
        connection.hostCommand(command, request: request)
        return sent
    }

    /// The answer to a command sent with ``send(_:)``: at once if it came already.
    public func result(of sent: SentCommand) async -> CommandResult {
        if let result = unclaimedResults.removeValue(forKey: sent.request) { return result }
        return await withCheckedContinuation { resultWaiters[sent.request, default: []].append($0) }
    }

    /// Whether `sent` has not been answered yet.
    public func isPending(_ sent: SentCommand) -> Bool { commands[sent.request] != nil }

    /// Whether a host command (a full-document read, say) has been sent and not answered yet.
    public var hasPendingCommands: Bool { !commands.isEmpty }

    /// The commands sent and not answered yet, oldest first.
    public var pendingCommands: [HostCommand] {
        commands.sorted { $0.key < $1.key }.map(\.value.command)
    }

    func commandFinished(_ request: UInt64, succeeded: Bool, json: String) {
        guard let pending = commands[request] else { return }  // unknown, or answered already
        finish(request, CommandResult(command: pending.command, succeeded: succeeded, json: json))
    }

    func finishPendingCommands(error: String) {
        for request in commands.keys.sorted() {
            finish(request, failure: error)
        }
    }

    /// The extension said something (posted an edit): the commands under way are alive.
    func heardFromExtension() {
        guard !commands.isEmpty else { return }
        let now = scheduler.now
        for request in commands.keys { commands[request]?.lastHeard = now }
    }

    /// Characters the extension's edits just removed: counted for the deletes under way.
    func countDeleted(_ characters: Int) {
        guard characters > 0 else { return }
        for (request, pending) in commands where pending.command == .deleteFullDocument {
            commands[request]?.deleted += characters
        }
    }

    /// One timer per command, due ``commandTimeout`` after the host last heard from the extension. It
    /// is not moved at every edit (a walk posts thousands); when it fires early it is set again for
    /// what is left.
    private func armTimeout(_ request: UInt64) {
        guard let pending = commands[request] else { return }
        let due = pending.lastHeard + commandTimeout
        commands[request]?.cancelTimeout = scheduler.scheduleTimer(
            after: due - scheduler.now, label: "\(pending.command) timeout"
        ) { [weak self] in
            self?.timeoutFired(request)
        }
    }

    private func timeoutFired(_ request: UInt64) {
        guard let pending = commands[request] else { return }
        if scheduler.now < pending.lastHeard + commandTimeout {
            armTimeout(request)
            return
        }
        finish(request, failure: "timedOut")
        connection.cancelCommand(request: request)
    }

    /// The host answers a command itself; a delete says how much the extension's edits removed.
    private func finish(_ request: UInt64, failure: String) {
        guard let pending = commands[request] else { return }
        let deleted = pending.command == .deleteFullDocument ? pending.deleted : nil
        finish(request, CommandResult(command: pending.command, failure: failure, deletedCharacters: deleted))
    }

    private func finish(_ request: UInt64, _ result: CommandResult) {
        guard let pending = commands.removeValue(forKey: request) else { return }
        pending.cancelTimeout?()
        onEvent?(.commandFinished(result.command, succeeded: result.succeeded))
        deliver(result, for: request)
    }

    private func deliver(_ result: CommandResult, for request: UInt64) {
        guard let waiters = resultWaiters.removeValue(forKey: request) else {
            unclaimedResults[request] = result
            return
        }
        waiters.forEach { $0.resume(returning: result) }
    }
}
