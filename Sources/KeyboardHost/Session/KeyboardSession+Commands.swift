import Dispatch
import KeyboardExtensionABI

// Host commands: asking the extension to read or delete the whole document, or move to its ends.
extension KeyboardSession {
    /// Sends `command` and waits for the extension's answer. Keys, the user's actions and posted edits
    /// keep flowing meanwhile. Answers `hidden` if the keyboard goes away first, and `timedOut` if no
    /// answer comes within `timeout` (real time), so a broken extension cannot hang the host.
    public func perform(_ command: HostCommand, timeout: Duration = .seconds(120)) async -> CommandResult {
        guard let instance else { return CommandResult(command: command, failure: "hidden") }
        let request = nextCommandRequest
        nextCommandRequest += 1
        onEvent?(.command(command))
        return await withCheckedContinuation { continuation in
            pendingCommands[request] = continuation
            commandNames[request] = command
            DispatchQueue.main.asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak self] in
                MainActor.assumeIsolated { self?.finish(request, CommandResult(command: command, failure: "timedOut")) }
            }
            descriptor.host_command(instance.handle, command.code, request)
        }
    }

    func commandFinished(_ request: UInt64, status: kbx_status, json: String) {
        guard let command = commandNames[request] else { return }  // unknown, or answered already
        finish(request, CommandResult(command: command, succeeded: Int(status) == KBX_STATUS_OK, json: json))
    }

    func finishPendingCommands(error: String) {
        for (request, command) in commandNames {
            finish(request, CommandResult(command: command, failure: error))
        }
    }

    private func finish(_ request: UInt64, _ result: CommandResult) {
        guard let continuation = pendingCommands.removeValue(forKey: request) else { return }
        commandNames[request] = nil
        onEvent?(.commandFinished(result.command, succeeded: result.succeeded))
        continuation.resume(returning: result)
    }
}
