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
    private nonisolated let reader: HostClockReader
    /// Whether the host's table has revision 2's fields (now, schedule_repeating_timer).
    private let hasRevision2: Bool
    private let hasRevision4: Bool
    private let hasRevision5: Bool

    /// `size` is the host API's struct_size: fields of a later revision than the host's are not read.
    init(api: kbx_host_api?, size: Int = MemoryLayout<kbx_host_api>.size) {
        self.api = api
        // A revision's fields are there when the host's struct reaches past the first of them.
        func reaches(_ field: PartialKeyPath<kbx_host_api>) -> Bool {
            size >= MemoryLayout<kbx_host_api>.offset(of: field)! + MemoryLayout<UnsafeRawPointer>.size
        }
        hasRevision2 = reaches(\kbx_host_api.now)
        hasRevision4 = reaches(\kbx_host_api.play_input_click)
        hasRevision5 = reaches(\kbx_host_api.show_input_mode_list)
        reader = HostClockReader(host: api?.host, now: hasRevision2 ? api?.now : nil)
    }

    /// Handed from the bridge to `KeyboardViewController.init()`, which takes no arguments, with its size.
    static var pending: (api: kbx_host_api, size: Int)?
    /// The host's settings for the instance being made, handed over the same way.
    static var pendingSettings = HostSettings.none

    static func takePendingSettings() -> HostSettings {
        defer { pendingSettings = .none }
        return pendingSettings
    }

    static func takePending() -> HostConnection {
        defer { pending = nil }
        guard let pending else { return HostConnection(api: nil) }
        return HostConnection(api: pending.api, size: pending.size)
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

    /// Revision 4; a host of an earlier one plays no click, as a device with clicks off.
    func playInputClick() {
        guard let api, hasRevision4, let click = api.play_input_click else { return }
        click(api.host)
    }

    /// Revision 5; `false` from a host of an earlier one, which has no list to show.
    func showInputModeList() -> Bool {
        guard let api, hasRevision5, let show = api.show_input_mode_list else { return false }
        show(api.host)
        return true
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

    /// `json`'s bytes where the encoder wrote them: a read's answer holds the whole document, and is
    /// lent to the host as it is rather than copied into a String first.
    func commandFinished(_ request: UInt64, succeeded: Bool, json: UnsafeRawBufferPointer) {
        guard let api, let finished = api.command_finished else { return unhosted() }
        let status = kbx_status(succeeded ? KBX_STATUS_OK : KBX_STATUS_FAILED)
        finished(api.host, request, status, json.baseAddress?.assumingMemoryBound(to: CChar.self), json.count)
    }

    func setKeyboardState(_ state: KeyboardState) {
        guard let api, let set = api.set_keyboard_state else { return unhosted() }
        set(api.host, UInt32(clamping: state.subKeyboard), state.shift.rawValue)
    }

    func setLayout(json: String) {
        guard let api, let set = api.set_layout else { return unhosted() }
        withBorrowedUTF8(json) { set(api.host, $0, $1) }
    }

    /// Runs `body` after `delay` on the host's clock (schedule_timer), and then every `interval` if one
    /// is given (schedule_repeating_timer; re-armed here for a host of revision 1); returns a way to
    /// cancel it. Without a host, on the main queue's real time.
    func scheduleTimer(
        after delay: Duration, every interval: Duration? = nil, _ body: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void {
        guard let api, let schedule = api.schedule_timer, let cancel = api.cancel_timer else {
            return Self.scheduleOnMainQueue(after: delay, every: interval, body)
        }
        let timer = Self.nextTimer
        Self.nextTimer += 1
        let fire: @convention(c) (UInt64) -> Void = { timer in
            MainActor.assumeIsolated {
                guard let entry = HostConnection.timers[timer] else { return }
                if !entry.repeats { HostConnection.timers[timer] = nil }
                entry.body()
            }
        }
        if let interval, let repeating = repeatingSchedule {
            Self.timers[timer] = (body, true)
            repeating(api.host, timer, UInt64(max(delay.nanoseconds, 0)), UInt64(max(interval.nanoseconds, 0)), fire)
        } else if let interval {
            // A host of revision 1: a one-shot timer, set again each time it fires.
            var cancelCurrent: (@MainActor () -> Void)?
            var cancelled = false
            func arm(_ delay: Duration) {
                cancelCurrent = scheduleTimer(after: delay) {
                    guard !cancelled else { return }
                    arm(interval)
                    body()
                }
            }
            arm(delay)
            return {
                cancelled = true
                cancelCurrent?()
            }
        } else {
            Self.timers[timer] = (body, false)
            schedule(api.host, timer, UInt64(max(delay.nanoseconds, 0)), fire)
        }
        return {
            guard Self.timers.removeValue(forKey: timer) != nil else { return }
            cancel(api.host, timer)
        }
    }

    /// The host's schedule_repeating_timer, if its revision has one.
    private var repeatingSchedule: (@convention(c) (OpaquePointer?, UInt64, UInt64, UInt64, (@convention(c) (UInt64) -> Void)?) -> Void)? {
        hasRevision2 ? api?.schedule_repeating_timer : nil
    }

    private static func scheduleOnMainQueue(
        after delay: Duration, every interval: Duration?, _ body: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void {
        let cancelled = CancelFlag()
        func arm(_ delay: Duration) {
            DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(max(delay.nanoseconds, 0)))) {
                MainActor.assumeIsolated {
                    guard !cancelled.value else { return }
                    if let interval { arm(interval) } else { cancelled.value = true }
                    body()
                }
            }
        }
        arm(delay)
        return { cancelled.value = true }
    }

    /// Pending timers, by number (one table for every instance of this SDK copy: numbers never repeat).
    private static var timers: [UInt64: (body: @MainActor () -> Void, repeats: Bool)] = [:]
    private static var nextTimer: UInt64 = 1

    /// Reads the host's clock, from any thread: the host's `now` (revision 2), or, from a host of
    /// revision 1 or outside a host, the time since this process first asked.
    nonisolated var clockReader: HostClockReader { reader }

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

/// A flag a main-queue timer checks before it fires.
@MainActor
private final class CancelFlag {
    var value = false
}
