// Edits the extension posts: queued, then applied in order on a later turn of the host's loop.
extension KeyboardSession {
    /// Queues an edit from the extension; it is applied after ``latency`` on a later turn.
    func post(_ operation: TextOperation) {
        onEvent?(.posted(operation))
        pending.append(operation)
        scheduleDrain()
    }

    /// Whether posted edits are waiting to be applied.
    public var hasPendingOperations: Bool { drainScheduled }

    /// Returns once every edit posted so far, and every edit those provoke, has been applied.
    public func settle() async {
        while drainScheduled {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        scheduler.schedule(after: latency) { [weak self] in self?.drain() }
    }

    private func drain() {
        let operations = pending
        pending.removeAll()
        for operation in operations {
            changeField { operation.apply(to: &$0) }
            onEvent?(.applied(operation))
        }
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
