import KeyboardModel

/// Why a session could not show an extension or deliver a key. One line each, naming the extension.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `create_instance` returned NULL.
    case instanceNotCreated(extension: String, message: String?)
    /// The extension did not override `createConfiguration()` (or called super's).
    case configurationNotOverridden(extension: String, message: String?)
    /// `create_configuration` failed.
    case configurationFailed(extension: String, message: String?)
    /// The configuration it returned is not valid.
    case invalidConfiguration(extension: String, problem: String)
    /// A key event named a position the current layout has no key at.
    case noSuchKey(extension: String, position: KeyPosition)
    /// A touch at a point where the keyboard shown has no key (a gap, a margin, outside).
    case noKeyAtPoint(extension: String, x: Double, y: Double)
    /// A key event failed in the extension.
    case keyFailed(extension: String, position: KeyPosition, message: String?)
    /// A key event while the keyboard is not shown.
    case notShown(extension: String)
    /// A gesture for an extension that takes taps alone (its descriptor's `key_gestures` is 0).
    case gesturesUnsupported(extension: String, gesture: KeyGesture)
    /// A gesture the key cannot take (a long-press of a key without callouts, a callout it lacks).
    case gestureRefused(extension: String, position: KeyPosition, problem: GestureError)
    /// The host requires a license, and the extension's is missing or refused.
    case unlicensed(extension: String, problem: LicenseError)
    /// The extension's process failed (isolation).
    case failed(ExtensionFault)

    public var description: String {
        switch self {
        case .instanceNotCreated(let name, let message):
            "\(name) could not create its keyboard" + detail(message)
        case .configurationNotOverridden(let name, let message):
            "\(name) does not configure itself: "
                + (message ?? "its KeyboardViewController subclass must override createConfiguration()")
        case .configurationFailed(let name, let message):
            "\(name) could not create its configuration" + detail(message)
        case .invalidConfiguration(let name, let problem):
            "\(name) returned an invalid configuration: \(problem)"
        case .noSuchKey(let name, let position):
            "\(name) has no key at \(position)"
        case .noKeyAtPoint(let name, let x, let y):
            "\(name) has no key at (\(x), \(y)) points on the page shown (a gap, a margin, or outside; kbhost render draws where its keys are)"
        case .keyFailed(let name, let position, let message):
            "\(name) failed on the key at \(position)" + detail(message)
        case .notShown(let name):
            "\(name) is not shown, so it cannot take key events"
        case .gesturesUnsupported(let name, let gesture):
            "\(name) takes taps only, so it cannot take a \(gesture) (its descriptor's key_gestures is 0: built against ABI revision 4 or earlier, or it does not want them)"
        case .gestureRefused(let name, let position, let problem):
            "\(name): cannot make that gesture at \(position): \(problem)"
        case .unlicensed(let name, let problem):
            "\(name) cannot be activated: \(problem)"
        case .failed(let fault):
            fault.description
        }
    }

    private func detail(_ message: String?) -> String {
        message.map { ": \($0)" } ?? ""
    }
}
