import KeyboardExtensionABI
import KeyboardModel

/// A call an extension instance makes to its host, besides its timers (the host API, kbx_host_api, in
/// Swift): what reaches the session from either connection, in the order the extension made them.
public enum ExtensionCall: Hashable, Sendable {
    /// An edit, posted: applied on a later turn (insert_text … delete_range).
    case post(TextOperation)
    /// The globe key or dismiss_keyboard.
    case request(HostRequest)
    /// report_error: one line for the user.
    case reportError(String)
    /// command_finished: the answer to a host command.
    case commandFinished(request: UInt64, succeeded: Bool, json: String)
    /// set_keyboard_state.
    case setKeyboardState(KeyboardState)
    /// set_layout: a new layout as JSON.
    case setLayout(json: String)
    /// report_event: an event as JSON.
    case reportEvent(json: String)
}
