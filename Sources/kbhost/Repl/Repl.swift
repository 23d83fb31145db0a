import Foundation
import KeyboardHost

/// The REPL: a single-line text field (readline's line) edited through keyboard extensions.
///
/// Typed keys become taps on the active keyboard (planned by ``KeyPlanner``: by position on a pad that
/// asks for it, else by label, with shift and mode keys as needed); Backspace taps its delete key and
/// Enter its return key, which submits. readline's own motion and editing keys are the user acting in
/// the field (`ReadlineDriver.swift`). C-x starts a command (`ReplCommands.swift`).
@MainActor
final class Repl {
    struct Options {
        var policy: ContextPolicy
        var latency: Duration
        var setup: HostSetup
        var secure: Bool
        var showKeyboard: Bool
        var colors: Bool
    }

    let extensions: [LoadedExtension]
    var options: Options
    private(set) var active = 0
    private(set) var session: KeyboardSession
    let screen: Screen

    /// A secure field: the extension asked for one, or --secure.
    var isSecure: Bool { options.secure || (session.configuration?.requestsSecureEntry ?? securedBeforeDismissal) }
    /// Whether the keyboard that dismissed itself had asked for a secure field: the field stays one
    /// while it is gone.
    private var securedBeforeDismissal = false
    /// The last key tapped, highlighted on the keyboard.
    var lastKey: KeyPosition?
    /// Whether the keyboard dismissed itself (`dismissKeyboard`): it is gone until C-x k shows it
    /// again, a new appearance.
    private(set) var isDismissed = false
    /// C-x t's key picker, while the user picks a key to tap.
    private(set) var picker: KeyPicker?
    /// A gesture chord waiting for its key or callout (C-x L, C-x H: `ReplGestures.swift`).
    var pendingGesture: PendingGesture?
    /// The status row's message: a result, an error, a hint. Each is kept in ``log`` too, for the
    /// status row shows only the latest.
    var message: String? {
        didSet { if let message, message != oldValue { log.append(message) } }
    }
    /// Everything the status row said, oldest first (the latest 1000): C-x l prints it.
    private(set) var log = RecentLog<String>(capacity: 1000)
    /// A command in flight (read, delete, move) and the snapshots pushed since it started.
    var running: (command: HostCommand, snapshots: Int)?
    /// The latest events between host and extension, for the inspector.
    private(set) var recentEvents = RecentLog<SessionEvent>(capacity: 12)
    /// Submitted lines, for readline's history.
    var onSubmitted: ((String) -> Void)?
    /// The field changed: readline's line must follow.
    var onFieldChanged: (() -> Void)?

    init(extensions: [LoadedExtension], options: Options, document: String) {
        self.extensions = extensions
        self.options = options
        screen = Screen(colors: options.colors)
        session = options.setup.session(for: extensions[0], field: TextField(text: document), policy: options.policy)
        configure(session)
    }

    /// Shows the first keyboard. A failure here ends the REPL before it starts.
    func start() throws(SessionError) {
        try session.show()
    }

    var field: TextField { session.textField }

    private func configure(_ session: KeyboardSession) {
        session.latency = options.latency
        session.inputModes = extensions.map { loaded in
            InputMode(identifier: loaded.identifier, name: loaded.name, primaryLanguage: options.setup.settings(for: loaded).environment?.primaryLanguage)
        }
        session.submitsOnLineBreak = true
        session.onSubmit = { [weak self] in self?.submitted($0) }
        session.onFieldChange = { [weak self] in self?.onFieldChanged?() }
        session.onEvent = { [weak self, name = session.loadedExtension.name] event in
            guard let self else { return }
            var redraws = true
            var kept = true
            switch event {
            case .error(let error):
                message = "\(name): \(error)"
                redraws = false
            case .request(.advanceToNextInputMode): nextKeyboard()
            case .request(.showInputModeList):
                // A long-press of the globe key: the keyboards, the one shown marked; C-x n goes on.
                let names = extensions.indices.map { "\($0 + 1) \(extensions[$0].name)\($0 == active ? " (shown)" : "")" }
                message = "keyboards: " + names.joined(separator: " · ") + (extensions.count > 1 ? "; C-x n switches" : "")
            case .request(.playInputClick):
                // The keyboard's own click (a gesture it recognized): the bell, if clicks are wanted.
                if session.configuration?.typing.keyFeedback.sound == true { screen.bell() }
                redraws = false
            case .request(.dismissKeyboard):
                // After the extension's call returns: the instance ends, as on iOS, where the next
                // appearance is a new keyboard.
                DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.dismiss() } }
            case .extensionEvent(let reported): message = reported.description  // the status row names the keyboard
            case .fault(let fault):
                running = nil
                message = "\(fault) — your text is kept; keys now type into the field directly (C-x R restarts \(name))"
            case .keyboardState, .layoutChanged: break
            case .platformNote(let note): message = note
            case .keyTapped(let position):
                // Every tap, however it was planned, lights its key and clicks (key feedback).
                lastKey = position
                if session.configuration?.typing.keyFeedback.sound == true { screen.bell() }
                // On a secure keyboard the inspector does not keep which keys were tapped: with the
                // layout on screen, a position is the digit.
                kept = !isSecure
                redraws = false
            case .snapshot:
                if let current = running { running = (current.command, current.snapshots + 1) }
                redraws = false
            default: redraws = false
            }
            if kept { recentEvents.append(event) }
            if redraws { redraw() }
        }
    }

    // MARK: Keys

    /// Whether the keyboard failed (isolation): the REPL is then a plain keyboard — keys type into the
    /// field directly — until ``restart()``.
    var isPlain: Bool { session.fault != nil }

    /// A printable key: the taps that type it on the keyboard as it is now.
    ///
    /// A lower-case letter while the keyboard has put shift on by itself (autocapitalization) taps the
    /// letter's key as it is, as a thumb on a phone does: the keyboard's capital stands. (`kbhost run
    /// --type` and piped lines type exactly what they are given instead.)
    func type(_ character: Character) {
        if saidDismissed() || gestureTyped(character) { return }
        if picker != nil {
            picker?.type(character)
            redraw()
            return
        }
        if isPlain {
            session.userInsertText(String(character))
            redraw()
            return
        }
        if !tapPlanned(.character(character), lettersAsTheyAre: character.isLowercase) {
            // A key that shows the character but types nothing (a ▶, a ⌫ of the keyboard's own).
            if let key = keyOnShownPage(where: { $0.label == String(character) }) {
                tap(key)
                return
            }
            message = "\(session.loadedExtension.name) has no key for \(String(character).debugDescription); C-x t taps any key by its label"
            redraw()
        }
    }

    /// The first key on the page shown that `matches`.
    func keyOnShownPage(where matches: (Key) -> Bool) -> KeyPosition? {
        session.configuration?.layout.firstPosition(onPage: session.keyboardState.subKeyboard, where: matches)
    }

    // MARK: Dismissed

    /// The keyboard asked to be dismissed: it is hidden (its instance ends) and keys do nothing
    /// but say how to bring it back.
    private func dismiss() {
        guard session.isShown else { return }
        picker = nil
        securedBeforeDismissal = isSecure
        session.hide()
        isDismissed = true
        log.append("\(session.loadedExtension.name) dismissed itself")
        redraw()
    }

    /// C-x k: a dismissed keyboard is shown again (a new instance, as when a user taps the field
    /// again); else the keyboard's drawing is shown or hidden.
    func showOrHideKeyboard() {
        guard isDismissed else {
            options.showKeyboard.toggle()
            redraw()
            return
        }
        do {
            message = nil
            try session.show()
            isDismissed = false
            options.showKeyboard = true
            // What the new appearance said first stays on the status row; the log has both.
            let shown = "\(session.loadedExtension.name) shown again"
            if message == nil { message = shown } else { log.append(shown) }
        } catch {
            message = error.advice
        }
        redraw()
    }

    /// While dismissed, a key says so (and how to bring the keyboard back) instead of doing nothing.
    func saidDismissed() -> Bool {
        guard isDismissed else { return false }
        message = "\(session.loadedExtension.name) dismissed itself: C-x k shows it again"
        redraw()
        return true
    }

    // MARK: Picking a key (C-x t)

    /// Starts picking a key of the page shown, to tap it.
    func pickKey() {
        if saidDismissed() { return }
        guard !isPlain, let layout = session.configuration?.layout else {
            message = isPlain ? "the keyboard failed: C-x R starts it again" : "the keyboard shows no keys"
            redraw()
            return
        }
        if !options.showKeyboard { options.showKeyboard = true }
        picker = KeyPicker(layout: layout, page: session.keyboardState.subKeyboard)
        redraw()
    }

    /// Leaves the picker without tapping; `false` if none was open.
    @discardableResult
    func cancelPick() -> Bool {
        if cancelGesture() { return true }
        guard picker != nil else { return false }
        picker = nil
        message = nil
        redraw()
        return true
    }

    /// Tab: the picker's next key; else the keyboard's tab key, if it has one.
    func tabKey() {
        if picker != nil {
            picker?.next()
            redraw()
        } else if isPlain {
            type("\t")
        } else if !tapPlanned(.character("\t"), lettersAsTheyAre: false) {
            message = "\(session.loadedExtension.name) has no tab key; C-x t taps any key by its label"
            redraw()
        }
    }

    /// The label of the key at `position` on the keyboard shown, as the status row says it.
    private func label(_ position: KeyPosition) -> String {
        let key = session.configuration?.layout.key(at: position)
        return key.map { $0.label.isEmpty ? $0.code.description : $0.label } ?? "?"
    }

    /// The key on the shown page labelled with `letter`, in either case.
    private func letterKey(_ letter: Character) -> KeyPosition? {
        keyOnShownPage { $0.code == .input && $0.typedText?.lowercased() == String(letter) }
    }

    /// A key by what it does (delete, return, …); `false` if the keyboard has none.
    @discardableResult
    func tap(_ code: KeyCode) -> Bool {
        tapPlanned(.key(code), lettersAsTheyAre: false)
    }

    /// Taps what types `stroke`, one tap at a time, planning again after each from the keyboard's state
    /// (which a tap changes at once: shift, mode keys). `false` if there is no way to type it.
    private func tapPlanned(_ stroke: KeyStroke, lettersAsTheyAre: Bool) -> Bool {
        message = nil
        defer { redraw() }
        for _ in 0..<KeyPlanner.maximumTapsPerStroke {
            if lettersAsTheyAre, session.keyboardState.shift == .on, case .character(let letter) = stroke,
               let key = letterKey(letter) {
                tap(key)
                return true
            }
            do {
                if try session.tapToward(stroke) { return true }
            } catch {
                guard case .tapFailed(let failure) = error else { return false }
                if session.fault == nil { message = failure.description }  // a fault says more itself
                return true
            }
        }
        return false
    }

    private func tap(_ position: KeyPosition) {
        message = nil
        do {
            try session.tap(position)
        } catch {
            if session.fault == nil { message = error.description }
        }
        redraw()
    }

    /// Enter: the return key, whose line break submits the field; else the done key (a PIN pad's);
    /// the field alone if there is neither.
    func enter() {
        if saidDismissed() || gestureEntered() { return }
        if let picker {
            self.picker = nil
            if let choice = picker.choice { tap(choice) } else { redraw() }
            return
        }
        if isPlain || (!tap(.return) && !tap(.done)) { session.userSubmit() }
    }

    /// Backspace: the delete key; the field alone if there is none.
    func backspace() {
        if saidDismissed() || gestureDeleted() { return }
        if picker != nil {
            picker?.deleteBackward()
            redraw()
            return
        }
        if isPlain || !tap(.delete) { session.userDeleteBackward() }
    }

    /// C-x R: starts the keyboard again after it failed — a new process, its settings, configuration,
    /// appearance and the field as it is now.
    func restart() {
        guard isPlain else {
            message = "\(session.loadedExtension.name) is running"
            redraw()
            return
        }
        do {
            try session.show()
            message = "\(session.loadedExtension.name) restarted"
        } catch {
            message = error.description
        }
        redraw()
    }

    private func submitted(_ text: String) {
        if isSecure {
            screen.printAbove([screen.style("› ", "2") + String(repeating: "⬤", count: text.count)])
        } else {
            screen.printAbove([screen.style("› ", "2") + screen.safe(text)])
            onSubmitted?(text)
        }
        redraw()
    }

    // MARK: Keyboards

    /// The globe key: the next loaded extension takes over the same field.
    func nextKeyboard() {
        guard extensions.count > 1 else {
            message = "only one keyboard is loaded"
            return
        }
        let next = (active + 1) % extensions.count
        let candidate = options.setup.session(for: extensions[next], field: session.textField, policy: session.policy)
        configure(candidate)
        session.hide()
        do {
            try candidate.show()
            session = candidate
            active = next
            lastKey = nil
            message = "switched to \(candidate.loadedExtension.name)"
        } catch {
            message = error.description
            try? session.show()
        }
        redraw()
    }

    // MARK: Drawing

    /// The text readline holds: the field's, or a ⬤ per Character in a secure field, so the secret
    /// never enters readline's buffer, undo list or history.
    var lineText: String {
        isSecure ? String(repeating: "⬤", count: field.count) : field.text
    }

    var prompt: String { "\(session.loadedExtension.name) › " }

    /// Set by the readline driver: where its cursor is, in Characters.
    var cursorForDrawing: () -> Int = { 0 }

    func redraw() {
        screen.draw(prompt: prompt, text: lineText, cursor: cursorForDrawing(), below: rowsBelow())
    }

    private func rowsBelow() -> [String] {
        var rows = statusRows()
        if options.showKeyboard, !isPlain, !isDismissed, let layout = session.configuration?.layout {
            let appearance = session.configuration?.appearance ?? Appearance()
            let renderer = KeyboardRenderer(width: screen.width, colors: options.colors, appearance: appearance)
            let highlightsKey = session.configuration?.typing.keyFeedback.highlight ?? true
            rows += renderer.lines(layout: layout, state: session.keyboardState, highlighted: picker?.choice ?? (highlightsKey ? lastKey : nil))
        }
        return rows
    }

    /// The status row; a message too long to share it (an extension's event, say) gets a row of its
    /// own under it rather than being cut.
    private func statusRows() -> [String] {
        let state = session.keyboardState
        let mode = session.configuration?.layout.subKeyboards[safe: state.subKeyboard]?.mode.rawValue
        var parts = ["\(session.loadedExtension.name) (\(active + 1)/\(extensions.count))"]
        if isPlain { parts.append("plain keyboard") } else if let mode { parts.append(mode) }
        if state.shift != .off { parts.append(state.shift == .on ? "shift" : "caps lock") }
        parts.append(session.policy.description)
        if session.platform != .exact { parts.append(session.platform.description) }
        if isSecure { parts.append("secure") }
        if isDismissed { parts.append("dismissed (C-x k)") }
        if case .notChecked = options.setup.licensing { parts.append("LICENSES NOT CHECKED") }
        let row = parts.joined(separator: " · ")
        let width = screen.width - 1
        func fitted(_ text: String) -> String { screen.style(DisplayWidth.fitted(screen.safe(text), columns: width), "2") }
        if let picker {
            // A row of its own. A secure field's picker shows neither what is typed nor the key
            // (the pad lights it).
            let status = isSecure ? "tap: \(String(repeating: "⬤", count: picker.query.count))▏  Tab: next · Enter: tap · C-g: leave" : picker.status(label: label)
            return [fitted(row + " │ picking a key"), fitted("  " + status)]
        }
        if let running { return [fitted(row + " │ \(running.command)… \(Self.roundTrips(running.snapshots))")] }
        guard let message else { return [fitted(row + " │ C-x h: help")] }
        if DisplayWidth.columns(of: screen.safe(row + " │ " + message)) <= width { return [fitted(row + " │ " + message)] }
        return [fitted(row + " │ C-x h: help"), fitted("  " + message)]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
