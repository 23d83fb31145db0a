/// An edit an extension posted through the host API; applied in order on a later turn of the loop.
public enum TextOperation: Hashable, Sendable {
    case insertText(String)
    case deleteBackward
    case adjustTextPosition(byCharacterOffset: Int)
}
