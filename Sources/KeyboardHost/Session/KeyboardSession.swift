import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// One extension hosted on one text field: the host side of the state model (docs/Architecture.md).
///
/// - ``show()`` makes a fresh extension instance (never reused, as on iOS), asks for its
///   configuration, pushes the first snapshot and runs the appearance lifecycle.
/// - ``tap(_:)`` sends a key event; the extension answers by posting edits.
/// - Posted edits wait in a queue and are applied in order on a later turn of the scheduler's loop,
///   after ``latency`` (to emulate iOS's IPC); the edits of a turn are answered by one new snapshot
///   between the notifications ``FieldChange`` lists. Until then the extension's proxy shows the old
///   state.
/// - The user acts on the field directly (`KeyboardSession+User.swift`); the extension is told at once.
/// - ``hide()`` runs the disappearance lifecycle and destroys the instance.
///
/// Time is the ``scheduler``'s: posted edits, the extension's timers and the host's command timeouts
/// all wait on it, on real time (``MainQueueScheduler``) or virtual time (``VirtualScheduler``).
///
/// The extension is reached through an ``ExtensionConnection``; its calls come back as the methods
/// under "From the extension". Posted edits: `KeyboardSession+Operations.swift`; the snapshot:
/// `KeyboardSession+Snapshot.swift`; host commands: `KeyboardSession+Commands.swift`.
@MainActor
public final class KeyboardSession: ExtensionConnectionDelegate {
    public let loadedExtension: LoadedExtension
    /// The field the extension edits.
    public internal(set) var textField: TextField
    /// How the proxy's context windows are cut. Takes effect with the next snapshot.
    public var policy: ContextPolicy
    /// Which platform the session behaves as (``PlatformProfile``): how posted edits count and apply.
    public var platform: PlatformProfile = .exact
    /// How long posted edits wait before the host applies them. Zero: the next turn of the loop.
    public var latency: Duration = .zero
    /// The configuration the current instance returned; `nil` while hidden.
    public private(set) var configuration: KeyboardConfiguration?
    /// The latest errors the extension reported (`report_error`), oldest first; bounded.
    public private(set) var reportedErrors = RecentLog<String>()
    /// The latest events the extension reported (`report_event`), oldest first; bounded.
    public private(set) var reportedEvents = RecentLog<KeyboardEvent>()
    /// Called with every event between host and extension, in order (see ``SessionEvent``): what the
    /// host sent and applied, what the extension reported (`.error`, `.extensionEvent`), asked for
    /// (`.request`), and how it failed (`.fault`). The one stream a host listens to.
    public var onEvent: ((SessionEvent) -> Void)?
    /// Called after every change of the field, by the extension or the user (the REPL redraws).
    public var onFieldChange: (() -> Void)?
    /// A single-line field, as `UITextField`: a line break the keyboard inserts (its return key)
    /// submits the field instead of entering the text. Text after the line break is dropped.
    public var submitsOnLineBreak = false
    /// Called with the text of each submission, after the field has started its new document.
    public var onSubmit: ((String) -> Void)?
    /// The sub-keyboard the extension shows and its shift state.
    public private(set) var keyboardState = KeyboardState()
    /// What the user chose for this extension (license, layout, typing, appearance, options), handed to
    /// each new instance before it is asked for its configuration. Takes effect at the next ``show()``.
    public var settings: HostSettings = .none
    /// Whether the extension's license is checked before it is shown.
    public let licensing: Licensing
    /// The host's loop and clock.
    public let scheduler: any HostScheduler

    /// The line to the extension: the ``transport``, or a ``TracingConnection`` around it.
    let connection: any ExtensionConnection
    /// In process or a child process: what the instance handle, the limits and the child's id come from.
    private let transport: any ExtensionConnection
    public private(set) var isShown = false
    /// The host's keyboards, in the order its globe key goes through them: handed to each instance
    /// (the settings' `environment.inputModes`; ``instanceSettings``). This one alone by default; the
    /// REPL lists every keyboard it was given.
    public var inputModes: [InputMode]

    /// Counts the appearances (instances) so far: work scheduled for one (a gesture's later events)
    /// is dropped once another has begun.
    var appearance = 0
    /// How the extension failed, if it did (isolation): it is then not shown; ``show()`` starts it anew.
    public private(set) var fault: ExtensionFault?
    /// Edits the extension posted and the host has not applied yet.
    var posted = PostedEdits()
    var snapshotSequence: UInt64 = 0
    /// The snapshot pushed last: a platform that does not refresh the windows keeps its (pushSnapshot).
    var lastSnapshot: Snapshot?
    /// Host commands under way, and their answers.
    let commands: HostCommandQueue
    /// What the walks did, recorded while this is not `nil`: set it to an empty ``WalkTimeline`` to
    /// start, read it after the commands, set it to `nil` to stop.
    public var timeline: WalkTimeline?

    /// A session of `loadedExtension` on `textField`. With a `trace`, every call between host and
    /// extension is written to it (``CallTrace``).
    public init(
        extension loadedExtension: LoadedExtension, textField: TextField = TextField(),
        policy: ContextPolicy = .sentence, licensing: Licensing = .notChecked,
        scheduler: any HostScheduler = MainQueueScheduler(), trace: CallTrace? = nil
    ) {
        self.loadedExtension = loadedExtension
        inputModes = [InputMode(identifier: loadedExtension.identifier, name: loadedExtension.name)]
        self.textField = textField
        self.policy = policy
        self.licensing = licensing
        self.scheduler = scheduler
        let transport: any ExtensionConnection = loadedExtension.isInProcess
            ? InProcessConnection(loadedExtension, scheduler: scheduler)
            : ProcessConnection(loadedExtension, scheduler: scheduler)
        self.transport = transport
        if let trace {
            connection = TracingConnection(transport, trace: trace, extension: loadedExtension.identifier, clock: scheduler)
        } else {
            connection = transport
        }
        commands = HostCommandQueue(scheduler: scheduler)
        connection.delegate = self
        commands.onFinished = { [weak self] result in
            guard let self else { return }
            timeline?.answered(result.command, at: scheduler.now, succeeded: result.succeeded, roundTrips: result.roundTrips)
            onEvent?(.commandFinished(result.command, succeeded: result.succeeded))
        }
        commands.cancel = { [weak self] request in self?.connection.cancelCommand(request: request) }
    }

    isolated deinit {
        hide()
    }

    var name: String { loadedExtension.name }

    /// The extension's handle for its current instance: for the testing module, which can turn it back
    /// into the controller when the extension runs on its own copy of the SDK.
    package var instanceHandle: OpaquePointer? { (transport as? InProcessConnection)?.instanceHandle }

    /// What an extension in a child process may do before the host stops it (a callback unanswered,
    /// a flood, memory); no effect in process. Applies from the next message on.
    public var isolationLimits: IsolationLimits {
        get { (transport as? ProcessConnection)?.limits ?? .standard }
        set { (transport as? ProcessConnection)?.limits = newValue }
    }

    /// The process id of the child that runs the extension (isolation), while one runs.
    public var childProcessID: Int32? { (transport as? ProcessConnection)?.childPID }

    /// The extension's work under way in this process, as a host on virtual time counts it.
    public var extensionWork: ExtensionWork? { connection.work }

    // MARK: Appearance

    /// What an instance is handed: the user's ``settings``, with the environment completed by what
    /// the host knows — its keyboards, and whether one needs a key to switch to the others (unless the
    /// user said).
    public var instanceSettings: HostSettings {
        var settings = settings
        var environment = settings.environment ?? KeyboardEnvironment()
        environment.inputModes = inputModes
        environment.needsInputModeSwitchKey = environment.needsInputModeSwitchKey ?? (inputModes.count > 1)
        settings.environment = environment
        return settings
    }

    /// Shows the keyboard: a new instance, its configuration, `viewDidLoad`, the first snapshot,
    /// `viewWillAppear`, `viewDidAppear`. Does nothing if it is shown already.
    public func show() throws(SessionError) {
        guard !isShown else { return }
        let errorsBefore = reportedErrors.total
        var latestError: String? { reportedErrors.total > errorsBefore ? reportedErrors.last : nil }

        let settingsJSON = (try? JSONEncoder().encode(instanceSettings)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        fault = nil
        guard connection.createInstance(settingsJSON: settingsJSON) else {
            if let fault { throw .failed(fault) }
            throw .instanceNotCreated(extension: name, message: latestError)
        }
        posted.applied = 0
        appearance += 1
        keyboardState = KeyboardState()

        do {
            configuration = try configure(latestError: { latestError })
        } catch {
            endInstance()
            throw error
        }
        if let fault { throw .failed(fault) }
        isShown = true
        lifecycle(KBX_VIEW_DID_LOAD, .viewDidLoad)
        pushSnapshot()
        lifecycle(KBX_VIEW_WILL_APPEAR, .viewWillAppear)
        lifecycle(KBX_VIEW_DID_APPEAR, .viewDidAppear)
        // Shown means shown as it would be in process: what the keyboard did as it appeared (its shift,
        // its timers) has reached the host.
        connection.barrier()
        if let fault { throw .failed(fault) }
    }

    /// Hides the keyboard: `viewWillDisappear`, `viewDidDisappear`; edits it posted and the host has
    /// not applied yet are applied now (they reached the host before it went); then the instance is
    /// destroyed, its timers with it, and commands it had not answered are answered `hidden` — a
    /// delete with what its edits removed, all of them counted.
    public func hide() {
        guard isShown else { return }
        lifecycle(KBX_VIEW_WILL_DISAPPEAR, .viewWillDisappear)
        lifecycle(KBX_VIEW_DID_DISAPPEAR, .viewDidDisappear)
        isShown = false
        configuration = nil
        if posted.isScheduled { drain() }
        endInstance()
    }

    /// Destroys the instance and its timers (from then on its calls are dropped), and answers its
    /// commands.
    private func endInstance() {
        connection.destroyInstance()
        commands.finishAll(error: .hidden)
    }

    private func configure(latestError: () -> String?) throws(SessionError) -> KeyboardConfiguration {
        let (status, json) = connection.createConfiguration()
        if let fault { throw .failed(fault) }
        switch Int(status) {
        case KBX_STATUS_OK: break
        case KBX_STATUS_NOT_CONFIGURED: throw .configurationNotOverridden(extension: name, message: latestError())
        default: throw .configurationFailed(extension: name, message: latestError())
        }
        let configuration: KeyboardConfiguration
        do {
            configuration = try JSONInput.decode(KeyboardConfiguration.self, from: Data(json), unknownKeys: .ignored)
        } catch {
            throw .invalidConfiguration(extension: name, problem: DecodingProblem(error).description)
        }
        if let problem = configuration.layout.problem(for: configuration.inputType) {
            throw .invalidConfiguration(extension: name, problem: problem)
        }
        if case .required(let verifier) = licensing {
            do {
                _ = try verifier.verify(configuration.license, for: loadedExtension.identifier)
            } catch {
                throw .unlicensed(extension: name, problem: error)
            }
        }
        return configuration
    }

    // MARK: Keys

    /// Taps the key at `position` of the current layout.
    public func tap(_ position: KeyPosition) throws(SessionError) {
        guard isShown else { throw .notShown(extension: name) }
        onEvent?(.keyTapped(position))
        try send(.tap(position))
    }

    /// Sends one key event (a tap, or one event of a gesture) and says how it went.
    func send(_ event: KeyEvent) throws(SessionError) {
        let errorsBefore = reportedErrors.total
        let status = connection.keyEvent(event)
        if let fault { throw .failed(fault) }
        switch Int(status) {
        case KBX_STATUS_OK: return
        case KBX_STATUS_NO_SUCH_KEY: throw .noSuchKey(extension: name, position: event.position)
        default:
            let message = reportedErrors.total > errorsBefore ? reportedErrors.last : nil
            throw .keyFailed(extension: name, position: event.position, message: message)
        }
    }

    // MARK: From the extension

    /// A call the extension made, in order (``ExtensionConnectionDelegate``).
    func extensionCalled(_ call: ExtensionCall) {
        switch call {
        case .post(let operation): post(operation)
        case .request(let request): self.request(request)
        case .reportError(let message): extensionReported(message)
        case .commandFinished(let request, let succeeded, let json): commands.extensionFinished(request, succeeded: succeeded, json: json)
        case .setKeyboardState(let state): keyboardStateChanged(state)
        case .setLayout(let json): layoutChanged(json: json)
        case .reportEvent(let json): eventReported(json: json)
        }
    }

    /// The extension's process failed (isolation): its instance is gone. The field stays exactly as it
    /// was — edits it posted and the host had not applied are dropped with it — its commands are
    /// answered `extensionFailed`, and the fault is the session's last event.
    func extensionFailed(_ fault: ExtensionFault) {
        self.fault = fault
        posted.discard()
        if isShown {
            isShown = false
            configuration = nil
        }
        commands.finishAll(error: .extensionFailed)
        onEvent?(.fault(fault))
    }

    func request(_ request: HostRequest) {
        onEvent?(.request(request))
    }

    func keyboardStateChanged(_ state: KeyboardState) {
        let count = configuration?.layout.subKeyboards.count ?? 0
        guard state.subKeyboard < count else {
            extensionReported("asked to show sub-keyboard \(state.subKeyboard), but its layout has \(count)")
            return
        }
        keyboardState = state
        onEvent?(.keyboardState(state))
    }

    /// The extension replaced its layout (reshuffled it): checked like the configuration's, or refused.
    func layoutChanged(json: String) {
        guard var configuration else { return }
        let layout: KeyboardLayout
        do {
            layout = try KeyboardLayout(json: Data(json.utf8), source: "set_layout", unknownKeys: .ignored)
        } catch {
            extensionReported("sent an invalid layout: \(error)")
            return
        }
        if let problem = layout.problem(for: configuration.inputType) {
            extensionReported("sent an invalid layout: \(problem)")
            return
        }
        configuration.layout = layout
        self.configuration = configuration
        if keyboardState.subKeyboard >= layout.subKeyboards.count { keyboardState = KeyboardState() }
        onEvent?(.layoutChanged)
    }

    func eventReported(json: String) {
        let event: KeyboardEvent
        do {
            event = try JSONInput.decode(KeyboardEvent.self, from: Data(json.utf8), unknownKeys: .ignored)
        } catch {
            extensionReported("sent an invalid event: \(DecodingProblem(error))")
            return
        }
        reportedEvents.append(event)
        onEvent?(.extensionEvent(event))
    }

    func extensionReported(_ message: String) {
        reportedErrors.append(message)
        onEvent?(.error(message))
    }

    // MARK: To the extension

    func lifecycle(_ event: Int, _ logged: SessionEvent) {
        onEvent?(logged)
        connection.lifecycle(kbx_lifecycle_event(event))
    }

    /// Changes the field with `body`, then tells the extension: the notifications for the kind of
    /// change around a new snapshot (``FieldChange``). If nothing changed, nothing is sent — unless
    /// `acknowledge`, when the snapshot still goes (the answer to posted operations; section 5 of
    /// the ABI header), without notifications. `changed` runs once the field is no longer borrowed,
    /// before the extension is told: no callback of the host's user runs while `body` holds the field.
    ///
    /// `ownEditsDeleted` is set for the extension's own edits (whether they deleted text): then the
    /// platform decides which notifications it gets (``PlatformProfile/notifiesOwnEdits``).
    func changeField(
        acknowledge: Bool = false, ownEditsDeleted: (() -> Bool)? = nil, keepingWindows: Bool = false,
        _ body: (inout TextField) -> Void, changed: () -> Void = {}
    ) {
        let old = FieldChange.State(textField)
        body(&textField)
        let change = FieldChange(from: old, to: FieldChange.State(textField))
        changed()
        if change != .none { onFieldChange?() }
        guard isShown, change != .none || acknowledge else { return }
        let notified = ownEditsDeleted.map { platform.notified(change, ownEditsDeleted: $0(), field: textField) } ?? change
        connection.together {
            notified.before.forEach(notify)
            pushSnapshot(keepingWindows: keepingWindows)
            notified.after.forEach(notify)
        }
    }

    private func notify(_ event: Int) {
        switch event {
        case KBX_TEXT_WILL_CHANGE: onEvent?(.textWillChange)
        case KBX_TEXT_DID_CHANGE: onEvent?(.textDidChange)
        case KBX_SELECTION_WILL_CHANGE: onEvent?(.selectionWillChange)
        default: onEvent?(.selectionDidChange)
        }
        connection.textInput(kbx_text_event(event))
    }
}
