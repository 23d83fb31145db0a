// Host commands: asking the extension to read or delete the whole document, or move to its ends. The
// state is ``HostCommandQueue``'s; the session sends and forwards what it hears.
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
        onEvent?(.command(command))
        if timeline != nil {
            // The state the extension starts from: the field, and the windows of the snapshot it has.
            let shown = lastSnapshot.flatMap { $0.documentIdentifier == textField.documentIdentifier ? $0 : nil }
            timeline?.sent(
                command, at: scheduler.now, sequence: shown?.sequence ?? 0, selection: textField.selection,
                before: shown?.contextBefore ?? "", after: shown?.contextAfter ?? "", length: textField.count
            )
        }
        let sent = commands.begin(command, deliverable: isShown)
        if isShown { connection.hostCommand(command, request: sent.request) }
        return sent
    }

    /// The answer to a command sent with ``send(_:)``: at once if it came already.
    public func result(of sent: SentCommand) async -> CommandResult {
        await commands.result(of: sent)
    }

    /// Whether `sent` has not been answered yet.
    public func isPending(_ sent: SentCommand) -> Bool { commands.isPending(sent) }

    /// Whether a host command (a full-document read, say) has been sent and not answered yet.
    public var hasPendingCommands: Bool { !commands.isEmpty }

    /// The commands sent and not answered yet, oldest first.
    public var pendingCommands: [HostCommand] { commands.commands }

    /// How long a command may go without a word from the extension before the host answers it
    /// `timedOut` and asks the extension to stop; on the host's clock.
    public var commandTimeout: Duration {
        get { commands.timeout }
        set { commands.timeout = newValue }
    }
}
