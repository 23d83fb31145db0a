/// Walks the caret through the document, one snapshot round trip per step: the engine under
/// `readFullDocumentContext()`, `deleteFullDocumentContext()` and the moves to the ends.
///
/// Two ways, by what the platform offers (``HostPlatform/offersExtras``): with this host's extras, the
/// walks in this file; without them (the ios, android and wayland profiles, as on the devices), those
/// of `DocumentWalker+PlatformCalls.swift`, with UIKit's calls only.
///
/// Event-driven: each step posts one guarded operation (ABI section 7) and waits for the snapshot
/// that acknowledges it — never a guessed sleep. Exact: positions come from the host's
/// acknowledgement, text from the windows, so every context policy and every text reads back as it
/// is, empty windows included. Safe: every operation is guarded by the snapshot the walker last saw,
/// so if the user acts in between, the host skips it and the user's change is the only one.
///
/// It watches every snapshot while it walks: one that acknowledges none of its operations was caused
/// by someone else (`userCancelled`, or `documentChanged` with a new identifier).
@MainActor
final class DocumentWalker {
    typealias Failure = FullDocumentContext.Error

    let proxy: TextDocumentProxy
    private let timeout: Duration
    private let scheduleTimeout: @MainActor (Duration, @escaping @MainActor () -> Void) -> @MainActor () -> Void
    /// The host's clock, which the timeout's timer follows.
    private let now: @MainActor () -> Duration
    /// Cancels the walk's one timeout timer, the watchdog (``watch()``), while it is set.
    private var cancelWatchdog: (@MainActor () -> Void)?
    /// When the step in flight was posted, on the host's clock.
    private var stepPostedAt: Duration = .zero
    private(set) var roundTrips = 0

    /// The latest snapshot the walker accounted for; its operations are guarded by it.
    private(set) var seen: TextSnapshot
    private var interruption: Failure.Reason?
    private var waiter: CheckedContinuation<TextSnapshot, any Swift.Error>?
    private var awaitedOperations: UInt64 = 0
    /// Where a read or a move found the selection: put back when a tapped key ends the walk, so the
    /// key's text goes where the user's caret was. `nil` for a delete, which leaves the caret where it
    /// deleted to.
    private var origin: Range<Int>?
    /// Set when a tapped key ended the walk while a step was in flight. A key tap pushes no snapshot,
    /// so that step's guard still holds and the host will apply it.
    private(set) var tappedDuringStep = false

    // Walks with the platform's calls (no extras) know positions only relative to where they began.
    /// The caret's offset from where the walk began, in the platform's units of caret moves.
    var offsetFromOrigin = 0
    /// A move posted and not yet acknowledged (platform calls).
    var inFlightMove = 0
    /// Whether a probe has left the caret in one of two places, not yet settled (platform calls).
    var positionUncertain = false
    /// Where the end is from where the walk began, once a read has been there (platform calls).
    var endFromOrigin: Int?
    /// Whether a tapped key should find the caret put back (`offsetFromOrigin` undone): a read or a move.
    var returnsOnTap = false
    /// Whether everything the walk saw agreed with what it read (platform calls): the result's `isExact`.
    var consistent = true

    init(
        proxy: TextDocumentProxy, timeout: Duration, now: @escaping @MainActor () -> Duration,
        scheduleTimeout: @escaping @MainActor (Duration, @escaping @MainActor () -> Void) -> @MainActor () -> Void
    ) {
        self.proxy = proxy
        self.timeout = timeout
        self.now = now
        self.scheduleTimeout = scheduleTimeout
        seen = proxy.snapshot
    }

    // MARK: Walks

    func read() async throws(Failure) -> FullDocumentContext {
        try await begin()
        guard seen.platform.offersExtras else {
            returnsOnTap = true
            return try await readWithPlatformCalls()
        }
        let origin = seen
        let selection = origin.selectedRange ?? 0..<0
        self.origin = selection
        do throws(Failure) {
            return try await read(from: origin)
        } catch where error.reason == .cancelled {
            try await restore(selection)
            throw error
        }
    }

    private func read(from origin: TextSnapshot) async throws(Failure) -> FullDocumentContext {
        let selection = origin.selectedRange ?? 0..<0

        // Backward from the selection's start. Known text covers [known, selection start). A move to
        // known - 1 shows the Character there (the first of the window after) and the window before it.
        var beforeChunks = [origin.contextBefore]
        var known = selection.lowerBound - origin.contextBefore.count
        while known > 0 {
            let snapshot = try await step { self.proxy.setSelectedRange(known - 1..<known - 1, ifSnapshot: $0) }
            guard snapshot.selectedRange?.lowerBound == known - 1, let character = snapshot.contextAfter.first else {
                throw Failure(.userCancelled)
            }
            beforeChunks.append(String(character))
            beforeChunks.append(snapshot.contextBefore)
            known -= 1 + snapshot.contextBefore.count
        }

        // Forward from the selection's end, window after window, until the window after is empty:
        // the end (every policy shows at least one Character after the caret when there is one).
        var afterChunks = [origin.contextAfter]
        var reached = selection.upperBound + origin.contextAfter.count
        var atEnd = origin.contextAfter.isEmpty
        while !atEnd {
            let snapshot = try await step { self.proxy.setSelectedRange(reached..<reached, ifSnapshot: $0) }
            guard snapshot.selectedRange?.lowerBound == reached else { throw Failure(.userCancelled) }
            afterChunks.append(snapshot.contextAfter)
            reached += snapshot.contextAfter.count
            atEnd = snapshot.contextAfter.isEmpty
        }

        let selected = origin.selectedText  // whole: only iOS cuts it, and iOS has no extras
        try await restore(selection)
        return FullDocumentContext(
            fullDocumentContextBeforeInput: beforeChunks.reversed().joined(),
            fullDocumentContextAfterInput: afterChunks.joined(),
            selectedText: selected.isEmpty ? nil : selected,
            roundTrips: roundTrips, isExact: true
        )
    }

    func delete() async throws(Failure) -> FullDocumentDeletion {
        try await begin()
        guard seen.platform.offersExtras else { return try await deleteWithPlatformCalls() }
        var deleted = 0
        do throws(Failure) {
            // To the end in one step: the host clamps the far position and reports where the end is.
            var snapshot = try await step { self.proxy.setSelectedRange(Self.far..<Self.far, ifSnapshot: $0) }
            guard let end = snapshot.selectedRange else { throw Failure(.userCancelled) }
            var caret = end.lowerBound
            // Then delete backward a window at a time, with the Character before it (under sentence
            // and paragraph windows, the boundary the window stops at): one round trip a window.
            while caret > 0 {
                let chunk = min(snapshot.contextBefore.count + 1, caret)
                do throws(Failure) {
                    snapshot = try await step { self.proxy.deleteRange(caret - chunk..<caret, ifSnapshot: $0) }
                } catch {
                    if tappedDuringStep { deleted += chunk }  // it will still be applied: count it
                    throw error
                }
                guard snapshot.selectedRange?.lowerBound == caret - chunk else { throw Failure(.userCancelled) }
                deleted += chunk
                caret -= chunk
            }
        } catch {
            throw Failure(error.reason, deletedCharacters: deleted)
        }
        return FullDocumentDeletion(deletedCharacters: deleted, roundTrips: roundTrips, isExact: true)
    }

    func move(toEnd: Bool) async throws(Failure) {
        try await begin()
        guard seen.platform.offersExtras else {
            returnsOnTap = true
            return try await moveWithPlatformCalls(toEnd: toEnd)
        }
        origin = seen.selectedRange
        let target = toEnd ? Self.far : 0
        _ = try await step { self.proxy.setSelectedRange(target..<target, ifSnapshot: $0) }
    }

    /// Beyond any document: the host clamps it to the end.
    private static let far = Int(UInt32.max)

    /// Puts the selection back as it was; if the task was cancelled, still does, then reports it.
    private func restore(_ selection: Range<Int>) async throws(Failure) {
        let snapshot = try await step(honouringCancellation: false) {
            self.proxy.setSelectedRange(selection, ifSnapshot: $0)
        }
        guard snapshot.selectedRange == selection else { throw Failure(.userCancelled) }
    }

    // MARK: Steps

    /// Waits until everything the keyboard posted before the walk has been applied, and starts watching.
    private func begin() async throws(Failure) {
        proxy.snapshotObserver = { [weak self] in self?.observe($0) }
        if proxy.snapshot.operationsApplied < proxy.postedOperations {
            _ = try await acknowledgement(of: proxy.postedOperations)
        }
        seen = proxy.snapshot
    }

    /// Stops watching. Called when the walk ends, however it ends.
    func end() {
        proxy.snapshotObserver = nil
        interrupt(nil)
        cancelWatchdog?()
        cancelWatchdog = nil
    }

    /// Posts one guarded operation and returns the snapshot that acknowledges it. Between steps it
    /// honours the task's cancellation: a read or move then puts the caret back first.
    func step(
        honouringCancellation: Bool = true, _ post: (UInt64) -> Void
    ) async throws(Failure) -> TextSnapshot {
        if let interruption { throw Failure(interruption) }
        if honouringCancellation, Task.isCancelled { throw Failure(.cancelled) }
        post(seen.sequence)
        let snapshot = try await acknowledgement(of: proxy.postedOperations)
        roundTrips += 1
        return snapshot
    }

    private func acknowledgement(of operations: UInt64) async throws(Failure) -> TextSnapshot {
        awaitedOperations = operations
        stepPostedAt = now()
        if cancelWatchdog == nil { watch(for: timeout) }
        do {
            return try await withCheckedThrowingContinuation { waiter = $0 }
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(.userCancelled)  // not reached: only Failure is thrown into the waiter
        }
    }

    /// Every snapshot while walking: an acknowledgement of ours, or somebody else's change.
    private func observe(_ snapshot: TextSnapshot) {
        if snapshot.documentIdentifier != seen.documentIdentifier {
            interrupt(.documentChanged)
        } else if snapshot.operationsApplied == seen.operationsApplied {
            interrupt(.userCancelled)
        } else {
            seen = snapshot
            if snapshot.operationsApplied >= awaitedOperations, let waiter {
                self.waiter = nil
                waiter.resume(returning: snapshot)
            }
        }
    }

    /// The user tapped a key: the walk ends (`userCancelled`), and a read or move first puts the
    /// selection back — posted now, before the key's own edits, and guarded, so if the user has moved
    /// the caret meanwhile the host skips it.
    func userTappedKey() {
        if interruption == nil {
            tappedDuringStep = waiter != nil
            if let origin, roundTrips > 0 || waiter != nil {
                proxy.setSelectedRange(origin, ifSnapshot: seen.sequence)
            } else if returnsOnTap {
                returnToOrigin()
            }
        }
        interrupt(.userCancelled)
    }

    /// Puts the caret back where a walk with the platform's calls began, before a tapped key's edits.
    /// Unguarded, as UIKit's calls are: a tap pushes no snapshot, so the caret will be where the walk
    /// put it once the step in flight lands — known, but while a probe is unsettled (it may not have
    /// moved): then from the end, which a move past it reaches from anywhere (this host clamps every
    /// move).
    private func returnToOrigin() {
        if let afterUnits = endFromOrigin, positionUncertain {
            proxy.adjustTextPosition(byCharacterOffset: Int(Int32.max))
            proxy.adjustTextPosition(byCharacterOffset: -afterUnits)
        } else if offsetFromOrigin + inFlightMove != 0 {
            proxy.adjustTextPosition(byCharacterOffset: -(offsetFromOrigin + inFlightMove))
        }
    }

    /// Ends the walk at its next step (and now, if it is waiting): the user acted, or the walk ended.
    func interrupt(_ reason: Failure.Reason?) {
        if interruption == nil { interruption = reason }
        if let reason { resume(throwing: Failure(reason)) }
    }

    private func resume(throwing error: Failure) {
        guard let waiter else { return }
        self.waiter = nil
        waiter.resume(throwing: error)
    }

    /// Sets the watchdog: one timer for the whole walk, not one per step. When it fires it looks at
    /// the step in flight: one posted `timeout` ago or more ends the walk (`proxyUnresponsive`);
    /// a younger one sets it again for what that step has left; none lets it lapse, and the next step
    /// sets it. A walk of a thousand steps then sets a handful of timers, not a thousand: a timer
    /// cancelled on a host on real time stays in the main queue until its deadline (issue 16 measured
    /// a quarter of a sentence walk's time there).
    private func watch(for delay: Duration) {
        cancelWatchdog = scheduleTimeout(delay) { [weak self] in
            guard let self else { return }
            cancelWatchdog = nil
            guard waiter != nil else { return }
            let waited = now() - stepPostedAt
            if waited >= timeout {
                resume(throwing: Failure(.proxyUnresponsive))
            } else {
                watch(for: timeout - waited)
            }
        }
    }
}
