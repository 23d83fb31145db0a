import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// The host API (`kbx_host_api`) handed to every extension instance, and the way its C calls find
/// their session.
///
/// The `host` context an instance gets is not a pointer but a number: the key of its session in a
/// table. A call that arrives after the instance was destroyed (say, from a task the extension left
/// running) finds nothing and is dropped, instead of touching freed memory.
@MainActor
enum HostAPITable {
    private static var sessions: [UInt: Weak] = [:]
    private static var nextKey: UInt = 1

    private struct Weak {
        weak var session: KeyboardSession?
    }

    /// A host API for `session`, valid until ``unregister(_:)``; free it with `deallocate()` after
    /// the instance is destroyed.
    static func register(_ session: KeyboardSession) -> (key: UInt, api: UnsafeMutablePointer<kbx_host_api>) {
        let key = nextKey
        nextKey += 1
        sessions[key] = Weak(session: session)
        let api = UnsafeMutablePointer<kbx_host_api>.allocate(capacity: 1)
        api.initialize(to: table(host: OpaquePointer(bitPattern: key)))
        return (key, api)
    }

    static func unregister(_ key: UInt) {
        sessions[key] = nil
    }

    private static func table(host: OpaquePointer?) -> kbx_host_api {
        kbx_host_api(
            abi_version: KBX_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<kbx_host_api>.size),
            host: host,
            insert_text: { host, bytes, length in
                let text = borrowedString(bytes, length)  // copied now: the bytes are borrowed
                HostAPITable.deliver(host) { $0.post(.insertText(text)) }
            },
            delete_backward: { host in
                HostAPITable.deliver(host) { $0.post(.deleteBackward) }
            },
            adjust_text_position: { host, offset in
                let offset = Int(clamping: offset)
                HostAPITable.deliver(host) { $0.post(.adjustTextPosition(byCharacterOffset: offset)) }
            },
            advance_to_next_input_mode: { host in
                HostAPITable.deliver(host) { $0.request(.advanceToNextInputMode) }
            },
            dismiss_keyboard: { host in
                HostAPITable.deliver(host) { $0.request(.dismissKeyboard) }
            },
            report_error: { host, bytes, length in
                let message = borrowedString(bytes, length)
                HostAPITable.deliver(host) { $0.extensionReported(message) }
            },
            set_marked_text: { host, bytes, length, location, selectedLength in
                let text = borrowedString(bytes, length)
                let range = HostAPITable.range(location, selectedLength)
                HostAPITable.deliver(host) { $0.post(.setMarkedText(text, selectedRange: range)) }
            },
            unmark_text: { host in
                HostAPITable.deliver(host) { $0.post(.unmarkText) }
            },
            set_selected_range: { host, location, length, snapshot in
                let range = HostAPITable.range(location, length)
                HostAPITable.deliver(host) { $0.post(.setSelectedRange(range, ifSnapshot: snapshot)) }
            },
            delete_range: { host, location, length, snapshot in
                let range = HostAPITable.range(location, length)
                HostAPITable.deliver(host) { $0.post(.deleteRange(range, ifSnapshot: snapshot)) }
            },
            command_finished: { host, request, status, bytes, length in
                let json = borrowedString(bytes, length)
                HostAPITable.deliver(host) { $0.commandFinished(request, status: status, json: json) }
            },
            set_keyboard_state: { host, subKeyboard, shift in
                let state = KeyboardState(subKeyboard: Int(subKeyboard), shift: ShiftState(rawValue: shift) ?? .off)
                HostAPITable.deliver(host) { $0.keyboardStateChanged(state) }
            },
            set_layout: { host, bytes, length in
                let json = borrowedString(bytes, length)
                HostAPITable.deliver(host) { $0.layoutChanged(json: json) }
            },
            report_event: { host, bytes, length in
                let json = borrowedString(bytes, length)
                HostAPITable.deliver(host) { $0.eventReported(json: json) }
            },
            schedule_timer: { host, timer, delay, fire in
                guard let fire else { return }
                let duration = Duration.nanoseconds(Int64(clamping: min(delay, UInt64(Int64.max))))
                HostAPITable.deliver(host) { $0.scheduleExtensionTimer(timer, after: duration, fire: fire) }
            },
            cancel_timer: { host, timer in
                HostAPITable.deliver(host) { $0.cancelExtensionTimer(timer) }
            }
        )
    }

    /// A range from any two int64s an extension may send, far from overflow: negatives become 0,
    /// and both ends stay below 2^32 (the host clamps to the document).
    private nonisolated static func range(_ location: Int64, _ length: Int64) -> Range<Int> {
        let start = Int(min(max(location, 0), Int64(UInt32.max)))
        return start..<(start + Int(min(max(length, 0), Int64(UInt32.max))))
    }

    /// Runs `body` with the session `host` names, on the main actor. The ABI asks extensions to call
    /// from the host's main thread (its main queue); a call from elsewhere is moved there rather
    /// than trusted.
    private nonisolated static func deliver(_ host: OpaquePointer?, _ body: @escaping @MainActor (KeyboardSession) -> Void) {
        let key = UInt(bitPattern: host)
        let run: @MainActor () -> Void = {
            guard let session = sessions[key]?.session else { return }
            body(session)
        }
        if MainQueue.isCurrent {
            MainActor.assumeIsolated(run)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(run) }
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
