import KeyboardModel

/// What happened between the host and the extension, in order: a log for tests and the proxy
/// inspector. Notifications and lifecycle events are what the extension was sent.
public enum SessionEvent: Hashable, Sendable, CustomStringConvertible {
    case viewDidLoad, viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
    case textWillChange, textDidChange, selectionWillChange, selectionDidChange
    /// A snapshot was pushed, with its sequence number.
    case snapshot(UInt64)
    /// The host sent a key tap.
    case keyTapped(KeyPosition)
    /// The host began a gesture on a key (its events follow on the host's clock).
    case keyGesture(KeyGesture, KeyPosition)
    /// The extension posted an edit.
    case posted(TextOperation)
    /// The host applied a posted edit.
    case applied(TextOperation)
    /// The host skipped a guarded edit: the field had changed since the snapshot it was made against.
    case skipped(TextOperation)
    /// The host sent a command; the extension answered it.
    case command(HostCommand)
    case commandFinished(HostCommand, succeeded: Bool)
    /// The extension asked for something (globe key, dismiss).
    case request(HostRequest)
    /// The extension reported an error.
    case error(String)
    /// The extension shows another sub-keyboard or shift state.
    case keyboardState(KeyboardState)
    /// The extension replaced its layout (a reshuffle).
    case layoutChanged
    /// The extension reported something that happened in it (`report_event`).
    case extensionEvent(KeyboardEvent)
    /// The extension's process failed (isolation): it is gone; the field is as it was.
    case fault(ExtensionFault)
    /// The session's platform profile decided something the platform leaves unsaid (``PlatformProfile``):
    /// what happened and what this host chose.
    case platformNote(String)

    public var description: String {
        switch self {
        case .viewDidLoad: "viewDidLoad"
        case .viewWillAppear: "viewWillAppear"
        case .viewDidAppear: "viewDidAppear"
        case .viewWillDisappear: "viewWillDisappear"
        case .viewDidDisappear: "viewDidDisappear"
        case .textWillChange: "textWillChange"
        case .textDidChange: "textDidChange"
        case .selectionWillChange: "selectionWillChange"
        case .selectionDidChange: "selectionDidChange"
        case .snapshot(let sequence): "snapshot #\(sequence)"
        case .keyTapped(let position): "keyTapped(\(position))"
        case .keyGesture(let gesture, let position): "\(gesture) at \(position)"
        case .posted(let operation): "posted \(operation)"
        case .applied(let operation): "applied \(operation)"
        case .skipped(let operation): "skipped \(operation)"
        case .command(let command): "command \(command)"
        case .commandFinished(let command, let succeeded): "command \(command) \(succeeded ? "finished" : "failed")"
        case .request(let request): "request \(request)"
        case .error(let message): "error \(message)"
        case .keyboardState(let state): "keyboard sub-keyboard \(state.subKeyboard), shift \(state.shift)"
        case .layoutChanged: "layout changed"
        case .extensionEvent(let event): "event \(event)"
        case .fault(let fault): "fault \(fault)"
        case .platformNote(let note): "platform: \(note)"
        }
    }
}
