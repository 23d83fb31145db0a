import Dispatch
import KeyboardExtensionABI
import KeyboardModel

/// The host API (`kbx_host_api`) an instance was given, so the rest of the SDK speaks Swift.
///
/// A controller made outside a host (say, by `KeyboardViewController()` in a unit test) has no
/// connection; its edits go nowhere, and it says so on standard error once.
@MainActor
struct HostConnection {
    private let api: kbx_host_api?

    init(api: kbx_host_api?) {
        self.api = api
    }

    /// Handed from the bridge to `KeyboardViewController.init()`, which takes no arguments.
    static var pending: kbx_host_api?
    /// The host's settings for the instance being made, handed over the same way.
    static var pendingSettings = HostSettings.none

    static func takePendingSettings() -> HostSettings {
        defer { pendingSettings = .none }
        return pendingSettings
    }

    static func takePending() -> HostConnection {
        defer { pending = nil }
        return HostConnection(api: pending)
    }

    func insertText(_ text: String) {
        guard let api, let insert = api.insert_text else { return unhosted() }
        withBorrowedUTF8(text) { insert(api.host, $0, $1) }
    }

    func deleteBackward() {
        guard let api, let delete = api.delete_backward else { return unhosted() }
        delete(api.host)
    }

    func adjustTextPosition(byCharacterOffset offset: Int) {
        guard let api, let adjust = api.adjust_text_position else { return unhosted() }
        adjust(api.host, Int64(offset))
    }

    func advanceToNextInputMode() {
        guard let api, let advance = api.advance_to_next_input_mode else { return unhosted() }
        advance(api.host)
    }

    func dismissKeyboard() {
        guard let api, let dismiss = api.dismiss_keyboard else { return unhosted() }
        dismiss(api.host)
    }

    func setMarkedText(_ text: String, selectedRange: Range<Int>) {
        guard let api, let setMarked = api.set_marked_text else { return unhosted() }
        withBorrowedUTF8(text) {
            setMarked(api.host, $0, $1, Int64(selectedRange.lowerBound), Int64(selectedRange.count))
        }
    }

    func unmarkText() {
        guard let api, let unmark = api.unmark_text else { return unhosted() }
        unmark(api.host)
    }

    func setSelectedRange(_ range: Range<Int>, ifSnapshot snapshot: UInt64) {
        guard let api, let select = api.set_selected_range else { return unhosted() }
        select(api.host, Int64(range.lowerBound), Int64(range.count), snapshot)
    }

    func deleteRange(_ range: Range<Int>, ifSnapshot snapshot: UInt64) {
        guard let api, let delete = api.delete_range else { return unhosted() }
        delete(api.host, Int64(range.lowerBound), Int64(range.count), snapshot)
    }

    func commandFinished(_ request: UInt64, succeeded: Bool, json: String) {
        guard let api, let finished = api.command_finished else { return unhosted() }
        let status = kbx_status(succeeded ? KBX_STATUS_OK : KBX_STATUS_FAILED)
        withBorrowedUTF8(json) { finished(api.host, request, status, $0, $1) }
    }

    func setKeyboardState(_ state: KeyboardState) {
        guard let api, let set = api.set_keyboard_state else { return unhosted() }
        set(api.host, UInt32(clamping: state.subKeyboard), state.shift.rawValue)
    }

    func setLayout(json: String) {
        guard let api, let set = api.set_layout else { return unhosted() }
        withBorrowedUTF8(json) { set(api.host, $0, $1) }
    }

    /// Runs `body` after `delay` on the host's clock (schedule_timer); returns a way to cancel it.
    /// Without a host, on the main queue's real time.
    func scheduleTimer(after delay: Duration, _ body: @escaping @MainActor () -> Void) -> @MainActor () -> Void {
        guard let api, let schedule = api.schedule_timer, let cancel = api.cancel_timer else {
            let item = DispatchWorkItem { MainActor.assumeIsolated { body() } }
            DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds)), execute: item)
            return { item.cancel() }
        }
        let timer = Self.nextTimer
        Self.nextTimer += 1
        Self.timers[timer] = body
        schedule(api.host, timer, UInt64(max(delay.nanoseconds, 0)), { timer in
            MainActor.assumeIsolated { HostConnection.timers.removeValue(forKey: timer)?() }
        })
        return {
            guard Self.timers.removeValue(forKey: timer) != nil else { return }
            cancel(api.host, timer)
        }
    }

    /// Pending timers, by number (one table for every instance of this SDK copy: numbers never repeat).
    private static var timers: [UInt64: @MainActor () -> Void] = [:]
    private static var nextTimer: UInt64 = 1

    func reportEvent(json: String) {
        guard let api, let report = api.report_event else { return unhosted() }
        withBorrowedUTF8(json) { report(api.host, $0, $1) }
    }

    func reportError(_ message: String) {
        guard let api, let report = api.report_error else { return unhosted() }
        withBorrowedUTF8(message) { report(api.host, $0, $1) }
    }

    private static var warnedUnhosted = false

    private func unhosted() {
        guard !Self.warnedUnhosted else { return }
        Self.warnedUnhosted = true
        let warning = "KeyboardExtension: this controller has no host; its edits are dropped\n"
        _ = withBorrowedUTF8(warning) { write(STDERR_FILENO, $0, $1) }
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to Int64.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product &+ attoseconds / 1_000_000_000
    }
}

/// Calls `body` with a borrowed UTF-8 pointer and length for `text`, as the C API takes strings.
func withBorrowedUTF8<R>(_ text: String, _ body: (UnsafePointer<CChar>?, Int) -> R) -> R {
    var text = text
    return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress, $0.count) }
    }
}

/// Reads a borrowed UTF-8 string from the C side; invalid sequences become U+FFFD.
func stringFromBorrowedUTF8(_ bytes: UnsafePointer<CChar>?, _ length: Int) -> String {
    guard let bytes, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
