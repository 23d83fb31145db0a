#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a keyboard reads from the field and posts to it, as UIKit's `UITextDocumentProxy` protocol:
/// the seam for a unit test below the host.
///
/// ``TextDocumentProxy`` (the controller's ``KeyboardViewController/textDocumentProxy``) is the SDK's
/// implementation, backed by the host's snapshots. Write the keyboard's text logic against
/// `some TextDocumentProxying`; the keyboard hands it its own proxy, and a test may hand it a fake of
/// its own — a string and a caret — where hosting the whole keyboard would be more than the test needs:
///
/// ```swift
/// @MainActor func deleteWord(in proxy: some TextDocumentProxying) {
///     let word = proxy.documentContextBeforeInput?.split(separator: " ").last ?? ""
///     for _ in word { proxy.deleteBackward() }
/// }
/// ```
///
/// A fake answers at once, where the real proxy answers after the host has applied an edit (its
/// reads show the field as it was until the next snapshot): a test of timing belongs with
/// `KeyboardTestHost`.
@MainActor
public protocol TextDocumentProxying: AnyObject {
    /// Text before the cursor, as far as the host shows; `nil` when there is none.
    var documentContextBeforeInput: String? { get }
    /// Text after the cursor, as far as the host shows; `nil` when there is none.
    var documentContextAfterInput: String? { get }
    /// The selected text, or `nil` when nothing is selected.
    var selectedText: String? { get }
    /// Whether the field has any text.
    var hasText: Bool { get }
    /// Identifies the document; a new one whenever the field gets a new document.
    var documentIdentifier: UUID { get }
    var keyboardType: TextInputTraits.KeyboardType { get }
    var returnKeyType: TextInputTraits.ReturnKeyType { get }
    var autocapitalizationType: TextInputTraits.AutocapitalizationType { get }
    var autocorrectionType: TextInputTraits.AutocorrectionType { get }
    var isSecureTextEntry: Bool { get }

    func insertText(_ text: String)
    func deleteBackward()
    func adjustTextPosition(byCharacterOffset offset: Int)
    func setMarkedText(_ markedText: String, selectedRange: Range<Int>)
    func unmarkText()
}

extension TextDocumentProxy: TextDocumentProxying {}
