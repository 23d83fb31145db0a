// The snapshot: what the extension's proxy may know, cut by the session's context policy.
extension KeyboardSession {
    /// Pushes the field's state. `keepingWindows`: with the windows (and selected text) of the last
    /// snapshot pushed, as a platform that did not refresh them (``PlatformProfile/losesContextAfterQuickMoves``).
    func pushSnapshot(keepingWindows: Bool = false) {
        guard isShown else { return }
        snapshotSequence += 1
        let field = textField
        // Windows kept from the last snapshot are not cut again only to be dropped.
        let kept = keepingWindows ? lastSnapshot.flatMap { $0.documentIdentifier == field.documentIdentifier ? $0 : nil } : nil
        let snapshot = Snapshot(
            sequence: snapshotSequence, contextBefore: kept?.contextBefore ?? field.contextBefore(policy),
            contextAfter: kept?.contextAfter ?? field.contextAfter(policy),
            selectedText: kept?.selectedText ?? (field.selection.isEmpty ? "" : platform.selectedText(field.selectedText)),
            documentIdentifier: field.documentIdentifier, hasText: field.hasText, traits: field.traits,
            operationsApplied: posted.applied, selection: platform.offersExtras ? field.selection : nil,
            platform: platform
        )
        lastSnapshot = snapshot
        timeline?.pushed(
            sequence: snapshot.sequence, at: scheduler.now, selection: field.selection, before: snapshot.contextBefore,
            after: snapshot.contextAfter, length: field.count
        )
        onEvent?(.snapshot(snapshotSequence))
        connection.updateSnapshot(snapshot)
    }
}
