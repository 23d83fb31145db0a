/// The edits an extension has posted and the host has not applied yet, and who waits for them: the
/// host applies them in order on a later turn of its loop (``KeyboardSession``'s `drain`), as iOS
/// applies a keyboard's proxy calls after their trip between processes.
struct PostedEdits {
    /// Posted, in order, not yet applied.
    private(set) var operations: [TextOperation] = []
    /// Whether a turn to apply them is scheduled.
    var isScheduled = false
    /// Operations of the current instance applied so far (reported in every snapshot).
    var applied: UInt64 = 0
    /// Those waiting until nothing posted is left (``KeyboardSession/settle()`` on real time).
    private var waiters: [CheckedContinuation<Void, Never>] = []

    mutating func append(_ operation: TextOperation) {
        operations.append(operation)
    }

    /// What was posted so far, for this turn to apply; later posts wait for a turn of their own.
    mutating func take() -> [TextOperation] {
        defer { operations.removeAll() }
        return operations
    }

    /// Drops what was posted: the instance is gone.
    mutating func discard() {
        operations.removeAll()
        isScheduled = false
    }

    mutating func wait(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// Those waiting, now that nothing is left: to be resumed by the caller.
    mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { waiters.removeAll() }
        return waiters
    }
}
