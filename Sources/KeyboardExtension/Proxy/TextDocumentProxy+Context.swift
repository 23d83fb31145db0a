#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Reading the field, as UITextDocumentProxy and UIKeyInput. All from the latest snapshot.
extension TextDocumentProxy {
    /// Text before the cursor, as far as the host's context policy shows; `nil` when there is none
    /// (iOS returns `nil` there too).
    public var documentContextBeforeInput: String? {
        snapshot.contextBefore.isEmpty ? nil : snapshot.contextBefore
    }

    /// Text after the cursor, as far as the host's context policy shows; `nil` when there is none.
    public var documentContextAfterInput: String? {
        snapshot.contextAfter.isEmpty ? nil : snapshot.contextAfter
    }

    /// The selected text, or `nil` when nothing is selected.
    public var selectedText: String? {
        snapshot.selectedText.isEmpty ? nil : snapshot.selectedText
    }

    /// Whether the field holds any text (UIKeyInput's `hasText`).
    public var hasText: Bool { snapshot.hasText }

    /// Identifies the document; a new one whenever the field gets a new document.
    public var documentIdentifier: UUID { snapshot.documentIdentifier }
}

// The field's traits (UITextInputTraits), from the latest snapshot.
extension TextDocumentProxy {
    public var keyboardType: TextInputTraits.KeyboardType { snapshot.traits.keyboardType }
    public var returnKeyType: TextInputTraits.ReturnKeyType { snapshot.traits.returnKeyType }
    public var autocapitalizationType: TextInputTraits.AutocapitalizationType { snapshot.traits.autocapitalizationType }
    public var autocorrectionType: TextInputTraits.AutocorrectionType { snapshot.traits.autocorrectionType }
    public var spellCheckingType: TextInputTraits.SpellCheckingType { snapshot.traits.spellCheckingType }
    public var isSecureTextEntry: Bool { snapshot.traits.isSecureTextEntry }
    public var textContentType: String? { snapshot.traits.textContentType }
}
