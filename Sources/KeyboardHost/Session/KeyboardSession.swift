import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// One extension hosted on one text field: the host side of the state model in DESIGN.md.
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
/// Also: the license check before showing (``licensing``), host commands such as reading the whole
/// document (`KeyboardSession+Commands.swift`), the keyboard's sub-keyboard and shift state
/// (``keyboardState``), and single-line fields whose return key submits (``submitsOnLineBreak``).
///
/// Posted edits: `KeyboardSession+Operations.swift`; the snapshot: `KeyboardSession+Snapshot.swift`.
@MainActor
public final class KeyboardSession {
    public let loadedExtension: LoadedExtension
    /// The field the extension edits.
    public internal(set) var textField: TextField
    /// How the proxy's context windows are cut. Takes effect with the next snapshot.
    public var policy: ContextPolicy
    /// How long posted edits wait before the host applies them. Zero: the next turn of the loop.
    public var latency: Duration = .zero
    /// The configuration the current instance returned; `nil` while hidden.
    public private(set) var configuration: KeyboardConfiguration?
    /// Errors the extension reported (`report_error`), oldest first.
    public private(set) var reportedErrors: [String] = []
    /// Events the extension reported (`report_event`), oldest first.
    public private(set) var reportedEvents: [KeyboardEvent] = []
    /// Called with each event the extension reports, as it arrives.
    public var onExtensionEvent: ((KeyboardEvent) -> Void)?
    /// Called with each error the extension reports, as it arrives.
    public var onError: ((String) -> Void)?
    /// Called with each request the extension makes (globe key, dismiss).
    public var onRequest: ((HostRequest) -> Void)?
    /// Called with every event between host and extension, in order (see ``SessionEvent``).
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

    let scheduler: any HostScheduler
    var instance: Instance?
    var pending: [TextOperation] = []
    var drainScheduled = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var snapshotSequence: UInt64 = 0
    /// Counts what the extension does (posts and events), for ``waitUntilQuiet(for:)``.
    var activity: UInt64 = 0
    /// Operations of the current instance applied so far (reported in every snapshot).
    var operationsApplied: UInt64 = 0
    /// Host commands sent and not answered yet, by request id.
    var pendingCommands: [UInt64: CheckedContinuation<CommandResult, Never>] = [:]
    var commandNames: [UInt64: HostCommand] = [:]
    var nextCommandRequest: UInt64 = 1
    /// The current instance's pending timers (schedule_timer), by its numbers: cancelled when it goes.
    var extensionTimers: [UInt64: @MainActor () -> Void] = [:]

    /// A live extension instance and the host API it was given (valid until it is destroyed).
    struct Instance {
        let handle: OpaquePointer
        let key: UInt
        let api: UnsafeMutablePointer<kbx_host_api>
    }

    /// Whether the extension's license is checked before it is shown.
    public let licensing: Licensing

    public init(
        extension loadedExtension: LoadedExtension, textField: TextField = TextField(),
        policy: ContextPolicy = .sentence, licensing: Licensing = .notChecked,
        scheduler: any HostScheduler = MainQueueScheduler()
    ) {
        self.loadedExtension = loadedExtension
        self.textField = textField
        self.policy = policy
        self.licensing = licensing
        self.scheduler = scheduler
    }

    isolated deinit {
        hide()
    }

    var descriptor: kbx_extension_descriptor { loadedExtension.descriptor.pointee }
    var name: String { loadedExtension.name }

    public var isShown: Bool { instance != nil }

    /// The extension's handle for its current instance: for the testing module, which can turn it back
    /// into the controller when the extension runs on its own copy of the SDK.
    package var instanceHandle: OpaquePointer? { instance?.handle }

    // MARK: Appearance

    /// Shows the keyboard: a new instance, its configuration, `viewDidLoad`, the first snapshot,
    /// `viewWillAppear`, `viewDidAppear`. Does nothing if it is shown already.
    public func show() throws(SessionError) {
        guard instance == nil else { return }
        let (key, api) = HostAPITable.register(self)
        let errorsBefore = reportedErrors.count
        var latestError: String? { reportedErrors.count > errorsBefore ? reportedErrors.last : nil }

        let settingsJSON = (try? JSONEncoder().encode(settings)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let created = withBorrowedString(settingsJSON) { settings in
            descriptor.create_instance(loadedExtension.descriptor, api, settings.bytes, settings.length)
        }
        guard let handle = created else {
            HostAPITable.unregister(key)
            api.deallocate()
            throw .instanceNotCreated(extension: name, message: latestError)
        }
        let candidate = Instance(handle: handle, key: key, api: api)
        operationsApplied = 0
        keyboardState = KeyboardState()

        do {
            configuration = try configure(handle, latestError: { latestError })
        } catch {
            destroy(candidate)
            throw error
        }
        instance = candidate
        lifecycle(KBX_VIEW_DID_LOAD, .viewDidLoad)
        pushSnapshot()
        lifecycle(KBX_VIEW_WILL_APPEAR, .viewWillAppear)
        lifecycle(KBX_VIEW_DID_APPEAR, .viewDidAppear)
    }

    /// Hides the keyboard: `viewWillDisappear`, `viewDidDisappear`, then the instance is destroyed.
    /// Edits it posted and the host has not applied yet still apply to the field.
    public func hide() {
        guard let current = instance else { return }
        lifecycle(KBX_VIEW_WILL_DISAPPEAR, .viewWillDisappear)
        lifecycle(KBX_VIEW_DID_DISAPPEAR, .viewDidDisappear)
        instance = nil
        configuration = nil
        destroy(current)
        finishPendingCommands(error: "hidden")
    }

    private func destroy(_ instance: Instance) {
        for cancel in extensionTimers.values { cancel() }
        extensionTimers.removeAll()
        descriptor.destroy_instance(instance.handle)
        HostAPITable.unregister(instance.key)
        instance.api.deallocate()
    }

    private func configure(_ handle: OpaquePointer, latestError: () -> String?) throws(SessionError) -> KeyboardConfiguration {
        var json: [UInt8] = []
        let status = withUnsafeMutablePointer(to: &json) { json in
            descriptor.create_configuration(handle, { context, bytes, length in
                // The last document wins if an extension calls the sink more than once.
                guard let context else { return }
                let json = context.assumingMemoryBound(to: [UInt8].self)
                json.pointee = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            }, json)
        }
        switch Int(status) {
        case KBX_STATUS_OK: break
        case KBX_STATUS_NOT_CONFIGURED: throw .configurationNotOverridden(extension: name, message: latestError())
        default: throw .configurationFailed(extension: name, message: latestError())
        }
        let configuration: KeyboardConfiguration
        do {
            configuration = try JSONDecoder().decode(KeyboardConfiguration.self, from: Data(json))
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
        guard let instance else { throw .notShown(extension: name) }
        onEvent?(.keyTapped(position))
        let errorsBefore = reportedErrors.count
        var event = kbx_key_event(
            abi_version: KBX_ABI_VERSION, struct_size: UInt32(MemoryLayout<kbx_key_event>.size),
            action: kbx_key_action(KBX_KEY_TAP), sub_keyboard: UInt32(clamping: position.subKeyboard),
            row: UInt32(clamping: position.row), column: UInt32(clamping: position.column)
        )
        let status = descriptor.key_event(instance.handle, &event)
        switch Int(status) {
        case KBX_STATUS_OK: return
        case KBX_STATUS_NO_SUCH_KEY: throw .noSuchKey(extension: name, position: position)
        default:
            let message = reportedErrors.count > errorsBefore ? reportedErrors.last : nil
            throw .keyFailed(extension: name, position: position, message: message)
        }
    }

    // MARK: From the extension, besides edits

    func request(_ request: HostRequest) {
        onEvent?(.request(request))
        onRequest?(request)
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
            layout = try KeyboardLayout(json: Data(json.utf8), source: "set_layout")
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

    /// An extension's timer, on the host's scheduler (virtual time in tests).
    func scheduleExtensionTimer(_ timer: UInt64, after delay: Duration, fire: @convention(c) (UInt64) -> Void) {
        extensionTimers[timer]?()
        extensionTimers[timer] = scheduler.scheduleTimer(after: delay) { [weak self] in
            guard let self, extensionTimers.removeValue(forKey: timer) != nil else { return }
            fire(timer)
        }
    }

    func cancelExtensionTimer(_ timer: UInt64) {
        extensionTimers.removeValue(forKey: timer)?()
    }

    func eventReported(json: String) {
        let event: KeyboardEvent
        do {
            event = try JSONDecoder().decode(KeyboardEvent.self, from: Data(json.utf8))
        } catch {
            extensionReported("sent an invalid event: \(DecodingProblem(error))")
            return
        }
        activity &+= 1
        reportedEvents.append(event)
        onEvent?(.extensionEvent(event))
        onExtensionEvent?(event)
    }

    func extensionReported(_ message: String) {
        reportedErrors.append(message)
        onEvent?(.error(message))
        onError?(message)
    }

    // MARK: To the extension

    func lifecycle(_ event: Int, _ logged: SessionEvent) {
        guard let instance else { return }
        onEvent?(logged)
        descriptor.lifecycle(instance.handle, kbx_lifecycle_event(event))
    }

    /// Changes the field with `body`, then tells the extension: the notifications for the kind of
    /// change around a new snapshot (``FieldChange``). If nothing changed, nothing is sent — unless
    /// `acknowledge`, when the snapshot still goes (the answer to posted operations; section 5 of
    /// the ABI header), without notifications.
    func changeField(acknowledge: Bool = false, _ body: (inout TextField) -> Void) {
        let old = FieldChange.State(textField)
        body(&textField)
        let change = FieldChange(from: old, to: FieldChange.State(textField))
        if change != .none { onFieldChange?() }
        guard instance != nil, change != .none || acknowledge else { return }
        change.before.forEach(notify)
        pushSnapshot()
        change.after.forEach(notify)
    }

    private func notify(_ event: Int) {
        guard let instance else { return }
        switch event {
        case KBX_TEXT_WILL_CHANGE: onEvent?(.textWillChange)
        case KBX_TEXT_DID_CHANGE: onEvent?(.textDidChange)
        case KBX_SELECTION_WILL_CHANGE: onEvent?(.selectionWillChange)
        default: onEvent?(.selectionDidChange)
        }
        descriptor.text_input(instance.handle, kbx_text_event(event))
    }
}
