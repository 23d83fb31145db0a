// The snapshot: what the extension's proxy may know, cut by the session's context policy.
extension KeyboardSession {
    func pushSnapshot() {
        guard isShown else { return }
        snapshotSequence += 1
        let field = textField
        let snapshot = Snapshot(
            sequence: snapshotSequence, contextBefore: field.contextBefore(policy),
            contextAfter: field.contextAfter(policy), selectedText: field.selection.isEmpty ? "" : platform.selectedText(field.selectedText),
            documentIdentifier: field.documentIdentifier, hasText: field.hasText, traits: field.traits,
            operationsApplied: posted.applied, selection: platform.offersExtras ? field.selection : nil,
            platform: platform
        )
        onEvent?(.snapshot(snapshotSequence))
        connection.updateSnapshot(snapshot)
    }
}
