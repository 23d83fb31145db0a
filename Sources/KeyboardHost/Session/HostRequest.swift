/// Something an extension asks of the host that is not an edit of the field.
public enum HostRequest: Hashable, Sendable {
    /// The globe key: switch to the next keyboard.
    case advanceToNextInputMode
    /// Hide the keyboard.
    case dismissKeyboard
    /// Play the key click (UIKit's `UIDevice.playInputClick()`), if the user wants key clicks.
    case playInputClick
    /// Show the host's list of keyboards for the user to pick one (UIKit's `handleInputModeList`).
    case showInputModeList
}
