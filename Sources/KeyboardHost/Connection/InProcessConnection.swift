import KeyboardExtensionABI
import KeyboardModel

/// An ``ExtensionConnection`` to an extension loaded into this process: each call is a call of its C
/// descriptor, made with the thread marked as the extension's work (``ExtensionWork``), so what the
/// extension starts during it is counted for a host on virtual time. Its timers run on `scheduler`:
/// the host's, or in a child process the host's reached over the wire (``ExtensionWorker``).
@MainActor
final class InProcessConnection: ExtensionConnection {
    let loaded: LoadedExtension
    let work: ExtensionWork?
    weak var delegate: (any ExtensionConnectionDelegate)?
    private let scheduler: any HostScheduler
    private let clock: @Sendable () -> Duration
    /// The current instance's pending timers, by its numbers for them: how to cancel each.
    private var timers: [UInt64: @MainActor () -> Void] = [:]
    private var current: Instance?
    /// The current instance's key in the host API table, from create_instance on: calls with it reach
    /// the session until the instance is destroyed.
    private var liveKey: UInt?

    private struct Instance {
        let handle: OpaquePointer
        let key: UInt
        let api: UnsafeMutablePointer<kbx_host_api>
    }

    init(_ loaded: LoadedExtension, scheduler: any HostScheduler) {
        precondition(loaded.isInProcess, "an extension loaded in a child process runs through a ProcessConnection")
        self.loaded = loaded
        self.scheduler = scheduler
        work = scheduler.makeExtensionWork()
        clock = { [weak scheduler] in scheduler?.now ?? .zero }
    }

    /// The extension's handle for its current instance: the testing module turns it back into the
    /// controller when the extension runs on its own copy of the SDK.
    var instanceHandle: OpaquePointer? { current?.handle }

    private var callbacks: kbx_extension_descriptor { loaded.callbacks!.pointee }

    /// Calls into the extension with the thread marked as its work.
    private func call<T>(_ body: () -> T) -> T {
        guard let work else { return body() }
        return work.run(body)
    }

    // MARK: ExtensionConnection

    func createInstance(settingsJSON: String) -> Bool {
        precondition(current == nil, "one instance at a time")
        let (key, api) = HostAPITable.register(self, work: work, clock: clock)
        liveKey = key
        let created = withBorrowedString(settingsJSON) { settings in
            call { callbacks.create_instance(loaded.descriptor!, api, settings.bytes, settings.length) }
        }
        guard let handle = created else {
            liveKey = nil
            cancelTimers()
            HostAPITable.retire(key, api: api)
            return false
        }
        current = Instance(handle: handle, key: key, api: api)
        return true
    }

    func createConfiguration() -> (status: kbx_status, json: [UInt8]) {
        guard let current else { return (kbx_status(KBX_STATUS_FAILED), []) }
        var json: [UInt8] = []
        let status = withUnsafeMutablePointer(to: &json) { json in
            call {
                callbacks.create_configuration(current.handle, { context, bytes, length in
                    // The last document wins if an extension calls the sink more than once.
                    guard let context else { return }
                    let json = context.assumingMemoryBound(to: [UInt8].self)
                    json.pointee = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
                }, json)
            }
        }
        return (status, json)
    }

    func lifecycle(_ event: kbx_lifecycle_event) {
        guard let current else { return }
        call { callbacks.lifecycle(current.handle, event) }
    }

    func textInput(_ event: kbx_text_event) {
        guard let current else { return }
        call { callbacks.text_input(current.handle, event) }
    }

    func updateSnapshot(_ state: Snapshot) {
        guard let current else { return }
        let traits = state.traits
        withBorrowedString(state.contextBefore) { before in
            withBorrowedString(state.contextAfter) { after in
                withBorrowedString(state.selectedText) { selected in
                    withBorrowedString(traits.textContentType ?? "") { contentType in
                      withBorrowedString(traits.primaryLanguage ?? "") { language in
                        var snapshot = kbx_text_snapshot(
                            abi_version: KBX_ABI_VERSION, struct_size: UInt32(MemoryLayout<kbx_text_snapshot>.size),
                            sequence: state.sequence, context_before: before, context_after: after,
                            selected_text: selected, document_identifier: state.documentIdentifier.uuid,
                            has_text: state.hasText ? 1 : 0,
                            keyboard_type: traits.keyboardType.rawValue, return_key_type: traits.returnKeyType.rawValue,
                            autocapitalization_type: traits.autocapitalizationType.rawValue,
                            autocorrection_type: traits.autocorrectionType.rawValue,
                            spell_checking_type: traits.spellCheckingType.rawValue,
                            secure_text_entry: traits.isSecureTextEntry ? 1 : 0, reserved0: 0,
                            text_content_type: contentType, operations_applied: state.operationsApplied,
                            selection_location: state.selection.map { Int64($0.lowerBound) } ?? -1,
                            selection_length: state.selection.map { Int64($0.count) } ?? -1,
                            platform: state.platform.abiPlatform, platform_traits: state.platform.abiTraits,
                            primary_language: language
                        )
                        call { callbacks.update_snapshot(current.handle, &snapshot) }
                      }
                    }
                }
            }
        }
    }

    func keyEvent(_ event: KeyEvent) -> kbx_status {
        guard let current else { return kbx_status(KBX_STATUS_FAILED) }
        var event = event.abiEvent
        return call { callbacks.key_event(current.handle, &event) }
    }

    func hostCommand(_ command: HostCommand, request: UInt64) {
        guard let current else { return }
        call { callbacks.host_command(current.handle, command.code, request) }
    }

    func cancelCommand(request: UInt64) {
        guard let current, let cancel = callbacks.cancel_command else { return }
        call { cancel(current.handle, request) }
    }

    /// Runs a timer's fire function; a one-shot timer's is forgotten first, a repeating one's kept.
    func barrier() {}

    func destroyInstance() {
        guard let current else { return }
        // Its key goes first, so that what it calls while being destroyed, and after, is dropped.
        self.current = nil
        liveKey = nil
        HostAPITable.retire(current.key, api: current.api)
        call { callbacks.destroy_instance(current.handle) }
        cancelTimers()  // also any it set while being destroyed (dropped: its key is gone)
    }

    // MARK: From the extension (HostAPITable)

    /// A call the extension made: to the session.
    func received(_ call: ExtensionCall) {
        delegate?.extensionCalled(call)
    }

    /// An extension's timer (schedule_timer), on the scheduler: fired when due, and with an `interval`
    /// every interval after that (set again before it fires, so the extension may cancel it as it
    /// fires). A number that is pending is replaced.
    func scheduleTimer(_ timer: UInt64, after delay: Duration, every interval: Duration?, fire: @escaping @convention(c) (UInt64) -> Void) {
        guard liveKey != nil else { return }
        timers.removeValue(forKey: timer)?()
        let label = interval.map { "\(loaded.name) timer \(timer) (every \($0))" } ?? "\(loaded.name) timer \(timer)"
        timers[timer] = scheduler.scheduleTimer(after: delay, label: label, repeats: interval != nil) { [weak self] in
            guard let self, current != nil, timers.removeValue(forKey: timer) != nil else { return }
            if let interval { scheduleTimer(timer, after: interval, every: interval, fire: fire) }
            call { fire(timer) }
        }
    }

    func cancelTimer(_ timer: UInt64) {
        timers.removeValue(forKey: timer)?()
    }

    private func cancelTimers() {
        for cancel in timers.values { cancel() }
        timers.removeAll()
    }
}

extension PlatformProfile {
    /// `kbx_text_snapshot.platform` (ABI section 10).
    var abiPlatform: kbx_platform {
        switch name {
        case .exact: kbx_platform(KBX_PLATFORM_EXACT)
        case .ios: kbx_platform(KBX_PLATFORM_IOS)
        case .android: kbx_platform(KBX_PLATFORM_ANDROID)
        case .wayland: kbx_platform(KBX_PLATFORM_WAYLAND)
        }
    }

    /// `kbx_text_snapshot.platform_traits` (ABI section 10): what the profile changes for an extension.
    var abiTraits: UInt32 {
        (caretMoveUnit == .utf16 ? UInt32(KBX_PLATFORM_MOVES_UTF16) : 0)
            | (deleteUnit == .utf16 ? UInt32(KBX_PLATFORM_DELETES_UTF16) : 0)
            | (offersExtras ? UInt32(KBX_PLATFORM_HAS_EXTRAS) : 0)
    }
}
