import KeyboardExtensionABI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The C callbacks of every descriptor this SDK exports: each turns a call from the host into a call
/// on the Swift controller. The host calls them on its main thread (KeyboardExtensionABI.h, section 3),
/// which is where the controller, being `@MainActor`, must run.
///
/// An instance handle (`kbx_instance *`) is a retained reference to the controller.
enum InstanceBridge {
    static func descriptor(
        identifier: UnsafePointer<CChar>?, name: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
    ) -> kbx_extension_descriptor {
        kbx_extension_descriptor(
            abi_version: KBX_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<kbx_extension_descriptor>.size),
            identifier: identifier,
            name: name,
            version: version,
            create_instance: { descriptor, api, settingsJSON, settingsLength in
                guard let descriptor, let api, let type = ExportRegistry.controllerType(for: descriptor),
                      let size = HostConnection.compatibleSize(api)
                else { return nil }
                // Copied at this header's size: fields of a later revision than the host's stay zero.
                var copy = kbx_host_api()
                withUnsafeMutableBytes(of: &copy) { $0.copyMemory(from: UnsafeRawBufferPointer(start: api, count: min(size, $0.count))) }
                nonisolated(unsafe) let hostAPI = copy
                let settingsBytes = settingsJSON.map {
                    Array(UnsafeRawBufferPointer(start: UnsafeRawPointer($0), count: settingsLength))
                } ?? Array("{}".utf8)
                let address = InstanceBridge.onMain { () -> UInt? in
                    let settings: HostSettings
                    do {
                        // Fields of a newer host are skipped (the header's rule: later versions append).
                        settings = try JSONInput.decode(HostSettings.self, from: Data(settingsBytes), unknownKeys: .ignored)
                    } catch {
                        // A host that sends settings this SDK cannot read gets no instance, and is told why.
                        HostConnection(api: hostAPI, size: size).reportError("host settings: \(DecodingProblem(error))")
                        return nil
                    }
                    HostConnection.pending = (hostAPI, size)
                    HostConnection.pendingSettings = settings
                    let controller = type.init()
                    return UInt(bitPattern: Unmanaged.passRetained(controller).toOpaque())
                }
                return address.flatMap { OpaquePointer(bitPattern: $0) }
            },
            destroy_instance: { instance in
                InstanceBridge.withController(instance) { controller, retained in
                    controller.instanceEnding()
                    retained.release()
                }
            },
            create_configuration: { instance, sink, context in
                guard let sink else { return kbx_status(KBX_STATUS_FAILED) }
                nonisolated(unsafe) let context = context
                return InstanceBridge.withController(instance) { controller, _ in
                    InstanceBridge.configure(controller, sink: sink, context: context)
                } ?? kbx_status(KBX_STATUS_FAILED)
            },
            lifecycle: { instance, event in
                InstanceBridge.withController(instance) { controller, _ in
                    switch Int(event) {
                    case KBX_VIEW_DID_LOAD: controller.viewDidLoad()
                    case KBX_VIEW_WILL_APPEAR:
                        controller.viewWillAppear()
                        controller.updateAutomaticShift()
                    case KBX_VIEW_DID_APPEAR: controller.viewDidAppear()
                    case KBX_VIEW_WILL_DISAPPEAR:
                        controller.activeWalker?.interrupt(.keyboardHidden)
                        controller.viewWillDisappear()
                    case KBX_VIEW_DID_DISAPPEAR: controller.viewDidDisappear()
                    default: break  // a newer host's event this SDK does not know
                    }
                }
            },
            text_input: { instance, event in
                InstanceBridge.withController(instance) { controller, _ in
                    switch Int(event) {
                    case KBX_TEXT_WILL_CHANGE: controller.textWillChange()
                    case KBX_TEXT_DID_CHANGE:
                        controller.textDidChange()
                        controller.updateAutomaticShift()
                    case KBX_SELECTION_WILL_CHANGE: controller.selectionWillChange()
                    case KBX_SELECTION_DID_CHANGE:
                        controller.selectionDidChange()
                        controller.updateAutomaticShift()
                    default: break
                    }
                }
            },
            update_snapshot: { instance, snapshot in
                guard let snapshot else { return }
                let state = TextSnapshot(snapshot)  // copied now: the snapshot is borrowed
                InstanceBridge.withController(instance) { controller, _ in
                    let proxy = controller.textDocumentProxy
                    let acknowledgesOwnEdits = state.operationsApplied > proxy.snapshot.operationsApplied
                    proxy.lastChangeOrigin = acknowledgesOwnEdits ? .keyboard : .user
                    if !acknowledgesOwnEdits, proxy.snapshot != .empty { proxy.undoManager.fieldChangedByOthers() }
                    proxy.snapshot = state
                    // A platform may not tell a keyboard of its own edits (iOS sends no textDidChange
                    // for them): the shift follows what the keyboard typed all the same.
                    if acknowledgesOwnEdits {
                        controller.updateAutomaticShift()
                        controller.editsDidApply()
                    }
                }
            },
            key_event: { instance, pointer in
                guard let event = InstanceBridge.keyEvent(pointer) else { return kbx_status(KBX_STATUS_FAILED) }
                let position = KeyPosition(subKeyboard: Int(event.sub_keyboard), row: Int(event.row), column: Int(event.column))
                return InstanceBridge.withController(instance) { controller, _ in
                    guard let key = controller.layout.key(at: position) else {
                        return kbx_status(KBX_STATUS_NO_SUCH_KEY)
                    }
                    // The user touched a key: a running full-document walk ends (userCancelled), and the
                    // key does what it does. The keyboard is never blocked by a walk.
                    if Int(event.action) == KBX_KEY_TAP || Int(event.action) == KBX_KEY_DOWN {
                        controller.activeWalker?.userTappedKey()
                        controller.undoManager.touchBegan()  // one undo step per touch
                    }
                    _ = controller.handleKeyEvent(event, key: key, position: position)
                    return kbx_status(KBX_STATUS_OK)
                } ?? kbx_status(KBX_STATUS_FAILED)
            },
            host_command: { instance, command, request in
                InstanceBridge.withController(instance) { controller, _ in
                    controller.runHostCommand(command, request: request)
                }
            },
            cancel_command: { instance, request in
                InstanceBridge.withController(instance) { controller, _ in
                    controller.cancelHostCommand(request)
                }
            },
            // Every keyboard of this SDK takes gestures: its handlers' defaults do what iOS's keys do.
            key_gestures: 1,
            reserved0: 0
        )
    }

    /// Copies a borrowed key event at this header's size. A field of a later revision than the host's
    /// takes what such a host means: no callout (-1), no repeat, no drag.
    static func keyEvent(_ pointer: UnsafePointer<kbx_key_event>?) -> kbx_key_event? {
        guard let pointer else { return nil }
        var event = kbx_key_event()
        event.callout = -1  // kept where an earlier host's event ends before it
        withUnsafeMutableBytes(of: &event) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: borrowedSize(pointer, $0.count))) }
        return event
    }

    /// How many bytes of a borrowed struct to copy: its `struct_size` (read alone, from offset 4, for
    /// the struct may be an earlier revision's and shorter than this header's), at most `ours`. One
    /// rule for every struct the host lends, rather than field reads through `pointee` that stay in
    /// bounds only while the compiler projects them.
    static func borrowedSize(_ pointer: UnsafeRawPointer, _ ours: Int) -> Int {
        min(Int(pointer.load(fromByteOffset: 4, as: UInt32.self)), ours)
    }

    /// Runs `body` on the main actor. The host calls every callback on its main thread (ABI section 3).
    private static func onMain<T>(_ body: @MainActor () -> T) -> T {
        nonisolated(unsafe) var result: T?
        MainActor.assumeIsolated { result = body() }
        return result!
    }

    /// Runs `body` with the controller an instance handle refers to; `nil` for a NULL handle.
    private static func withController<T>(
        _ instance: OpaquePointer?, _ body: @MainActor (KeyboardViewController, Unmanaged<KeyboardViewController>) -> T
    ) -> T? {
        guard let instance else { return nil }
        let address = UInt(bitPattern: instance)
        return onMain {
            let retained = Unmanaged<KeyboardViewController>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            return body(retained.takeUnretainedValue(), retained)
        }
    }

    @MainActor
    fileprivate static func configure(
        _ controller: KeyboardViewController, sink: kbx_configuration_sink, context: UnsafeMutableRawPointer?
    ) -> kbx_status {
        controller.reachedBaseCreateConfiguration = false
        let own = controller.createConfiguration()
        if controller.reachedBaseCreateConfiguration {
            controller.reportError(
                "\(type(of: controller)) must override createConfiguration() and must not call super's"
            )
            return kbx_status(KBX_STATUS_NOT_CONFIGURED)
        }
        let configuration = controller.configuration(applying: controller.hostSettings, to: own)
        // Shuffled afresh for this appearance (each appearance is a new controller); the host gets
        // the shuffled keys, and the controller resolves key events against the same.
        var shown = configuration
        shown.layout = configuration.layout.shuffled()
        let json: [UInt8]
        do {
            json = Array(try JSONEncoder().encode(shown))
        } catch {
            controller.reportError("could not encode the configuration: \(error)")
            return kbx_status(KBX_STATUS_FAILED)
        }
        controller.configuration = configuration
        controller.layoutSilently(shown.layout)
        controller.scheduleLayoutRefresh()
        json.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { sink(context, $0.baseAddress, $0.count) }
        }
        return kbx_status(KBX_STATUS_OK)
    }
}

extension HostConnection {
    /// The size of a host API table this SDK can use — version 1, at least as large as its first
    /// revision's — or `nil`. Only the first eight bytes are read before the size is known.
    nonisolated static func compatibleSize(_ api: UnsafePointer<kbx_host_api>) -> Int? {
        let raw = UnsafeRawPointer(api)
        let size = Int(raw.load(fromByteOffset: 4, as: UInt32.self))
        guard raw.load(as: UInt32.self) == KBX_ABI_VERSION,
              size >= MemoryLayout<kbx_host_api>.offset(of: \.now)!
        else { return nil }
        return size
    }
}

extension TextSnapshot {
    /// Copies a borrowed snapshot. Fields of a later revision than the host's (section 2) are not
    /// read: the host passed fewer bytes, and the SDK takes what such a host behaves as.
    init(_ pointer: UnsafePointer<kbx_text_snapshot>) {
        var snapshot = kbx_text_snapshot()
        let size = InstanceBridge.borrowedSize(pointer, MemoryLayout<kbx_text_snapshot>.size)
        withUnsafeMutableBytes(of: &snapshot) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
        let id = snapshot.document_identifier
        let hasPlatform = size >= MemoryLayout<kbx_text_snapshot>.offset(of: \.platform_traits)! + MemoryLayout<UInt32>.size
        self.init(
            sequence: snapshot.sequence,
            contextBefore: stringFromBorrowedUTF8(snapshot.context_before.bytes, snapshot.context_before.length),
            contextAfter: stringFromBorrowedUTF8(snapshot.context_after.bytes, snapshot.context_after.length),
            selectedText: stringFromBorrowedUTF8(snapshot.selected_text.bytes, snapshot.selected_text.length),
            documentIdentifier: UUID(uuid: id),
            hasText: snapshot.has_text != 0,
            traits: TextInputTraits(
                keyboardType: .init(rawValue: snapshot.keyboard_type) ?? .default,
                returnKeyType: .init(rawValue: snapshot.return_key_type) ?? .default,
                autocapitalizationType: .init(rawValue: snapshot.autocapitalization_type) ?? .sentences,
                autocorrectionType: .init(rawValue: snapshot.autocorrection_type) ?? .default,
                spellCheckingType: .init(rawValue: snapshot.spell_checking_type) ?? .default,
                isSecureTextEntry: snapshot.secure_text_entry != 0,
                textContentType: snapshot.text_content_type.length == 0 ? nil
                    : stringFromBorrowedUTF8(snapshot.text_content_type.bytes, snapshot.text_content_type.length),
                // Zero (empty) from a host of revision 4 or earlier, as the copy above leaves it.
                primaryLanguage: snapshot.primary_language.length == 0 ? nil
                    : stringFromBorrowedUTF8(snapshot.primary_language.bytes, snapshot.primary_language.length)
            ),
            operationsApplied: snapshot.operations_applied,
            selectedRange: {
                guard snapshot.selection_location >= 0 else { return nil }  // the platform does not say
                let start = Int(clamping: snapshot.selection_location)
                return start..<(start + Int(clamping: max(snapshot.selection_length, 0)))
            }(),
            platform: hasPlatform ? HostPlatform(platform: snapshot.platform, traits: snapshot.platform_traits) : .exact
        )
    }
}

extension KeyboardViewController {
    /// The controller behind an instance handle this SDK made. Only for a handle from this copy of the
    /// SDK, i.e. an extension linked into the same image (the testing module's in-process hosting).
    package static func controller(forInstance handle: OpaquePointer) -> KeyboardViewController {
        Unmanaged<KeyboardViewController>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}
