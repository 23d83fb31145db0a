import KeyboardExtension
import KeyboardHost

/// Hosts a keyboard extension in your tests, as a real host would, with you as the user and the clock.
///
/// ```swift
/// @Test @MainActor func typesHello() throws {
///     let host = try KeyboardTestHost(MyKeyboard.self, document: "Say: ", policy: .sentence)
///     try host.show()
///     try host.type("hello")
///     #expect(host.document == "Say: hello")
///     #expect(host.cursor == 10)
/// }
/// ```
///
/// The extension runs through the same C calls as after `dlopen` — hosted in process from its class,
/// or loaded from a built `.so` — against a real text field. Posted edits wait on a ``VirtualScheduler``:
/// ``advance(by:)`` moves virtual time, ``runUntilIdle()`` applies everything, and ``settle()`` also lets
/// the extension's own async work (such as a full-document walk) run until all is quiet. Every call
/// between host and extension is in ``log``.
///
/// Acting as the user: `KeyboardTestHost+User.swift`.
@MainActor
public final class KeyboardTestHost {
    /// The session underneath, for anything this API does not cover.
    public let session: KeyboardSession
    /// The host's loop, on virtual time.
    public let scheduler: VirtualScheduler
    /// Every event between host and extension since the host was made (or ``clearLog()``), in order.
    public private(set) var log: [SessionEvent] = []

    private let inProcess: Bool

    /// Hosts `controller` in process: no shared library needed.
    public convenience init(
        _ controller: KeyboardViewController.Type, id: String? = nil, name: String? = nil,
        document: String = "", cursor: Int? = nil, policy: ContextPolicy = .sentence,
        latency: Duration = .zero, traits: TextInputTraits = TextInputTraits(), licensing: Licensing = .notChecked,
        settings: HostSettings = .none
    ) throws {
        let typeName = String(describing: controller)
        let identifier = id ?? "test.inprocess." + typeName.filter { $0.isLetter || $0.isNumber }
        let descriptor = controller.export(id: identifier, name: name ?? typeName, version: "0.0.0")
        let loaded = try ExtensionLoader.validate(descriptor: descriptor, source: "in-process \(typeName)")
        self.init(loaded, inProcess: true, document: document, cursor: cursor, policy: policy, latency: latency, traits: traits,
                  licensing: licensing, settings: settings)
    }

    /// Hosts the extension built at `path` (`lib<Name>.so`), loaded with the real loader.
    public convenience init(
        extensionAt path: String, document: String = "", cursor: Int? = nil, policy: ContextPolicy = .sentence,
        latency: Duration = .zero, traits: TextInputTraits = TextInputTraits(), licensing: Licensing = .notChecked,
        settings: HostSettings = .none
    ) throws {
        self.init(try ExtensionLoader.load(path: path), inProcess: false, document: document, cursor: cursor,
                  policy: policy, latency: latency, traits: traits, licensing: licensing, settings: settings)
    }

    private init(
        _ loaded: LoadedExtension, inProcess: Bool, document: String, cursor: Int?, policy: ContextPolicy,
        latency: Duration, traits: TextInputTraits, licensing: Licensing, settings: HostSettings
    ) {
        let scheduler = VirtualScheduler()
        self.scheduler = scheduler
        self.inProcess = inProcess
        session = KeyboardSession(
            extension: loaded, textField: TextField(text: document, cursor: cursor, traits: traits),
            policy: policy, licensing: licensing, scheduler: scheduler
        )
        session.latency = latency
        session.settings = settings
        session.onEvent = { [weak self] in self?.log.append($0) }
    }

    // MARK: The field

    public var textField: TextField { session.textField }
    public var document: String { session.textField.text }
    /// The caret (the end of the selection), in Characters.
    public var cursor: Int { session.textField.cursor }
    public var selection: Range<Int> { session.textField.selection }
    public var markedRange: Range<Int>? { session.textField.markedRange }
    public var documentIdentifier: UUID { session.textField.documentIdentifier }
    /// Errors the extension reported.
    public var errors: [String] { session.reportedErrors }
    /// What the extension reported happening (`reportEvent`), oldest first.
    public var events: [KeyboardEvent] { session.reportedEvents }

    /// The live controller, for a keyboard hosted in process while it is shown; `nil` otherwise.
    public var controller: KeyboardViewController? {
        guard inProcess, let handle = session.instanceHandle else { return nil }
        return KeyboardViewController.controller(forInstance: handle)
    }

    // MARK: Settings

    public var policy: ContextPolicy {
        get { session.policy }
        set { session.policy = newValue }
    }

    public var latency: Duration {
        get { session.latency }
        set { session.latency = newValue }
    }

    // MARK: Appearance and keys

    /// Shows the keyboard. Its timers (the full-document walker's timeouts, the layout's reshuffle)
    /// run on this host's virtual clock, hosted in process or loaded from a `.so`: the SDK asks the
    /// host for them (schedule_timer).
    public func show() throws {
        try session.show()
    }
    public func hide() { session.hide() }

    /// Taps the key at a position.
    public func tap(at position: KeyPosition) throws {
        try session.tap(position)
    }

    /// Taps the key labelled `label` (or typing it) on the first sub-keyboard that has one.
    public func tap(_ label: String) throws {
        try tap(at: try position(named: "\"\(label)\"") { $0.label == label || $0.typedText == label })
    }

    /// Taps the first key with `code`.
    public func tap(_ code: KeyCode) throws {
        try tap(at: try position(named: "{\(code)}") { $0.code == code })
    }

    /// Types `keys` as a person would: the taps ``KeyPlanner`` plans for each character (shift for a
    /// capital, a mode key for a digit on another page; named keys in braces, as `kbhost run --type`),
    /// running the host until idle after each tap and planning again from what the keyboard shows.
    public func type(_ keys: String) throws {
        for (stroke, place) in try KeyStroke.parse(keys) {
            // As `KeyboardSession.type(_:)`, with the virtual scheduler run instead of waited for.
            var typed = false
            for _ in 0..<KeyPlanner.maximumTapsPerStroke where !typed {
                do {
                    typed = try session.tapToward(stroke)
                } catch {
                    guard case .tapFailed(let failure) = error else { break }
                    throw failure
                }
                runUntilIdle()
            }
            if !typed { throw KeyStrokeError.noKey(stroke, place: place, keyboard: session.loadedExtension.name) }
        }
    }

    private func position(named name: String, where matches: (Key) -> Bool) throws -> KeyPosition {
        let layout = session.configuration?.layout ?? KeyboardLayout(subKeyboards: [])
        for (sub, keyboard) in layout.subKeyboards.enumerated() {
            for (row, keys) in keyboard.rows.enumerated() {
                if let column = keys.firstIndex(where: matches) {
                    return KeyPosition(subKeyboard: sub, row: row, column: column)
                }
            }
        }
        throw KeyboardTestHostError.noSuchKey(name, keyboard: session.loadedExtension.name)
    }

    // MARK: Time

    /// Moves virtual time forward, applying posted edits that fall due.
    public func advance(by duration: Duration) {
        scheduler.advance(by: duration)
    }

    /// Applies every posted edit, and every edit those provoke, moving virtual time as needed.
    public func runUntilIdle() {
        scheduler.runUntilIdle()
    }

    /// Moves virtual time forward by `step`, `rounds` times, letting the extension's own async work
    /// (a full-document walk) run between steps: time passes while a walk is under way, so a test can
    /// act in the middle of it.
    public func pump(_ rounds: Int, step: Duration = .milliseconds(10)) async {
        for _ in 0..<rounds {
            advance(by: step)
            for _ in 0..<4 { await Task.yield() }
        }
    }

    /// Runs the host and lets the extension's async work on the main actor run, until neither has
    /// anything left to do. Use it when the extension awaits snapshots (a full-document walk).
    /// Work that sleeps on a real clock is not waited for.
    public func settle() async {
        // Quiet means: no work waiting, and nothing under way that the host can see — a host command
        // not answered, or (in process) a full-document walk. Yielding lets the keyboard's tasks run;
        // while something is under way with no work waiting (a walk about to take its next step), it
        // gets many more turns, but not for ever: a walk waiting only for its timeout needs time to
        // be advanced, which is the test's to do.
        var quietRounds = 0
        var waitingRounds = 0
        while quietRounds < 16 {
            if scheduler.runUntilIdle() > 0 { quietRounds = 0 }
            await Task.yield()
            let underWay = session.hasPendingCommands || controller?.isWalkingFullDocument == true
            if !scheduler.isIdle {
                quietRounds = 0
            } else if underWay && waitingRounds < 10_000 {
                waitingRounds += 1
                quietRounds = 0
            } else {
                quietRounds += 1
            }
        }
    }
    // MARK: The log

    public func clearLog() { log.removeAll() }

    /// The UITextInputDelegate notifications in the log, by name.
    public var notifications: [String] {
        log.compactMap { event in
            switch event {
            case .textWillChange, .textDidChange, .selectionWillChange, .selectionDidChange: event.description
            default: nil
            }
        }
    }
}

public enum KeyboardTestHostError: Error, Equatable, CustomStringConvertible {
    case noSuchKey(String, keyboard: String)

    public var description: String {
        switch self {
        case .noSuchKey(let key, let keyboard): "\(keyboard) has no key \(key)"
        }
    }
}

import Foundation
