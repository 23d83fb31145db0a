import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The base class of a keyboard extension, modelled on UIKit's `UIInputViewController` (and the SDKs
/// built on it, such as Fleksy's `FKKeyboardViewController`).
///
/// Subclass it, override ``createConfiguration()``, and export the subclass with one line:
///
/// ```swift
/// final class HelloKeyboard: KeyboardViewController {
///     override func createConfiguration() -> KeyboardConfiguration { … }
/// }
///
/// @_cdecl("kbx_extension_entry")
/// public func entry() -> UnsafeRawPointer? { HelloKeyboard.export(id: "com.example.hello", name: "Hello", version: "1.0.0") }
/// ```
///
/// As on iOS the host makes a fresh controller for every appearance of the keyboard and never reuses
/// one. The host calls, in order: `init()`, ``createConfiguration()``, ``viewDidLoad()``,
/// ``viewWillAppear()``, ``viewDidAppear()``; then key taps and text notifications; and when the
/// keyboard goes away ``viewWillDisappear()`` and ``viewDidDisappear()``.
@MainActor
open class KeyboardViewController {
    /// The text field, as iOS's `textDocumentProxy`: reads come from the latest snapshot, edits are
    /// posted and take effect on a later turn of the host's loop.
    public let textDocumentProxy: TextDocumentProxy

    /// The configuration this controller returned from ``createConfiguration()``, once it has.
    public internal(set) var configuration: KeyboardConfiguration?

    /// The keys as shown now: the configuration's layout, shuffled where it says so (`Shuffle`) —
    /// afresh on every appearance and after the configuration's refresh interval.
    ///
    /// Set it to change the keys while the keyboard is shown — a label that shows the letter a
    /// multi-tap key is cycling through, a suggestion row, a case indicator: the host gets it at once
    /// (`set_layout`), draws it and taps its keys. A layout the host would refuse (no sub-keyboard, a
    /// key the configuration's `inputType` does not allow) is not sent: the keyboard reports why, and
    /// the layout stays as it was.
    public var layout = KeyboardLayout(subKeyboards: []) {
        didSet {
            guard !suppressLayoutPush, layout != oldValue else { return }
            let problem = layout.subKeyboards.isEmpty
                ? "a layout needs at least one sub-keyboard"
                : configuration.flatMap { layout.problem(for: $0.inputType) }
            if let problem {
                reportError("layout not changed: \(problem)")
                layoutSilently(oldValue)
                return
            }
            guard let json = try? layout.json() else { return }
            textDocumentProxy.host.setLayout(json: String(decoding: json, as: UTF8.self))
        }
    }

    /// Shuffles the layout again now (a secure keyboard after each entry, say). A layout whose
    /// sub-keyboards do not shuffle stays as it is.
    public func reshuffleLayout() {
        guard let configuration else { return }
        layout = configuration.layout.shuffled()
    }

    /// Sets the layout without telling the host (it gets it with the configuration).
    func layoutSilently(_ layout: KeyboardLayout) {
        suppressLayoutPush = true
        self.layout = layout
        suppressLayoutPush = false
    }

    private var suppressLayoutPush = false
    /// Whether shift is on because autocapitalization turned it on (`updateAutomaticShift()`).
    var shiftIsAutomatic = false

    /// The touches under way (gestures between their down and up), by the key's position.
    var touches: [KeyPosition: KeyTouch] = [:]

    /// The periodic reshuffle of a secure layout, if any.
    var layoutRefresh: HostTimer?

    /// Reshuffles the layout every `layoutRefreshInterval` of the host's clock, when it shuffles.
    func scheduleLayoutRefresh() {
        layoutRefresh?.invalidate()
        layoutRefresh = nil
        guard let interval = configuration?.layoutRefreshInterval, interval > 0, configuration?.layout.shuffles == true
        else { return }
        let every = Duration.milliseconds(Int64((interval * 1000).rounded()))
        layoutRefresh = scheduleTimer(after: every, repeatingEvery: every) { [weak self] _ in self?.reshuffleLayout() }
    }

    /// How long the full-document walker waits for each snapshot, on the host's clock, before it gives
    /// up with `proxyUnresponsive`.
    public var fullDocumentContextTimeout: Duration = .seconds(2)

    /// The walk in progress (read, delete, move), if any.
    var activeWalker: DocumentWalker?

    /// Whether a full-document read, delete or move is running (for example, to show progress).
    public var isWalkingFullDocument: Bool { activeWalker != nil }

    /// Host commands under way (`host_command`), by request: cancelled when the host gives up on one.
    var commandTasks: [UInt64: Task<Void, Never>] = [:]

    /// The instance's live timers (``scheduleTimer(after:repeatingEvery:_:)``), ended when it goes.
    var liveTimers: [ObjectIdentifier: HostTimer] = [:]

    /// The host's clock (``clock``), made once per instance.
    nonisolated let hostClock: HostClock

    /// Schedules the walker's timeouts on the host's clock (schedule_timer), and returns a way to
    /// cancel one: a test host's virtual time moves them, and a busy host never makes them fire early.
    var scheduleTimeout: @MainActor (Duration, @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        { [host = textDocumentProxy.host] delay, body in host.scheduleTimer(after: delay, body) }
    }

    /// Set when the base class's ``createConfiguration()`` runs, which means a subclass did not
    /// override it (or called super's): the host reports that as an error.
    var reachedBaseCreateConfiguration = false

    /// What the host's user chose for this extension (license, layout, typing and appearance changes,
    /// free-form `options`), handed over before ``createConfiguration()``. Empty outside a host.
    public let hostSettings: HostSettings

    /// The folder the host keeps for this extension alone (mode 0700), for files that outlive an
    /// appearance (a passcode's hash, attempt counts); `nil` when the host gives none.
    public var storageDirectory: String? { hostSettings.storage }

    public required init() {
        // The bridge hands the host connection over through `HostConnection.pending` because the
        // initializer is the author's to override and takes no arguments, as UIKit's does.
        let host = HostConnection.takePending()
        textDocumentProxy = TextDocumentProxy(host: host)
        hostSettings = HostConnection.takePendingSettings()
        hostClock = HostClock(reader: host.clockReader, timers: TimerScheduler { delay, body in host.scheduleTimer(after: delay, body) })
    }

    /// The configuration the keyboard runs with: by default, `own` (what ``createConfiguration()``
    /// returned) with the host's settings laid over it (`KeyboardConfiguration.applying(_:)`).
    /// Override to refuse some (a keyboard whose layout must not be replaced, say), or to read
    /// `settings.options`.
    open func configuration(applying settings: HostSettings, to own: KeyboardConfiguration) -> KeyboardConfiguration {
        own.applying(settings)
    }

    /// Returns the keyboard's configuration: its layout, license, and options. Every extension must
    /// override this and must not call `super`: the base implementation marks the extension as
    /// unconfigured, and the host refuses to show it.
    open func createConfiguration() -> KeyboardConfiguration {
        reachedBaseCreateConfiguration = true
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: []))
    }

    // MARK: View lifecycle (UIKit's order)

    open func viewDidLoad() {}
    open func viewWillAppear() {}
    open func viewDidAppear() {}
    open func viewWillDisappear() {}
    open func viewDidDisappear() {}

    /// The instance is going away (the keyboard was hidden, or another took the field): a walk under
    /// way ends with `keyboardHidden`, host commands are cancelled, and timers stop.
    func instanceEnding() {
        activeWalker?.interrupt(.keyboardHidden)
        for task in commandTasks.values { task.cancel() }
        invalidateTimers()
        layoutRefresh = nil
    }

    // MARK: Text input notifications (UITextInputDelegate)
    //
    // Overrides need not call super: these do nothing, and what the SDK does on a change
    // (autocapitalization's shift) happens whether or not they are called. During a full-document walk
    // (``isWalkingFullDocument``) they come for each of its steps, and ``textDocumentProxy`` shows the
    // walker's window — the caret where the walk is, not where the user left it: check
    // `isWalkingFullDocument` before acting on them as the user's.

    /// The document is about to change; ``textDocumentProxy`` still shows the old state.
    open func textWillChange() {}
    /// The document changed; ``textDocumentProxy`` shows the new state. Also for each step of a walk.
    open func textDidChange() {}
    /// The selection or cursor is about to change.
    open func selectionWillChange() {}
    /// The selection or cursor changed. Also for each step of a walk.
    open func selectionDidChange() {}
    /// The host's new state shows edits this keyboard posted as applied: ``textDocumentProxy`` now
    /// shows what they did. Not UIKit's: iOS sends no `textDidChange` for a keyboard's own edits
    /// (KeyboardKit #24; `kbhost --platform ios`), so a keyboard that goes on from what its edits did —
    /// a delete-word that deletes what it sees, then looks again — goes on from here, which comes under
    /// every platform, before any notification. Does nothing by default.
    open func editsDidApply() {}

    // MARK: Keys

    /// The sub-keyboard shown now and the shift state. Setting it tells the host, which draws it.
    public var keyboardState = KeyboardState() {
        didSet {
            guard keyboardState != oldValue else { return }
            textDocumentProxy.host.setKeyboardState(keyboardState)
        }
    }

    /// The user tapped `key`. The default does what the key's code says: input keys, space and return
    /// insert their text (upper case while shift is on: a one-shot shift then goes off) with the
    /// configuration's `TypingOptions` (text replacements, double-space full stop), delete deletes
    /// backward, shift toggles shift (a second tap while on locks it), a mode key shows its
    /// sub-keyboard, the globe key advances to the next keyboard, and done/collapse dismiss the
    /// keyboard. Override to do more; call `super` for the defaults.
    open func keyTapped(_ key: Key) {
        if let text = key.typedText(shift: keyboardState.shift) {
            insertTyped(text)
            if key.code == .input, keyboardState.shift == .on {
                keyboardState.shift = .off
                shiftIsAutomatic = false
            }
            return
        }
        switch key.code {
        case .delete: textDocumentProxy.deleteBackward()
        case .shift:
            // A shift the keyboard turned on by itself goes off at a tap (as on iOS); otherwise a tap
            // turns it on, a second locks it, a third turns it off.
            if shiftIsAutomatic {
                keyboardState.shift = .off
            } else {
                keyboardState.shift = keyboardState.shift == .off ? .on : keyboardState.shift == .on ? .capsLock : .off
            }
            shiftIsAutomatic = false
        case .modeChange(let mode):
            if let index = layout.subKeyboard(for: mode) {
                keyboardState = KeyboardState(subKeyboard: index, shift: .off)
                shiftIsAutomatic = false
                updateAutomaticShift()  // back on letters at the start of a sentence: a capital again
            }
        case .nextKeyboard: advanceToNextInputMode()
        case .done, .collapse: dismissKeyboard()
        default: break
        }
    }

    // MARK: Key gestures (ABI section 11; the bookkeeping in +Gestures). Override any; call `super`
    // for the default.

    /// After this many character repeats a held delete deletes a word per repeat, as iOS's speeds up
    /// (the first second of repeats deletes characters; on the host's clock, as the repeats come).
    public static let deleteRepeatsBeforeWords = 10


    /// A finger went down on `key` and stays (a gesture begins; a quick tap comes as
    /// ``keyTapped(_:)`` instead). The default deletes for the delete key — iOS's delete acts as the
    /// finger goes down, and then repeats — and does nothing for other keys, which act as they are
    /// released.
    open func keyPressed(_ key: Key) {
        if key.code == .delete { textDocumentProxy.deleteBackward() }
    }

    /// The finger has stayed on `key`, which has callouts, for the long-press delay: the host shows
    /// them. Does nothing by default; the callout the finger lifts on comes with the release.
    open func keyLongPressed(_ key: Key) {}

    /// The finger is still down on `key`, which has no callouts: the `count`th repeat, one every 0.1 s
    /// of the host's clock after the first at 0.5 s. The default repeats delete, a Character at a time
    /// for the first ``deleteRepeatsBeforeWords`` repeats and then a word at a time, as iOS's speeds up;
    /// a globe key held shows the host's list of keyboards (``handleInputModeList()``) at its first;
    /// other keys do not repeat.
    open func keyRepeated(_ key: Key, count: Int) {
        // A globe key held: the list of keyboards, as UIKit's handleInputModeList on a long-press.
        if key.code == .nextKeyboard, count == 1 { return handleInputModeList() }
        guard key.code == .delete else { return }
        guard count > Self.deleteRepeatsBeforeWords else { return textDocumentProxy.deleteBackward() }
        let before = textDocumentProxy.documentContextBeforeInput ?? ""
        let length = Self.lengthOfLastWord(before)
        for _ in 0..<max(length, 1) { textDocumentProxy.deleteBackward() }
    }

    /// The finger moved on `key` by a step (`x` right, `y` down; negative the other way); `touch` says
    /// where it is now. The default moves the caret one Character per step for the space bar, as
    /// iOS's space-bar drag does (in the units the platform's `adjustTextPosition` counts, measured from
    /// where the caret was as the finger went down); other keys do nothing.
    open func keyDragged(_ key: Key, byX x: Int, y: Int, touch: KeyTouch) {
        guard key.code == .space, x != 0 else { return }
        let unit = textDocumentProxy.snapshot.platform.caretMoveUnit
        let offset = touch.caretOffset(toCharacters: touch.dragX, in: unit) - touch.caretOffset(toCharacters: touch.dragX - x, in: unit)
        textDocumentProxy.adjustTextPosition(byCharacterOffset: offset)
    }

    /// The finger lifted from `key`; `touch` says what it did. The default types the callout it lifted
    /// on (upper case under shift, after which a one-shot shift goes off); else does nothing after a
    /// long-press, a drag or delete (which acted as it went down); else acts as a tap of the key (a held
    /// letter types as it is released).
    open func keyReleased(_ key: Key, touch: KeyTouch) {
        if let index = touch.calloutIndex {
            guard let text = key.callout(index, shift: keyboardState.shift) else { return }
            insertTyped(text)
            if keyboardState.shift == .on {
                keyboardState.shift = .off
                shiftIsAutomatic = false
            }
            return
        }
        if touch.longPressed || touch.moved || key.code == .delete { return }
        if key.code == .nextKeyboard, touch.repeatCount > 0 { return }  // it showed the list
        keyTapped(key)
    }

    /// Undo for this keyboard's own edits (``TextDocumentUndoManager``): `undoManager.undo()` takes
    /// back what the latest touch typed or deleted.
    public var undoManager: TextDocumentUndoManager { textDocumentProxy.undoManager }

    /// Plays the key click, as UIKit's `UIDevice.current.playInputClick()`: the host plays it if its
    /// user wants key clicks (`typing.keyFeedback.sound`; the REPL rings the terminal's bell), and
    /// does nothing otherwise, or under a host older than ABI revision 4. For keys the host did not tap
    /// itself — a gesture the keyboard recognized; the host's own taps click by themselves.
    public func playInputClick() {
        textDocumentProxy.host.playInputClick()
    }

    /// Switches to the next keyboard, as the globe key does on iOS.
    public func advanceToNextInputMode() {
        textDocumentProxy.host.advanceToNextInputMode()
    }

    /// Hides the keyboard.
    public func dismissKeyboard() {
        textDocumentProxy.host.dismissKeyboard()
    }

    /// Tells the host of something that happened in the keyboard, which it shows and records (the
    /// REPL's status row, `kbhost run`'s `events`), as a delegate would be told on iOS. Hosts show and
    /// log events: never put a secret in one.
    public func reportEvent(_ event: KeyboardEvent) {
        guard let json = try? JSONEncoder().encode(event) else { return }
        textDocumentProxy.host.reportEvent(json: String(decoding: json, as: UTF8.self))
    }

    /// Tells the host of a failure, in one line it shows the user next to the extension's name.
    public func reportError(_ message: String) {
        textDocumentProxy.host.reportError(message)
    }
}
