/// The whole document, as ``KeyboardViewController/readFullDocumentContext()`` read it (the name and
/// fields follow Fleksy's SDK). The document is exactly
/// `fullDocumentContextBeforeInput + (selectedText ?? "") + fullDocumentContextAfterInput`.
public struct FullDocumentContext: Hashable, Sendable {
    /// All the text before the insertion point (before the selection, if there is one).
    public var fullDocumentContextBeforeInput: String
    /// All the text after the insertion point (after the selection, if there is one).
    public var fullDocumentContextAfterInput: String
    /// The selected text when the read began, or `nil` for a caret.
    public var selectedText: String?
    /// Snapshot round trips the walk took.
    public var roundTrips: Int
    /// Whether the text is certainly the document, exactly. Always under this host's extras (the
    /// `exact` platform). Without them (iOS, Android, Wayland) the reader works out positions from the
    /// windows, and says `false` when what it saw did not agree with what it read, or when text was
    /// selected: a selection cannot be made again without the extras, so the reader does not walk and
    /// gives only the windows around it.
    public var isExact: Bool

    public init(
        fullDocumentContextBeforeInput: String, fullDocumentContextAfterInput: String, selectedText: String?,
        roundTrips: Int, isExact: Bool = true
    ) {
        self.fullDocumentContextBeforeInput = fullDocumentContextBeforeInput
        self.fullDocumentContextAfterInput = fullDocumentContextAfterInput
        self.selectedText = selectedText
        self.roundTrips = roundTrips
        self.isExact = isExact
    }

    /// Why a walk (read, delete, move) ended without its result.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        public enum Reason: String, Hashable, Sendable {
            /// The user typed, tapped a key, or moved the cursor in the field. The cursor stays where
            /// the user put it; the walk changes nothing more.
            case userCancelled
            /// The field got a new document (a new document identifier).
            case documentChanged
            /// The task running the walk was cancelled. The walk stops after its current step; a read
            /// or move puts the cursor back.
            case cancelled
            /// Another walk is running on this keyboard.
            case operationInProgress
            /// No snapshot came within ``KeyboardViewController/fullDocumentContextTimeout`` of the host's
            /// clock: the host really did not answer in that time (a busy host does not make it fire).
            case proxyUnresponsive
            /// The keyboard was hidden, or another keyboard took the field, while the walk ran: this
            /// instance is going away. The walk posts nothing more.
            case keyboardHidden
        }

        public let reason: Reason
        /// Characters deleted before the walk ended: for `deleteFullDocumentContext()`; 0 otherwise.
        public let deletedCharacters: Int

        public init(_ reason: Reason, deletedCharacters: Int = 0) {
            self.reason = reason
            self.deletedCharacters = deletedCharacters
        }

        public static let userCancelled = Error(.userCancelled)
        public static let documentChanged = Error(.documentChanged)
        public static let cancelled = Error(.cancelled)
        public static let operationInProgress = Error(.operationInProgress)
        public static let proxyUnresponsive = Error(.proxyUnresponsive)
        public static let keyboardHidden = Error(.keyboardHidden)

        public var description: String {
            deletedCharacters > 0 ? "\(reason.rawValue) (after deleting \(deletedCharacters) characters)" : reason.rawValue
        }

        /// `catch .userCancelled` matches by reason: a delete stopped midway (`deletedCharacters:
        /// 5`) is caught too, which equality would miss. To read ``deletedCharacters`` there, bind it:
        /// `catch let error where error.reason == .userCancelled`, or `switch error.reason` in a
        /// plain `catch`.
        public static func ~= (pattern: Error, error: Error) -> Bool {
            pattern.reason == error.reason
        }
    }
}

/// What ``KeyboardViewController/deleteFullDocumentContext()`` did.
public struct FullDocumentDeletion: Hashable, Sendable {
    public var deletedCharacters: Int
    public var roundTrips: Int
    /// Whether `deletedCharacters` is certain. The document is empty either way. Without this host's
    /// extras, a line break deleted blind (a window stops before it) under a platform that deletes
    /// UTF-16 units counts as one Character, though CRLF takes two presses.
    public var isExact: Bool

    public init(deletedCharacters: Int, roundTrips: Int, isExact: Bool = true) {
        self.deletedCharacters = deletedCharacters
        self.roundTrips = roundTrips
        self.isExact = isExact
    }
}
