#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The extension's view of the text field, as UIKit's `UITextDocumentProxy`.
///
/// It is a cache: reads answer from the latest snapshot the host pushed, and edits are posted to the
/// host, which applies them on a later turn of its loop and then pushes the new state (announced by
/// `textWillChange`/`textDidChange` on the controller). So, exactly as on iOS, reading right after
/// `insertText` returns the text as it was before. Offsets count Characters.
///
/// Reads: `TextDocumentProxy+Context.swift`; edits: `TextDocumentProxy+Editing.swift`.
@MainActor
public final class TextDocumentProxy {
    /// The state the host last pushed.
    public internal(set) var snapshot: TextSnapshot = .empty {
        didSet { snapshotObserver?(snapshot) }
    }

    let host: HostConnection

    /// Edits this proxy posted; the host reports how many it applied in each snapshot.
    var postedOperations: UInt64 = 0

    /// Told of every snapshot as it arrives, before the did-notifications (the full-document walker).
    var snapshotObserver: ((TextSnapshot) -> Void)?

    /// Undo for the edits this proxy posts; told of each as it is posted.
    lazy var undoManager = TextDocumentUndoManager(proxy: self)

    /// Who made the change the latest snapshot shows, for ``KeyboardViewController/textDidChange()``
    /// and ``KeyboardViewController/selectionDidChange()``, which UIKit's do not say: `.keyboard` when
    /// the snapshot acknowledges edits this keyboard posted (its typing, its walks' steps), `.user`
    /// for anything else — the user acting in the field, the app, a new document.
    public internal(set) var lastChangeOrigin: TextChangeOrigin = .user

    init(host: HostConnection) {
        self.host = host
    }
}

/// Who changed the text field (``TextDocumentProxy/lastChangeOrigin``).
public enum TextChangeOrigin: Hashable, Sendable {
    /// This keyboard's own posted edits, applied by the host.
    case keyboard
    /// Anyone but this keyboard: the user, the app, a new document.
    case user
}

/// One state of the text field as the host pushed it. The windows are cut by the host's context policy.
public struct TextSnapshot: Hashable, Sendable {
    /// Increases with every snapshot the host pushes.
    public var sequence: UInt64
    public var contextBefore: String
    public var contextAfter: String
    public var selectedText: String
    public var documentIdentifier: UUID
    /// Whether the field holds any text at all, also outside the windows.
    public var hasText: Bool
    /// The field's traits.
    public var traits: TextInputTraits
    /// How many of this keyboard's posted edits the host had applied when it took this snapshot.
    public var operationsApplied: UInt64
    /// Where the selection is, in Characters from the start of the document: one of this host's
    /// extras (``HostPlatform/offersExtras``), so `nil` under every platform but `exact`. iOS does not
    /// tell keyboards this.
    public var selectedRange: Range<Int>?
    /// The platform the host behaves as: the units of moves and deletes, whether the extras exist.
    public var platform: HostPlatform

    /// The state before the host's first push: nothing known.
    public static let empty = TextSnapshot(
        sequence: 0, contextBefore: "", contextAfter: "", selectedText: "",
        documentIdentifier: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), hasText: false,
        traits: TextInputTraits(), operationsApplied: 0, selectedRange: 0..<0, platform: .exact
    )
}
