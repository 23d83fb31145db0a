import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// The session's line to one extension: the calls of the C descriptor (KeyboardExtensionABI.h), in
/// Swift, and the extension's calls back (``ExtensionCall``) to its ``delegate``. Two transports, one
/// behaviour: ``InProcessConnection`` calls the descriptor in this process; ``ProcessConnection`` has a
/// child process call it and carries the same calls as messages (`Isolation/`).
///
/// A connection holds at most one instance at a time: ``createInstance(settingsJSON:)`` makes it,
/// ``destroyInstance()`` ends it, and every other call goes to it. The connection owns the instance's
/// timers (schedule_timer), on the scheduler it was made with.
@MainActor
protocol ExtensionConnection: AnyObject {
    /// Who hears the extension's calls and faults: the session.
    var delegate: (any ExtensionConnectionDelegate)? { get set }
    /// The extension's work, as a host on virtual time counts it (``ExtensionWork``); `nil` on real time.
    var work: ExtensionWork? { get }
    /// Makes a fresh instance with the host's settings; `false` if the extension made none (it said
    /// why with report_error first).
    func createInstance(settingsJSON: String) -> Bool
    /// Asks for the configuration: the status, and the JSON it passed to the sink (the last, if several).
    func createConfiguration() -> (status: kbx_status, json: [UInt8])
    func lifecycle(_ event: kbx_lifecycle_event)
    func textInput(_ event: kbx_text_event)
    func updateSnapshot(_ snapshot: Snapshot)
    func keyEvent(_ event: KeyEvent) -> kbx_status
    func hostCommand(_ command: HostCommand, request: UInt64)
    /// Asks the instance to stop a command the host gave up on (a no-op for an extension of revision 1).
    func cancelCommand(request: UInt64)
    /// Ends the instance and its timers: from now on its calls are dropped (header section 9).
    func destroyInstance()
    /// Returns once every call made so far has been handled and what the extension called during them
    /// has arrived: at once in process; a round trip for a child.
    func barrier()
    /// Makes the calls in `body` (notifications and a snapshot: one change of the field) and sends them
    /// together, where sending costs something (a child process: one write, one wake-up).
    func together(_ body: () -> Void)
}

extension ExtensionConnection {
    func together(_ body: () -> Void) { body() }
}

/// What a connection tells its session.
@MainActor
protocol ExtensionConnectionDelegate: AnyObject {
    /// The extension called the host.
    func extensionCalled(_ call: ExtensionCall)
    /// The extension failed in a way that ends it (isolation): its instance is gone.
    func extensionFailed(_ fault: ExtensionFault)
}

/// A snapshot of the text field as an extension may see it (kbx_text_snapshot, in Swift).
struct Snapshot: Hashable {
    var sequence: UInt64
    var contextBefore: String
    var contextAfter: String
    var selectedText: String
    var documentIdentifier: UUID
    var hasText: Bool
    var traits: TextInputTraits
    var operationsApplied: UInt64
    /// Where the selection is, in Characters; `nil` under a platform without the extras (ABI section 7).
    var selection: Range<Int>?
    var platform: PlatformProfile
}
