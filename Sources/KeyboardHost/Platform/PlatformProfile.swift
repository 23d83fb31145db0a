/// What a platform really gives a keyboard, as data plus small rules: the host applies the profile a
/// session runs under, so a keyboard that passes here behaves as it will on the device.
///
/// `exact` is this host's own behaviour (every offset counts Characters, every edit is applied exactly
/// and promptly, and the ABI's section 7 extras exist); `ios`, `android` and `wayland` reproduce what
/// the platform does where it breaks keyboards in the field: their windows, iOS's and Android's UTF-16
/// caret moves, Android's UTF-16 delete, iOS's notifications, its cut `selectedText`, its late refresh
/// and the refresh it loses after quick moves, and none of the extras. Each rule names its source.
/// What cannot be reproduced, and why, is in the SDK's DocC article "Testing against the platforms".
/// Where a platform's exact behaviour is unknown, the rule says what this host chose, and the session
/// reports it when it happens (``SessionEvent/platformNote(_:)``), so a test can see it.
public struct PlatformProfile: Hashable, Sendable, CustomStringConvertible {
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case exact, ios, android, wayland
    }

    public let name: Name

    /// What a move of the caret by an offset counts (`adjustTextPosition(byCharacterOffset:)`).
    ///
    /// iOS: UTF-16 code units, whatever the name says — 👍🏽 is 4, 👨‍👩‍👧‍👦 is 11 (openradar 16912444;
    /// cl445/wurstfinger PR #205). Android: UTF-16 units too, as every `InputConnection` offset
    /// (`setSelection`). A move that ends inside a Character is this host's choice: the caret stops at
    /// the boundary before it, on the side it came from (neither platform documents its placement),
    /// and a platform note says so.
    public let caretMoveUnit: TextUnit

    /// What `deleteBackward()` deletes when nothing is selected or marked.
    ///
    /// iOS: a Character. Android: one UTF-16 unit — a keyboard's backspace is
    /// `deleteSurroundingText(1, 0)`, which counts UTF-16 units and can delete half a surrogate pair
    /// (Android's `InputConnection` documentation warns IME authors of it); so "é" written e + U+0301
    /// loses its accent, 👍🏽 its skin tone's second half. A String cannot hold the lone half left, so
    /// it becomes U+FFFD, as it is drawn (this host's choice), and a platform note says what was cut.
    public let deleteUnit: TextUnit

    /// Whether the keyboard is told (`textWillChange`/`textDidChange`, `selectionWillChange`/
    /// `selectionDidChange`) of what its own edits changed.
    ///
    /// iOS: no — `textDidChange` does not fire for the keyboard's own typing (KeyboardKit #24); the new
    /// state still arrives. But it does fire, spuriously, when the keyboard's deleting leaves the caret
    /// after a line break or the field empty (keyman PR #2770, #2776): see ``notified(_:ownEditsDeleted:field:)``.
    /// Android tells an IME of every selection change, its own included (`onUpdateSelection`).
    public let notifiesOwnEdits: Bool

    /// How many sentences `selectedText` may hold before the platform cuts it; `nil`: never cut.
    ///
    /// iOS: a selection of more than three sentences comes as its first sentence and its last
    /// (KeyboardKitPro #2; cyanzhong/xTeko #81 shows one: five sentences selected, the first and the
    /// fifth given). A sentence runs to its `.` `!` `?` `。` or line break and the spaces after it, as
    /// the `sentence` windows cut. The full-document reader reads a cut selection by walking it.
    public let selectedTextSentenceLimit: Int?

    /// `text`, selected, as the platform gives it to the keyboard (``selectedTextSentenceLimit``).
    public func selectedText(_ text: String) -> String {
        guard let limit = selectedTextSentenceLimit, !text.isEmpty else { return text }
        // One pass, keeping only where the first sentence ends and the last begins: it runs for every
        // snapshot while text is selected, and a selection may be the whole document.
        var sentences = 1
        var firstEnd: String.Index?
        var lastStart = text.startIndex
        var ended = false
        for index in text.indices {
            let character = text[index]
            if ended, !character.isWhitespace {
                sentences += 1
                if firstEnd == nil { firstEnd = index }
                lastStart = index
                ended = false
            }
            if ContextPolicy.sentence.isBoundary(character) { ended = true }
        }
        guard sentences > limit, let firstEnd else { return text }
        return String(text[..<firstEnd] + text[lastStart...])
    }

    /// Whether this host's exact extras (ABI section 7) exist: the selection's position in the
    /// snapshot, and guarded absolute moves and deletions (`set_selected_range`, `delete_range`).
    ///
    /// Only under `exact`: no platform tells a keyboard where the selection is in the document (iOS
    /// gives windows only; Android's `onUpdateSelection` and Wayland's `surrounding_text` give offsets
    /// in their own units, which a UIKit keyboard never sees). Elsewhere the snapshot's position is
    /// unknown, and the host skips the extras' operations (each still counts as applied) with a
    /// platform note, so a keyboard that leans on them finds out here rather than on the device. The
    /// SDK's full-document reader then walks with the platform's own calls (`adjustTextPosition`,
    /// `deleteBackward`).
    public let offersExtras: Bool

    /// How long after a keyboard's edits its proxy shows them, unless the session picks a latency of
    /// its own (`--latency`). Until then the proxy answers from the state before them.
    ///
    /// iOS: the proxy is refreshed by inter-process messages; read right after a move, the context is
    /// stale. Keyman measured it on the simulator: 20 ms and 33 ms sufficed, 10 ms and 1 ms did not
    /// (keymanapp/keyman PR #10633, issue #10204): 20 ms. The others: no public figure, zero.
    public let latency: Duration

    /// Whether a second caret move made before the first one's refresh arrived leaves the proxy's
    /// windows as they were: the moves are made, but the keyboard is not shown where they led.
    ///
    /// iOS: "the following call MUST NOT occur synchronously with the prior call. If it does, the
    /// textDocumentProxy will not update its context window" (keymanapp/keyman #10204, two
    /// `adjustTextPosition` calls in one turn). This host applies it to every turn that applies two or
    /// more of the keyboard's caret moves (those posted within ``latency`` of each other): the
    /// snapshot acknowledges them with the windows of the one before, and a platform note says so.
    /// The windows come back with the next change.
    public let losesContextAfterQuickMoves: Bool

    /// The windows a keyboard sees (``ContextPolicy``) unless the session picks others (`--policy`).
    ///
    /// iOS: `documentContextBeforeInput` and `…AfterInput` stop at sentence and line boundaries
    /// (`sentence`; this host's default too). Android: a keyboard asks `getTextBeforeCursor(n)` with an
    /// `n` of its own, and a field's initial surrounding text is capped at 2048 UTF-16 units
    /// (`EditorInfoCompat.MEMORY_EFFICIENT_TEXT_LENGTH`), 1024 either side of an empty selection:
    /// `characters(1024)` (Characters, not UTF-16 units: this host's approximation). Wayland
    /// (text-input-v3): surrounding text of at most 4000 UTF-8 bytes, as fcitx5 keeps it under the
    /// protocol's 4096-byte message (`wayland`).
    public let window: ContextPolicy

    public var description: String { name.rawValue }

    /// The notifications the keyboard gets for `change`, made by its own edits (which deleted text if
    /// `deleted`), leaving `field`.
    func notified(_ change: FieldChange, ownEditsDeleted deleted: Bool, field: TextField) -> FieldChange {
        guard !notifiesOwnEdits, change != .document else { return change }
        let caret = field.selection.lowerBound
        let erasedToLineStart = caret > 0 && field.document[field.document.index(before: field.index(at: caret))].isNewline
        return deleted && (field.count == 0 || erasedToLineStart) ? .text : .none
    }

    public static let exact = PlatformProfile(
        name: .exact, window: .sentence, caretMoveUnit: .characters, deleteUnit: .characters, notifiesOwnEdits: true,
        offersExtras: true
    )
    public static let ios = PlatformProfile(
        name: .ios, window: .sentence, caretMoveUnit: .utf16, deleteUnit: .characters, notifiesOwnEdits: false,
        selectedTextSentenceLimit: 3, latency: .milliseconds(20), losesContextAfterQuickMoves: true
    )
    public static let android = PlatformProfile(
        name: .android, window: .characters(1024), caretMoveUnit: .utf16, deleteUnit: .utf16, notifiesOwnEdits: true
    )
    /// An input method under Wayland: its caret moves are key presses the application takes a
    /// Character at a time, and it is told of every change (`done` after each commit).
    public static let wayland = PlatformProfile(
        name: .wayland, window: .wayland, caretMoveUnit: .characters, deleteUnit: .characters, notifiesOwnEdits: true
    )
    public static let all: [PlatformProfile] = [.exact, .ios, .android, .wayland]

    /// The profile called `name` (`exact`, `ios`, `android`, `wayland`), if there is one.
    public init?(named name: String) {
        guard let profile = Self.all.first(where: { $0.name.rawValue == name }) else { return nil }
        self = profile
    }

    private init(
        name: Name, window: ContextPolicy, caretMoveUnit: TextUnit, deleteUnit: TextUnit, notifiesOwnEdits: Bool,
        offersExtras: Bool = false, selectedTextSentenceLimit: Int? = nil, latency: Duration = .zero,
        losesContextAfterQuickMoves: Bool = false
    ) {
        self.offersExtras = offersExtras
        self.latency = latency
        self.losesContextAfterQuickMoves = losesContextAfterQuickMoves
        self.name = name
        self.window = window
        self.caretMoveUnit = caretMoveUnit
        self.deleteUnit = deleteUnit
        self.notifiesOwnEdits = notifiesOwnEdits
        self.selectedTextSentenceLimit = selectedTextSentenceLimit
    }
}
