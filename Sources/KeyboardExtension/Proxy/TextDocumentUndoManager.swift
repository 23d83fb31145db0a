/// Undo for the keyboard's own edits (KeyboardKit's `TextDocumentUndoManager`): the controller's
/// ``KeyboardViewController/undoManager``.
///
/// It fits this host's model because every edit the keyboard makes goes through its proxy, so the
/// proxy knows what each did: an insert put its text before the caret; a delete took the selection,
/// or the Character the proxy showed before the caret. Undoing posts the opposite edits. What the
/// proxy cannot see, it cannot undo, and it says so rather than guess: a delete with nothing shown
/// before the caret (the window stopped there), marked text, caret moves and the full-document
/// walker's absolute edits each clear the history, as does any change the keyboard did not make (the
/// user's, the app's), since the positions it remembers no longer hold.
///
/// One undo step is one touch and what follows from it until the next touch: a tap, a held delete
/// with its repeats, the suggestion a tap put in, a delete-word that goes on after its snapshots.
@MainActor
public final class TextDocumentUndoManager {
    /// An edit, as the proxy saw it made.
    enum Edit: Equatable {
        case inserted(String)
        case deleted(String)
    }

    /// The steps that can be undone, oldest first; each the edits of one touch, in order.
    private var steps: [[Edit]] = []
    /// The step the latest touch is adding to, until the next touch.
    private var current: [Edit]?
    /// The text before the caret as the current step's edits leave it, and the selection: what a
    /// delete takes.
    private var before = ""
    private var selected = ""
    private var undoing = false
    private unowned let proxy: TextDocumentProxy

    /// How many steps are kept.
    public var levelsOfUndo = 20

    init(proxy: TextDocumentProxy) {
        self.proxy = proxy
    }

    /// Whether there is a step to undo.
    public var canUndo: Bool { !steps.isEmpty || current?.isEmpty == false }

    /// Undoes the latest step: posts the opposite of its edits, latest first. `false` (and nothing
    /// posted) when there is nothing to undo, or the keyboard's last edits have not reached the
    /// field yet (undo once they have: after ``KeyboardViewController/editsDidApply()``).
    @discardableResult
    public func undo() -> Bool {
        closeStep()
        guard proxy.postedOperations == proxy.snapshot.operationsApplied, let step = steps.popLast() else { return false }
        // The step's last insert must still be before the caret, as far as the proxy shows.
        if case .inserted(let text)? = step.last {
            let shown = proxy.snapshot.contextBefore
            guard shown.count < text.count || shown.hasSuffix(text) else {
                steps.removeAll()
                return false
            }
        }
        undoing = true
        defer { undoing = false }
        let unit = proxy.snapshot.platform.deleteUnit
        for edit in step.reversed() {
            switch edit {
            case .inserted(let text):
                for _ in 0..<unit.count(of: text) { proxy.deleteBackward() }
            case .deleted(let text):
                proxy.insertText(text)
            }
        }
        return true
    }

    /// Forgets every step.
    public func removeAllActions() {
        steps.removeAll()
        current = nil
    }

    // MARK: From the controller and the proxy

    /// A touch began (a tap, a key going down): its edits make a new step.
    func touchBegan() {
        closeStep()
        current = []
        resynchronize()
    }

    /// A snapshot the keyboard's edits did not cause: what is remembered no longer holds.
    func fieldChangedByOthers() {
        removeAllActions()
    }

    /// The proxy posted an insert.
    func recordInsert(_ text: String) {
        guard !undoing else { return }
        openIfNeeded()
        resynchronize()
        current?.append(.inserted(text))
        before += text
        before = Self.kept(before)
        selected = ""
    }

    /// The proxy posted a delete.
    func recordDelete() {
        guard !undoing else { return }
        openIfNeeded()
        resynchronize()
        if !selected.isEmpty {
            current?.append(.deleted(selected))
            selected = ""
            return
        }
        guard let last = before.last else {
            // Nothing shown before the caret: the document's start (a delete that does nothing), or
            // a window that stopped there, whose Character this cannot know.
            if proxy.snapshot.selectedRange?.lowerBound == 0 || !proxy.hasText { return }
            return removeAllActions()
        }
        // A platform that deletes a UTF-16 unit takes part of a Character of several.
        if proxy.snapshot.platform.deleteUnit == .utf16, last.utf16.count > 1 { return removeAllActions() }
        current?.append(.deleted(String(last)))
        before.removeLast()
    }

    /// The proxy posted an edit this cannot undo (a caret move, marked text, an absolute edit).
    func recordOther() {
        guard !undoing else { return }
        removeAllActions()
    }

    /// With none of its edits on their way, the latest snapshot shows all they did, and perhaps more
    /// than the step's start showed (a held delete's repeats each see the window anew).
    /// With edits still on their way (latency), the snapshot is behind them: it goes on from what they
    /// leave, as worked out when they were posted. Only the end of a long text before the caret is kept
    /// (``kept(_:)``): a keystroke must not copy a whole document a wide window shows.
    private func resynchronize() {
        guard proxy.postedOperations == proxy.snapshot.operationsApplied else { return }
        before = Self.kept(proxy.snapshot.contextBefore)
        selected = proxy.snapshot.selectedText
    }

    /// How much of the text before the caret is kept to know what a delete takes: more than one
    /// touch deletes between two snapshots (a delete-word, a repeat's word). A delete past it ends
    /// the history, as one the proxy did not show.
    static let keptCharacters = 1024

    /// `text`, or its last ``keptCharacters`` once it is longer than 16 KiB. A shorter one is kept
    /// whole: sharing its storage costs nothing, where cutting it walks a thousand Characters on every
    /// touch (a fifth of a tap's time in the benchmark).
    private static func kept(_ text: String) -> String {
        text.utf8.count > 16 * keptCharacters ? String(text.suffix(keptCharacters)) : text
    }

    /// Edits outside any touch (a task of the keyboard's before the first) make a step of their own.
    private func openIfNeeded() {
        if current == nil { touchBegan() }
    }

    private func closeStep() {
        if let current, !current.isEmpty {
            steps.append(current)
            if steps.count > levelsOfUndo { steps.removeFirst(steps.count - levelsOfUndo) }
        }
        current = nil
    }
}
