import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// The session's line to one extension: the calls of the C descriptor (KeyboardExtensionABI.h), in
/// Swift. One implementation calls the descriptor in this process (``InProcessConnection``); the
/// extension answers through the host API, which reaches the session as the same calls whatever
/// carries them.
///
/// A connection holds at most one instance at a time: ``createInstance(settingsJSON:)`` makes it,
/// ``destroyInstance()`` ends it, and every other call goes to it.
@MainActor
protocol ExtensionConnection: AnyObject {
    /// The extension's work in this process, counted for a host on virtual time; `nil` otherwise.
    var work: ExtensionWork? { get }
    /// Makes a fresh instance with the host's settings; `false` if the extension made none (it said
    /// why with report_error first). Calls from the instance go to `session`.
    func createInstance(settingsJSON: String, session: KeyboardSession) -> Bool
    /// Asks for the configuration: the status, and the JSON it passed to the sink (the last, if several).
    func createConfiguration() -> (status: kbx_status, json: [UInt8])
    func lifecycle(_ event: kbx_lifecycle_event)
    func textInput(_ event: kbx_text_event)
    func updateSnapshot(_ snapshot: Snapshot)
    func keyEvent(_ action: kbx_key_action, at position: KeyPosition) -> kbx_status
    func hostCommand(_ command: HostCommand, request: UInt64)
    /// Asks the instance to stop a command the host gave up on (a no-op for an extension of revision 1).
    func cancelCommand(request: UInt64)
    /// Runs the instance's timer `timer` (schedule_timer, schedule_repeating_timer) now.
    func fireTimer(_ timer: UInt64, repeats: Bool)
    /// Ends the instance: from now on its calls are dropped (header section 9).
    func destroyInstance()
}

/// A snapshot of the text field as an extension may see it (kbx_text_snapshot, in Swift).
struct Snapshot {
    var sequence: UInt64
    var contextBefore: String
    var contextAfter: String
    var selectedText: String
    var documentIdentifier: UUID
    var hasText: Bool
    var traits: TextInputTraits
    var operationsApplied: UInt64
    var selection: Range<Int>
}
