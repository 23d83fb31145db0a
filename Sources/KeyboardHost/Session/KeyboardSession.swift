import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// One extension hosted on one text field: the host side of the state model in DESIGN.md.
///
/// - ``show()`` makes a fresh extension instance (never reused, as on iOS), asks for its
///   configuration, pushes the first snapshot and runs the appearance lifecycle.
/// - ``tap(_:)`` sends a key event; the extension answers by posting edits.
/// - Posted edits wait in a queue and are applied in order on a later turn of the scheduler's loop
///   (after ``latency``, to emulate the IPC of iOS); each is followed by the new snapshot, between
///   the will/did notifications.
/// - ``hide()`` runs the disappearance lifecycle and destroys the instance.
@MainActor
public final class KeyboardSession {
    public let loadedExtension: LoadedExtension
    /// The field the extension edits. The host may change it too (the user acting in the field).
    public private(set) var textField: TextField
    /// How long posted edits wait before the host applies them. Zero: the next turn of the loop.
    public var latency: Duration = .zero
    /// The configuration the current instance returned; `nil` while hidden.
    public private(set) var configuration: KeyboardConfiguration?
    /// Errors the extension reported (`report_error`), oldest first.
    public private(set) var reportedErrors: [String] = []
    /// Called with each error the extension reports, as it arrives.
    public var onError: ((String) -> Void)?
    /// Called with each request the extension makes (globe key, dismiss).
    public var onRequest: ((HostRequest) -> Void)?

    private let scheduler: any HostScheduler
    private var instance: Instance?
    private var pending: [TextOperation] = []
    private var drainScheduled = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var snapshotSequence: UInt64 = 0

    /// A live extension instance and the host API it was given (valid until it is destroyed).
    private struct Instance {
        let handle: OpaquePointer
        let key: UInt
        let api: UnsafeMutablePointer<kbx_host_api>
    }

    public init(
        extension loadedExtension: LoadedExtension, textField: TextField = TextField(),
        scheduler: any HostScheduler = MainQueueScheduler()
    ) {
        self.loadedExtension = loadedExtension
        self.textField = textField
        self.scheduler = scheduler
    }

    isolated deinit {
        hide()
    }

    private var descriptor: kbx_extension_descriptor { loadedExtension.descriptor.pointee }
    private var name: String { loadedExtension.name }

    public var isShown: Bool { instance != nil }

    // MARK: Appearance

    /// Shows the keyboard: a new instance, its configuration, `viewDidLoad`, the first snapshot,
    /// `viewWillAppear`, `viewDidAppear`. Does nothing if it is shown already.
    public func show() throws(SessionError) {
        guard instance == nil else { return }
        let (key, api) = HostAPITable.register(self)
        let errorsBefore = reportedErrors.count
        var latestError: String? { reportedErrors.count > errorsBefore ? reportedErrors.last : nil }

        let settings = "{}"
        let created = withBorrowedString(settings) { settings in
            descriptor.create_instance(loadedExtension.descriptor, api, settings.bytes, settings.length)
        }
        guard let handle = created else {
            HostAPITable.unregister(key)
            api.deallocate()
            throw .instanceNotCreated(extension: name, message: latestError)
        }
        let candidate = Instance(handle: handle, key: key, api: api)

        do {
            configuration = try configure(handle, latestError: { latestError })
        } catch {
            destroy(candidate)
            throw error
        }
        instance = candidate
        lifecycle(KBX_VIEW_DID_LOAD)
        pushSnapshot()
        lifecycle(KBX_VIEW_WILL_APPEAR)
        lifecycle(KBX_VIEW_DID_APPEAR)
    }

    /// Hides the keyboard: `viewWillDisappear`, `viewDidDisappear`, then the instance is destroyed.
    /// Edits it posted and the host has not applied yet still apply to the field.
    public func hide() {
        guard let current = instance else { return }
        lifecycle(KBX_VIEW_WILL_DISAPPEAR)
        lifecycle(KBX_VIEW_DID_DISAPPEAR)
        instance = nil
        configuration = nil
        destroy(current)
    }

    private func destroy(_ instance: Instance) {
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
        if !configuration.layout.subKeyboards.contains(where: { $0.rows.contains { !$0.isEmpty } }) {
            throw .invalidConfiguration(extension: name, problem: "its layout has no keys")
        }
        return configuration
    }

    // MARK: Keys

    /// Taps the key at `position` of the current layout.
    public func tap(_ position: KeyPosition) throws(SessionError) {
        guard let instance else { throw .notShown(extension: name) }
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

    // MARK: Posted operations

    /// Queues an edit from the extension; it is applied on a later turn.
    func post(_ operation: TextOperation) {
        pending.append(operation)
        scheduleDrain()
    }

    func request(_ request: HostRequest) {
        onRequest?(request)
    }

    func extensionReported(_ message: String) {
        reportedErrors.append(message)
        onError?(message)
    }

    /// Returns once every edit posted so far, and every edit those provoke, has been applied.
    public func settle() async {
        while drainScheduled {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        scheduler.schedule(after: latency) { [weak self] in self?.drain() }
    }

    private func drain() {
        let operations = pending
        pending.removeAll()
        for operation in operations {
            apply(operation)
        }
        drainScheduled = false
        if !pending.isEmpty {
            // Edits the extension posted while being notified wait for a later turn of their own.
            scheduleDrain()
        } else {
            let waiters = idleWaiters
            idleWaiters.removeAll()
            waiters.forEach { $0.resume() }
        }
    }

    private func apply(_ operation: TextOperation) {
        let oldCursor = textField.cursor
        let textChanges: Bool
        switch operation {
        case .insertText(let text):
            textChanges = !text.isEmpty
        case .deleteBackward:
            textChanges = textField.cursor > 0
        case .adjustTextPosition:
            textChanges = false
        }
        if textChanges { notify(KBX_TEXT_WILL_CHANGE) }
        let willMoveOnly = !textChanges
        switch operation {
        case .insertText(let text): textField.insertText(text)
        case .deleteBackward: textField.deleteBackward()
        case .adjustTextPosition(let offset): textField.adjustTextPosition(byCharacterOffset: offset)
        }
        if willMoveOnly {
            // A pure cursor move: the selection notifications, sent around the snapshot.
            guard textField.cursor != oldCursor else { return }
            notify(KBX_SELECTION_WILL_CHANGE)
            pushSnapshot()
            notify(KBX_SELECTION_DID_CHANGE)
        } else {
            pushSnapshot()
            notify(KBX_TEXT_DID_CHANGE)
        }
    }

    // MARK: To the extension

    private func lifecycle(_ event: Int) {
        guard let instance else { return }
        descriptor.lifecycle(instance.handle, kbx_lifecycle_event(event))
    }

    private func notify(_ event: Int) {
        guard let instance else { return }
        descriptor.text_input(instance.handle, kbx_text_event(event))
    }

    /// Sends the field's current state. The windows are the whole text before and after the cursor
    /// (context policies come with the proxy work, issue 3).
    private func pushSnapshot() {
        guard let instance else { return }
        snapshotSequence += 1
        withBorrowedString(textField.textBeforeCursor) { before in
            withBorrowedString(textField.textAfterCursor) { after in
                var snapshot = kbx_text_snapshot(
                    abi_version: KBX_ABI_VERSION, struct_size: UInt32(MemoryLayout<kbx_text_snapshot>.size),
                    sequence: snapshotSequence, context_before: before, context_after: after,
                    selected_text: kbx_string(bytes: nil, length: 0),
                    document_identifier: textField.documentIdentifier.uuid,
                    has_text: textField.text.isEmpty ? 0 : 1, reserved0: 0
                )
                descriptor.update_snapshot(instance.handle, &snapshot)
            }
        }
    }
}
