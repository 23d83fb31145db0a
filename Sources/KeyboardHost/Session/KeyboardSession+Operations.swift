import Foundation

// Edits the extension posts: queued, then applied in order on a later turn of the host's loop.
extension KeyboardSession {
    /// Queues an edit from the extension; it is applied after ``latency`` on a later turn. A posted
    /// edit is a word from the extension: commands under way are not timed out meanwhile.
    func post(_ operation: TextOperation) {
        onEvent?(.posted(operation))
        timeline?.posted(at: scheduler.now)
        commands.heardFromExtension()
        posted.append(operation)
        scheduleDrain()
    }

    /// Whether posted edits are waiting to be applied.
    public var hasPendingOperations: Bool { posted.isScheduled }

    /// Returns once the host has nothing left to do for this session. On virtual time that is exact
    /// and covers the extension's own work (``VirtualScheduler/settle()``): every edit posted, every
    /// task the keyboard started, until all that is left is timers still to come. On real time it is
    /// every edit posted so far, and every edit those provoke, applied — and an extension in a child
    /// process done with the messages it was sent.
    public func settle() async {
        if let virtual = scheduler as? VirtualScheduler {
            await virtual.settle()
            return
        }
        while true {
            if posted.isScheduled {
                await withCheckedContinuation { posted.wait($0) }
            } else if let work = connection.work, !work.isIdle {
                await work.idle()
            } else {
                return
            }
        }
    }

    private func scheduleDrain() {
        guard !posted.isScheduled else { return }
        posted.isScheduled = true
        scheduler.schedule(after: latency) { [weak self] in self?.drain() }
    }

    /// What a platform note says when the profile's units cut across `character`.
    private static func note(_ operation: TextOperation, cut character: Character) -> String {
        // By its code points: a note is about units, and a terminal may draw an emoji wider than it counts.
        let scalars = character.unicodeScalars.map { String(format: "U+%04X", $0.value) }
        let units = "\(scalars.joined(separator: " ")) (\(character.utf16.count) UTF-16 units)"
        if case .deleteBackward = operation {
            let halfPair = UTF16.isTrailSurrogate(character.utf16.last!)
            return "\(operation) deleted the last UTF-16 unit of \(units)"
                + (halfPair ? "; the half of its surrogate pair left is shown as U+FFFD" : "")
        }
        return "\(operation) would end inside \(units); this host stops the caret before it"
    }

    /// Applies every edit posted since the last turn, in order, then answers with one snapshot and the
    /// notifications for the biggest change among them (FieldChange). A guarded operation whose
    /// snapshot is no longer the latest is skipped, and so is an extra the platform does not offer;
    /// each still counts as applied. The turn the scheduler
    /// runs, or at once when the keyboard goes (``hide()``).
    func drain() {
        guard posted.isScheduled else { return }
        let operations = posted.take()
        var outcomes: [SessionEvent] = []
        var submitted: [String] = []
        var removed = 0
        var deleted = false
        // iOS does not refresh the proxy after caret moves made before the first one's refresh came.
        let moves = operations.count { if case .adjustTextPosition = $0 { true } else { false } }
        let keepsWindows = platform.losesContextAfterQuickMoves && moves >= 2
        if keepsWindows {
            outcomes.append(.platformNote(
                "\(moves) caret moves before \(platform)'s refresh: the proxy keeps its old windows until the next change"
            ))
        }
        changeField(acknowledge: !operations.isEmpty, ownEditsDeleted: { deleted }, keepingWindows: keepsWindows, { field in
            for operation in operations {
                let before = field.count
                if operation.isExtra, !platform.offersExtras {
                    outcomes.append(.skipped(operation))
                    outcomes.append(.platformNote(
                        "\(operation) is this host's extra (ABI section 7), which \(platform) does not offer: skipped"
                    ))
                } else if let snapshot = operation.guardSnapshot, snapshot != snapshotSequence {
                    outcomes.append(.skipped(operation))
                } else if submitsOnLineBreak, case .insertText(let text) = operation,
                          let lineBreak = text.firstIndex(where: \.isNewline) {
                    field.insertText(String(text[..<lineBreak]))
                    submitted.append(field.text)
                    field.replaceDocument(with: "")
                    outcomes.append(.applied(operation))
                } else {
                    let cut = operation.apply(to: &field, under: platform)
                    outcomes.append(.applied(operation))
                    if let cut { outcomes.append(.platformNote(Self.note(operation, cut: cut))) }
                    removed += max(0, before - field.count)
                    deleted = deleted || operation.isDeletion
                }
                posted.applied += 1
                timeline?.applied(operation)
            }
        }, changed: {
            outcomes.forEach { onEvent?($0) }
            commands.countDeleted(removed)
        })
        submitted.forEach { onSubmit?($0) }
        posted.isScheduled = false
        if !posted.operations.isEmpty {
            // Edits the extension posted while being notified wait for a later turn of their own.
            scheduleDrain()
        } else {
            posted.takeWaiters().forEach { $0.resume() }
        }
    }
}
