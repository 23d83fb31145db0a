import Dispatch
import KeyboardExtensionABI
import KeyboardModel

/// The host API (`kbx_host_api`) handed to every extension instance in this process, and the way its
/// C calls find their connection.
///
/// The `host` context an instance gets is not a pointer but a number: the key of its connection in a
/// table. A call that arrives after the instance was destroyed (say, from a task or a thread the
/// extension left running) finds nothing and is dropped, instead of touching freed memory
/// (KeyboardExtensionABI.h, section 9).
///
/// Threads (section 3): a call made on the main queue is handled at once; one made on another thread
/// is copied there and moved to the main queue, in order. A host on virtual time counts such a call
/// as the extension's work until it is delivered (``ExtensionWork``), so it is never "quiet" with
/// one on its way.
enum HostAPITable {
    private struct Entry {
        let connection: WeakConnection
        let work: ExtensionWork?
        let clock: @Sendable () -> Duration
    }

    private struct WeakConnection: @unchecked Sendable {
        // Read only on the main queue; the entry holding it is guarded by the table's lock.
        weak var connection: InProcessConnection?
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
        var nextKey: UInt = 1
        /// Tables of destroyed instances. Never freed: an extension that calls through its pointer
        /// after destroy_instance (which the ABI forbids) must still reach a table, whose calls are
        /// then dropped, rather than freed memory. One per appearance, 152 bytes each.
        var retired: [UInt] = []
    }

    private static let state = Locked(State())

    /// A host API for `connection`'s next instance, valid until ``retire(_:api:)``.
    static func register(
        _ connection: InProcessConnection, work: ExtensionWork?, clock: @escaping @Sendable () -> Duration
    ) -> (key: UInt, api: UnsafeMutablePointer<kbx_host_api>) {
        let key = state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.entries[key] = Entry(connection: WeakConnection(connection: connection), work: work, clock: clock)
            return key
        }
        let api = UnsafeMutablePointer<kbx_host_api>.allocate(capacity: 1)
        api.initialize(to: table(host: OpaquePointer(bitPattern: key)))
        return (key, api)
    }

    /// Drops the instance's key: every call made with it from now on is dropped.
    static func retire(_ key: UInt, api: UnsafeMutablePointer<kbx_host_api>) {
        state.withLock { state in
            state.entries[key] = nil
            state.retired.append(UInt(bitPattern: api))
        }
    }

    /// The most bytes one string from an extension may have (16 MiB): a longer one is refused with an
    /// error the extension is said to have reported, never read — its length may be a lie, and reading
    /// it would run past what it points to.
    static let maximumStringBytes = 16 << 20

    /// The most bytes an answer to a host command may have: a read's answer is the whole document,
    /// JSON-escaped, and a document may itself be 16 MiB (``DocumentFile/defaultLimit``). As much as
    /// one message of the isolation wire carries, less room for the message around it.
    static let maximumAnswerBytes = Wire.maximumMessageBytes - (1 << 20)

    /// The string, or `nil` (and the refusal reported) when it is longer than `limit`.
    private static func string(
        _ host: OpaquePointer?, _ call: String, _ bytes: UnsafePointer<CChar>?, _ length: Int, limit: Int = maximumStringBytes
    ) -> String? {
        guard length <= limit else {
            let message = "\(call) of \(length) bytes refused: the host takes at most \(limit >> 20) MiB in one call"
            HostAPITable.deliver(host) { $0.received(.reportError(message)) }
            return nil
        }
        return borrowedString(bytes, length)
    }

    private static func table(host: OpaquePointer?) -> kbx_host_api {
        kbx_host_api(
            abi_version: KBX_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<kbx_host_api>.size),
            host: host,
            insert_text: { host, bytes, length in
                // Copied now: the bytes are borrowed.
                guard let text = HostAPITable.string(host, "insert_text", bytes, length) else { return }
                HostAPITable.deliver(host) { $0.received(.post(.insertText(text))) }
            },
            delete_backward: { host in
                HostAPITable.deliver(host) { $0.received(.post(.deleteBackward)) }
            },
            adjust_text_position: { host, offset in
                let offset = Int(clamping: offset)
                HostAPITable.deliver(host) { $0.received(.post(.adjustTextPosition(byCharacterOffset: offset))) }
            },
            advance_to_next_input_mode: { host in
                HostAPITable.deliver(host) { $0.received(.request(.advanceToNextInputMode)) }
            },
            dismiss_keyboard: { host in
                HostAPITable.deliver(host) { $0.received(.request(.dismissKeyboard)) }
            },
            report_error: { host, bytes, length in
                guard let message = HostAPITable.string(host, "report_error", bytes, length) else { return }
                HostAPITable.deliver(host) { $0.received(.reportError(message)) }
            },
            set_marked_text: { host, bytes, length, location, selectedLength in
                guard let text = HostAPITable.string(host, "set_marked_text", bytes, length) else { return }
                let range = HostAPITable.range(location, selectedLength)
                HostAPITable.deliver(host) { $0.received(.post(.setMarkedText(text, selectedRange: range))) }
            },
            unmark_text: { host in
                HostAPITable.deliver(host) { $0.received(.post(.unmarkText)) }
            },
            set_selected_range: { host, location, length, snapshot in
                let range = HostAPITable.range(location, length)
                HostAPITable.deliver(host) { $0.received(.post(.setSelectedRange(range, ifSnapshot: snapshot))) }
            },
            delete_range: { host, location, length, snapshot in
                let range = HostAPITable.range(location, length)
                HostAPITable.deliver(host) { $0.received(.post(.deleteRange(range, ifSnapshot: snapshot))) }
            },
            command_finished: { host, request, status, bytes, length in
                // An answer refused for its size still ends the command, at once and saying why,
                // rather than leaving the host to wait for it until it times out.
                let json = HostAPITable.string(host, "command_finished", bytes, length, limit: HostAPITable.maximumAnswerBytes)
                    ?? #"{"error":"answerTooLarge"}"#
                HostAPITable.deliver(host) {
                    $0.received(.commandFinished(request: request, succeeded: Int(status) == KBX_STATUS_OK, json: json))
                }
            },
            set_keyboard_state: { host, subKeyboard, shift in
                let state = KeyboardState(subKeyboard: Int(subKeyboard), shift: ShiftState(rawValue: shift) ?? .off)
                HostAPITable.deliver(host) { $0.received(.setKeyboardState(state)) }
            },
            set_layout: { host, bytes, length in
                guard let json = HostAPITable.string(host, "set_layout", bytes, length) else { return }
                HostAPITable.deliver(host) { $0.received(.setLayout(json: json)) }
            },
            report_event: { host, bytes, length in
                guard let json = HostAPITable.string(host, "report_event", bytes, length) else { return }
                HostAPITable.deliver(host) { $0.received(.reportEvent(json: json)) }
            },
            schedule_timer: { host, timer, delay, fire in
                guard let fire else { return }
                let duration = Duration.nanoseconds(Int64(clamping: min(delay, UInt64(Int64.max))))
                HostAPITable.deliver(host) { $0.scheduleTimer(timer, after: duration, every: nil, fire: fire) }
            },
            cancel_timer: { host, timer in
                HostAPITable.deliver(host) { $0.cancelTimer(timer) }
            },
            now: { host in
                let key = UInt(bitPattern: host)
                guard let clock = HostAPITable.state.withLock({ $0.entries[key]?.clock }) else { return 0 }
                return UInt64(clamping: clock().nanosecondsClamped)
            },
            schedule_repeating_timer: { host, timer, delay, interval, fire in
                guard let fire else { return }
                let duration = Duration.nanoseconds(Int64(clamping: min(delay, UInt64(Int64.max))))
                let every = max(Duration.nanoseconds(Int64(clamping: min(interval, UInt64(Int64.max)))), .milliseconds(1))
                HostAPITable.deliver(host) { $0.scheduleTimer(timer, after: duration, every: every, fire: fire) }
            },
            play_input_click: { host in
                HostAPITable.deliver(host) { $0.received(.request(.playInputClick)) }
            },
            show_input_mode_list: { host in
                HostAPITable.deliver(host) { $0.received(.request(.showInputModeList)) }
            }
        )
    }

    /// A range from any two int64s an extension may send, far from overflow: negatives become 0,
    /// and both ends stay below 2^32 (the host clamps to the document).
    private static func range(_ location: Int64, _ length: Int64) -> Range<Int> {
        let start = Int(min(max(location, 0), Int64(UInt32.max)))
        return start..<(start + Int(min(max(length, 0), Int64(UInt32.max))))
    }

    /// Runs `body` with the connection `host` names, on the main queue, with the thread unmarked (the
    /// host's own work, not the extension's). A call from another thread is moved to the main queue,
    /// counted as the extension's work until it is delivered. A call whose instance is gone is dropped.
    private static func deliver(_ host: OpaquePointer?, _ body: @escaping @MainActor (InProcessConnection) -> Void) {
        let key = UInt(bitPattern: host)
        let run: @MainActor () -> Void = {
            guard let connection = state.withLock({ $0.entries[key]?.connection.connection }) else { return }
            ExtensionWork.unattributed { body(connection) }
        }
        if MainQueue.isCurrent {
            MainActor.assumeIsolated(run)
            return
        }
        guard let entry = state.withLock({ $0.entries[key] }) else { return }
        let work = entry.work
        work?.began()
        DispatchQueue.main.async {
            MainActor.assumeIsolated(run)
            work?.ended()
        }
    }
}

/// Copies a borrowed UTF-8 string from the C side; invalid sequences become U+FFFD.
func borrowedString(_ bytes: UnsafePointer<CChar>?, _ length: Int) -> String {
    guard let bytes, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
}

/// Calls `body` with a borrowed, length-counted UTF-8 view of `text`, as the C side takes strings.
func withBorrowedString<R>(_ text: some StringProtocol, _ body: (kbx_string) -> R) -> R {
    var copy = String(text)
    return copy.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { body(kbx_string(bytes: $0.baseAddress, length: $0.count)) }
    }
}
