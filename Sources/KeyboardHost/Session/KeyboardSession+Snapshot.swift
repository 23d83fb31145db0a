import KeyboardExtensionABI

// The snapshot: what the extension's proxy may know, cut by the session's context policy.
extension KeyboardSession {
    func pushSnapshot() {
        guard let instance else { return }
        snapshotSequence += 1
        let field = textField
        let traits = field.traits
        let selected = field.selection.isEmpty ? "" : field.selectedText
        withBorrowedString(field.contextBefore(policy)) { before in
            withBorrowedString(field.contextAfter(policy)) { after in
                withBorrowedString(selected) { selected in
                    withBorrowedString(traits.textContentType ?? "") { contentType in
                        var snapshot = kbx_text_snapshot(
                            abi_version: KBX_ABI_VERSION, struct_size: UInt32(MemoryLayout<kbx_text_snapshot>.size),
                            sequence: snapshotSequence, context_before: before, context_after: after,
                            selected_text: selected, document_identifier: field.documentIdentifier.uuid,
                            has_text: field.hasText ? 1 : 0,
                            keyboard_type: traits.keyboardType.rawValue, return_key_type: traits.returnKeyType.rawValue,
                            autocapitalization_type: traits.autocapitalizationType.rawValue,
                            autocorrection_type: traits.autocorrectionType.rawValue,
                            spell_checking_type: traits.spellCheckingType.rawValue,
                            secure_text_entry: traits.isSecureTextEntry ? 1 : 0, reserved0: 0,
                            text_content_type: contentType, operations_applied: operationsApplied,
                            selection_location: Int64(field.selection.lowerBound),
                            selection_length: Int64(field.selection.count)
                        )
                        onEvent?(.snapshot(snapshotSequence))
                        descriptor.update_snapshot(instance.handle, &snapshot)
                    }
                }
            }
        }
    }
}
