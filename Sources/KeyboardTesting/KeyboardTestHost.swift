import Foundation
import KeyboardExtension
import KeyboardHost
import Testing

/// Hosts a keyboard extension in your tests, as a real host would, with you as the user and the clock.
///
/// ```swift
/// @Test @MainActor func typesHello() async throws {
///     let host = try KeyboardTestHost(MyKeyboard.self, document: "Say: ", policy: .sentence)
///     try host.show()
///     try await host.type("hello")
///     #expect(host.document == "Say: hello")
///     #expect(host.cursor == 10)
/// }
/// ```
///
/// The extension runs through the same C calls as after `dlopen` — hosted in process from its class,
/// or loaded from a built `.so` — against a real text field, on a `VirtualScheduler`: virtual time
/// that moves only when you move it, and a host that knows when it has nothing left to do.
///
/// - ``settle()`` runs until the host is quiet: every posted edit applied, and every task the keyboard
///   started run until it waits on the host (a snapshot, an acknowledgement, `HostClock`) or ends.
///   Only timers still to come are left. It is exact: no yields counted, no real time waited.
/// - ``advance(by:)`` moves the host's clock, firing the timers that fall due — the keyboard's sleeps on
///   its `clock`, its timeouts, its timers — and settling after each.
/// - ``type(_:)`` taps as a person would and settles after each tap; ``tap(_:)-(String)`` taps once and
///   leaves the rest to you.
/// - ``assertQuiet()`` says what is left undone; a host freed with work left undone records an issue,
///   as swift-nio's embedded event loop refuses to be freed with scheduled work.
///
/// Every call between host and extension is in ``log``. Acting as the user:
/// `KeyboardTestHost+User.swift`.
@MainActor
public final class KeyboardTestHost {
    /// The session underneath, for anything this API does not cover.
    public let session: KeyboardSession
    /// The host's loop, on virtual time.
    public let scheduler: VirtualScheduler
    /// Every event between host and extension since the host was made (or ``clearLog()``), in order.
    public private(set) var log: [SessionEvent] = []

    /// What the platform profile decided where the platform leaves it unsaid, and the extras it
    /// refused, in order (the log's `SessionEvent/platformNote(_:)`s).
    public var platformNotes: [String] {
        log.compactMap { if case .platformNote(let note) = $0 { note } else { nil } }
    }

    private let inProcess: Bool
    private let sourceLocation: SourceLocation

    /// Hosts `controller`, a class of your tests: no shared library needed. Where `isolation` says: in
    /// the test's process (the default: a debugger sees it, and ``controller`` is the live instance),
    /// or in a child process of its own — the test binary started again, which finds the class by its
    /// name, so the class must be declared at the top level of a file (not inside a function).
    public convenience init(
        _ controller: KeyboardViewController.Type, id: String? = nil, name: String? = nil,
        document: String = "", cursor: Int? = nil, policy: ContextPolicy? = nil,
        latency: Duration? = nil, traits: TextInputTraits = TextInputTraits(), licensing: Licensing = .notChecked,
        settings: HostSettings = .none, isolation: Isolation = .inProcess, platform: PlatformProfile = .exact,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let typeName = String(describing: controller)
        let identifier = id ?? "test.inprocess." + typeName.filter { $0.isLetter || $0.isNumber }
        let loaded = try ExtensionLoader.load(class: controller, identifier: identifier, name: name ?? typeName, isolation: isolation)
        self.init(loaded, inProcess: isolation == .inProcess, document: document, cursor: cursor, policy: policy, latency: latency,
                  traits: traits, licensing: licensing, settings: settings, platform: platform, sourceLocation: sourceLocation)
    }

    /// Hosts the extension built at `path` (`lib<Name>.so`), loaded with the real loader, where
    /// `isolation` says: in a child process of its own (the default: a crash, a hang or a flood is a
    /// failure of your test, with the extension's last lines of output, and the test runner goes on),
    /// or in the test's process (a debugger sees it; a crash ends the test run).
    public convenience init(
        extensionAt path: String, document: String = "", cursor: Int? = nil, policy: ContextPolicy? = nil,
        latency: Duration? = nil, traits: TextInputTraits = TextInputTraits(), licensing: Licensing = .notChecked,
        settings: HostSettings = .none, isolation: Isolation = .process, platform: PlatformProfile = .exact,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(try ExtensionLoader.load(path: path, isolation: isolation), inProcess: false, document: document, cursor: cursor,
                  policy: policy, latency: latency, traits: traits, licensing: licensing, settings: settings,
                  platform: platform, sourceLocation: sourceLocation)
    }

    private init(
        _ loaded: LoadedExtension, inProcess: Bool, document: String, cursor: Int?, policy: ContextPolicy?,
        latency: Duration?, traits: TextInputTraits, licensing: Licensing, settings: HostSettings,
        platform: PlatformProfile, sourceLocation: SourceLocation
    ) {
        let scheduler = VirtualScheduler()
        self.scheduler = scheduler
        self.inProcess = inProcess
        self.sourceLocation = sourceLocation
        session = KeyboardSession(
            extension: loaded, textField: TextField(text: document, cursor: cursor, traits: traits),
            policy: policy ?? platform.window, licensing: licensing, scheduler: scheduler
        )
        session.latency = latency ?? platform.latency
        session.settings = settings
        session.platform = platform
        session.onEvent = { [weak self] event in
            guard let self else { return }
            log.append(event)
            if case .fault(let fault) = event { record(fault) }
        }
    }

    /// A fault of the extension's process is a failure of the test that hosts it, with what the
    /// extension last wrote; the test goes on (the keyboard is gone: ``show()`` starts it again). One
    /// found outside the test's own calls (by the watchdog) is recorded at the test's next call.
    private func record(_ fault: ExtensionFault) {
        let output = fault.lastWords
        let comment = fault.description + (output.isEmpty ? "" : "\nits last output:\n" + output.joined(separator: "\n"))
        if Test.current != nil {
            Issue.record(Comment(rawValue: comment), sourceLocation: sourceLocation)
        } else {
            unrecordedFault = comment
        }
    }

    /// A fault found outside the test's calls, not yet recorded.
    private var unrecordedFault: String?

    /// Records a fault the watchdog found, now that the test is calling.
    private func recordLateFault() {
        guard let comment = unrecordedFault, Test.current != nil else { return }
        unrecordedFault = nil
        Issue.record(Comment(rawValue: comment), sourceLocation: sourceLocation)
    }

    /// How the extension's process failed, if it did.
    public var fault: ExtensionFault? { session.fault }

    /// A host freed with work left undone says what it was (``pendingWork``), as an issue of the test
    /// that made it. Not an isolated deinit: that would run without the test's task-local context,
    /// where no issue can be recorded; a test host is released on the main actor, where this checks.
    deinit {
        guard MainQueue.isCurrent else { return }
        MainActor.assumeIsolated { reportWorkLeftUndone() }
    }

    private func reportWorkLeftUndone() {
        recordLateFault()
        if let comment = unrecordedFault { FileHandle.standardError.write(Data("error: \(sourceLocation): \(comment)\n".utf8)) }
        let pending = pendingWork
        guard !pending.isEmpty else { return }
        let message = "KeyboardTestHost freed with work left undone (settle(), advance(by:) or hide() first): "
            + pending.joined(separator: "; ")
        // An issue of the test that made it, while that test runs; outside any test, a warning.
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            FileHandle.standardError.write(Data("warning: \(sourceLocation): \(message)\n".utf8))
        }
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
    public var errors: [String] { Array(session.reportedErrors) }
    /// What the extension reported happening (`reportEvent`), oldest first.
    public var events: [KeyboardEvent] { Array(session.reportedEvents) }

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

    /// Which platform the host behaves as (`PlatformProfile`).
    public var platform: PlatformProfile {
        get { session.platform }
        set { session.platform = newValue }
    }

    public var latency: Duration {
        get { session.latency }
        set { session.latency = newValue }
    }

    // MARK: Appearance and keys

    /// Shows the keyboard. What it starts as it appears runs at the next ``settle()``.
    public func show() throws {
        try session.show()
    }

    /// Hides the keyboard: its instance goes, with its timers; a walk under way ends (`keyboardHidden`)
    /// and commands it had not answered are answered `hidden`.
    public func hide() { session.hide() }

    /// Taps the key at a position. Nothing else runs until you ``settle()``.
    public func tap(at position: KeyPosition) throws {
        try session.tap(position)
    }

    /// Taps where a finger would land at (`x`, `y`) points on a keyboard `width` points wide: the key
    /// whose frame holds the point, as `svg()` draws it. Nothing else runs until you ``settle()``.
    public func tap(atX x: Double, y: Double, width: Double = KeyboardGeometry.defaultWidth) throws {
        try session.tap(atX: x, y: y, width: width)
    }

    /// Taps the key labelled `label` (or typing it) on the first sub-keyboard that has one.
    public func tap(_ label: String) throws {
        try tap(at: try position(named: "\"\(label)\"") { $0.label == label || $0.typedText == label })
    }

    /// Taps the first key with `code`.
    public func tap(_ code: KeyCode) throws {
        try tap(at: try position(named: "{\(code)}") { $0.code == code })
    }

    // MARK: Pictures

    /// The keyboard as it is shown now, as SVG (`kbhost render`'s picture): the sub-keyboard shown in
    /// its shift state and the configuration's appearance, or every page with `allPages`; `width` in
    /// points. For a failing test's attachment, or a snapshot test of a layout — each key is a
    /// `<g class="key">` with its place and frame, so a test can read the geometry back. Empty (a
    /// picture with no keys) while the keyboard is not shown.
    public func svg(width: Double = KeyboardGeometry.defaultWidth, allPages: Bool = false) -> String {
        let configuration = session.configuration
        let layout = configuration?.layout ?? KeyboardLayout(subKeyboards: [])
        let state = session.keyboardState
        return KeyboardSVG(
            width: width, shift: state.shift, appearance: configuration?.appearance ?? Appearance(theme: .light),
            title: session.loadedExtension.name
        ).svg(layout, pages: allPages ? nil : [state.subKeyboard])
    }

    /// Writes ``svg(width:allPages:)`` to a file (a test's attachment, say).
    public func writeSVG(to path: String, width: Double = KeyboardGeometry.defaultWidth, allPages: Bool = false) throws {
        try Data(svg(width: width, allPages: allPages).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// What the walks `body` makes did, snapshot by snapshot on the host's clock (`WalkTimeline`):
    /// to check a walk's round trips and windows, or to draw them (`WalkTimelineSVG`, as
    /// `kbhost run --timeline` does). Records from the call to `body`'s end.
    public func timeline(of body: () async throws -> Void) async rethrows -> WalkTimeline {
        session.timeline = WalkTimeline()
        defer { session.timeline = nil }
        try await body()
        return session.timeline ?? WalkTimeline()
    }

    // MARK: Gestures (ABI section 11)

    /// Makes `gesture` on the key at `position`, to the finger's lift: the host sends its events at
    /// their times, moving its clock by the gesture's length (`KeyGesture.duration`) as it settles
    /// (what falls due on the way — the keyboard's timers, edits under latency — runs in its turn).
    public func perform(_ gesture: KeyGesture, at position: KeyPosition) async throws {
        try session.perform(gesture, at: position)
        await settle()
    }

    /// Long-presses the key labelled `label` (or typing it) until its callouts show, and lifts on
    /// `callout` — one of the key's callouts; `nil` lifts on none. 0.6 s of the host's clock.
    public func longPress(_ label: String, choosing callout: String? = nil) async throws {
        try await perform(.longPress(callout: callout), at: try position(named: "\"\(label)\"") { $0.label == label || $0.typedText == label })
    }

    /// Holds the key labelled `label` (or typing it) still for `duration` of the host's clock: a key
    /// with callouts long-presses, another repeats (every 0.1 s after 0.5 s).
    public func hold(_ label: String, for duration: Duration) async throws {
        try await perform(.hold(duration), at: try position(named: "\"\(label)\"") { $0.label == label || $0.typedText == label })
    }

    /// Holds the first key with `code` still for `duration` of the host's clock (delete repeats).
    public func hold(_ code: KeyCode, for duration: Duration) async throws {
        try await perform(.hold(duration), at: try position(named: "{\(code)}") { $0.code == code })
    }

    /// Drags from the first key with `code` by `steps` sideways (negative: left), a step per frame
    /// (16 ms of the host's clock): the space bar moves the caret a Character per step.
    public func drag(_ code: KeyCode, by steps: Int) async throws {
        try await perform(.drag(steps: steps), at: try position(named: "{\(code)}") { $0.code == code })
    }

    /// Drags from the key labelled `label` (or typing it) by `steps` sideways.
    public func drag(_ label: String, by steps: Int) async throws {
        try await perform(.drag(steps: steps), at: try position(named: "\"\(label)\"") { $0.label == label || $0.typedText == label })
    }

    /// Types `keys` as a person would: the taps `KeyPlanner` plans for each character (shift for a
    /// capital, a mode key for a digit on another page; named keys and gestures in braces, as `kbhost
    /// run --type`), settling after each tap — the keyboard's edits applied and its tasks run — and
    /// planning again from what the keyboard shows. Virtual time does not move, but for gestures
    /// (`{hold:delete:2s}`), which move it by their length.
    public func type(_ keys: String) async throws {
        for (stroke, place) in try KeyStroke.parse(keys) {
            do {
                try await session.type(stroke)
            } catch .noKey {
                throw KeyStrokeError.noKey(stroke, place: place, keyboard: session.loadedExtension.name)
            } catch .tapFailed(let failure) {
                throw failure
            }
        }
    }

    private func position(named name: String, where matches: (Key) -> Bool) throws -> KeyPosition {
        let layout = session.configuration?.layout ?? KeyboardLayout(subKeyboards: [])
        for page in layout.subKeyboards.indices {
            if let position = layout.firstPosition(onPage: page, where: matches) { return position }
        }
        throw KeyboardTestHostError.noSuchKey(name, keyboard: session.loadedExtension.name)
    }

    // MARK: Time

    /// The host's clock: virtual time since the host was made.
    public var now: Duration { scheduler.now }

    /// Runs until the host is quiet: every posted edit applied (time moves to an edit under latency),
    /// every task the keyboard started run until it waits on the host or ends. Timers still to come —
    /// a sleep on the keyboard's clock, a timeout — are left for ``advance(by:)``.
    public func settle() async {
        await scheduler.settle()
        recordLateFault()
    }

    /// Moves the host's clock forward by `duration`: everything that falls due runs in order — posted
    /// edits, the keyboard's timers and sleeps, the host's timeouts — with the keyboard's tasks settled
    /// after each; then the host is settled at the new time.
    public func advance(by duration: Duration) async {
        await scheduler.advance(by: duration)
        recordLateFault()
    }

    // MARK: Work on the keyboard's side

    /// Starts `body` as the keyboard would start a task of its own (from one of its callbacks): the
    /// host counts it as the keyboard's work, so ``settle()`` runs it until it waits on the host or
    /// ends. Use it to drive the keyboard's async API from a test (a full-document read, say).
    ///
    /// The task you get back is the test's: it hands over the result as the host's own work, so that
    /// awaiting it does not make the test's task count as the keyboard's.
    @discardableResult
    public func startTask<T: Sendable>(_ body: @escaping @MainActor () async -> T) -> Task<T, Never> {
        guard let work = session.extensionWork else { return Task { @MainActor in await body() } }
        let handover = Handover<T>()
        let inner = work.run {
            Task { @MainActor in
                let result = await body()
                ExtensionWork.unattributed { handover.deliver(result) }
            }
        }
        // Cancelling the test's task cancels the keyboard's.
        return Task { @MainActor in
            await withTaskCancellationHandler { await handover.result() } onCancel: { inner.cancel() }
        }
    }

    /// Runs `body` as the keyboard's task (``startTask(_:)``) to its end: settles, then moves the host's
    /// clock on from timer to timer while it has not ended — for a routine that sleeps on the keyboard's
    /// clock between steps (a fixed-sleep walker). Returns `nil` if it had not ended when no timer was
    /// left to move to (it waits on something that will not come).
    public func runToCompletion<T: Sendable>(_ body: @escaping @MainActor () async -> T) async -> T? {
        let ended = Ended()
        let task = startTask {
            let result = await body()
            ended.value = true
            return result
        }
        await settle()
        while !ended.value {
            guard await scheduler.advanceToNextTimer() else {
                task.cancel()
                return nil
            }
        }
        return await task.value
    }

    /// Sends a host command (what the REPL's C-x r does): when this returns, the keyboard has it. Its
    /// answer: ``result(of:)``, once the host has settled or moved time far enough.
    @discardableResult
    public func send(_ command: HostCommand) -> SentCommand {
        session.send(command)
    }

    /// The answer to a command sent with ``send(_:)``.
    public func result(of sent: SentCommand) async -> CommandResult {
        await session.result(of: sent)
    }

    /// Sends a host command and settles: the answer, or, if the keyboard is still at it when nothing
    /// but timers is left, the host moves time on to its next timer until it answers (a timeout does).
    public func perform(_ command: HostCommand) async -> CommandResult {
        await session.perform(command)
    }

    // MARK: What is left

    /// What is left undone, in words: edits posted and not applied, commands not answered, keyboard
    /// work under way, a full-document walk under way (in process), and one-shot timers still to come
    /// (a keyboard's repeating timers are its background, and not counted). Empty when quiet.
    public var pendingWork: [String] {
        var pending: [String] = []
        if session.hasPendingOperations { pending.append("edits posted and not applied") }
        pending += session.pendingCommands.map { "command \($0) not answered" }
        let inFlight = scheduler.extensionWorkInFlight
        if inFlight > 0 { pending.append("\(inFlight) keyboard job\(inFlight == 1 ? "" : "s") under way") }
        if controller?.isWalkingFullDocument == true { pending.append("a full-document walk under way") }
        pending += scheduler.pendingTimers.filter { !$0.repeats }.map { "timer \($0)" }
        return pending
    }

    /// Throws ``KeyboardTestHostError/notQuiet(_:)`` if anything is left undone (``pendingWork``).
    public func assertQuiet() throws {
        recordLateFault()
        let pending = pendingWork
        if !pending.isEmpty { throw KeyboardTestHostError.notQuiet(pending) }
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
    /// Work left undone, in words.
    case notQuiet([String])

    public var description: String {
        switch self {
        case .noSuchKey(let key, let keyboard): "\(keyboard) has no key \(key)"
        case .notQuiet(let pending): "the host is not quiet: " + pending.joined(separator: "; ")
        }
    }
}

/// Whether a task of ``KeyboardTestHost/runToCompletion(_:)``'s has ended; set and read on the main actor.
@MainActor
private final class Ended {
    var value = false
}

/// A result passed from one task to another through a continuation, so that the one who delivers it
/// decides (with ``ExtensionWork/unattributed(_:)``) whose work waking the other is.
@MainActor
private final class Handover<T: Sendable> {
    private var value: T?
    private var waiter: CheckedContinuation<T, Never>?

    func deliver(_ result: T) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: result)
        } else {
            value = result
        }
    }

    func result() async -> T {
        if let value { return value }
        return await withCheckedContinuation { waiter = $0 }
    }
}
