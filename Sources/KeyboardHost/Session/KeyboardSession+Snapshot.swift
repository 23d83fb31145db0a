// The snapshot: what the extension's proxy may know, cut by the session's context policy.
extension KeyboardSession {
    /// Pushes the field's state. `keepingWindows`: with the windows (and selected text) of the last
    /// snapshot pushed, as a platform that did not refresh them (``PlatformProfile/losesContextAfterQuickMoves``).
    func pushSnapshot(keepingWindows: Bool = false) {
        guard isShown else { return }
        snapshotSequence += 1
        let field = textField
        var snapshot = Snapshot(
            sequence: snapshotSequence, contextBefore: field.contextBefore(policy),
            contextAfter: field.contextAfter(policy), selectedText: field.selection.isEmpty ? "" : platform.selectedText(field.selectedText),
            documentIdentifier: field.documentIdentifier, hasText: field.hasText, traits: field.traits,
            operationsApplied: posted.applied, selection: platform.offersExtras ? field.selection : nil,
            platform: platform
        )
        if keepingWindows, let last = lastSnapshot, last.documentIdentifier == snapshot.documentIdentifier {
            snapshot.contextBefore = last.contextBefore
            snapshot.contextAfter = last.contextAfter
            snapshot.selectedText = last.selectedText
        }
        lastSnapshot = snapshot
        onEvent?(.snapshot(snapshotSequence))
        connection.updateSnapshot(snapshot)
    }
}
