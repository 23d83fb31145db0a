// Edits the extension posts: queued, then applied in order on a later turn of the host's loop.
extension KeyboardSession {
    /// Queues an edit from the extension; it is applied after ``latency`` on a later turn.
    func post(_ operation: TextOperation) {
        activity &+= 1
        onEvent?(.posted(operation))
        pending.append(operation)
        scheduleDrain()
    }

    /// Whether posted edits are waiting to be applied.
    public var hasPendingOperations: Bool { drainScheduled }

    /// Whether a host command (a full-document read, say) has been sent and not answered yet.
    public var hasPendingCommands: Bool { !pendingCommands.isEmpty }

    /// Returns once every edit posted so far, and every edit those provoke, has been applied.
    public func settle() async {
        while drainScheduled {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    /// Returns once the extension has been quiet — posted nothing, reported nothing — for `quiet`
    /// (after ``latency``), all its edits applied: for a batch run, where the keyboard may still be at
    /// work on its own after the last tap (a full-document walk a key started). The host cannot see
    /// an extension's tasks; a silence is the best sign it has that they are done.
    public func waitUntilQuiet(for quiet: Duration = .milliseconds(50)) async {
        while true {
            await settle()
            let before = activity
            try? await Task.sleep(for: latency + quiet)
            if activity == before && !drainScheduled { return }
        }
    }

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        scheduler.schedule(after: latency) { [weak self] in self?.drain() }
    }

    /// Applies every edit posted since the last turn, in order, then answers with one snapshot and the
    /// notifications for the biggest change among them (FieldChange). A guarded operation whose
    /// snapshot is no longer the latest is skipped; it still counts as applied.
    private func drain() {
        let operations = pending
        pending.removeAll()
        var submitted: [String] = []
        changeField(acknowledge: !operations.isEmpty) { field in
            for operation in operations {
                if let snapshot = operation.guardSnapshot, snapshot != snapshotSequence {
                    onEvent?(.skipped(operation))
                } else if submitsOnLineBreak, case .insertText(let text) = operation,
                          let lineBreak = text.firstIndex(where: \.isNewline) {
                    field.insertText(String(text[..<lineBreak]))
                    submitted.append(field.text)
                    field.replaceDocument(with: "")
                    onEvent?(.applied(operation))
                } else {
                    operation.apply(to: &field)
                    onEvent?(.applied(operation))
                }
                operationsApplied += 1
            }
        }
        submitted.forEach { onSubmit?($0) }
        drainScheduled = false
        if !pending.isEmpty {
            // Edits the extension posted while being notified wait for a later turn of their own.
            scheduleDrain()
        } else {
            let waiters = idleWaiters
            idleWaiters.removeAll()
            waiters.forEach { $0.resume() }
        }
    }
}
